"""cuarray.scipy.stats: the functions SciPy 1.17's scipy.stats and CuPy's
cupyx.scipy.stats share (boxcox_llf, entropy, trim_mean, zmap, zscore), as
compositions of cuarray reductions on any device."""

from ._stats import boxcox_llf, entropy, trim_mean, zmap, zscore

__all__ = ["boxcox_llf", "entropy", "trim_mean", "zmap", "zscore"]
