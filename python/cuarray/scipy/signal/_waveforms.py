"""Waveforms (SciPy's scipy.signal waveforms): chirp, sawtooth, square, gausspulse,
sweep_poly and unit_impulse are element-wise compositions on t's device;
max_len_seq is a sequential shift register, run by SciPy on the host (SciPy is
an optional dependency) with the sequence returned on the default device."""

import math as _math

import numpy as _np

import cuarray as _ca

from ._util import asarray, back, host, scipy_signal

__all__ = ["chirp", "gausspulse", "max_len_seq", "sawtooth", "square", "sweep_poly",
           "unit_impulse"]


def _float_t(t):
    """t as float64 (or complex128): SciPy's chirp, gausspulse and sweep_poly
    compute in double whatever t's type."""
    t = asarray(t)
    return t.astype(_np.complex128 if t.dtype.kind == "c" else _np.float64, copy=False)


def _chirp_phase(t, f0, t1, f1, method, vertex_zero):
    tau = 2 * _math.pi
    if method in ("linear", "lin", "li"):
        beta = (f1 - f0) / t1
        return tau * (f0 * t + 0.5 * beta * t * t)
    if method in ("quadratic", "quad", "q"):
        beta = (f1 - f0) / (t1 ** 2)
        if vertex_zero:
            return tau * (f0 * t + beta * t ** 3 / 3)
        return tau * (f1 * t + beta * ((t1 - t) ** 3 - t1 ** 3) / 3)
    if method in ("logarithmic", "log", "lo"):
        if f0 * f1 <= 0.0:
            raise ValueError("For a logarithmic chirp, f0 and f1 must be nonzero and "
                             "have the same sign.")
        if f0 == f1:
            return tau * f0 * t
        beta = t1 / _math.log(f1 / f0)
        return tau * beta * f0 * ((f1 / f0) ** (t / t1) - 1.0)
    if method in ("hyperbolic", "hyp"):
        if f0 == 0 or f1 == 0:
            raise ValueError("For a hyperbolic chirp, f0 and f1 must be nonzero.")
        if f0 == f1:
            return tau * f0 * t
        sing = -f1 * t1 / (f0 - f1)
        return tau * (-sing * f0) * _ca.log(_ca.abs(1 - t / sing))
    raise ValueError("method must be 'linear', 'quadratic', 'logarithmic', or "
                     f"'hyperbolic', but a value of {method!r} was given.")


def chirp(t, f0, t1, f1, method="linear", phi=0, vertex_zero=True, *, complex=False):
    """Frequency-swept cosine (or, with complex=True, exponential) at times t."""
    # the phase in t's own precision, then double (SciPy adds phi as a float64)
    phase = _chirp_phase(asarray(t), float(f0), float(t1), float(f1), method, vertex_zero)
    phase = phase.astype(_np.result_type(phase.dtype, _np.float64), copy=False)
    phase = phase + _math.radians(phi)
    return _ca.exp(1j * phase) if complex else _ca.cos(phase)


def _periodic_parts(t, width_or_duty):
    """(t mod 2 pi, the parameter broadcast to t, mask of invalid parameters, the
    float type): the common preamble of sawtooth and square."""
    t = asarray(t)
    # SciPy 1.18's type (1.17 and earlier: float64 for all but float64/complex t):
    # t's and the parameter's promoted, a Python scalar parameter weak (NEP 50),
    # then float64 for integer and bool results
    weak = isinstance(width_or_duty, (bool, int, float, complex))
    w = _ca.asarray(width_or_duty, device=t.device)
    ytype = _np.result_type(t.dtype, width_or_duty if weak else w.dtype)
    if ytype.kind not in "fc":
        ytype = _np.dtype(_np.float64)
    t, w = _ca.broadcast_arrays(t.astype(ytype), w.astype(ytype))
    return _ca.mod(t, 2 * _math.pi), w, (w > 1) | (w < 0), ytype


