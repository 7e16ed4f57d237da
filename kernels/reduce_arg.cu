/* reduce_arg.cu: the GPU kernels of argmax and argmin (see reduce.cu); one file per
 * family so they compile in parallel. */
#include "reduce_impl.cuh"

namespace ca_red {

void register_arg(Table &t)
{
    CA_REDUCE_PAIRS_ARG(CA_R_ENTRY)
}

} /* namespace ca_red */
