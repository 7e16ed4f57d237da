// One CUB onesweep configuration for 8-byte keys (compiled once per -D set).
#include <cub/device/device_radix_sort.cuh>
#include <stdint.h>

#ifndef OT
#define OT    384
#define OI    30
#define HT    128
#define HI    16
#define HP    1
#define STORE cub::RADIX_SORT_STORE_DIRECT
#define NAME  sortvar_default
#endif
#ifndef RB
#define RB 8
#endif

namespace {
using base_hub = cub::detail::radix::policy_hub<int64_t, cub::NullType, uint32_t>;
struct hub {
    struct Policy900 : cub::ChainedPolicy<900, Policy900, Policy900>,
                       base_hub::OnesweepSmallKeyTunedPolicy<
                           cub::detail::radix::sm90_small_key_tuning<8, 0, 4>> {
        static constexpr int ONESWEEP_RADIX_BITS = RB;
        using HistogramPolicy =
            cub::AgentRadixSortHistogramPolicy<HT, HI, HP, int64_t, RB>;
        using ExclusiveSumPolicy = cub::AgentRadixSortExclusiveSumPolicy<256, RB>;
        using OnesweepPolicy = cub::AgentRadixSortOnesweepPolicy<
            OT, OI, int64_t, 1, cub::RADIX_RANK_MATCH_EARLY_COUNTS_ANY,
            cub::BLOCK_SCAN_RAKING_MEMOIZE, STORE, RB>;
    };
    using MaxPolicy = Policy900;
};
} // namespace

extern "C" int
NAME(void *temp, size_t *bytes, const int64_t *in, int64_t *out, uint32_t n,
     int end_bit, cudaStream_t st)
{
    cub::DoubleBuffer<int64_t> keys(const_cast<int64_t *>(in), out);
    cub::DoubleBuffer<cub::NullType> vals;
    return (
        int)cub::DispatchRadixSort<cub::SortOrder::Ascending, int64_t, cub::NullType,
                                   uint32_t, cub::detail::identity_decomposer_t,
                                   hub>::Dispatch(temp, *bytes, keys, vals, n, 0,
                                                  end_bit, false, st);
}
