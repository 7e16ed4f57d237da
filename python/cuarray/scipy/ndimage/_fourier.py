"""scipy.ndimage's Fourier filters on cuarray arrays: the input is an array's
FFT (n < 0: a complex FFT over every axis; n >= 0: a real FFT along axis of an
array of length n); each filter multiplies it by a per-axis factor of the
frequencies (fftfreq, rfftfreq along the real axis), a broadcast product of
small vectors on the device. fourier_ellipsoid's 2-D factor (2 J1(r) / r)
evaluates J1 with SciPy on the host (cuarray has no Bessel J1 yet) and sends
the factor to the device. On the cpu device (CPU_SCIPY) SciPy's own function
runs on zero-copy views.
"""

import numpy as _np

import cuarray as _ca

from ._util import asarray, check_axis, check_type, cpu_scipy, host, sequence

__all__ = ["fourier_gaussian", "fourier_uniform", "fourier_shift",
           "fourier_ellipsoid"]

CPU_SCIPY = True
_scipy_first = cpu_scipy(__name__)

_REAL = (_np.complex64, _np.complex128, _np.float32, _np.float64)


def _output(output, input, complex_only):
    """SciPy's _get_output_fourier(_complex): the input's type where allowed,
    else float64 (complex128 for fourier_shift)."""
    allowed = _REAL[:2] if complex_only else _REAL
    if output is None:
        dt = input.dtype if input.dtype.type in allowed else \
            (_np.complex128 if complex_only else _np.float64)
        return _ca.zeros(input.shape, dtype=dt, device=input.device)
    if isinstance(output, _ca.ndarray):
        if output.shape != input.shape:
            raise RuntimeError("output shape not correct")
        if output.dtype.type not in allowed:
            raise RuntimeError("output type not supported")
        return output
    dt = _np.dtype(output)
    if dt.type not in allowed:
        raise RuntimeError("output type not supported")
    return _ca.zeros(input.shape, dtype=dt, device=input.device)


def _freqs(input, n, axis):
    """Per axis, the frequency of each index (cycles per sample), shaped to
    broadcast against input."""
    out = []
    for d, size in enumerate(input.shape):
        f = _np.fft.rfftfreq(n)[:size] if (n >= 0 and d == axis) else \
            _np.fft.fftfreq(size)
        shp = [1] * input.ndim
        shp[d] = size
        out.append(f.reshape(shp))
    return out


def _apply(input, factor, output):
    """output = input * factor (factor a NumPy array broadcasting over input)."""
    fac = _ca.asarray(factor, device=input.device)
    output[...] = input * fac      # SciPy's casting="unsafe" into output
    return output


def _setup(input, output, n, axis, complex_only=False):
    input = check_type(asarray(input))
    axis = check_axis(axis, input.ndim)
    output = _output(output, input, complex_only)
    return input, output, axis


def _per_axis(input, output, n, axis, param, factor, complex_only=False):
    """output = input times the product over axes of factor(f, p), f the axis'
    frequencies and p its entry of param."""
    input, output, axis = _setup(input, output, n, axis, complex_only)
    if output.size == 0:
        return output
    fac = _np.ones([1] * input.ndim)
    for f, p in zip(_freqs(input, n, axis), sequence(host(param), input.ndim)):
        fac = fac * factor(f, float(p))
    return _apply(input, fac, output)


@_scipy_first
def fourier_gaussian(input, sigma, n=-1, axis=-1, output=None):
    """scipy.ndimage.fourier_gaussian: times exp(-2 pi^2 sigma^2 f^2) per axis."""
    return _per_axis(input, output, n, axis, sigma,
                     lambda f, s: _np.exp(-2.0 * _np.pi ** 2 * s * s * f * f))


@_scipy_first
def fourier_uniform(input, size, n=-1, axis=-1, output=None):
    """scipy.ndimage.fourier_uniform: times sinc(size f) per axis."""
    return _per_axis(input, output, n, axis, size, lambda f, s: _np.sinc(s * f))


@_scipy_first
def fourier_shift(input, shift, n=-1, axis=-1, output=None):
    """scipy.ndimage.fourier_shift: times exp(-2 pi i f shift) per axis."""
    return _per_axis(input, output, n, axis, shift,
                     lambda f, s: _np.exp(-2j * _np.pi * s * f), complex_only=True)


@_scipy_first
def fourier_ellipsoid(input, size, n=-1, axis=-1, output=None):
    """scipy.ndimage.fourier_ellipsoid: the transform of an ellipsoid of the
    given diameters (1-D: sinc; 2-D: 2 J1(r) / r; 3-D: 3 (sin r - r cos r) / r^3,
    r = pi |size f|)."""
    input = asarray(input)
    if input.ndim > 3:
        raise NotImplementedError("Only 1d, 2d and 3d inputs are supported")
    input, output, axis = _setup(input, output, n, axis)
    if output.size == 0:
        return output
    sizes = sequence(host(size), input.ndim)
    r2 = _np.zeros([1] * input.ndim)
    for f, s in zip(_freqs(input, n, axis), sizes):
        r2 = r2 + (_np.pi * float(s) * f) ** 2
    r = _np.sqrt(r2)
    safe = _np.where(r > 0, r, 1.0)
    if input.ndim == 1:
        fac = _np.sin(safe) / safe
    elif input.ndim == 2:
        import scipy.special as sp   # host math: no device J1 yet
        fac = 2.0 * sp.j1(safe) / safe
    else:
        fac = 3.0 * (_np.sin(safe) - safe * _np.cos(safe)) / safe ** 3
    fac = _np.where(r > 0, fac, 1.0)
    return _apply(input, fac, output)

