"""numpy.fft.rfft of one long real line on the cpu device: half as many complex
points in four steps (fft/_four_step.py), then one untangling pass.

A real line x of even length n, read as m = n/2 complex points
z[j] = x[2j] + i x[2j+1] (a zero-copy view), has the m-point transform
Z = E + i O, where E and O are the transforms of the even and odd samples. As E
and O are transforms of real data, E[k] = (Z[k] + conj(Z[m-k]))/2 and
O[k] = -i (Z[k] - conj(Z[m-k]))/2 (Z[m] = Z[0]), and the n-point transform is

    X[k] = E[k] + w^k O[k],  w = exp(-2 pi i / n),  k = 0 .. m.

With S = Z[k] + conj(Z[m-k]) and D = -i w^k (Z[k] - conj(Z[m-k])), both halved,
X[k] = S + D and X[m-k] = conj(S - D): each pair (k, m - k) is untangled at once.
Z comes from the four steps' column pass and row pass. Row k1 of the row pass
holds Z[k1 + n1 k2], whose partners Z[m - k1 - n1 k2] lie in row n1 - k1,
reversed (row 0 and, for even n1, row n1/2 are their own partners): each of two
host threads takes the next block of rows, transforms them and their partner
rows into temporaries that stay in its core's cache, untangles them there, and
copies the results into the output (transposed, as the four steps' row pass
writes it). The halving and the norm's factor ride on the four steps' twiddles;
the -i w^k are computed in float64 once per length and rounded once, like
those. Every split is between rows and the blocks depend on n alone, so one
thread or two (whichever takes a block) give the same bits.

Precision follows numpy.fft's loops (measured on NumPy 2.4): float64 data, and
float32 data unscaled (numpy widens a float32 copy and rounds the result once),
run in double precision, complex128 from the column pass to the output; float32
data with a scaling norm runs numpy's single-precision loop, and so does this.
Relative L2 error against numpy.fft.rfft in long double on normal random data
(2^17, 2^20, 2^21 and 10^6 points, two seeds, the thresholds lowered for 2^17),
ours against numpy's own: float64, every norm, 3.2-4.1e-16 against 3.0-3.9e-16
(1.01-1.08x); float32 unscaled 2.5e-8 both (1.00x: each is the one rounding to
complex64); float32 scaled 1.6-2.0e-7 against 1.5-2.0e-7 (0.98-1.11x).

Anything else (odd n, other axes of N-D arrays, non-contiguous or misaligned
lines, other dtypes, out= of another dtype or shape, lengths below the
thresholds) is numpy.fft.rfft's one call, as before.
"""

import math
import operator
import threading
from collections import OrderedDict

import numpy as _np

from .. import _core, _host_threads
from . import _four_step

# Points (n, real) from which this path beats the one call it replaces (the cpu
# device's numpy.fft.rfft into an output from cuarray's pool) on this project's
# 2-core host: medians of old/new, interleaved ABBA, measured 2026-12-05 on the
# hrfft branch under load 1.6-2.9 from other jobs (the two threads need the second
# core). numpy.fft's own temporaries (a float64 copy of float32 data, a complex128
# result) cost it page faults while glibc maps them afresh, as in a new process
# (there float32 data unscaled paid from 2^16: 1.1-1.8x, 2^18-2^21 2.0-3.8x);
# these figures are for a process that has freed large arrays before (four runs),
# where numpy.fft.rfft was up to 2.2x faster.
# float32 unscaled (numpy.fft widens it and runs its double loop): 2^17 0.80-0.91x,
# 2^19 0.94-1.08x, 2^20 1.09-1.22x, 2^21 1.53-2.61x; 393216 (384 x 512 complex)
# 0.87-0.91x, 786432 1.06-1.09x, 10^6 1.14-1.61x.
# float64: 2^19 0.78-0.89x, 2^20 0.87-1.04x, 2^21 1.20-1.40x, 2^22 1.67-2.94x;
# 786432 0.87-0.92x, 10^6 1.02-1.40x, 1.57e6 1.19-1.96x, 2e6 1.19-1.97x
# (numpy.fft's power-of-two lines stay in cache up to 2^20 points).
MIN_LENGTH_POWER_OF_TWO = 1 << 21  # float64 data
MIN_LENGTH = 1 << 20
# float32 data with a scaling norm (numpy.fft's single-precision loop): 2^18
# 0.95-1.05x, 2^19 1.02-1.13x, 2^20 1.04-1.17x; 393216 1.07-1.11x, 786432
# 1.16-1.21x, 10^6 1.64-2.00x.
MIN_LENGTH_SINGLE = 1 << 19

