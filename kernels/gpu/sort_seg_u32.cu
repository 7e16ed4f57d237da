/* sort_seg_u32.cu: DeviceSegmentedSort on u32 keys (sort_cub.cuh says why one file
 * each). */
#define CA_SORT_CUB_SEG_IMPL
#include "sort_cub.cuh"

CA_SORT_CUB_SEG(u32, uint32_t)
