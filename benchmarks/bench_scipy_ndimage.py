"""scipy.ndimage: cuarray.scipy.ndimage beside cupyx.scipy.ndimage on a GPU, beside
scipy.ndimage on the cpu device (the "numpy" column is SciPy's).

Device time per call (CUDA events, microseconds): gaussian_filter of 4096^2
float32 with sigma 4 (issue 41's row), zoom x2 order 3 of 2048^2 float32, label of
a 4096^2 random mask (half set). Sizes shrink in cpu mode so a 2-core host runs
them in seconds. gaussian_filter's passes run the tiled line kernels (shared
memory); zoom and label read global memory (ndimage.cu).
"""

import numpy as np

from harness import Case, Skip, size, to_lib

G = size(4096, 512)
Z = size(2048, 256)
L = size(4096, 512)


def _host(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _setup(call, data):
    """A setup running call(ndimage module, array) on each library's copy of data."""
    def setup(mod):
        a = to_lib(mod, data())
        name = mod.__name__
        if name == "numpy":
            import scipy.ndimage as m
        elif name == "cupy":
            import cupyx.scipy.ndimage as m
        elif name == "cuarray":
            from cuarray.scipy import ndimage as m
        else:
            raise Skip(name)
        return lambda: call(m, a)
    return setup


def _case(title, call, data, repeats=3):
    libs = {lib: _setup(call, data) for lib in ("cuarray", "numpy", "cupy")}
    return Case(title, libs, mode="gpu", unit="us", repeats=repeats)


CASES = [
    _case(f"ndimage.gaussian_filter {G}^2 float32 sigma 4",
          lambda m, a: m.gaussian_filter(a, 4), lambda: _host((G, G), 0)),
    _case(f"ndimage.zoom x2 order 3 {Z}^2 float32",
          lambda m, a: m.zoom(a, 2, order=3), lambda: _host((Z, Z), 1)),
    _case(f"ndimage.label {L}^2 random mask",
          lambda m, a: m.label(a), lambda: _host((L, L), 2) > 0),
]
