"""numpy.fft.rfft of one long real line on the cpu device, as half as many
complex points in four steps.

DRAFT
"""

import math
import operator
import threading
from collections import OrderedDict

import numpy as _np

from .. import _core, _host_threads
from . import _four_step

MIN_LENGTH_POWER_OF_TWO = 1 << 17
MIN_LENGTH = 1 << 20

# The callers' one size comparison: nothing shorter takes this path.
MIN_SIZE = min(MIN_LENGTH_POWER_OF_TWO, MIN_LENGTH)

_CPU = _core.Device("cpu")
_COMPLEX = {"float32": "complex64", "float64": "complex128"}
_NORMS = (None, "backward", "ortho", "forward")

# Pairs (k, m - k) untangled per round of ufunc calls: the round's temporaries
# stay in the core's cache.
CHUNK = 1 << 13

_TWIDDLES = OrderedDict()  # (n, dtype name) -> -i exp(-2 pi i k / n), k < m/2
_TWIDDLES_KEPT = 4
_TWIDDLES_LOCK = threading.Lock()


def rfft_line(a, n, axis, norm, out, fft_pass):
    """numpy.fft.rfft(a, n, axis, norm, out) as a half-length complex transform
    in four steps, or None where that path does not apply (the caller then makes
    its one call as before)."""
    if not (isinstance(a, _core.ndarray) and a.dtype.name in _COMPLEX
            and a.device == _CPU and norm in _NORMS):
        return None
    line = _line(a, axis)
    if line is None:
        return None
    if n is not None:
        try:
            n = operator.index(n)
        except TypeError:
            return None
    else:
        n = line.size
    if n % 2 or n < _least_length(n):
        return None
    m = n // 2
    nn = _four_step.factors(m)
    if nn is None:
        return None
    shape = a.shape[:axis % a.ndim] + (m + 1,) + a.shape[axis % a.ndim + 1:]
    result_dtype = _COMPLEX[a.dtype.name]
    if out is not None and not _fits(out, shape, result_dtype):
        return None
    line = _resized(line, n)
    if line is None:
        return None
    work, pass_norm, scale = _precision(a.dtype.name, norm, n)
    z = _core.empty(m, dtype=work, device=_CPU)
    _four_step.steps(line.view(_COMPLEX[a.dtype.name]), nn, False,
                     (work, pass_norm, scale), z, fft_pass)
    res = out if out is not None else _core.empty(shape, dtype=result_dtype, device=_CPU)
    _untangle_all(_np.asarray(z), _np.asarray(res).reshape(m + 1), n)
    return res


def _least_length(n):
    return MIN_LENGTH_POWER_OF_TWO if n & (n - 1) == 0 else MIN_LENGTH


def _line(a, axis):
    """`a` as a contiguous 1-D view when all its elements lie on `axis`, else None."""
    try:
        axis = operator.index(axis)
    except TypeError:
        return None
    if not -a.ndim <= axis < a.ndim or a.shape[axis] != a.size or a.size < 2:
        return None
    if a.strides[axis] != a.itemsize:
        return None
    line = a.reshape(a.size)
    if line.data.ptr % (2 * a.itemsize):
        return None  # its complex view would be misaligned
    return line


def _fits(out, shape, dtype):
    return (isinstance(out, _core.ndarray) and out.device == _CPU
            and out.dtype.name == dtype and out.shape == shape)


def _resized(line, n):
    if n <= line.size:
        return line[:n]
    padded = _core.zeros(n, dtype=line.dtype, device=_CPU)
    padded[:line.size] = line
    return padded


def _factor(norm, n):
    if norm == "ortho":
        return 1.0 / math.sqrt(n)
    return 1.0 / n if norm == "forward" else 1.0


def _precision(real_dtype, norm, n):
    """(the complex type of the steps, their passes' norm, the twiddles' scale)
    for the n/2-point transform whose result, halved and scaled by the norm's
    factor for n points, the untangling pass reads."""
    if real_dtype == "float32" and norm in ("ortho", "forward"):
        # numpy's single-precision loop; the passes scale by their own lengths
        return "complex64", norm, 0.5 * _factor(norm, n) / _factor(norm, n // 2)
    return "complex128", "backward", 0.5 * _factor(norm, n)


def _untangle_all(z, x, n):
    m = n // 2
    w = _twiddles(n, z.dtype.name)
    pairs = (m + 1) // 2  # k = 1 .. pairs - 1 pair with m - k
    if _host_threads.ENABLED and pairs > 2 * CHUNK:
        mid = (pairs // 2) // CHUNK * CHUNK
        _host_threads.both(_untangle, (z, w, x, 1, mid), (z, w, x, mid, pairs))
    else:
        _untangle(z, w, x, 1, pairs)
    z0 = complex(z[0])
    x[0] = 2.0 * (z0.real + z0.imag)
    x[m] = 2.0 * (z0.real - z0.imag)
    if m % 2 == 0:
        x[m // 2] = 2.0 * z[m // 2].conjugate()


def _untangle(z, w, x, lo, hi):
    """X[k] and X[m - k] for lo <= k < hi < m / 2 ..."""
    m = z.size
    c = _np.empty(CHUNK, z.dtype)
    d = _np.empty(CHUNK, z.dtype)
    k0 = lo
    while k0 < hi:
        k1 = min((k0 // CHUNK + 1) * CHUNK, hi)
        cc, dd = c[:k1 - k0], d[:k1 - k0]
        zk = z[k0:k1]
        _np.conjugate(z[m - k1 + 1:m - k0 + 1][::-1], out=cc)
        _np.subtract(zk, cc, out=dd)
        _np.add(zk, cc, out=cc)
        _np.multiply(dd, w[k0:k1], out=dd)
        _np.add(cc, dd, out=x[k0:k1])
        _np.subtract(cc, dd, out=cc)
        _np.conjugate(cc, out=x[m - k1 + 1:m - k0 + 1][::-1])
        k0 = k1


def _twiddles(n, dtype):
    key = (n, dtype)
    with _TWIDDLES_LOCK:
        t = _TWIDDLES.get(key)
        if t is not None:
            _TWIDDLES.move_to_end(key)
            return t
    k = _np.arange((n // 2 + 1) // 2, dtype=_np.float64)
    angle = k * (2.0 * math.pi / n)
    t = _np.empty(k.size, dtype=_np.complex128)
    t.real = -_np.sin(angle)
    t.imag = -_np.cos(angle)
    t = t.astype(dtype)
    with _TWIDDLES_LOCK:
        _TWIDDLES[key] = t
        while len(_TWIDDLES) > _TWIDDLES_KEPT:
            _TWIDDLES.popitem(last=False)
    return t
