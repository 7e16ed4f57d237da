"""cuarray.fft: discrete Fourier transforms, numpy.fft's functions and signatures.

On a GPU every transform is cuFFT (loaded on first use, never at import), with
plans cached per device (see :mod:`cuarray.fft.config`); on the cpu device it is
numpy.fft itself, run on zero-copy views of the arrays. Results have NumPy's
dtypes: float32 and complex64 (and float16) inputs stay single precision,
integers and bools become double.

Each function below is one call of the C primitive ``_core._fft`` (one cuFFT plan
over all the axes, batched over the others; more than three axes take several
plans); ``hfft`` and ``ihfft`` add a conjugation. Unlike numpy.fft (whose
``hfft``, ``ifft2`` and ``irfft2`` ignore it), ``out=`` is honoured everywhere.
Duplicate axes are refused (ValueError), as CuPy does. On the cpu device, large
complex-to-complex transforms along or over axes run as numpy.fftn's one-axis
passes, each pass's lines split between two host threads (fft/_threads.py), and
a long single line runs as four steps of short lines (fft/_four_step.py); so does
rfft of a long real line, as half as many complex points (fft/_rfft_line.py).
"""

import operator

import numpy as _np

from .. import _core
from .._core import _fft
from . import config  # noqa: F401
from . import _rfft_line, _threads

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2",
           "irfft2", "rfftn", "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq",
           "fftshift", "ifftshift"]


def _c2c(a, inverse, s, axes, norm, out):
    """One call of the C primitive; a large cpu-device transform may run on two
    host threads instead (fft/_threads.py; small calls pay one size comparison)."""
    if getattr(a, "size", 0) >= _threads.MIN_SIZE:
        r = _threads.c2c(a, inverse, s, axes, norm, out)
        if r is not None:
            return r
    return _fft(a, inverse, s, axes, norm, out)


_SWAP = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def _swap_norm(norm):
    try:
        return _SWAP[norm]
    except (KeyError, TypeError):
        raise ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" or '
                         '"forward".') from None


def _repeats(a, axes):
    """Whether `axes` (a sequence, or None) names one axis of `a` twice."""
    if axes is None or isinstance(axes, int):
        return False
    nd = getattr(a, "ndim", None)
    if nd is None:
        return False
    try:
        norm = [ax % nd if -nd <= ax < nd else ax for ax in (operator.index(x) for x in axes)]
    except TypeError:
        return False
    return len(set(norm)) != len(norm)


def _one_axis_at_a_time(a, kind, s, axes, norm, out):
    """NumPy's n-d transforms with a repeated axis: one 1-d transform per entry of
    axes, as numpy.fft does them (complex: the last axis first; rfftn: the real
    transform on the last axis, then the others; irfftn: the others, then the
    real inverse on the last). s defaults to the lengths along axes (irfftn: the
    last one 2 (m - 1))."""
    axes = list(axes)
    if s is None:
        s = [a.shape[ax] for ax in axes]
        if kind == 3:
            s[-1] = 2 * (a.shape[axes[-1]] - 1)
    s = list(s)
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    last = len(axes) - 1
    if kind < 2:
        for i in range(last, -1, -1):
            a = _c2c(a, kind, s[i], axes[i], norm, out if i == 0 else None)
        return a
    if kind == 2:
        a = _fft(a, 2, s[last], axes[last], norm, out if last == 0 else None)
        for i in range(last - 1, -1, -1):
            a = _c2c(a, 0, s[i], axes[i], norm, out if i == 0 else None)
        return a
    for i in range(last):
        a = _c2c(a, 1, s[i], axes[i], norm, None)
    return _fft(a, 3, s[last], axes[last], norm, out)


def _make(name, kind, axes_default, doc):
    """numpy.fft's `name`: one call of `kind` (0, 1: the complex forward and inverse
    transforms, through _c2c; 2, 3: the real ones), along one axis (axes_default
    -1: numpy's n and axis) or over axes (s and axes)."""
    run = _c2c if kind < 2 else _fft
    if axes_default == -1:
        def transform(a, n=None, axis=-1, norm=None, out=None):
            return run(a, kind, n, axis, norm, out)
    else:
        def transform(a, s=None, axes=axes_default, norm=None, out=None):
            # (the default axes repeat nothing: no check on fft2's plain call)
            if axes is not axes_default and _repeats(a, axes):
                return _one_axis_at_a_time(a, kind, s, axes, norm, out)
            return run(a, kind, s, axes, norm, out)
    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = doc
    return transform


fft = _make("fft", 0, -1, """One-dimensional discrete Fourier transform (numpy.fft.fft).

``n`` crops or zero-pads the input along ``axis``; ``norm`` is "backward"
(default: no scaling), "ortho" (1/sqrt(n)) or "forward" (1/n).
""")
ifft = _make("ifft", 1, -1,
             "One-dimensional inverse discrete Fourier transform (numpy.fft.ifft).")
fft2 = _make("fft2", 0, (-2, -1),
             "Two-dimensional discrete Fourier transform (numpy.fft.fft2): one plan.")
ifft2 = _make("ifft2", 1, (-2, -1),
              "Two-dimensional inverse discrete Fourier transform (numpy.fft.ifft2).")
