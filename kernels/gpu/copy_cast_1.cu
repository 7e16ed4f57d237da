/* copy_cast_1.cu: the cast kernels for destination dtypes 7..13 (ca_dtype
 * order); see copy_kernels.h. Split so nvcc compiles the halves in parallel. */
#include "copy_kernels.h"

namespace ca_copy {

const CastRow cast_rows_1[CA_BFLOAT16 - 7] = { cast_row<7>(),  cast_row<8>(),
                                               cast_row<9>(),  cast_row<10>(),
                                               cast_row<11>(), cast_row<12>(),
                                               cast_row<13>() };

} /* namespace ca_copy */
