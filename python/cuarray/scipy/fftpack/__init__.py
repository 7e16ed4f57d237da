"""cuarray.scipy.fftpack: scipy.fftpack's fft, ifft, fft2, ifft2, fftn, ifftn,
rfft and irfft (the legacy interface) on cuarray arrays.

Over cuarray.fft (cuFFT on a GPU) with fftpack's conventions: ``shape`` for the
n-dimensional lengths (all axes when ``axes`` is None), no ``norm``, single
precision kept (float16 and float32 give complex64/float32), and rfft/irfft in
fftpack's packed real format [y0, Re y1, Im y1, ..., Re y_{n/2}] of length n.
``overwrite_x`` is accepted and never needed. On the cpu device with
cuarray.scipy.fft's CPU_SCIPY on, scipy.fftpack itself runs on a zero-copy view.
"""

import cuarray as _ca
from numpy.lib.array_utils import normalize_axis_index

from ..fft import _basic
from ..fft._realtransforms import _resize_last, _working, nd_shape_and_axes

__all__ = ["fft", "fft2", "fftn", "ifft", "ifft2", "ifftn", "irfft", "rfft"]


def _scipy(name, x, *args):
    import numpy as np
    import scipy.fftpack
    return _ca.asarray(getattr(scipy.fftpack, name)(np.asarray(x), *args),
                       device="cpu")


def _count(n):
    if n < 1:
        raise ValueError(f"invalid number of data points ({n}) specified")
    return n


def _line_args(x, n, axis):
    _basic.check_array(x, line=True)
    axis = normalize_axis_index(axis, x.ndim)
    return _count(x.shape[axis] if n is None else n), axis


def fft(x, n=None, axis=-1, overwrite_x=False):
    """scipy.fftpack.fft: the discrete Fourier transform along axis."""
    n, axis = _line_args(x, n, axis)
    if _basic.on_scipy(x):
        return _scipy("fft", x, n, axis)
    return _ca.fft.fft(_basic._real_single(x), n, axis)


def ifft(x, n=None, axis=-1, overwrite_x=False):
    """scipy.fftpack.ifft: the inverse transform along axis (scaled by 1/n)."""
    n, axis = _line_args(x, n, axis)
    if _basic.on_scipy(x):
        return _scipy("ifft", x, n, axis)
    return _ca.fft.ifft(_basic._real_single(x), n, axis)


def _shape_axes(x, shape, axes):
    """fftpack's rules: scipy.fft's, but every axis when axes is None (even with
    a shape given)."""
    _basic.check_array(x)
    return nd_shape_and_axes(x, shape, range(x.ndim) if axes is None else axes)


def fftn(x, shape=None, axes=None, overwrite_x=False):
    """scipy.fftpack.fftn: the n-dimensional transform over axes (default all)."""
    s, axes = _shape_axes(x, shape, axes)
    if _basic.on_scipy(x):
        return _scipy("fftn", x, s, axes)
    return _ca.fft.fftn(_basic._real_single(x), s, axes)


def ifftn(x, shape=None, axes=None, overwrite_x=False):
    """scipy.fftpack.ifftn: the inverse n-dimensional transform."""
    s, axes = _shape_axes(x, shape, axes)
    if _basic.on_scipy(x):
        return _scipy("ifftn", x, s, axes)
    return _ca.fft.ifftn(_basic._real_single(x), s, axes)


def fft2(x, shape=None, axes=(-2, -1), overwrite_x=False):
    """scipy.fftpack.fft2: fftn over the last two axes."""
    return fftn(x, shape, axes, overwrite_x)


def ifft2(x, shape=None, axes=(-2, -1), overwrite_x=False):
    """scipy.fftpack.ifft2: ifftn over the last two axes."""
    return ifftn(x, shape, axes, overwrite_x)


def _real(x):
    if x.dtype.kind == "c":
        raise TypeError("x must be a real sequence")
    return _working(x)


def rfft(x, n=None, axis=-1, overwrite_x=False):
    """scipy.fftpack.rfft: the real input's transform packed in n reals,
    [y0, Re y1, Im y1, ..., Re y_{n/2} (n even)], along axis."""
    n, axis = _line_args(x, n, axis)
    if _basic.on_scipy(x):
        return _scipy("rfft", x, n, axis)
    x = _real(x)
    Y = _ca.moveaxis(_ca.fft.rfft(x, n, axis), axis, -1)
    pairs = _ca.stack((Y.real[..., 1:], Y.imag[..., 1:]), axis=-1)
    pairs = pairs.reshape(Y.shape[:-1] + (2 * (Y.shape[-1] - 1),))[..., :n - 1]
    return _ca.moveaxis(_ca.concatenate((Y.real[..., :1], pairs), axis=-1), -1, axis)


def irfft(x, n=None, axis=-1, overwrite_x=False):
    """scipy.fftpack.irfft: the inverse of rfft, from fftpack's packed format
    (cropped or zero-padded to n first) to n reals along axis."""
    n, axis = _line_args(x, n, axis)
    if _basic.on_scipy(x):
        return _scipy("irfft", x, n, axis)
    x = _real(x)
    r = _resize_last(_ca.moveaxis(x, axis, -1), n)
    zero = _ca.zeros(r.shape[:-1] + (1,), dtype=r.dtype, device=r.device)
    re = _ca.concatenate((r[..., :1], r[..., 1::2]), axis=-1)
    im = (zero, r[..., 2::2], zero) if n % 2 == 0 else (zero, r[..., 2::2])
    im = _ca.concatenate(im, axis=-1)
    y = _ca.fft.irfft(_ca.add(re, _ca.multiply(im, 1j)), n)
    return _ca.moveaxis(y, -1, axis)
