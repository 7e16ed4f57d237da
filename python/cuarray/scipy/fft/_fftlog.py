"""scipy.fft's fast Hankel transform (FFTLog, Hamilton 2000): fht and ifht.

The transform is rfft, a product with n//2 + 1 coefficients, irfft and a
reversal along the last axis (cuarray.fft's: cuFFT on a GPU); the coefficients
u_m = 2^q Gamma((mu+1+q+i y_m)/2) / Gamma((mu+1-q-i y_m)/2) (kr)^(-i y_m) are
host math (a complex log-gamma by Stirling's series after an upward shift),
copied to the array's device. SciPy's special cases are kept: u_0 from the real
Gamma ratio at its poles, and a warning with u_0 patched when the transform (or
its inverse) is singular. On the cpu device with CPU_SCIPY on, scipy.fft's own.
"""

import math
import warnings

import numpy as np

import cuarray as _ca
from . import _basic

_LN_2 = math.log(2.0)
# Stirling's series of log Gamma: B_2k / (2k (2k - 1)), k = 1..8
_STIRLING = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360,
             1 / 156, -3617 / 122400)


def _loggamma(z):
    """log Gamma(z) for complex z, on some branch (only exp of sums is used):
    Stirling's series at z + s with Re(z + s) >= 10, less log z + ... + log(z+s-1)."""
    z = np.asarray(z, np.complex128)
    shift = np.maximum(0, np.ceil(10 - z.real)).astype(np.int64)
    acc = np.zeros_like(z)
    with np.errstate(divide="ignore", invalid="ignore"):
        for k in range(int(shift.max(initial=0))):
            acc += np.where(k < shift, np.log(z + k), 0)
        w = z + shift
        series = sum(c / w ** (2 * i + 1) for i, c in enumerate(_STIRLING))
        return (w - 0.5) * np.log(w) - w + 0.5 * math.log(2 * math.pi) + series - acc


def _is_pole(x):
    return x <= 0 and x == math.floor(x)


def _gamma_sign(x):
    return 1.0 if x > 0 or math.floor(x) % 2 == 0 else -1.0


def _gamma_ratio(a, b):
    """Gamma(a) / Gamma(b) for real a, b, with the limits at the poles (SciPy's
    poch(b, a - b)): a pole over a pole is (-1)^(A-B) B! / A! for a = -A, b = -B."""
    if _is_pole(a) and _is_pole(b):
        return (-1.0) ** (b - a) * math.exp(math.lgamma(1 - b) - math.lgamma(1 - a))
    if _is_pole(a):
        return math.inf
    if _is_pole(b):
        return 0.0
    sign = _gamma_sign(a) * _gamma_sign(b)
    return sign * math.exp(math.lgamma(a) - math.lgamma(b))


def _coefficients(n, dln, mu, offset, bias, inverse):
    """SciPy's fhtcoeff: the n//2 + 1 complex coefficients (host, complex128)."""
    q = bias
    xp, xm = (mu + 1 + q) / 2, (mu + 1 - q) / 2
    y = np.linspace(0, math.pi * (n // 2) / (n * dln), n // 2 + 1)
    lp, lm = _loggamma(xp + 1j * y), _loggamma(xm + 1j * y)
    with np.errstate(over="ignore", invalid="ignore"):
        u = np.exp(lp.real - lm.real + _LN_2 * q +
                   1j * (lp.imag + lm.imag + 2 * (_LN_2 - offset) * y))
    if n % 2 == 0:
        u[-1] = u[-1].real
    if not np.isfinite(u[0]):
        u[0] = 2 ** q * _gamma_ratio(xp, xm)
    if np.isinf(u[0]) and not inverse:
        warnings.warn("singular transform; consider changing the bias", stacklevel=3)
        u[0] = 0
    elif u[0] == 0 and inverse:
        warnings.warn("singular inverse transform; consider changing the bias",
                      stacklevel=3)
        u[0] = np.inf
    return u


def _fhtq(a, u, inverse):
    A = _ca.fft.rfft(a)
    u = _ca.asarray(u.astype(A.dtype), device=A.device)
    A = _ca.divide(A, _ca.conj(u)) if inverse else _ca.multiply(A, u)
    return _ca.flip(_ca.fft.irfft(A, a.shape[-1]), axis=-1)


def _bias(n, dln, shift, factor, like):
    # SciPy's bias factors, float64 as SciPy's (they promote single precision)
    j = np.arange(n, dtype=np.float64)
    return _ca.asarray(np.exp(factor * ((j - (n - 1) / 2) * dln + shift)),
                       device=like.device)


def fht(a, dln, mu, offset=0.0, bias=0.0):
    """scipy.fft.fht: the fast Hankel transform of a log-spaced, periodic signal
    along the last axis (FFTLog); dln the log spacing, mu the order, offset the
    output's log offset, bias the power-law bias q."""
    _basic.check_array(a, line=True)
    if _basic.on_scipy(a):
        return _basic.scipy_call("fht", a, dln, mu, offset=offset, bias=bias)
    n = a.shape[-1]
    if bias != 0:
        a = _ca.multiply(a, _bias(n, dln, 0.0, -bias, a))
    A = _fhtq(a, _coefficients(n, dln, mu, offset, bias, False), False)
    if bias != 0:
        A = _ca.multiply(A, _bias(n, dln, offset, -bias, A))
    return A


def ifht(A, dln, mu, offset=0.0, bias=0.0):
    """scipy.fft.ifht: the inverse of fht (the same arguments)."""
    _basic.check_array(A, line=True)
    if _basic.on_scipy(A):
        return _basic.scipy_call("ifht", A, dln, mu, offset=offset, bias=bias)
    n = A.shape[-1]
    if bias != 0:
        A = _ca.multiply(A, _bias(n, dln, offset, bias, A))
    a = _fhtq(A, _coefficients(n, dln, mu, offset, bias, True), True)
    if bias != 0:
        a = _ca.divide(a, _bias(n, dln, 0.0, -bias, a))
    return a
