/* sort_seg_u128.cu: DeviceSegmentedSort on u128 keys (sort_cub.cuh says why one file
 * each). */
#define CA_SORT_CUB_SEG_IMPL
#include "sort_cub.cuh"

CA_SORT_CUB_SEG(u128, ca_u128)