def sawtooth(t, width=1):
    """Sawtooth wave of period 2 pi, rising from -1 to 1 over width * 2 pi."""
    tmod, w, bad, ytype = _periodic_parts(t, width)
    rising = tmod < w * 2 * _math.pi
    # each branch's denominator is kept off zero where that branch is not taken
    up = tmod / (_math.pi * _ca.where(rising, w, 1.0)) - 1
    down = (_math.pi * (w + 1) - tmod) / (_math.pi * _ca.where(rising, 0.5, 1 - w))
    y = _ca.where(rising, up, down)
    return _ca.where(bad, _np.nan, y).astype(ytype)


def square(t, duty=0.5):
    """Square wave of period 2 pi: 1 for the first duty of each period, else -1."""
    tmod, w, bad, ytype = _periodic_parts(t, duty)
    y = _ca.where(tmod < w * 2 * _math.pi, 1.0, -1.0)
    return _ca.where(bad, _np.nan, y).astype(ytype)


def _gauss_a(fc, bw, bwr):
    if fc < 0:
        raise ValueError(f"Center frequency (fc={fc:.2f}) must be >=0.")
    if bw <= 0:
        raise ValueError(f"Fractional bandwidth (bw={bw:.2f}) must be > 0.")
    if bwr >= 0:
        raise ValueError(f"Reference level for bandwidth (bwr={bwr:.2f}) must be < 0 dB")
    ref = pow(10.0, bwr / 20.0)
    return -(_math.pi * fc * bw) ** 2 / (4.0 * _math.log(ref))


def gausspulse(t, fc=1000, bw=0.5, bwr=-6, tpr=-60, retquad=False, retenv=False):
    """Gaussian-modulated sinusoid; t='cutoff' gives the time its envelope falls
    tpr dB below the peak (a float)."""
    a = _gauss_a(fc, bw, bwr)
    if isinstance(t, str):
        if t != "cutoff":
            raise ValueError("If `t` is a string, it must be 'cutoff'")
        if tpr >= 0:
            raise ValueError("Reference level for time cutoff must be < 0 dB")
        tref = pow(10.0, tpr / 20.0)
        return _np.sqrt(-_np.log(tref) / a)
    t = asarray(t)
    # the envelope in double (SciPy's a is a float64), the carrier's argument
    # in t's own precision (a Python float times t)
    yenv = _ca.exp(-a * _float_t(t) * _float_t(t))
    arg = 2 * _math.pi * fc * t
    yI = yenv * _ca.cos(arg)
    out = (yI,)
    if retquad:
        out += (yenv * _ca.sin(arg),)
    if retenv:
        out += (yenv,)
    return out[0] if len(out) == 1 else out


def sweep_poly(t, poly, phi=0):
    """Cosine whose instantaneous frequency is the polynomial poly of t."""
    t = _float_t(t)
    coeffs = _np.poly1d(host(poly)).coeffs if not isinstance(poly, _np.poly1d) else poly.coeffs
    phase = 2 * _math.pi * _ca.polyval(_np.polyint(coeffs), t)
    return _ca.cos(phase + phi * _math.pi / 180)


def unit_impulse(shape, idx=None, dtype=float):
    """An array of shape with a single 1 at idx (None: the origin, 'mid': the
    centre, an int: that index along every axis)."""
    out = _ca.zeros(shape, dtype)
    shape = _np.atleast_1d(shape)
    if idx is None:
        idx = (0,) * len(shape)
    elif isinstance(idx, str) and idx == "mid":
        idx = tuple(shape // 2)
    elif not hasattr(idx, "__iter__"):
        idx = (idx,) * len(shape)
    out[tuple(idx)] = 1
    return out


def max_len_seq(nbits, state=None, length=None, taps=None):
    """Maximum length sequence of a linear feedback shift register: SciPy's on the
    host (a bit-serial recurrence), returned as (sequence, state) on the default
    device."""
    return back(scipy_signal().max_len_seq(nbits, host(state), length, host(taps)))