fftn = _make("fftn", 0, None, """N-dimensional discrete Fourier transform (numpy.fft.fftn).

``axes`` None: all axes (the last ``len(s)`` if ``s`` is given, deprecated as
in NumPy 2); ``s[i]`` is the length along ``axes[i]`` (-1: the input's).
""")
ifftn = _make("ifftn", 1, None,
              "N-dimensional inverse discrete Fourier transform (numpy.fft.ifftn).")


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """Discrete Fourier transform of real input (numpy.fft.rfft): n//2 + 1 outputs.

    On the cpu device a long line may take fft/_rfft_line.py's path (small calls
    without ``n`` pay one size comparison)."""
    if n is not None or getattr(a, "size", 0) >= _rfft_line.MIN_SIZE:
        r = _rfft_line.rfft_line(a, n, axis, norm, out, _threads._pass)
        if r is not None:
            return r
    return _fft(a, 2, n, axis, norm, out)


irfft = _make("irfft", 3, -1,
              "Inverse of rfft (numpy.fft.irfft): n real outputs, n = 2*(m - 1) by default.")
rfft2 = _make("rfft2", 2, (-2, -1), "Two-dimensional FFT of real input (numpy.fft.rfft2).")
irfft2 = _make("irfft2", 3, (-2, -1), "Inverse of rfft2 (numpy.fft.irfft2).")
rfftn = _make("rfftn", 2, None,
              "N-dimensional FFT of real input (numpy.fft.rfftn): the last axis is halved.")
irfftn = _make("irfftn", 3, None, "Inverse of rfftn (numpy.fft.irfftn).")


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """FFT of a signal with Hermitian symmetry (numpy.fft.hfft): real output.

    irfft of the conjugate with the norm's direction swapped.
    """
    return _fft(_core.conjugate(a), 3, n, axis, _swap_norm(norm), out)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    """Inverse of hfft (numpy.fft.ihfft): n//2 + 1 complex outputs."""
    r = _fft(a, 2, n, axis, _swap_norm(norm), out)
    return _core.conjugate(r, out=r)


def fftfreq(n, d=1.0, device=None, *, dtype=None):
    """Sample frequencies of an n-point FFT with spacing d (numpy.fft.fftfreq).

    [0, 1, ..., (n-1)//2, -(n//2), ..., -1] / (d*n), float64 (or the real
    floating dtype=, the Array API's keyword), on ``device`` (default: the
    current device).
    """
    n = _index(n, "n")
    real = _freq_dtype(dtype)
    val = 1.0 / (n * d)
    k = _core.arange(n, dtype="int64", device=device)
    k = _core.where(k < (n + 1) // 2, k, k - n)
    return _as_freq(_core.multiply(k, val), real)


def rfftfreq(n, d=1.0, device=None, *, dtype=None):
    """Sample frequencies of rfft (numpy.fft.rfftfreq): [0, ..., n//2] / (d*n),
    float64 or the real floating dtype=."""
    n = _index(n, "n")
    real = _freq_dtype(dtype)
    val = 1.0 / (n * d)
    f = _core.multiply(_core.arange(n // 2 + 1, dtype="int64", device=device), val)
    return _as_freq(f, real)


def _freq_dtype(dtype):
    if dtype is None:
        return None
    dt = _np.dtype(dtype)
    if dt.kind != "f":
        raise ValueError(f"dtype must be a real floating-point dtype, not {dt}")
    return dt


def _as_freq(f, dtype):
    # the frequencies in float64, then rounded once to dtype= (float32: each within
    # half an ulp of the exact k / (d n))
    return f if dtype is None or dtype == f.dtype else f.astype(dtype)


def fftshift(x, axes=None):
    """Move the zero-frequency term to the centre (numpy.fft.fftshift)."""
    return _shift(x, axes, 1)


def ifftshift(x, axes=None):
    """Inverse of fftshift (numpy.fft.ifftshift)."""
    return _shift(x, axes, -1)


def _index(n, name):
    try:
        return n.__index__()
    except AttributeError:
        raise ValueError(f"{name} should be an integer") from None


def _shift(x, axes, sign):
    if not isinstance(x, _core.ndarray):
        raise TypeError(f"cuarray.fft needs a cuarray.ndarray, not {type(x).__name__} "
                        "(use cuarray.asarray to make one)")
    if axes is None:
        axes = tuple(range(x.ndim))
    elif isinstance(axes, int):
        axes = (axes,)
    shifts = [sign * (x.shape[ax] // 2) for ax in axes]
    return _roll(x, shifts, axes)


def _roll(x, shifts, axes):
    """numpy.roll over several axes: one copy through concatenation per axis."""
    for s, ax in zip(shifts, axes):
        n = x.shape[ax]
        if n == 0:
            continue
        s %= n
        if s == 0:
            continue
        idx = [slice(None)] * x.ndim
        idx[ax] = slice(n - s, None)
        head = x[tuple(idx)]
        idx[ax] = slice(0, n - s)
        tail = x[tuple(idx)]
        x = _core.concatenate((head, tail), axis=ax)
    return x
