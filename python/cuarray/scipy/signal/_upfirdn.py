"""Upsample, FIR filter, downsample (SciPy's scipy.signal): upfirdn, resample_poly.

Choice: upfirdn is a composition: x extended at both ends by ceil((len(h)-1)/up)
samples by the mode's rule (index arithmetic on the host, one gather on the
device; 'line'/'smooth' and the anti- modes add their affine terms), zeros
inserted (one strided store), the full convolution with h along the axis
(_lfilter._fir_full: shift-and-add up to 32 taps, cuarray.fft beyond), and one
strided slice that keeps every down-th sample of the part SciPy returns. It
computes up times the outputs a polyphase kernel would, which the device's
bandwidth absorbs. resample_poly is SciPy's design (firwin, host) and cropping
around upfirdn. On the cpu device (CPU_SCIPY) SciPy's routines run on views.
"""

import math as _math

import numpy as _np

import cuarray as _ca

from ._util import asarray, back, host, on_cpu, scipy_signal

__all__ = ["resample_poly", "upfirdn"]

CPU_SCIPY = True

_MODES = ["constant", "wrap", "edge", "smooth", "symmetric", "reflect",
          "antisymmetric", "antireflect", "line"]


def _route(*arrays):
    return CPU_SCIPY and on_cpu(*arrays)


def _output_len(len_h, n, up, down):
    return ((n - 1) * up + len_h - 1) // down + 1


def _ext_index(mode, N, p):
    """For the p samples before x (positions -p..-1) and after (N..N+p-1): the
    source index into x, the sign, and whether the sample is the mode's
    affine/constant term instead (index -1)."""
    k = _np.arange(1, p + 1)                 # distance from the edge
    if mode == "wrap":
        return (-k) % N, (N - 1 + k) % N
    if mode == "edge":
        return _np.zeros(p, int), _np.full(p, N - 1)
    if mode == "symmetric":
        per = 2 * N
        lo, hi = (k - 1) % per, (N - 1 + k) % per
        return _np.where(lo < N, lo, per - 1 - lo), _np.where(hi < N, hi, per - 1 - hi)
    if mode == "reflect":
        per = max(2 * N - 2, 1)
        lo, hi = k % per, (N - 1 + k) % per
        return _np.where(lo < N, lo, per - lo), _np.where(hi < N, hi, per - hi)
    return None, None


def _anti_terms(mode, N, p):
    """The anti- modes' samples as sign * x[idx] + c0 * x[0] + c1 * x[N-1]
    (left samples -p..-1, then right N..N+p-1). antisymmetric: the symmetric
    index, negated in every other period of 2N; antireflect: point reflections
    about the ends, so a shift by 2(N-1) adds 2(x[N-1] - x[0])."""
    k = _np.arange(1, p + 1)
    if mode == "antisymmetric":
        lo, hi = _ext_index("symmetric", N, p)
        sl = _np.where((k - 1) % (2 * N) < N, -1, 1)
        z = _np.zeros(2 * p)
        return _np.r_[lo[::-1], hi], _np.r_[sl[::-1], sl], z, z
    P = 2 * (N - 1)
    m = k[::-1]                                     # left: position -m
    j = (-m + (N - 1)) % P - (N - 1)
    q = (j + m) // P
    li, ls = _np.abs(j), _np.where(j >= 0, 1, -1)
    l0, l1 = _np.where(j >= 0, 0, 2) + 2 * q, -2 * q
    i = N - 1 + k                                   # right: position i
    j = i % P
    q = (i - j) // P
    ri = _np.where(j <= N - 1, j, P - j)
    rs = _np.where(j <= N - 1, 1, -1)
    r1, r0 = _np.where(j <= N - 1, 0, 2) + 2 * q, -2 * q
    return _np.r_[li, ri], _np.r_[ls, rs], _np.r_[l0, r0], _np.r_[l1, r1]


def _extend(x, mode, cval, p):
    """x (..., N) with p samples of the mode's extension on each side."""
    N = x.shape[-1]
    if p == 0:
        return x
    if mode == "constant":
        return _ca.pad(x, [(0, 0)] * (x.ndim - 1) + [(p, p)], mode="constant",
                       constant_values=cval)
    first, last = x[..., :1], x[..., -1:]
    if mode in ("smooth", "line"):
        k = _ca.arange(1, p + 1, dtype=x.real.dtype, device=x.device)
        if mode == "smooth" and N == 1:
            # (SciPy 1.17 reads past the end of a 1-sample x here)
            slope_l = slope_r = x[..., :1] * 0
        elif mode == "smooth":
            slope_l, slope_r = x[..., 1:2] - first, last - x[..., -2:-1]
        else:
            with _np.errstate(invalid="ignore", divide="ignore"):
                slope_l = slope_r = (last - first) / float(N - 1) if N > 1 else \
                    (last - first) * float("nan")
        return _ca.concatenate([first - slope_l * k[::-1], x, last + slope_r * k],
                               axis=-1)
    if N == 1 and mode in ("reflect", "antireflect"):
        # (SciPy 1.17 dies of a floating-point exception here)
        raise ValueError(f"mode {mode!r} needs at least two samples along the axis")
    dev, rt = x.device, x.real.dtype
    if mode in ("antisymmetric", "antireflect"):
        idx, sign, c0, c1 = _anti_terms(mode, N, p)
        ext = _ca.take(x, _ca.asarray(idx, device=dev), axis=-1) * \
            _ca.asarray(sign.astype(rt), device=dev)
        if mode == "antireflect":
            ext = ext + first * _ca.asarray(c0.astype(rt), device=dev) + \
                last * _ca.asarray(c1.astype(rt), device=dev)
        return _ca.concatenate([ext[..., :p], x, ext[..., p:]], axis=-1)
    lo, hi = _ext_index(mode, N, p)
    idx = _ca.asarray(_np.r_[lo[::-1], hi], device=dev)
    ext = _ca.take(x, idx, axis=-1)
    return _ca.concatenate([ext[..., :p], x, ext[..., p:]], axis=-1)


