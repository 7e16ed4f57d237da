/* reduce_logic.cu: the GPU kernels of any, all and the squared deviations of var/std (see reduce.cu); one file per
 * family so they compile in parallel. */
#include "reduce_impl.cuh"

namespace ca_red {

void register_logic(Table &t)
{
    CA_REDUCE_PAIRS_LOGIC(CA_R_ENTRY)
}

} /* namespace ca_red */
