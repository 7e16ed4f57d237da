"""scipy.special element-wise functions: cuarray.scipy.special beside
cupyx.scipy.special and torch.special on a GPU, beside scipy.special on the cpu
device (the "numpy" column is SciPy's).

GB/s of one call on 2^26 float32 (4 bytes in, 4 out per element; issue 41's
rows): erf, gammaln (torch.special has no gammaln: torch.lgamma is the same
function) and j0 (torch.special.bessel_j0). Sizes shrink in cpu mode.
"""

import numpy as np

from harness import Case, size, to_lib

N = size(1 << 26, 1 << 22)
LOG = 26 if N == 1 << 26 else 22


def _setup(fname, torch_name, lo, hi):
    def setup(mod):
        x = to_lib(mod, np.random.default_rng(0).uniform(lo, hi, N).astype(np.float32))
        name = mod.__name__
        if name == "numpy":
            import scipy.special as ss
            f = getattr(ss, fname)
        elif name == "cupy":
            import cupyx.scipy.special as cps
            f = getattr(cps, fname)
        elif name == "torch":
            import torch
            f = eval(torch_name, {"torch": torch})
        else:
            from cuarray.scipy import special
            f = getattr(special, fname)
        return lambda: f(x)
    return setup


def _case(fname, torch_name, lo, hi):
    libs = {lib: _setup(fname, torch_name, lo, hi) for lib in ("cuarray", "numpy", "cupy",
                                                                 "torch")}
    return Case(f"special.{fname}, 2^{LOG} float32", libs, mode="gpu", unit="GB/s",
                work=2 * 4 * N, repeats=5, group="scipy.special")


CASES = [
    _case("erf", "torch.special.erf", -3, 3),
    _case("gammaln", "torch.lgamma", 0.1, 50),
    _case("j0", "torch.special.bessel_j0", 0, 50),
]
