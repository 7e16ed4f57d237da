/* sort_cub_direct.cu: ca_cub_direct_keys (sort_cub.cuh): ascending sorts of
 * one row of 32/64-bit integers straight from the input into the output, keys
 * only, by DeviceRadixSort's out-of-place form. The row is at most INT32_MAX
 * long (sort.cu's direct_ok), so CUB gets a 32-bit item count and runs with
 * 32-bit offsets (its global digit offsets in shared memory and its histogram
 * bins are half as wide; the onesweep tile of 8-byte keys is 384 x 15 either
 * way: CUB's nominal 384 x 30 for 4-byte keys, halved). CUB's own sm_90 tuning
 * stays: on the H200, 2^26 int64 keys in [0, 2^62), 20 other policies through
 * DispatchRadixSort (onesweep tiles of 256..768 threads by 7..24 keys, histogram
 * tiles and parts, aligned stores, 9-bit digits over 63 bits) ran 4174..6507 us
 * against its 4199 (session 9, benchmarks/results/h200-2026-12-02-s9-micro.txt).
 * Out of place, CUB reads the input in its first pass and writes its own
 * alternate buffer or the output, so that the last pass lands in the output
 * for an odd or even pass count alike: no copy, the input untouched. */
#include <cub/device/device_radix_sort.cuh>

#include "kernels.h"
#include "sort_cub.cuh"

namespace {

template <typename T>
int
direct(void *temp, size_t *bytes, const void *in, void *out, int64_t n, int end_bit,
       cudaStream_t st)
{
    return (int)cub::DeviceRadixSort::SortKeys(temp, *bytes, (const T *)in, (T *)out,
                                               (uint32_t)n, 0, end_bit, st);
}

} // namespace

int
ca_cub_direct_keys(int dtype, void *temp, size_t *bytes, const void *in, void *out,
                   int64_t n, int end_bit, cudaStream_t st)
{
    if (n > (int64_t)INT32_MAX) {
        return CA_KERR_UNSUPPORTED;
    }
    switch (dtype) {
    case CA_INT32: return direct<int32_t>(temp, bytes, in, out, n, end_bit, st);
    case CA_UINT32: return direct<uint32_t>(temp, bytes, in, out, n, end_bit, st);
    case CA_INT64: return direct<int64_t>(temp, bytes, in, out, n, end_bit, st);
    case CA_UINT64: return direct<uint64_t>(temp, bytes, in, out, n, end_bit, st);
    default: return CA_KERR_UNSUPPORTED;
    }
}
