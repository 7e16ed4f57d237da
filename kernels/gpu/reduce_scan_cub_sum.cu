/* reduce_scan_cub_sum.cu: the CUB scans of cumsum and nancumsum
 * (reduce_scan_cub.cuh, which lists the pairs). */
#define CA_REDUCE_SCAN_CUB_IMPL
#include "reduce_scan_cub.cuh"

CA_SCAN_CUB_UNIT(sum, CA_P_SUM_PAIRS)
