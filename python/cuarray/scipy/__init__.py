"""cuarray.scipy: SciPy's API on cuarray arrays (CuPy's cupyx.scipy).

So far: sparse (with linalg and csgraph; issue 38), fft, fftpack, linalg, stats,
spatial (distance_matrix, KDTree, Delaunay), signal (windows, waveforms, convolutions,
filter design), interpolate and ndimage (issue 41). Submodules are imported on first
use, so ``import cuarray.scipy`` costs nothing and never imports SciPy itself.
"""

_SUBMODULES = (
    "sparse",
    "special",
    "fft",
    "fftpack",
    "linalg",
    "stats",
    "spatial",
    "signal",
    "interpolate",
    "ndimage",
)


def __getattr__(name):
    if name not in _SUBMODULES:
        raise AttributeError(f"module 'cuarray.scipy' has no attribute {name!r}")
    import importlib
    return importlib.import_module(__name__ + "." + name)


def __dir__():
    return sorted(set(globals()) | set(_SUBMODULES))
