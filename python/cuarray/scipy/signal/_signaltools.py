"""Convolution and friends (SciPy's scipy.signal): convolve, correlate,
fftconvolve, oaconvolve, convolve2d, correlate2d, choose_conv_method,
correlation_lags, hilbert, hilbert2, detrend, resample.

On a GPU these are compositions: FFT convolution over cuarray.fft (rfftn/irfftn
of the padded operands, cropped to the mode), direct convolution as a shift-and-
add over the kernel's elements (exact for integers; one fused multiply-add pass
over the output per kernel element, so it is chosen for small kernels, as
choose_conv_method's SciPy heuristics decide). oaconvolve computes the same
result as fftconvolve (one large transform: the device has the memory overlap-add
saves). On the cpu device (CPU_SCIPY) SciPy's own routine runs on zero-copy
views; tests switch the flag off to check the compositions there too.
"""

import math as _math

import numpy as _np

import cuarray as _ca

from ._util import asarray, back, host, on_cpu, scipy_signal

__all__ = ["choose_conv_method", "convolve", "convolve2d", "correlate", "correlate2d",
           "correlation_lags", "detrend", "fftconvolve", "hilbert", "hilbert2",
           "oaconvolve", "resample"]

CPU_SCIPY = True

_MODES = ("full", "same", "valid")


def _scipy_route(*arrays):
    return CPU_SCIPY and on_cpu(*arrays)


def _pair(in1, in2):
    in1, in2 = asarray(in1), asarray(in2)
    if in1.device != in2.device:
        raise ValueError(f"operands on different devices: {in1.device} and {in2.device}")
    return in1, in2


def _check_mode(mode):
    if mode not in _MODES:
        raise ValueError("acceptable mode flags are 'valid', 'same', or 'full'")


def _swap_needed(mode, s1, s2, axes=None):
    """Whether valid mode needs the operands swapped (in2 the larger one); a
    ValueError when neither contains the other."""
    if mode != "valid":
        return False
    axes = range(len(s1)) if axes is None else axes
    ok1 = all(s1[i] >= s2[i] for i in axes)
    ok2 = all(s2[i] >= s1[i] for i in axes)
    if not (ok1 or ok2):
        raise ValueError("For 'valid' mode, one must be at least as large as the "
                         "other in every dimension")
    return not ok1


