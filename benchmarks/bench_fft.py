"""FFTs: cuFFT's throughput through cuarray.fft beside CuPy and PyTorch, and the
per-call cost of a small cached transform.

Device time per call (CUDA events, microseconds; issue 11's targets are the best of
CuPy and PyTorch on the H200): fft of 2^24 complex64, rfft of 2^24 float32, fft2 of
4096^2 complex64, and for the record a batched fft along axis 0 of 4096^2 complex64
(cuFFT's strided layout, no transpose copy). GB/s would read the same (the floor is
one read and one write of the data per pass). Per call (wall time, queue kept full):
fft of 1024 complex64, target <= 0.6x the best of CuPy and PyTorch (see the "vs best"
column). Without a GPU, cuarray runs on the cpu device (numpy.fft on views): its
figures then sit next to NumPy's.
"""

import numpy as np

from harness import Case, size, to_lib

BIG = size(1 << 24, 1 << 20)
LOG = BIG.bit_length() - 1
SQ = size(4096, 1024)
SMALL = 1024


def _data(mod, shape, complex_):
    rng = np.random.default_rng(0)
    h = rng.standard_normal(shape).astype(np.float32)
    if complex_:
        h = (h + 1j * rng.standard_normal(shape).astype(np.float32)).astype(np.complex64)
    return to_lib(mod, h)


def _case(name, fn, shape, complex_, mode, target=None, **kw):
    def setup(mod):
        x = _data(mod, shape, complex_)
        f = getattr(mod.fft, fn)
        if mod.__name__ == "torch" and "axis" in kw:
            k = {"dim": kw["axis"]}
        else:
            k = kw
        return lambda: f(x, **k)
    libs = {lib: setup for lib in ("cuarray", "numpy", "cupy", "torch")}
    return Case(name, libs, mode=mode, unit="us", target=target,
                floor="cuFFT" if mode == "gpu" else None, repeats=7)


CASES = [
    _case(f"fft 2^{LOG} complex64 (device time)", "fft", (BIG,), True, "gpu", "<= 295"),
    _case(f"rfft 2^{LOG} float32 (device time)", "rfft", (BIG,), False, "gpu", "<= 220"),
    _case(f"fft2 {SQ}^2 complex64 (device time)", "fft2", (SQ, SQ), True, "gpu", "<= 238"),
    _case(f"fft axis=0 of {SQ}^2 complex64 (device time)", "fft", (SQ, SQ), True, "gpu",
          axis=0),
    _case("fft of 1024 complex64, per call", "fft", (SMALL,), True, "wall"),
]
