/* reduce_scan_cub_prod.cu: the CUB scans of cumprod and nancumprod
 * (reduce_scan_cub.cuh, which lists the pairs). */
#define CA_REDUCE_SCAN_CUB_IMPL
#include "reduce_scan_cub.cuh"

CA_SCAN_CUB_UNIT(prod, CA_P_PROD_PAIRS)