# The caller's one size comparison: nothing shorter takes this path.
MIN_SIZE = min(MIN_LENGTH_SINGLE, MIN_LENGTH)

# Bytes of each of a thread's four temporaries (a block of rows and as many
# partner rows; 2 MiB in all, the size of a core's L2 here). Interleaved A/B at
# 2^20 points (float64, float32 unscaled and scaled) and 2^18 (float64): 128 KiB
# 0.89-0.93x, 256 KiB 1.0x, 512 KiB 1.05-1.13x, 1 MiB 0.91-1.07x.
BLOCK_BYTES = 1 << 19
# Blocks at least (smaller ones where rows are long), handed out to the two
# threads as each gets to the next: against fixed halves, interleaved, 0.97-1.03x
# at load 1.5 and 1.01-1.09x with a third process spinning (2^19-2^21 points);
# 16 blocks of half the size ran 0.90-1.04x.
MIN_BLOCKS = 8

_CPU = _core.Device("cpu")
_COMPLEX = {"float32": "complex64", "float64": "complex128"}
_SCALED = ("ortho", "forward")

_TWIDDLES = OrderedDict()  # (n, (n1, n2), dtype name) -> padded (n1//2 + 1, n2) rows
_TWIDDLES_KEPT = 4  # each table is about half as large as its transform's output
_TWIDDLES_LOCK = threading.Lock()


def rfft_line(a, n, axis, norm, out, fft_pass):
    """numpy.fft.rfft(a, n, axis, norm, out) through half as many complex points
    in four steps, or None where this path does not apply (the caller then makes
    its one call, which also raises for bad arguments). `fft_pass` is the four
    steps' column pass (fft/_threads.py's)."""
    if not (isinstance(a, _core.ndarray) and a.dtype.name in _COMPLEX
            and a.device == _CPU and norm in (None, "backward") + _SCALED):
        return None
    found = _line(a, axis, n)
    if found is None:
        return None
    line, axis, n = found
    precision = _precision(a.dtype.name, norm, n)
    if n < _least_length(n, a.dtype.name, precision[0]):
        return None
    m = n // 2
    nn = _four_step.factors(m)
    shape = a.shape[:axis] + (m + 1,) + a.shape[axis + 1:]
    result_dtype = _COMPLEX[a.dtype.name]
    if nn is None or not (out is None or _fits(out, shape, result_dtype)):
        return None
    z = _resized(line, n).view(result_dtype)
    y, t = _four_step.columns(z, nn, False, precision, fft_pass)
    res = _core.empty(shape, dtype=result_dtype, device=_CPU) if out is None else out
    _rows_untangled(y, t, precision[1], _np.asarray(res).reshape(m + 1), n, nn)
    return res


def _least_length(n, real_dtype, work):
    """The threshold for n points of `real_dtype` computed in `work` precision."""
    if work == "complex64":
        return MIN_LENGTH_SINGLE
    if real_dtype == "float64" and n & (n - 1) == 0:
        return MIN_LENGTH_POWER_OF_TWO
    return MIN_LENGTH


def _line(a, axis, n):
    """(a as a contiguous 1-D view, axis in [0, ndim), the even length n to
    transform) when all of a's elements lie on `axis` and its complex view is
    aligned; None otherwise."""
    try:
        axis = operator.index(axis)
        n = a.shape[axis] if n is None else operator.index(n)
    except (TypeError, IndexError):
        return None
    if not (-a.ndim <= axis < a.ndim and a.shape[axis] == a.size >= 2 and n % 2 == 0
            and a.strides[axis] == a.itemsize):
        return None
    line = a.reshape(a.size)
    if line.data.ptr % (2 * a.itemsize):
        return None
    return line, axis % a.ndim, n


def _fits(out, shape, dtype):
    return (isinstance(out, _core.ndarray) and out.device == _CPU
            and out.dtype.name == dtype and out.shape == shape)


