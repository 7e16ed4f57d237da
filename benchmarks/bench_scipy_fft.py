"""scipy.fft's real transforms: cuarray.scipy.fft beside cupyx.scipy.fft on a GPU,
beside scipy.fft on the cpu device (the "numpy" column is SciPy's). PyTorch has
no DCT: its column is skipped.

Device time per call (CUDA events, microseconds): dct type 2 of 2^24 float32
(Makhoul's reordering: one gather, an rfft of N reals, one twiddle product and
the unpacking) and dctn type 2 of 4096^2 float32 (the same along each axis).
Sizes shrink in cpu mode so a 2-core host runs them in seconds. The floor is
cuFFT's rfft of the same data (bench_fft.py's row) plus a few passes over it.
"""

import numpy as np

from harness import Case, Skip, size, to_lib

BIG = size(1 << 24, 1 << 20)
LOG = BIG.bit_length() - 1
SQ = size(4096, 1024)


def _namespace(mod):
    name = mod.__name__
    if name == "numpy":
        import scipy.fft
        return scipy.fft
    if name == "cuarray":
        from cuarray.scipy import fft
        return fft
    if name == "cupy":
        import cupyx.scipy.fft
        return cupyx.scipy.fft
    raise Skip(f"{name} has no DCT")


def _case(label, fn, shape):
    def setup(mod):
        f = getattr(_namespace(mod), fn)
        h = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
        x = to_lib(mod, h)
        return lambda: f(x, type=2)
    libs = {lib: setup for lib in ("cuarray", "numpy", "cupy", "torch")}
    return Case(label, libs, mode="gpu", unit="us", floor="cuFFT rfft + passes",
                repeats=7)


CASES = [
    _case(f"scipy.fft.dct type 2 of 2^{LOG} float32 (device time)", "dct", (BIG,)),
    _case(f"scipy.fft.dctn type 2 of {SQ}^2 float32 (device time)", "dctn", (SQ, SQ)),
]
