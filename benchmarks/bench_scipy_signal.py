"""scipy.signal convolutions, recurrences and spectra: cuarray.scipy.signal beside
cupyx.scipy.signal and PyTorch's conv1d/conv2d on a GPU, beside scipy.signal on
the cpu device (the "numpy" column is SciPy's).

sosfilt of 2^24 float32 samples with 8 sections (a Butterworth low-pass of order
16; cuarray: one blocked state-space pass of order 16, see _lfilter.py) and welch
of 2^26 float32 samples (nperseg 1024, half overlap) are issue 41's rows (2^20 and
2^22 in cpu mode).

Device time per call (CUDA events, microseconds): fftconvolve of 2^22 with 2^12
float32 (issue 41 names 2^22 with 2^16 as its target row: the second case),
convolve2d of 2048^2 with a 15^2 kernel float32 (mode 'same', zero fill). PyTorch's
conv1d/conv2d compute a correlation, so they get the flipped kernel (the same
numbers); its padding is SciPy's 'full'/'same' crop. Sizes shrink in cpu mode so a
2-core host runs them in seconds.
"""

import numpy as np

from harness import Case, Skip, size, to_lib

SIG = size(1 << 22, 1 << 18)
KER = size(1 << 12, 1 << 10)
KER_BIG = size(1 << 16, 1 << 12)
IMG = size(2048, 512)
K2 = 15


def _host(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _fftconvolve_setup(n, k):
    def setup(mod):
        a, b = to_lib(mod, _host(n, 0)), to_lib(mod, _host(k, 1))
        name = mod.__name__
        if name == "numpy":
            import scipy.signal as ss
            return lambda: ss.fftconvolve(a, b)
        if name == "cupy":
            import cupyx.scipy.signal as cps
            return lambda: cps.fftconvolve(a, b)
        if name == "torch":
            import torch.nn.functional as F
            x, w = a.view(1, 1, -1), b.flip(0).view(1, 1, -1)
            return lambda: F.conv1d(x, w, padding=k - 1)
        from cuarray.scipy import signal
        return lambda: signal.fftconvolve(a, b)
    return setup


def _fft_case(n, k):
    libs = {lib: _fftconvolve_setup(n, k) for lib in ("cuarray", "numpy", "cupy", "torch")}
    return Case(f"fftconvolve {n} with {k} float32", libs, mode="gpu", unit="us",
                repeats=5)


def _conv2d_setup(mod):
    a, b = to_lib(mod, _host((IMG, IMG), 2)), to_lib(mod, _host((K2, K2), 3))
    name = mod.__name__
    if name == "numpy":
        import scipy.signal as ss
        return lambda: ss.convolve2d(a, b, "same")
    if name == "cupy":
        import cupyx.scipy.signal as cps
        return lambda: cps.convolve2d(a, b, "same")
    if name == "torch":
        import torch.nn.functional as F
        x, w = a.view(1, 1, IMG, IMG), b.flip(0, 1).view(1, 1, K2, K2)
        return lambda: F.conv2d(x, w, padding=K2 // 2)
    if name != "cuarray":
        raise Skip(name)
    from cuarray.scipy import signal
    return lambda: signal.convolve2d(a, b, "same")


SOS_N = size(1 << 24, 1 << 20)
WELCH_N = size(1 << 26, 1 << 22)


def _sosfilt_setup(mod):
    import scipy.signal as ss
    # float32 sections: float32 arithmetic everywhere (float64 ones promote)
    sos = ss.butter(16, 0.1, output="sos").astype(np.float32)
    x = to_lib(mod, _host(SOS_N, 4))
    name = mod.__name__
    if name == "numpy":
        return lambda: ss.sosfilt(sos, x)
    if name == "cupy":
        import cupy
        import cupyx.scipy.signal as cps
        s = cupy.asarray(sos)
        return lambda: cps.sosfilt(s, x)
    if name != "cuarray":
        raise Skip(name)
    from cuarray.scipy import signal
    return lambda: signal.sosfilt(sos, x)


def _welch_setup(mod):
    x = to_lib(mod, _host(WELCH_N, 5))
    name = mod.__name__
    if name == "numpy":
        import scipy.signal as ss
        return lambda: ss.welch(x, nperseg=1024)
    if name == "cupy":
        import cupyx.scipy.signal as cps
        return lambda: cps.welch(x, nperseg=1024)
    if name != "cuarray":
        raise Skip(name)
    from cuarray.scipy import signal
    return lambda: signal.welch(x, nperseg=1024)


CASES = [
    _fft_case(SIG, KER),
    _fft_case(SIG, KER_BIG),
    Case(f"convolve2d {IMG}^2 with {K2}^2 float32 same",
         {lib: _conv2d_setup for lib in ("cuarray", "numpy", "cupy", "torch")},
         mode="gpu", unit="us", repeats=3),
    Case(f"sosfilt {SOS_N} float32, 8 sections",
         {lib: _sosfilt_setup for lib in ("cuarray", "numpy", "cupy")},
         mode="gpu", unit="us", repeats=3),
    Case(f"welch {WELCH_N} float32, nperseg 1024",
         {lib: _welch_setup for lib in ("cuarray", "numpy", "cupy")},
         mode="gpu", unit="us", repeats=3),
]