def _centered(a, shape):
    start = [(n - m) // 2 for n, m in zip(a.shape, shape)]
    return a[tuple(slice(s, s + m) for s, m in zip(start, shape))]


def _crop(full, s1, s2, mode, axes):
    """The full convolution cropped to mode along axes (s1 the first operand's
    shape, s2 the second's)."""
    if mode == "full":
        return full
    if mode == "same":          # SciPy crops every axis (broadcast ones too) to s1
        return _centered(full, s1)
    shape = list(full.shape)
    for a in axes:
        shape[a] = s1[a] - s2[a] + 1
    return _centered(full, shape)


def _unsupported(dtype):
    """The types SciPy's N-d direct sums (and convolve2d) refuse."""
    return dtype.kind == "b" or dtype == _np.float16


# ---- FFT convolution ------------------------------------------------------

def _freq_axes(in1, in2, axes):
    """SciPy's axis handling: the axes to transform (those where neither operand
    has length 1; the others broadcast)."""
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    if axes is None:
        axes = list(range(in1.ndim))
    else:
        axes = [axes] if _np.ndim(axes) == 0 else list(axes)
        if any(not -in1.ndim <= a < in1.ndim for a in axes):
            raise ValueError(f"axes exceeds dimensionality of input: {axes}")
        axes = [a % in1.ndim for a in axes]
        if len(set(axes)) != len(axes):
            raise ValueError("all axes must be unique")
    for a in range(in1.ndim):
        if a not in axes and in1.shape[a] != in2.shape[a] \
                and in1.shape[a] != 1 and in2.shape[a] != 1:
            raise ValueError(f"incompatible shapes for in1 and in2: {in1.shape} and "
                             f"{in2.shape}")
    return axes


def _fft_full(in1, in2, axes):
    """The full linear convolution along axes by one product of transforms."""
    shape = [max(n, m) for n, m in zip(in1.shape, in2.shape)]
    for a in axes:
        shape[a] = in1.shape[a] + in2.shape[a] - 1
    from cuarray.scipy.fft import next_fast_len
    fshape = [next_fast_len(shape[a], True) for a in axes]
    if in1.dtype.kind == "c" or in2.dtype.kind == "c":
        sp = _ca.fft.fftn(in1, fshape, axes=axes) * _ca.fft.fftn(in2, fshape, axes=axes)
        out = _ca.fft.ifftn(sp, fshape, axes=axes)
    else:
        sp = _ca.fft.rfftn(in1, fshape, axes=axes) * _ca.fft.rfftn(in2, fshape, axes=axes)
        out = _ca.fft.irfftn(sp, fshape, axes=axes)
    return out[tuple(slice(0, n) for n in shape)]


def _fft_dtype(in1, in2):
    """fftconvolve's result type: the operands' float type (float32 stays)."""
    dt = _np.result_type(in1.dtype, in2.dtype)
    if dt.kind not in "fc" or dt.itemsize < 4 or dt == _np.float16:
        dt = _np.result_type(dt, _np.float64) if dt.kind not in "fc" else \
            _np.dtype(_np.complex64 if dt.kind == "c" else _np.float32)
    return dt


def fftconvolve(in1, in2, mode="full", axes=None):
    """Convolve two N-d arrays by FFT (along axes; others broadcast)."""
    in1, in2 = _pair(in1, in2)
    if _scipy_route(in1, in2):
        return back(scipy_signal().fftconvolve(host(in1), host(in2), mode, axes), "cpu")
    return _fftconvolve(in1, in2, mode, axes)


def _fftconvolve(in1, in2, mode, axes):
    if in1.ndim == in2.ndim == 0:
        return in1 * in2
    _check_mode(mode)
    axes = _freq_axes(in1, in2, axes)
    if in1.size == 0 or in2.size == 0:
        return _ca.zeros((0,), dtype=_fft_dtype(in1, in2), device=in1.device)
    if _swap_needed(mode, in1.shape, in2.shape, axes):
        in1, in2 = in2, in1
    # along an axis where an operand has length 1 the convolution is a
    # broadcast product; the mode still crops every requested axis
    fft_axes = [a for a in axes if in1.shape[a] != 1 and in2.shape[a] != 1]
    full = _fft_full(in1, in2, fft_axes) if fft_axes else in1 * in2
    full = full.astype(_fft_dtype(in1, in2), copy=False)
    return _crop(full, in1.shape, in2.shape, mode, axes)


def oaconvolve(in1, in2, mode="full", axes=None):
    """Convolve two N-d arrays (SciPy's overlap-add method's result; on a GPU one
    FFT convolution computes it)."""
    in1, in2 = _pair(in1, in2)
    if _scipy_route(in1, in2):
        return back(scipy_signal().oaconvolve(host(in1), host(in2), mode, axes), "cpu")
    return _fftconvolve(in1, in2, mode, axes)


# ---- direct convolution ---------------------------------------------------

def _direct_valid(vol, ker, dtype):
    """The valid convolution of vol with ker (ker no larger along any axis) as a
    sum over ker's elements of shifted views of vol, scaled by the element."""
    oshape = tuple(n - k + 1 for n, k in zip(vol.shape, ker.shape))
    vol = vol.astype(dtype, copy=False)
    out = _ca.zeros(oshape, dtype=dtype, device=vol.device)
    kh = host(ker).astype(dtype)
    for idx in _np.ndindex(*ker.shape):
        c = kh[idx]
        if c == 0:
            continue
        # out[i] += ker[idx] * vol[i + (k - 1 - idx)]  (convolution flips ker)
        start = [k - 1 - j for k, j in zip(ker.shape, idx)]
        view = vol[tuple(slice(s, s + m) for s, m in zip(start, oshape))]
        out += view * c if c != 1 else view
    return out


def _pad_full(vol, ker, value=0, mode="constant"):
    pads = [(k - 1, k - 1) for k in ker.shape]
    if mode == "constant":
        return _ca.pad(vol, pads, mode="constant", constant_values=value)
    return _ca.pad(vol, pads, mode=mode)


def _direct_empty(in1, in2, mode, dtype):
    """SciPy's direct sum of empty operands: 'same' of an empty in1 with a
    non-empty in2 is empty, the rest raise ValueError (NumPy's words for 1-D)."""
    if mode == "same" and in1.size == 0 and in2.size:
        return _ca.zeros(in1.shape, dtype=dtype, device=in1.device)
    if in1.ndim == 1:
        raise ValueError("a cannot be empty" if in1.size == 0 else "v cannot be empty")
    raise ValueError("the direct convolution of an empty array is undefined")


def _direct(in1, in2, mode):
    dtype = _np.result_type(in1.dtype, in2.dtype)
    if in1.size == 0 or in2.size == 0:
        return _direct_empty(in1, in2, mode, dtype)
    if _swap_needed(mode, in1.shape, in2.shape):
        in1, in2 = in2, in1
    if in1.ndim > 1 and _unsupported(dtype):
        raise ValueError("Unsupported type")
    if in1.ndim == 1 and dtype.kind != "b":
        full = _ca.convolve(in1.astype(dtype, copy=False), in2.astype(dtype, copy=False))
    else:
        big, small = (in1, in2) if in1.size >= in2.size else (in2, in1)
        full = _direct_valid(_pad_full(big, small), small, dtype)
    return _crop(full, in1.shape, in2.shape, mode, range(in1.ndim))


# ---- convolve / correlate -------------------------------------------------

def _check_nd(in1, in2):
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")


def convolve(in1, in2, mode="full", method="auto"):
    """Convolve two N-d arrays (method 'direct', 'fft' or 'auto': SciPy's
    choose_conv_method)."""
    in1, in2 = _pair(in1, in2)
    if _scipy_route(in1, in2):
        return back(scipy_signal().convolve(host(in1), host(in2), mode, method), "cpu")
    if in1.ndim == in2.ndim == 0:
        return in1 * in2
    _check_nd(in1, in2)
    _check_mode(mode)
    if method not in ("auto", "direct", "fft"):
        raise ValueError("Acceptable method flags are 'auto', 'direct', or 'fft'.")
    if method == "auto":
        method = _choose(in1, in2, mode)
    if method == "fft":
        out = _fftconvolve(in1, in2, mode, None)
        rt = _np.result_type(in1.dtype, in2.dtype)
        if rt.kind in "ui":
            out = _ca.around(out)
        return out.astype(rt)
    return _direct(in1, in2, mode)


def _reverse_conj(x):
    r = x[(slice(None, None, -1),) * x.ndim]
    return r.conj() if x.dtype.kind == "c" else r


def correlate(in1, in2, mode="full", method="auto"):
    """Cross-correlate two N-d arrays: convolve(in1, reversed conj(in2))."""
    in1, in2 = _pair(in1, in2)
    if _scipy_route(in1, in2):
        return back(scipy_signal().correlate(host(in1), host(in2), mode, method), "cpu")
    if in1.ndim == in2.ndim == 0:
        return in1 * in2.conj()
    _check_nd(in1, in2)
    _check_mode(mode)
    if method not in ("auto", "direct", "fft"):
        raise ValueError("Acceptable method flags are 'auto', 'direct', or 'fft'.")
    swap = _swap_needed(mode, in1.shape, in2.shape)
    if swap:
        # SciPy's valid-mode rule: the correlation of the swapped pair, reversed
        # and conjugated
        return _reverse_conj(convolve(in2, _reverse_conj(in1), mode, method))
    return convolve(in1, _reverse_conj(in2), mode, method)


# ---- 2-D ------------------------------------------------------------------

_BOUNDARY = {"fill": "constant", "pad": "constant", "wrap": "wrap", "circular": "wrap",
             "symm": "symmetric", "symmetric": "symmetric"}


def _conv2d(in1, in2, mode, boundary, fillvalue):
    if in1.ndim != 2 or in2.ndim != 2:
        raise ValueError("convolve2d inputs must both be 2-D arrays")
    _check_mode(mode)
    if boundary not in _BOUNDARY:
        raise ValueError("Acceptable boundary flags are 'fill', 'circular' (or "
                         "'wrap'), and 'symmetric' (or 'symm').")
    fv = _np.asarray(host(fillvalue))
    if fv.size != 1:
        raise ValueError("fillvalue must be a scalar or an array with one element.")
    dtype = _np.result_type(in1.dtype, in2.dtype)
    if _unsupported(dtype):
        raise ValueError("convolve2d not available for this type.")
    if fv.dtype.kind == "c" and dtype.kind != "c":
        raise ValueError("could not cast `fillvalue` directly to the output type (it "
                         "was first converted to complex).")
    if _swap_needed(mode, in1.shape, in2.shape):
        in1, in2 = in2, in1
    if in2.size == 0:
        # an empty kernel: zeros of the mode's shape, as SciPy's
        shape = {"full": [n + k - 1 for n, k in zip(in1.shape, in2.shape)],
                 "same": in1.shape,
                 "valid": [n - k + 1 for n, k in zip(in1.shape, in2.shape)]}[mode]
        return _ca.zeros(tuple(max(n, 0) for n in shape), dtype=dtype, device=in1.device)
    if in1.size == 0 and boundary not in ("fill", "pad"):
        # (SciPy 1.17 dies of a floating-point exception here)
        raise ValueError("an empty array has no wrapped or symmetric extension")
    padded = _pad_full(in1.astype(dtype, copy=False), in2,
                       fv.reshape(()).astype(dtype)[()], _BOUNDARY[boundary])
    # large floating kernels by FFT (SciPy's direct sum, to rounding); integers
    # and small kernels directly (exact)
    if dtype.kind in "fc" and in2.size >= 64:
        full = _fftconvolve(padded, in2, "valid", None).astype(dtype, copy=False)
    else:
        full = _direct_valid(padded, in2, dtype)
    return _crop(full, in1.shape, in2.shape, mode, (0, 1))


def convolve2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    """Convolve two 2-D arrays with a boundary condition (fill, wrap, symm)."""
    in1, in2 = _pair(in1, in2)
    if _scipy_route(in1, in2):
        return back(scipy_signal().convolve2d(host(in1), host(in2), mode, boundary,
                                              host(fillvalue)), "cpu")
    return _conv2d(in1, in2, mode, boundary, fillvalue)


def correlate2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    """Cross-correlate two 2-D arrays with a boundary condition."""
    in1, in2 = _pair(in1, in2)
    if _scipy_route(in1, in2):
        return back(scipy_signal().correlate2d(host(in1), host(in2), mode, boundary,
                                               host(fillvalue)), "cpu")
    if in1.ndim != 2 or in2.ndim != 2:
        raise ValueError("correlate2d inputs must both be 2-D arrays")
    if _swap_needed(mode, in1.shape, in2.shape):
        # SciPy's swapped valid correlate2d: reversed, not conjugated (unlike
        # correlate's)
        return _conv2d(in2, _reverse_conj(in1), mode, boundary, fillvalue)[::-1, ::-1]
    if mode != "same" or in2.size == 0:
        return _conv2d(in1, _reverse_conj(in2), mode, boundary, fillvalue)
    # SciPy centres correlate2d's 'same' output half a sample later than
    # convolve2d's (the odd surplus of an even kernel goes before, not after)
    full = _conv2d(in1, _reverse_conj(in2), "full", boundary, fillvalue)
    start = [(n - m + 1) // 2 for n, m in zip(full.shape, in1.shape)]
    return full[tuple(slice(s, s + m) for s, m in zip(start, in1.shape))]


# ---- choosing a method ----------------------------------------------------

def _conv_ops(s1, s2, mode):
    """(FFT operation count, direct operation count): SciPy's cost model."""
    full = [n + k - 1 for n, k in zip(s1, s2)]
    if mode == "full":
        out = full
    elif mode == "valid":
        out = [abs(n - k) + 1 for n, k in zip(s1, s2)]
    else:
        out = list(s1)
    p1, p2 = _math.prod(s1), _math.prod(s2)
    if len(s1) == 1:
        a, b = s1[0], s2[0]
        if mode == "full":
            direct = a * b
        elif mode == "valid":
            direct = (b - a + 1) * a if b >= a else (a - b + 1) * b
        else:
            direct = a * b if a < b else a * b - (b // 2) * ((b + 1) // 2)
    elif mode == "same":
        direct = p1 * p2
    else:
        direct = min(p1, p2) * _math.prod(out)
    N = _math.prod(full)
    return 3 * N * _np.log(N), direct


# SciPy's fitted constants (O_fft, O_direct, O_offset) per mode, 1-D and N-d
_CONST_1D = {"valid": (1.89095737e-9, 2.1364985e-10, -1e-3),
             "full": (1.7649070e-9, 2.1414831e-10, -1e-3)}
_CONST_ND = {"valid": (1.85927e-9, 2.11242e-8, -1e-4),
             "full": (1.99817e-9, 1.66174e-8, -1e-4),
             "same": (2.04735e-9, 1.55367e-8, -1e-4)}


def _fft_faster(s1, s2, mode):
    fft_ops, direct_ops = _conv_ops(s1, s2, mode)
    if len(s1) == 1:
        if mode == "same":
            c = (3.2646654e-9, 2.8478277e-10, -1e-3) if _math.prod(s2) <= _math.prod(s1) \
                else (3.21635404e-9, 1.1773253e-8, -1e-5)
        else:
            c = _CONST_1D[mode]
    else:
        c = _CONST_ND[mode]
    return c[0] * fft_ops < c[1] * direct_ops + c[2]


def _choose(in1, in2, mode):
    kinds = {in1.dtype.kind, in2.dtype.kind}
    if kinds & {"u", "i"}:
        # FFT rounding must not reach the integers the result could hold
        peak = int(_ca.max(_ca.abs(in1))) * int(_ca.max(_ca.abs(in2))) if \
            in1.size and in2.size else 0
        if peak * min(in1.size, in2.size) > 2 ** _np.finfo(float).nmant - 1:
            return "direct"
    if "b" in kinds or not kinds <= set("uifc"):
        return "direct"
    return "fft" if _fft_faster(in1.shape, in2.shape, mode) else "direct"


def choose_conv_method(in1, in2, mode="full", measure=False):
    """'fft' or 'direct', by SciPy's cost model (measure=True times both and also
    returns the times in seconds)."""
    in1, in2 = _pair(in1, in2)
    if _scipy_route(in1, in2):
        return scipy_signal().choose_conv_method(host(in1), host(in2), mode, measure)
    if measure:
        return _measure(in1, in2, mode)
    if in1.ndim == in2.ndim == 0:
        return "direct"
    return _choose(in1, in2, mode)


def _measure(in1, in2, mode):
    import time
    times = {}
    for method in ("fft", "direct"):
        convolve(in1, in2, mode, method)       # warm plans and kernels
        t0 = time.perf_counter()
        for _ in range(5):
            r = convolve(in1, in2, mode, method)
        _ca.asnumpy(r.ravel()[:1])             # wait for the device
        times[method] = (time.perf_counter() - t0) / 5
    method = min(times, key=times.get)
    if _np.result_type(in1.dtype, in2.dtype).kind in "ui":
        method = _choose(in1, in2, mode) if method == "fft" else method
    return method, times


def correlation_lags(in1_len, in2_len, mode="full"):
    """The lag indices of correlate's output for 1-D inputs of these lengths."""
    if mode == "full":
        return _ca.arange(-in2_len + 1, in1_len)
    if mode == "same":
        lags = _np.arange(-in2_len + 1, in1_len)
        mid, half = lags.size // 2, in1_len // 2
        return _ca.asarray(lags[mid - half: mid + half + in1_len % 2])
    if mode == "valid":
        bound = in1_len - in2_len
        return _ca.arange(bound + 1) if bound >= 0 else _ca.arange(bound, 1)
    raise ValueError(f"Mode {mode} is invalid")


# ---- analytic signal, detrend, resample -----------------------------------

def _analytic_mask(N, dtype, device, nyquist=True):
    """hilbert's frequency weights: 1 at DC (and, when nyquist, at the Nyquist
    bin of an even N), 2 for positive frequencies, 0 for negative ones."""
    h = _np.zeros(N, dtype=dtype)
    h[0] = 1
    if N % 2 == 0:
        h[N // 2] = 1 if nyquist else 0
        h[1:N // 2] = 2
    else:
        h[1:(N + 1) // 2] = 2
    return _ca.asarray(h, device=device)


def _real_input(x):
    x = asarray(x)
    if x.dtype.kind == "c":
        raise ValueError("x must be real.")
    return x


def hilbert(x, N=None, axis=-1):
    """The analytic signal x + i H(x) by FFT along axis (length N)."""
    x = _real_input(x)
    if _scipy_route(x):
        return back(scipy_signal().hilbert(host(x), N, axis), "cpu")
    axis = axis % max(x.ndim, 1)
    N = x.shape[axis] if N is None else N
    if N <= 0:
        raise ValueError("N must be positive.")
    Xf = _ca.fft.fft(x, N, axis=axis)
    h = _analytic_mask(N, Xf.real.dtype, x.device)
    h = h.reshape([N if i == axis else 1 for i in range(x.ndim)])
    return _ca.fft.ifft(Xf * h, axis=axis)


def hilbert2(x, N=None, axes=(-2, -1)):
    """The 2-D analytic signal by FFT over axes (lengths N: an int or a pair)."""
    x = _real_input(x)
    x = _ca.atleast_2d(x)           # as SciPy: a vector is one row
    if _scipy_route(x):
        return back(scipy_signal().hilbert2(host(x), N, axes), "cpu")
    axes = tuple(a % x.ndim for a in axes)
    if N is None:
        N = tuple(x.shape[a] for a in axes)
    elif isinstance(N, int):
        if N <= 0:
            raise ValueError("N must be positive.")
        N = (N, N)
    elif len(N) != 2 or any(n <= 0 for n in N):
        raise ValueError("When given as a tuple, N must hold exactly two positive "
                         "integers")
    Xf = _ca.fft.fft2(x, N, axes=axes)
    h = None
    for a, n in zip(axes, N):
        # SciPy 1.17's hilbert2 drops an even length's Nyquist bin
        m = _analytic_mask(n, Xf.real.dtype, x.device, nyquist=False)
        m = m.reshape([n if i == a else 1 for i in range(x.ndim)])
        h = m if h is None else h * m
    return _ca.fft.ifft2(Xf * h, axes=axes)


def _check_detrend(data, axis, type):
    if type not in ("linear", "l", "constant", "c"):
        raise ValueError("Trend type must be 'linear' or 'constant'.")
    data = asarray(data)
    if data.dtype.kind not in "fc" or data.dtype.itemsize < 4:
        data = data.astype(_np.float64)
    if not -max(data.ndim, 1) <= axis < max(data.ndim, 1):
        raise _np.exceptions.AxisError(axis, data.ndim)
    return data, axis % max(data.ndim, 1)


def _detrend_segment(seg):
    """seg (segment along axis 0) less its least-squares line."""
    n = seg.shape[0]
    if n < 2:
        return seg - _ca.mean(seg, axis=0, keepdims=True)
    t = _ca.arange(n, dtype=seg.real.dtype, device=seg.device)
    t = (t - (n - 1) / 2.0).reshape((n,) + (1,) * (seg.ndim - 1))
    slope = _ca.sum(t * seg, axis=0, keepdims=True) / float(_np.sum(
        (_np.arange(n) - (n - 1) / 2.0) ** 2))
    return seg - _ca.mean(seg, axis=0, keepdims=True) - slope * t


def detrend(data, axis=-1, type="linear", bp=0, overwrite_data=False):
    """data less its mean ('constant') or its piecewise least-squares line
    ('linear', pieces split at breakpoints bp) along axis."""
    data, axis = _check_detrend(data, axis, type)
    if _scipy_route(data):
        return back(scipy_signal().detrend(host(data), axis, type, host(bp),
                                           overwrite_data), "cpu")
    if type in ("constant", "c"):
        return data - _ca.mean(data, axis=axis, keepdims=True)
    N = data.shape[axis]
    if data.size == 0:
        raise ValueError("cannot detrend an empty array linearly (SciPy's "
                         "reshape error)")
    bps = _np.sort(_np.unique(_np.r_[0, _np.asarray(host(bp)), N]))
    if _np.any(bps > N):
        raise ValueError("Breakpoints must be less than length of data along given "
                         "axis.")
    moved = _ca.moveaxis(data, axis, 0)
    pieces = [_detrend_segment(moved[lo:hi]) for lo, hi in zip(bps[:-1], bps[1:])
              if hi > lo]
    out = _ca.concatenate(pieces, axis=0) if pieces else moved
    return _ca.moveaxis(out, 0, axis).astype(data.dtype, copy=False)


def _resample_window(window, Nx, device):
    if window is None:
        return None
    if callable(window):
        W = window(_ca.fft.fftfreq(Nx, device=device))
    elif isinstance(window, (_ca.ndarray, _np.ndarray)):
        if window.shape != (Nx,):
            raise ValueError(f"window.shape={window.shape} != ({Nx},), i.e., window "
                             "length is not equal to number of frequency bins!")
        W = window
    else:
        from .windows import get_window
        W = _ca.fft.fftshift(get_window(window, Nx, device=device))
    return asarray(W)


def resample(x, num, t=None, axis=0, window=None, domain="time"):
    """Resample x to num samples along axis by the Fourier method (x periodic);
    with t, also the new sample positions."""
    x = asarray(x)
    # a callable window gets cuarray frequencies, so it stays on the composition
    if _scipy_route(x) and not callable(window):
        return back(scipy_signal().resample(host(x), num, host(t), axis,
                                            host(window), domain), "cpu")
    if domain not in ("time", "freq"):
        raise ValueError(f"Parameter domain={domain!r} not in ('time', 'freq')!")
    if int(num) != num or num < 0:
        raise ValueError(f"Parameter num={num} is not a non-negative integer!")
    num = int(num)
    if num == 0:
        raise ZeroDivisionError("division by zero (num=0: SciPy's sampling-interval "
                                "factor n_x / num)")
    axis = axis % x.ndim
    Nx = x.shape[axis]
    real = domain == "time" and x.dtype.kind != "c"
    if domain == "time":
        xf = x if x.dtype.kind in "fc" else x.astype(_np.float64)
        X = _ca.fft.rfft(xf, axis=axis) if real else _ca.fft.fft(xf, axis=axis)
    else:
        X = x
    W = _resample_window(window, Nx, x.device)
    if W is not None:
        if real:
            # the one-sided spectrum takes the window folded: (W[l] + W[-l]) / 2
            nX = X.shape[axis]
            W = _ca.concatenate([W[:1], (W[1:nX] + W[Nx - nX + 1:][::-1]) / 2]) \
                if nX > 1 else W[:1]
        W = W.astype(X.real.dtype, copy=False)
        X = X * W.reshape([-1 if i == axis else 1 for i in range(x.ndim)])
    y = _resample_spectrum(X, Nx, num, axis, real)
    if t is None:
        return y
    t = asarray(t)
    new_t = t[0] + (t[1] - t[0]) * (Nx / num) * _ca.arange(num, device=t.device)
    return y, new_t


def _resample_spectrum(X, Nx, num, axis, real):
    """The spectrum X of Nx samples cut or zero-padded to num samples and
    transformed back; an even cut's Nyquist bin is folded (downsampling) or split
    between +- num/2 (upsampling) so the result stays the band-limited one."""
    X = _ca.moveaxis(X, axis, 0)
    N = min(num, Nx)
    nyq = N // 2 + 1
    rest = X.shape[1:]
    Y = _ca.zeros((num // 2 + 1 if real else num,) + rest, dtype=X.dtype, device=X.device)
    Y[:nyq] = X[:nyq]
    if not real and N > 1:
        k = (N - 1) // 2
        if k:
            Y[num - k:] = X[Nx - k:]
    if N % 2 == 0 and num != Nx and N:
        if num < Nx:
            if real:
                Y[N // 2] = Y[N // 2] * 2
            else:
                Y[N // 2] = Y[N // 2] + X[Nx - N // 2]
        else:
            Y[N // 2] = Y[N // 2] * 0.5
            if not real:
                Y[num - N // 2] = Y[N // 2]
    y = _ca.fft.irfft(Y, num, axis=0) if real else _ca.fft.ifft(Y, num, axis=0)
    y = y * (float(num) / float(Nx))
    return _ca.moveaxis(y, 0, axis)
