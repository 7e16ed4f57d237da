/* reduce_minmax.cu: the GPU kernels of max and min (see reduce.cu); one file per
 * family so they compile in parallel. */
#include "reduce_impl.cuh"

namespace ca_red {

void register_minmax(Table &t)
{
    CA_REDUCE_PAIRS_MINMAX(CA_R_ENTRY)
}

} /* namespace ca_red */
