"""Long one-dimensional complex transforms of the cpu device in four steps.

numpy.fft transforms one long line (2^20 points) in about the time it takes for
a 1024 x 1024 fft2 of twice the data: the long line is cache-bound. Bailey's
four-step algorithm turns a line of n = n1 * n2 points into short lines:

    x viewed as (n1, n2): x[j1, j2] = x[j1 * n2 + j2]
    1. transform each column (length n1, along axis 0):  y[k1, j2]
    2. multiply by twiddles:  y[k1, j2] *= w ** (k1 * j2),  w = exp(-+2 pi i / n)
    3. transform each row (length n2, along axis 1):      z[k1, k2]
    4. read out transposed:  X[k1 + n1 * k2] = z[k1, k2]

because (j1 n2 + j2)(k1 + n1 k2) = n2 j1 k1 + j2 k1 + n1 j2 k2 (mod n). Step 4
costs no pass of its own: step 3 writes into the result viewed as (n2, n1) and
transposed. Steps 1 and 3 are fft/_threads.py's passes, their lines split
between two host threads; step 2 is split the same way (each thread multiplies
the rows it then transforms). The factors depend on n alone, and every split is
between lines or elements, so results are the same bits on one thread or two.
They are not numpy.fft's bits, but as accurate: the twiddles are computed in
float64 and rounded once, and the steps keep the precision numpy.fft's loop
would use (see _precision).
"""

import math
import threading
from collections import OrderedDict
from functools import lru_cache

import numpy as _np

from .. import _core, _host_threads
from .._core import _fft

# Points from which four steps beat numpy.fft's one call on this project's 2-core
# host (measured 2026-12-04 on the hfft branch, interleaved medians against the
# plain call, load 3-6 from other jobs). numpy.fft's power-of-two lines thrash
# the caches early: at 2^15 the four steps ran 0.8-1.6x, at 2^16 1.36-3.5x
# (complex64 unscaled and scaled, complex128). Other lengths stay in cache
# longer: 1.3-1.8e5 ran 0.89-0.96x, 3.9e5 0.95-2.9x, 5.2e5-5.9e5 1.16-3.0x.
# At load 2 later: 2^15 1.3-3.7x but 0.65x in single precision, 1.3e5-2.3e5
# 1.0-3.5x (3x for complex64 unscaled): lower edges may pay, not kept on one run.
MIN_LENGTH_POWER_OF_TWO = 1 << 16
MIN_LENGTH = 1 << 19
# Complex64 data with a scaling norm, which numpy.fft transforms in single
# precision: half the bytes stay in cache to twice the length (3.9e5 ran 0.86x,
# 5.2e5-5.3e5 0.64-1.31x, 5.9e5-1.6e6 1.2-2.9x).
MIN_LENGTH_SINGLE = 1 << 20


def _least_length(n, work):
    """The threshold for n points computed in `work` precision."""
    if n & (n - 1) == 0:
        return MIN_LENGTH_POWER_OF_TWO
    return MIN_LENGTH_SINGLE if work == "complex64" else MIN_LENGTH


# The shorter factor must be at least this long and at least 1/MAX_RATIO of the
# longer: a length like 2 * prime gains nothing from four steps (its long
# factor is as cache-bound as the whole) and pays the extra passes. A guard, not
# a measured edge (2^20 as 64 x 16384 ran as fast as 1024 x 1024 single-threaded).
MIN_FACTOR = 16
MAX_RATIO = 16

_TWIDDLES = OrderedDict()  # (n, n1, dtype name, inverse, scale) -> (n1, n2) array
_TWIDDLES_KEPT = 4  # each table is as large as its transform's input
_TWIDDLES_LOCK = threading.Lock()


@lru_cache(maxsize=64)
def factors(n):
    """(n1, n2) with n1 * n2 == n, n1 the largest divisor <= sqrt(n), or None
    where those factors are too short or too unbalanced to pay."""
    for n1 in range(math.isqrt(n), MIN_FACTOR - 1, -1):
        if n % n1 == 0:
            n2 = n // n1
            return (n1, n2) if n2 <= MAX_RATIO * n1 else None
    return None


