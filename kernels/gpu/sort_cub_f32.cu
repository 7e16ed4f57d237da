/* sort_cub_f32.cu: ca_cub_f32_pairs (declared in sort.cu): DeviceRadixSort of
 * float32 keys themselves with 32-bit positions, out of place (the keys are read
 * from the input), for the argsort of one long float32 row (sort.cu says how
 * its NaNs are put in NumPy's place). n <= INT32_MAX (the positions are 32-bit),
 * so CUB gets a 32-bit item count: its offsets are then 32-bit too, and its
 * sm_90 onesweep tiling for 4-byte keys with 4-byte values is 384 threads x 23
 * keys, where a 64-bit count gets 384 x 17 (CUB's tuning_radix_sort.cuh). */
#include <cub/device/device_radix_sort.cuh>
#include <stdint.h>

int
ca_cub_f32_pairs(void *temp, size_t *bytes, const float *in, float *keys_out,
                 const uint32_t *vals_in, uint32_t *vals_out, int64_t n,
                 cudaStream_t st)
{
    return (int)cub::DeviceRadixSort::SortPairs(temp, *bytes, in, keys_out, vals_in,
                                                vals_out, (uint32_t)n, 0, 32, st);
}
