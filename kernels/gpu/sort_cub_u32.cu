/* sort_cub_u32.cu: DeviceRadixSort on u32 keys (sort_cub.cuh says why one file
 * each). */
#define CA_SORT_CUB_RADIX_IMPL
#include "sort_cub.cuh"

CA_SORT_CUB_RADIX(u32, uint32_t)