def _check_h(h, x_dtype, up, down):
    h = _np.asarray(host(h))
    if h.ndim != 1 or h.size == 0:
        raise ValueError("h must be 1-D with non-zero length")
    dt = _np.result_type(h.dtype, x_dtype, _np.float32)
    up, down = int(up), int(down)
    if up < 1 or down < 1:
        raise ValueError("Both up and down must be >= 1")
    return h.astype(dt), dt, up, down


def upfirdn(h, x, up=1, down=1, axis=-1, mode="constant", cval=0):
    """x upsampled by up (zeros inserted), filtered with the FIR h, downsampled by
    down, along axis; the ends extended by mode (SciPy's signal extension modes)."""
    x = asarray(x)
    if _route(x):
        return back(scipy_signal().upfirdn(host(h), host(x), up, down, axis, mode,
                                           cval), "cpu")
    h, dt, up, down = _check_h(h, x.dtype, up, down)
    mode = mode.lower()
    if mode not in _MODES:
        raise ValueError(f"Unknown mode: {mode}")
    if x.ndim == 0:
        raise ValueError("x must be at least 1-D")
    axis = axis % x.ndim
    xm = _ca.moveaxis(x, axis, -1).astype(dt)
    N, K = xm.shape[-1], h.size
    n_out = _output_len(K, N, up, down)
    if N == 0:
        raise ValueError("x must have a non-zero length along axis")
    p = -(-(K - 1) // up)
    ext = _extend(xm, mode, cval, p)
    xu = _ca.zeros(ext.shape[:-1] + ((ext.shape[-1] - 1) * up + 1,), dtype=dt,
                   device=x.device)
    xu[..., ::up] = ext
    from ._lfilter import _fir_full
    full = _fir_full(xu, h)
    start = p * up
    y = full[..., start:start + (n_out - 1) * down + 1:down]
    return _ca.moveaxis(y, -1, axis)


def _rp_filter(window, up, down, x_dtype):
    """resample_poly's filter h (times up, host) and half its length."""
    if isinstance(window, (list, _np.ndarray, _ca.ndarray)):
        h = _np.array(host(window), copy=True)
        if h.ndim > 1:
            raise ValueError("window must be 1-D")
        return h * up, (h.size - 1) // 2
    max_rate = max(up, down)
    half_len = 10 * max_rate
    h = scipy_signal().firwin(2 * half_len + 1, 1. / max_rate, window=window)
    if x_dtype.kind in "fc":
        h = h.astype(x_dtype)
    return h * up, half_len


_BACKGROUND = {"mean": _ca.mean, "median": _ca.median, "minimum": _ca.min,
               "maximum": _ca.max}


def resample_poly(x, up, down, axis=0, window=("kaiser", 5.0), padtype="constant",
                  cval=None):
    """x resampled by up/down along axis with a polyphase FIR (SciPy's design:
    a Kaiser-windowed sinc of 20 max(up, down) + 1 taps unless window is the
    filter itself)."""
    x = asarray(x)
    if _route(x):
        return back(scipy_signal().resample_poly(host(x), up, down, axis, host(window),
                                                 padtype, cval), "cpu")
    if up != int(up):
        raise ValueError("up must be an integer")
    if down != int(down):
        raise ValueError("down must be an integer")
    up, down = int(up), int(down)
    if up < 1 or down < 1:
        raise ValueError("up and down must be >= 1")
    if cval is not None and padtype != "constant":
        raise ValueError("cval has no effect when padtype is ", padtype)
    g = _math.gcd(up, down)
    up, down = up // g, down // g
    if up == down == 1:
        return x.copy()
    if padtype not in _BACKGROUND and padtype not in _MODES:
        raise ValueError("padtype must be one of: maximum, mean, median, minimum, "
                         + ", ".join(_MODES))
    n_in = x.shape[axis]
    n_out = -(-n_in * up // down)
    h, half_len = _rp_filter(window, up, down, x.dtype)
    n_pre_pad = down - half_len % down
    n_pre_remove = (half_len + n_pre_pad) // down
    n_post_pad = 0
    while _output_len(h.size + n_pre_pad + n_post_pad, n_in, up, down) < \
            n_out + n_pre_remove:
        n_post_pad += 1
    h = _np.concatenate([_np.zeros(n_pre_pad, h.dtype), h, _np.zeros(n_post_pad, h.dtype)])
    background = None
    if padtype in _BACKGROUND:
        background = _BACKGROUND[padtype](x, axis=axis, keepdims=True)
        x = x - background
        mode, cv = "constant", 0
    else:
        mode, cv = padtype, (0 if cval is None else cval)
    y = upfirdn(h, x, up, down, axis, mode, cv)
    sl = [slice(None)] * y.ndim
    sl[axis] = slice(n_pre_remove, n_pre_remove + n_out)
    y = y[tuple(sl)]
    return y + background if background is not None else y
