/* reduce_sum.cu: the GPU kernels of sums and products (see reduce.cu); one file per
 * family so they compile in parallel. */
#include "reduce_impl.cuh"

namespace ca_red {

void register_sum(Table &t)
{
    CA_REDUCE_PAIRS_SUM(CA_R_ENTRY)
}

} /* namespace ca_red */
