/* sort_seg_u64.cu: DeviceSegmentedSort on u64 keys (sort_cub.cuh says why one file
 * each). */
#define CA_SORT_CUB_SEG_IMPL
#include "sort_cub.cuh"

CA_SORT_CUB_SEG(u64, uint64_t)
