/*
 * perm.cu: ca_perm_sort on the GPU (kernels.h; host_perm.c dispatches here).
 *
 * Three steps on the caller's stream: an iota kernel writes the positions
 * 0..n-1 (and zeroes the flag); CUB's DeviceRadixSort sorts (key, position)
 * pairs over key bits [shift, 32) only, reading the caller's keys (left
 * unchanged) and writing the sorted pairs into scratch (CUB keeps its own
 * alternate buffers in its storage); the placement kernel gives every entry
 * its final slot (perm_impl.h: the rank by the full key inside its segment of
 * equal high bits, then by w among equal keys) and writes its position there,
 * widened to int64. No pass of its own for the ties. The caller passes shift 0
 * (cuarray.random's _PERM_SHIFT): on the H200 at 2^26 keys, shift 8 (3 radix
 * passes, segments of ~4 entries) took 8.6 ms and shift 0 (4 passes, segments
 * of equal keys only) 3.1 ms; the placement's per-entry segment scans cost more
 * than the pass they save.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include <cub/device/device_radix_sort.cuh>

#include "grid_1d.cuh"
#include "perm_impl.h"

extern "C" int ca_cuda_perm_sort(const uint32_t *k, const uint32_t *w, int64_t n,
                                 int shift, int64_t *perm, int32_t *flag, void *temp,
                                 size_t *temp_bytes, ca_stream_t stream);

namespace {

/* v[i] = i; the flag starts at 0 (the placement, later on the stream, sets it). */
__global__ void
iota_kernel(uint32_t *v, int64_t n, int32_t *flag)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        *flag = 0;
    }
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        v[i] = (uint32_t)i;
    }
}

/* perm[slot of i] = V[i]; *flag = 1 where the placement gives up (perm is then
 * incomplete and the caller discards it). */
__global__ void
place_kernel(const uint32_t *K, const uint32_t *V, const uint32_t *w, int64_t n,
             int shift, int64_t *perm, int32_t *flag)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        const int64_t s = ca_perm_slot(K, w, n, shift, i);
        if (s < 0) {
            atomicOr((int *)flag, 1);
        }
        else {
            perm[s] = (int64_t)V[i];
        }
    }
}

/* CUB's sort of (k, v0) into (K, V) over bits [shift, 32); temp == NULL: size. */
int
cub_pairs(void *temp, size_t *bytes, const uint32_t *k, uint32_t *K, const uint32_t *v0,
          uint32_t *V, int64_t n, int shift, cudaStream_t st)
{
    return (int)cub::DeviceRadixSort::SortPairs(temp, *bytes, k, K, v0, V, n, shift, 32,
                                                st);
}

} // namespace

extern "C" int
ca_cuda_perm_sort(const uint32_t *k, const uint32_t *w, int64_t n, int shift,
                  int64_t *perm, int32_t *flag, void *temp, size_t *temp_bytes,
                  ca_stream_t stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    /* scratch: K, v0 (the iota), V, then CUB's storage */
    const size_t wb = round256((size_t)n * sizeof(uint32_t));
    const size_t o_cub = 3 * wb;
    size_t cub_bytes = 0;
    int e = cub_pairs(nullptr, &cub_bytes, nullptr, nullptr, nullptr, nullptr, n, shift,
                      st);
    if (cub_temp_answered(temp, temp_bytes, o_cub, cub_bytes, e, &e)) {
        return e;
    }
    char *t = (char *)temp;
    uint32_t *K = (uint32_t *)t, *v0 = (uint32_t *)(t + wb),
             *V = (uint32_t *)(t + 2 * wb);
    const unsigned nb = blocks_for(n);
    iota_kernel<<<nb, kThreads, 0, st>>>(v0, n, flag);
    if ((e = (int)cudaGetLastError()) != 0) {
        return e;
    }
    if ((e = cub_pairs(t + o_cub, &cub_bytes, k, K, v0, V, n, shift, st)) != 0) {
        return e;
    }
    place_kernel<<<nb, kThreads, 0, st>>>(K, V, w, n, shift, perm, flag);
    return (int)cudaGetLastError();
}
