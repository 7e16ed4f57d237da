/* copy_cast_0.cu: the cast kernels for destination dtypes 0..6 (ca_dtype
 * order); see copy_kernels.h. Split so nvcc compiles the halves in parallel. */
#include "copy_kernels.h"

namespace ca_copy {

const CastRow cast_rows_0[7] = { cast_row<0>(), cast_row<1>(), cast_row<2>(),
                                 cast_row<3>(), cast_row<4>(), cast_row<5>(),
                                 cast_row<6>() };

} /* namespace ca_copy */
