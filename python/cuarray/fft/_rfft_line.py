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
BLOCK_BYTES = 1 << 18

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
    y, t = _four_step.columns(line.view(_COMPLEX[a.dtype.name]), nn, False,
                              (work, pass_norm, scale), fft_pass)
    res = out if out is not None else _core.empty(shape, dtype=result_dtype, device=_CPU)
    _rows_untangled(y, t, pass_norm, _np.asarray(res).reshape(m + 1), n, nn)
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


def _rows_untangled(y, t, norm, x, n, nn):
    n1, n2 = nn
    w = _twiddles(n, nn, y.dtype.name)
    xt = x[:n1 * n2].reshape(n2, n1).T
    half = (n1 + 1) // 2  # rows 1 .. half - 1 pair with rows n1 - 1 .. n1 - half + 1
    block = max(1, BLOCK_BYTES // (n2 * y.itemsize))
    blocks = -(-(half - 1) // block)
    mid = 1 + blocks // 2 * block
    middle = (n1 // 2,) if n1 % 2 == 0 else ()
    first = (y, t, w, norm, xt, (0,), 1, mid, block)
    second = (y, t, w, norm, xt, middle, mid, half, block)
    if _host_threads.ENABLED:
        z0, _ = _host_threads.both(_untangle_rows, first, second)
    else:
        z0 = _untangle_rows(*first)
        _untangle_rows(*second)
    x[n1 * n2] = 2.0 * (z0.real - z0.imag)


def _pad(n2, dtype):
    return _four_step.ROW_PAD_BYTES // _np.dtype(dtype).itemsize


def _untangle_rows(y, t, w, norm, xt, alone, lo, hi, block):
    n1, n2 = y.shape
    wide = n2 + _pad(n2, y.dtype.name)
    rows = min(block, max(hi - lo, 1))
    # zeros: the arithmetic runs over the pads too, never written by the passes
    zr, zp = (_core.zeros((rows, wide), dtype=y.dtype, device=_CPU) for _ in range(2))
    zrf, zpf = _np.asarray(zr).reshape(-1), _np.asarray(zp).reshape(-1)
    c, d = _np.zeros_like(zrf), _np.zeros_like(zrf)
    wf = w.reshape(-1)
    z0 = None
    for r in alone:
        _four_step._rows(y[r:r + 1], t[r:r + 1], False, norm, zr[:1, :n2])
        z, cc, dd = zrf[:n2], c[:n2], d[:n2]
        if r == 0:  # Z[m - n1 k2] = Z[n1 (n2 - k2)]: the row reversed, cyclically
            z0 = complex(z[0])
            _np.conjugate(z[0], out=cc[0:1])
            _np.conjugate(z[:0:-1], out=cc[1:])
        else:  # Z[m - (r + n1 k2)] = Z[r + n1 (n2 - 1 - k2)]: the row reversed
            _np.conjugate(z[::-1], out=cc)
        _np.subtract(z, cc, out=dd)
        _np.add(z, cc, out=cc)
        _np.multiply(dd, wf[r * wide:r * wide + n2], out=dd)
        _np.add(cc, dd, out=cc)
        _np.copyto(xt[r], cc, casting="same_kind")
    for r0 in range(lo, hi, block):
        r1 = min(r0 + block, hi)
        b = r1 - r0
        size = b * wide - (wide - n2)
        pair = slice(n1 - r1 + 1, n1 - r0 + 1)
        _four_step._rows(y[r0:r1], t[r0:r1], False, norm, zr[:b, :n2])
        _four_step._rows(y[pair], t[pair], False, norm, zp[:b, :n2])
        zk, cc, dd = zrf[:size], c[:size], d[:size]
        _np.conjugate(zpf[size - 1::-1], out=cc)
        _np.subtract(zk, cc, out=dd)
        _np.add(zk, cc, out=cc)
        _np.multiply(dd, wf[r0 * wide:r0 * wide + size], out=dd)
        _np.add(cc, dd, out=zk)
        _np.copyto(xt[r0:r1], zrf.reshape(rows, wide)[:b, :n2], casting="same_kind")
        _np.subtract(cc, dd, out=cc)
        _np.conjugate(cc, out=cc)
        _np.copyto(xt[pair], c.reshape(rows, wide)[b - 1::-1, n2 - 1::-1], casting="same_kind")
    return z0


def _twiddles(n, nn, dtype):
    key = (n, nn, dtype)
    with _TWIDDLES_LOCK:
        t = _TWIDDLES.get(key)
        if t is not None:
            _TWIDDLES.move_to_end(key)
            return t
    n1, n2 = nn
    k = _np.add.outer(_np.arange(n1 // 2 + 1), n1 * _np.arange(n2))
    flip = 4 * k > n  # -i w**k = i w**(k - n/2): angles within [-pi/2, pi/2]
    k -= flip * (n // 2)
    angle = k * (2.0 * math.pi / n)
    t = _np.zeros((k.shape[0], n2 + _pad(n2, dtype)), dtype=_np.complex128)
    t.real[:, :n2] = -_np.sin(angle)
    t.imag[:, :n2] = -_np.cos(angle)
    t[:, :n2][flip] *= -1
    t = t.astype(dtype)
    with _TWIDDLES_LOCK:
        _TWIDDLES[key] = t
        while len(_TWIDDLES) > _TWIDDLES_KEPT:
            _TWIDDLES.popitem(last=False)
    return t
