/* sort_cub_u128.cu: DeviceRadixSort on u128 keys (sort_cub.cuh says why one file
 * each). */
#define CA_SORT_CUB_RADIX_IMPL
#include "sort_cub.cuh"

CA_SORT_CUB_RADIX(u128, ca_u128)
