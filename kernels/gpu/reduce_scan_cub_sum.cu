/* reduce_scan_cub_sum.cu: the CUB scans of cumsum and nancumsum
 * (reduce_scan_cub.cuh). */
#define CA_REDUCE_SCAN_CUB_IMPL
#include "reduce_scan_cub.cuh"

using namespace ca_red;

#define CA_P_SUM_PAIRS(X)                                                              \
    X(CA_RED_SUM, CA_BOOL, CA_INT64, RK_SUM_bool_int64)                                \
    X(CA_RED_SUM, CA_INT32, CA_INT64, RK_SUM_int32_int64)                              \
    X(CA_RED_SUM, CA_INT64, CA_INT64, RK_SUM_int64_int64)                              \
    X(CA_RED_SUM, CA_FLOAT32, CA_FLOAT32, FSum<float>)                                 \
    X(CA_RED_SUM, CA_FLOAT64, CA_FLOAT64, FSum<double>)                                \
    X(CA_RED_NANSUM, CA_FLOAT32, CA_FLOAT32, FNanSum<float>)                           \
    X(CA_RED_NANSUM, CA_FLOAT64, CA_FLOAT64, FNanSum<double>)

CA_SCAN_CUB_UNIT(sum, CA_P_SUM_PAIRS)
