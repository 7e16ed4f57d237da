/* copy_cast_2.cu: the cast kernels for destination dtypes 14..16 (ml_dtypes'
 * bfloat16, float8_e4m3fn, float8_e5m2); see copy_kernels.h. Apart from
 * copy_cast_1.cu so nvcc compiles the three files in parallel. */
#include "copy_kernels.h"

namespace ca_copy {

const CastRow cast_rows_2[CA_NTYPES - CA_BFLOAT16] = { cast_row<14>(), cast_row<15>(),
                                                       cast_row<16>() };

} /* namespace ca_copy */