def c2c_line(a, inverse, norm, result_dtype, fft_pass):
    """numpy.fft.fft (ifft) of `a`, whose elements all lie on the transformed
    axis, as four steps; None where its length does not qualify or `norm` is
    unknown (the caller then makes its one call, which raises for a bad norm).
    `fft_pass(x, inverse, axis, norm, out)` is step 1: the transforms along
    `axis` of the 2-D `x`, written into `out`."""
    n = a.size
    if norm not in _NORMS:
        return None
    work, pass_norm, scale = _precision(a.dtype.name, inverse, norm, n)
    nn = factors(n) if n >= _least_length(n, work) else None
    if nn is None:
        return None
    n1, n2 = nn
    y, t = columns(a, nn, inverse, (work, pass_norm, scale), fft_pass)
    res = _core.empty(n, dtype=result_dtype, device=a.device)
    z = res.reshape(n2, n1).T
    if _host_threads.ENABLED:
        top, bottom = slice(0, n1 // 2), slice(n1 // 2, None)
        _host_threads.both(_rows, (y[top], t[top], inverse, pass_norm, z[top]),
                           (y[bottom], t[bottom], inverse, pass_norm, z[bottom]))
    else:
        _rows(y, t, inverse, pass_norm, z)
    return res.reshape(a.shape)


def columns(a, nn, inverse, precision, fft_pass):
    """Step 1 of the line `a` (n1 * n2 elements, `nn` its factors) and step 2's
    twiddles: (y, t), the rows of y to be multiplied by those of t and then
    transformed (_rows). `precision` is _precision's triple; its scale may fold
    in more (fft/_rfft_line.py's halving)."""
    n1, n2 = nn
    work, pass_norm, scale = precision
    # Step 1 reads x by columns too: padded rows. In the work type: a complex64
    # line transformed in double precision is widened here, not again by numpy's
    # gufunc in a copy of its own (interleaved A/B, 2026-12-05: rfft of 2^19-2^20
    # float32 and fft of 2^18-2^20 complex64, unscaled, 1.04-1.09x faster).
    x = _padded_rows(n1, n2, work, a.device)
    x[...] = a.reshape(n1, n2)
    y = _padded_rows(n1, n2, work, a.device)
    fft_pass(x, inverse, 0, pass_norm, y)
    return y, _twiddles(n1 * n2, n1, work, inverse, scale)


_NORMS = (None, "backward", "ortho", "forward")

# Bytes added to each row of step 1's input (a copy) and output. Step 1 reads and
# writes them a column at a time; rows of a power-of-two size put a column's
# elements in the same few cache sets, which evict each other before the next
# column reuses their lines (measured 2026-12-04, interleaved medians under load
# 3-6: padding the output made 2^16-2^21 points 15-25% faster; copying the input
# into padded rows, 0.1-0.9 ms at 2^20, another 5-12%; other lengths unchanged).
ROW_PAD_BYTES = 64


def _padded_rows(n1, n2, dtype, device):
    """An uninitialised (n1, n2) array whose rows are ROW_PAD_BYTES apart."""
    pad = ROW_PAD_BYTES // _np.dtype(dtype).itemsize
    return _core.empty((n1, n2 + pad), dtype=dtype, device=device)[:, :n2]


def _precision(input_dtype, inverse, norm, n):
    """(the array type between the steps, the passes' norm, the twiddles' scale).

    numpy.fft's gufunc picks its loop from the input's and the scale factor's
    types: only a complex64 input with a float32 factor (a scaling norm) runs the
    single-precision loop; unscaled (the int 1) or from float32 data it runs in
    double precision, its result rounded once to complex64. The steps keep that
    precision: single, each pass scaled by its own length's factor as numpy's
    would be; or double, the passes unscaled (so also in double) with the norm's
    factor in the twiddles, complex128 between them, so that the only rounding to
    single is the result's, as in numpy's one call (complex64 between them and
    factors rounded per pass: up to four roundings, twice numpy's error).
    """
    scaled = norm != "forward" if inverse else norm not in (None, "backward")
    if input_dtype == "complex64" and scaled:
        return "complex64", norm, 1.0
    unscaled = "forward" if inverse else "backward"
    if not scaled:
        return "complex128", unscaled, 1.0
    return "complex128", unscaled, 1.0 / (math.sqrt(n) if norm == "ortho" else n)


def _rows(y, t, inverse, norm, z):
    """Steps 2 and 3 for some rows: y *= t, then z = the rows' transforms (one
    thread's share, its rows still in cache from the multiply)."""
    _core.multiply(y, t, out=y)
    _fft(y, inverse, None, 1, norm, z)


def _twiddles(n, n1, dtype, inverse, scale):
    """scale * w ** (k1 * j2) for k1 < n1, j2 < n / n1, w = exp(+-2 pi i / n):
    computed in float64 and rounded once to `dtype`; the last few tables are
    kept.

    Row k1 = kh * c + kl (c about sqrt(n1)) is the product of row kh of a table
    of w ** (kh * c * j2) and row kl of one of w ** (kl * j2): 2 sqrt(n1) rows of
    cos and sin and one product per element, 8x faster than cos and sin of every
    element (2^20: 5 against 40 ms), its error 1.17e-16 rms against 1.04e-16."""
    key = (n, n1, dtype, inverse, scale)
    with _TWIDDLES_LOCK:  # callers on several threads share the cache
        t = _TWIDDLES.get(key)
        if t is not None:
            _TWIDDLES.move_to_end(key)
            return t
    n2 = n // n1
    c = math.isqrt(n1)
    rows = -(-n1 // c)
    high = _powers(rows, c, n2, n, inverse)
    high *= scale
    low = _powers(c, 1, n2, n, inverse)
    h = (high[:, None, :] * low[None, :, :]).reshape(rows * c, n2)[:n1]
    t = _core.asarray(h.astype(dtype), device="cpu")
    with _TWIDDLES_LOCK:
        _TWIDDLES[key] = t
        while len(_TWIDDLES) > _TWIDDLES_KEPT:
            _TWIDDLES.popitem(last=False)
    return t


def _powers(rows, step, n2, n, inverse):
    """w ** (r * step * j2) for r < rows, j2 < n2, from cos and sin in float64."""
    m = _np.outer(_np.arange(rows, dtype=_np.int64) * step,
                  _np.arange(n2, dtype=_np.int64)) % n
    # exactly in integers to within [-n/2, n/2]: the angles lie within [-pi, pi]
    _np.subtract(m, n, out=m, where=2 * m > n)
    angle = m * (2.0 * math.pi / n)
    h = _np.empty(m.shape, dtype=_np.complex128)
    h.real = _np.cos(angle)
    h.imag = _np.sin(angle) if inverse else -_np.sin(angle)
    return h
