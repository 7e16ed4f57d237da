/* sort_cub_u64.cu: DeviceRadixSort on u64 keys (sort_cub.cuh says why one file
 * each). */
#define CA_SORT_CUB_RADIX_IMPL
#include "sort_cub.cuh"

CA_SORT_CUB_RADIX(u64, uint64_t)