def _resized(line, n):
    """numpy.fft's n=: the line cropped, or zero-padded (a copy)."""
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
    """(the complex type from the column pass on, the passes' norm, the four
    steps' twiddle scale) for the m = n/2 points, so that the row pass gives
    Z * factor(n) / 2: the halves of E and O and the norm ride on the twiddles.

    numpy.fft.rfft runs its single-precision loop only for float32 data with a
    scaling norm (a float32 factor); unscaled, its factor is the int 1 and the
    loop is double precision, the result rounded once to complex64. As in
    _four_step._precision, single precision scales each pass by its own length's
    factor (the product is factor(m)), double precision leaves the passes
    unscaled."""
    if real_dtype == "float32" and norm in _SCALED:
        return "complex64", norm, 0.5 * _factor(norm, n) / _factor(norm, n // 2)
    return "complex128", "backward", 0.5 * _factor(norm, n)


def _rows_untangled(y, t, norm, x, n, nn):
    """Steps 2 and 3 of the four steps (y's rows times t's, transformed) and the
    untangling, into x (n/2 + 1 points, any strides), on two threads: each takes
    the next block of row pairs (then the rows that are their own partners) as it
    gets to it, so that a thread the host schedules late takes less."""
    n1, n2 = nn
    w = _twiddles(n, nn, y.dtype.name)
    xt = x[:n1 * n2].reshape(n2, n1).T  # X[k1 + n1 k2] at xt[k1, k2]
    half = (n1 + 1) // 2  # rows 1 .. half - 1 pair with rows n1 - 1 .. n1 - half + 1
    most = max(1, BLOCK_BYTES // (n2 * y.itemsize))
    block = max(1, min(most, -(-(half - 1) // MIN_BLOCKS)))
    tasks = [(r0, min(r0 + block, half), False) for r0 in range(1, half, block)]
    tasks += [(r, r + 1, True) for r in ((0, n1 // 2) if n1 % 2 == 0 else (0,))]
    queue = _Queue(tasks)
    args = (y, t, w, norm, xt, queue, block)
    if _host_threads.ENABLED:
        _host_threads.both(_untangle_rows, args, args)
    else:
        _untangle_rows(*args)
    z0 = queue.z0
    x[n1 * n2] = 2.0 * (z0.real - z0.imag)  # X[m] = E[0] - O[0]


class _Queue:
    """Tasks (r0, r1, alone) handed out in order to whichever thread asks; z0 is
    Z[0] (halved, scaled), left by the thread that untangles row 0."""

    def __init__(self, tasks):
        self._tasks = iter(tasks)
        self._lock = threading.Lock()
        self.z0 = None

    def next(self):
        with self._lock:
            return next(self._tasks, None)


def _untangle_rows(y, t, w, norm, xt, queue, block):
    """One thread's work: blocks of rows r0 .. r1 - 1 with their partner rows, and
    the rows that are their own partners (`alone`), until the queue is empty."""
    n1, n2 = y.shape
    temps = zr = zp = None
    while (task := queue.next()) is not None:
        r0, r1, alone = task
        if temps is None:
            zr, zp, temps = _temps(block, n2, y.dtype.name)
        _four_step._rows(y[r0:r1], t[r0:r1], False, norm, zr[:r1 - r0, :n2])
        if alone:
            first = _own_partner_row(temps, w[r0], xt[r0], r0)
            if r0 == 0:
                queue.z0 = first
            continue
        pair = slice(n1 - r1 + 1, n1 - r0 + 1)  # rows n1 - k1, ascending
        _four_step._rows(y[pair], t[pair], False, norm, zp[:r1 - r0, :n2])
        _row_pairs(temps, w[r0:r1], xt[r0:r1], xt[pair])


def _temps(rows, n2, dtype):
    """(zr, zp, _Temps): the row pass's outputs for a block of rows and for their
    partners, in padded rows (fft/_four_step.py's reason: the copies into the
    transposed output read them by columns). The arithmetic runs on flat views,
    pads included (NumPy's loops ran 3-4x slower over padded 2-D views): zeros, as
    no pass writes the pads."""
    pad = _four_step.ROW_PAD_BYTES // _np.dtype(dtype).itemsize
    zr, zp = (_core.zeros((rows, n2 + pad), dtype=dtype, device=_CPU) for _ in "rp")
    return zr, zp, _Temps(_np.asarray(zr), _np.asarray(zp), n2)


class _Temps:
    """A thread's padded temporaries, as flat views: zr and zp (NumPy's views of
    the row pass's outputs for rows and for their partner rows), c and d."""

    def __init__(self, zr, zp, n2):
        self.shape, self.n2 = zr.shape, n2
        self.zr, self.zp = zr.reshape(-1), zp.reshape(-1)
        self.c, self.d = _np.zeros_like(self.zr), _np.zeros_like(self.zr)


def _row_pairs(tm, w, xt_rows, xt_pairs):
    """X for a block of b rows k1 (the row pass's output in tm.zr) and for their
    partners n1 - k1 (in tm.zp, ascending: the block's reverse). Over the flat
    padded layout, element f of a row block is element size - 1 - f of its
    partners' (size = b rows and the pads between them)."""
    b = xt_rows.shape[0]
    wide = tm.shape[1]
    size = b * wide - (wide - tm.n2)
    zk, c, d = tm.zr[:size], tm.c[:size], tm.d[:size]
    _np.conjugate(tm.zp[size - 1::-1], out=c)  # conj(Z[m - k])
    _np.subtract(zk, c, out=d)
    _np.add(zk, c, out=c)  # S
    _np.multiply(d, w.reshape(-1)[:size], out=d)  # D
    _np.add(c, d, out=zk)  # X[k]
    _np.copyto(xt_rows, tm.zr.reshape(tm.shape)[:b, :tm.n2], casting="same_kind")
    _np.subtract(c, d, out=c)
    _np.conjugate(c, out=c)  # X[m - k]
    _np.copyto(xt_pairs, tm.c.reshape(tm.shape)[b - 1::-1, tm.n2 - 1::-1],
               casting="same_kind")


def _own_partner_row(tm, w, xt_row, r):
    """X for row r (0 or n1/2, the row pass's output in tm.zr), its own partner:
    Z[m - n1 k2] = Z[n1 (n2 - k2)] for row 0 (reversed cyclically), and
    Z[m - r - n1 k2] = Z[r + n1 (n2 - 1 - k2)] for row n1/2 (reversed). Each
    element is computed as X[k], X[m - k] being another of the row's. Returns
    the row's first element."""
    n2 = tm.n2
    z, c, d = tm.zr[:n2], tm.c[:n2], tm.d[:n2]
    if r == 0:
        _np.conjugate(z[:1], out=c[:1])
        _np.conjugate(z[:0:-1], out=c[1:])
    else:
        _np.conjugate(z[::-1], out=c)
    _np.subtract(z, c, out=d)
    _np.add(z, c, out=c)
    _np.multiply(d, w[:n2], out=d)
    _np.add(c, d, out=c)
    _np.copyto(xt_row, c, casting="same_kind")
    return complex(z[0])


def _twiddles(n, nn, dtype):
    """-i w^k for k = k1 + n1 k2, k1 <= n1/2, k2 < n2, w = exp(-2 pi i / n), at
    [k1, k2] of rows padded as _Temps' are (pads 0): computed in float64 from
    angles within [-pi/2, pi/2] and rounded once to `dtype`; the last few tables
    are kept."""
    key = (n, nn, dtype)
    with _TWIDDLES_LOCK:  # callers on several threads share the cache
        t = _TWIDDLES.get(key)
        if t is not None:
            _TWIDDLES.move_to_end(key)
            return t
    n1, n2 = nn
    k = _np.add.outer(_np.arange(n1 // 2 + 1), n1 * _np.arange(n2))
    flip = 4 * k > n  # -i w^k = i w^(k - n/2)
    k -= flip * (n // 2)
    angle = k * (2.0 * math.pi / n)
    pad = _four_step.ROW_PAD_BYTES // _np.dtype(dtype).itemsize
    h = _np.zeros((k.shape[0], n2 + pad), dtype=_np.complex128)
    sign = _np.where(flip, 1.0, -1.0)
    h.real[:, :n2] = sign * _np.sin(angle)
    h.imag[:, :n2] = sign * _np.cos(angle)
    t = h.astype(dtype)
    with _TWIDDLES_LOCK:
        _TWIDDLES[key] = t
        while len(_TWIDDLES) > _TWIDDLES_KEPT:
            _TWIDDLES.popitem(last=False)
    return t
