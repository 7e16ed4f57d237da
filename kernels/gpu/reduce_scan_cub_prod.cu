/* reduce_scan_cub_prod.cu: the CUB scans of cumprod and nancumprod
 * (reduce_scan_cub.cuh). */
#define CA_REDUCE_SCAN_CUB_IMPL
#include "reduce_scan_cub.cuh"

using namespace ca_red;

#define CA_P_PROD_PAIRS(X)                                                             \
    X(CA_RED_PROD, CA_INT64, CA_INT64, RK_PROD_int64_int64)                            \
    X(CA_RED_PROD, CA_FLOAT32, CA_FLOAT32, FProd<float>)                               \
    X(CA_RED_PROD, CA_FLOAT64, CA_FLOAT64, FProd<double>)                              \
    X(CA_RED_NANPROD, CA_FLOAT32, CA_FLOAT32, FNanProd<float>)                         \
    X(CA_RED_NANPROD, CA_FLOAT64, CA_FLOAT64, FNanProd<double>)

CA_SCAN_CUB_UNIT(prod, CA_P_PROD_PAIRS)
