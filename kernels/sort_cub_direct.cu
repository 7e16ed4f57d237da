/* sort_cub_direct.cu: ca_cub_direct_keys (sort_cub.cuh): ascending sorts of
 * one row of 32/64-bit integers straight from the input into the output, keys
 * only, by DeviceRadixSort's out-of-place form. */
#include <cub/device/device_radix_sort.cuh>

#include "kernels.h"
#include "sort_cub.cuh"

namespace {

template <typename T>
int
direct(void *temp, size_t *bytes, const void *in, void *out, int64_t n, int end_bit,
       cudaStream_t st)
{
    return (int)cub::DeviceRadixSort::SortKeys(temp, *bytes, (const T *)in, (T *)out, n,
                                               0, end_bit, st);
}

} // namespace

int
ca_cub_direct_keys(int dtype, void *temp, size_t *bytes, const void *in, void *out,
                   int64_t n, int end_bit, cudaStream_t st)
{
    switch (dtype) {
    case CA_INT32: return direct<int32_t>(temp, bytes, in, out, n, end_bit, st);
    case CA_UINT32: return direct<uint32_t>(temp, bytes, in, out, n, end_bit, st);
    case CA_INT64: return direct<int64_t>(temp, bytes, in, out, n, end_bit, st);
    case CA_UINT64: return direct<uint64_t>(temp, bytes, in, out, n, end_bit, st);
    default: return CA_KERR_UNSUPPORTED;
    }
}
