"""The cpu device's two-thread paths (_host_threads.py): large c2c FFTs along and
over axes, row sorts and argsorts, searchsorted's queries, against NumPy bit for bit;
long 1-D FFTs in four steps (fft/_four_step.py), against NumPy's accuracy.

Each case runs just below and just above its threshold (the split is counted, so
both sides are known to be taken), with odd sizes, along both halving axes.

The cpu device only: the comparisons are bit for bit with NumPy's own routines,
which a GPU does not run (cuFFT rounds otherwise; its sorts are stable whatever the
kind, so quicksort's ties differ). A GPU array never splits (_cpu_array); the GPU
calls go through the same wrappers in tests/test_sort.py and tests/test_fft.py
(session 10's H200 run: those passed, these 84 GPU cases failed on exactly the
above and were then dropped).
"""

import subprocess
import sys

import numpy as np
import pytest

import cuarray as ca
from cuarray import _host_threads, _sort_threads
from cuarray.fft import _four_step as fft_four_step
from cuarray.fft import _threads as fft_threads

from conftest import count_calls, random_array


@pytest.fixture
def device():
    """This file's tests are the cpu device's (conftest's fixture adds cuda:0)."""
    return "cpu"


@pytest.fixture
def splits(monkeypatch):
    """Counts the two-thread runs; forces the path on a one-core host too."""
    calls = []
    real = _host_threads.both

    def counting(fn, first, second):
        calls.append(1)
        return real(fn, first, second)

    monkeypatch.setattr(_host_threads, "ENABLED", True)
    monkeypatch.setattr(_host_threads, "both", counting)
    return calls


def expect_split(splits, device, n, above):
    assert len(splits) == (n if above else 0)


def same(r, e):
    r = r.get() if hasattr(r, "get") else np.asarray(r)
    assert r.dtype == e.dtype and r.shape == e.shape
    assert np.array_equal(r, e, equal_nan=True)


# ---------------------------------------------------------------- FFT

def fft_shape(above, last):
    """2-D shapes with odd lengths on both sides of MIN_SPLIT_SIZE (`last` lines
    long)."""
    rows = fft_threads.MIN_SPLIT_SIZE // last + (1 if above else 0)
    assert (rows * last >= fft_threads.MIN_SPLIT_SIZE) == above
    return rows, last


@pytest.mark.parametrize("above", [False, True])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128, np.float32, np.float64])
@pytest.mark.parametrize("axis", [0, -1, 1, -2])
def test_fft_along_an_axis(device, splits, above, dtype, axis):
    h = random_array(fft_shape(above, 181), dtype)
    for fn, norm in (("fft", None), ("ifft", "ortho"), ("fft", "forward")):
        splits.clear()
        r = getattr(ca.fft, fn)(ca.asarray(h, device=device), axis=axis, norm=norm)
        same(r, getattr(np.fft, fn)(h, axis=axis, norm=norm))
        expect_split(splits, device, 1, above)


@pytest.mark.parametrize("above", [False, True])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128, np.float32])
def test_fft2_and_fftn(device, splits, above, dtype):
    h = random_array(fft_shape(above, 257), dtype)
    x = ca.asarray(h, device=device)
    for fn, kw in (("fft2", {}), ("ifft2", {"norm": "ortho"}), ("fft2", {"axes": (1, 0)}),
                   ("fftn", {}), ("ifftn", {"axes": [-1, 0], "norm": "forward"})):
        splits.clear()
        same(getattr(ca.fft, fn)(x, **kw), getattr(np.fft, fn)(h, **kw))
        expect_split(splits, device, 2, above)


def test_fftn_three_axes_and_a_one_row_axis(device, splits):
    h = random_array((3, 1, 44001), np.complex64)
    x = ca.asarray(h, device=device)
    same(ca.fft.fftn(x), np.fft.fftn(h))
    # the axis of length 1 is not halved: its pass halves axis 0 (or runs whole)
    same(ca.fft.fft(x, axis=1), np.fft.fft(h, axis=1))
    h = random_array((1, 140001), np.complex64)
    splits.clear()
    same(ca.fft.fft(ca.asarray(h, device=device)), np.fft.fft(h))
    assert not splits  # one line: nothing to halve


def test_fft_not_split(device, splits):
    """n/s, out=, other dtypes, real transforms and 1-D arrays of lengths without
    balanced factors take the C path."""
    h = random_array((450, 301), np.complex64)
    x = ca.asarray(h, device=device)
    same(ca.fft.fft(x, n=300), np.fft.fft(h, n=300))
    same(ca.fft.fft2(x, s=(400, 300)), np.fft.fft2(h, s=(400, 300)))
    out = ca.empty(h.shape, dtype=np.complex64, device=device)
    ca.fft.fft(x, out=out)
    same(out, np.fft.fft(h))
    same(ca.fft.fft(ca.asarray(h.real.astype(np.float16), device=device)),
         np.fft.fft(h.real.astype(np.float16)))
    i = random_array((450, 301), np.int32)
    same(ca.fft.fft(ca.asarray(i, device=device)), np.fft.fft(i))
    same(ca.fft.rfft(ca.asarray(h.real, device=device)), np.fft.rfft(h.real))
    line = h.ravel()[:2 * 65537]  # no balanced factors: no four steps either
    same(ca.fft.fft(ca.asarray(line, device=device)), np.fft.fft(line))
    assert not splits


def test_fft_bad_axes_keep_the_c_errors(splits):
    x = ca.asarray(random_array((450, 301), np.complex64), device="cpu")
    for kw in ({"axes": (0, 2)}, {"axes": (0.5, 1)}):
        with pytest.raises((ValueError, TypeError, IndexError, np.exceptions.AxisError)):
            ca.fft.fft2(x, **kw)
    # a repeated axis is transformed once per mention, as NumPy's
    np.testing.assert_allclose(ca.fft.fft2(x, axes=(0, 0)).get(),
                               np.fft.fft2(x.get(), axes=(0, 0)), rtol=1e-4, atol=1e-2)
    with pytest.raises(ValueError, match="norm"):
        ca.fft.fft(x, norm="sideways")
    same(ca.fft.fftn(x, axes=()), np.fft.fftn(x.get(), axes=()))


# ---------------------------------------------------------------- FFT in four steps

@pytest.fixture
def four_steps(monkeypatch):
    """Counts the four-step transforms (fft/_four_step.py)."""
    return count_calls(monkeypatch, fft_four_step, "c2c_line")


def rel_error(r, ref):
    """Relative L2 error of `r` against a clongdouble reference."""
    r = np.asarray(r).astype(np.clongdouble)
    return float(np.linalg.norm(r - ref) / np.linalg.norm(ref))


def close_to_numpy(r, h, fn, norm):
    """`r` (ca.fft's fn of `h`) has numpy's dtype and shape, and its error against
    numpy.fft in long double is within 1.5 times numpy's own plus an ulp (the
    four steps measured 0.97-1.03x numpy's error in complex128, 1.00x complex64
    unscaled, up to 1.23x complex64 scaled, where both compute in single)."""
    e = getattr(np.fft, fn)(h, norm=norm)
    r = np.asarray(r)
    assert r.dtype == e.dtype and r.shape == e.shape
    ref = getattr(np.fft, fn)(h.astype(np.clongdouble), norm=norm)
    ulp = np.finfo(e.real.dtype).eps
    assert rel_error(r, ref) <= 1.5 * rel_error(e, ref) + ulp


def balanced_length(start, step):
    """The first length from `start` (by `step`) that has balanced factors."""
    n = start
    while fft_four_step.factors(n) is None:
        n += step
    return n


# A power of two and another length just above their thresholds (720 x 729: the
# first lengths above 2^19 with balanced factors have large prime factors, which
# make numpy's long-double reference slow).
ABOVE = [fft_four_step.MIN_LENGTH_POWER_OF_TWO, 720 * 729]
assert 0 <= ABOVE[1] - fft_four_step.MIN_LENGTH < 1000


@pytest.mark.parametrize("n", ABOVE + [3**12])  # and an odd length
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128, np.float32, np.float64])
def test_fft_four_steps(device, splits, four_steps, n, dtype):
    h = random_array(n, dtype)
    x = ca.asarray(h, device=device)
    taken = []
    for fn in ("fft", "ifft"):
        for norm in (None, "backward", "ortho", "forward"):
            close_to_numpy(getattr(ca.fft, fn)(x, norm=norm), h, fn, norm)
            taken.append(n & (n - 1) == 0 or not single_precision(dtype, fn, norm))
    assert four_steps == taken
    assert len(splits) == 2 * sum(taken)  # the columns' pass, then the rows'


def single_precision(dtype, fn, norm):
    """Whether numpy.fft transforms in single precision (complex64 data, scaled),
    where lengths other than powers of two take four steps from MIN_LENGTH_SINGLE."""
    unscaled = norm == "forward" if fn == "ifft" else norm in (None, "backward")
    return dtype == np.complex64 and not unscaled


def test_fft_four_steps_single_precision_threshold(device, four_steps):
    for n in (fft_four_step.MIN_LENGTH_SINGLE + 1024, 720 * 729):
        h = random_array(n, np.complex64)
        x = ca.asarray(h, device=device)
        close_to_numpy(ca.fft.fft(x, norm="ortho"), h, "fft", "ortho")
        close_to_numpy(ca.fft.ifft(x), h, "ifft", None)
        close_to_numpy(ca.fft.fft(x), h, "fft", None)  # double precision
    assert four_steps == [True, True, True, False, False, True]


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_fft_four_steps_round_trip(device, dtype):
    h = random_array(ABOVE[1], dtype)
    x = ca.asarray(h, device=device)
    for norm in (None, "ortho", "forward"):
        back = ca.fft.ifft(ca.fft.fft(x, norm=norm), norm=norm)
        tol = 1e-6 if dtype == np.complex64 else 1e-14
        assert rel_error(back, h.astype(np.clongdouble)) < tol


def test_fft_four_steps_small_lengths(device, monkeypatch, four_steps):
    """The index mapping on lengths of every shape, the threshold lowered."""
    monkeypatch.setattr(fft_four_step, "MIN_LENGTH", 1)
    monkeypatch.setattr(fft_four_step, "MIN_LENGTH_POWER_OF_TWO", 1)
    monkeypatch.setattr(fft_threads, "MIN_SIZE", 1)
    monkeypatch.setattr(fft_four_step, "MIN_FACTOR", 2)
    fft_four_step.factors.cache_clear()
    try:
        for n in (4, 6, 15, 64, 105, 343, 1000, 2**11 * 3**2):
            h = random_array(n, np.complex128)
            for fn in ("fft", "ifft"):
                close_to_numpy(getattr(ca.fft, fn)(ca.asarray(h, device=device)), h,
                               fn, None)
    finally:
        fft_four_step.factors.cache_clear()
    assert four_steps == [True] * 16


def test_fft_four_steps_same_bits_on_one_thread(device, monkeypatch, four_steps):
    for n, norm in ((ABOVE[0], "ortho"), (ABOVE[1], "forward")):  # single, double
        x = ca.asarray(random_array(n, np.complex64), device=device)
        monkeypatch.setattr(_host_threads, "ENABLED", True)
        two = ca.fft.ifft(x, norm=norm).get()
        monkeypatch.setattr(_host_threads, "ENABLED", False)
        same(ca.fft.ifft(x, norm=norm), two)
    assert four_steps == [True] * 4


def test_fft_four_steps_layouts(device, splits, four_steps):
    """A line in a 2-D array, fftn of a line, strided input; 2-D keeps the split."""
    n = ABOVE[0]
    h = random_array(2 * n, np.complex64)
    x = ca.asarray(h, device=device)
    close_to_numpy(ca.fft.fft(x[::2]), h[::2], "fft", None)
    close_to_numpy(ca.fft.fftn(x[1::2]), h[1::2], "fftn", None)
    row, col = h[:n].reshape(1, n), h[:n].reshape(n, 1)
    close_to_numpy(ca.fft.fft(ca.asarray(row, device=device)), row, "fft", None)
    r = ca.fft.ifft(ca.asarray(col, device=device), axis=0, norm="forward")
    e = np.fft.ifft(col.astype(np.clongdouble), axis=0, norm="forward")
    assert r.shape == (n, 1) and rel_error(r, e) < 1e-7
    assert four_steps == [True] * 4
    h2 = h.reshape(2, n)
    four_steps.clear()
    same(ca.fft.fft(ca.asarray(h2, device=device)), np.fft.fft(h2))
    assert four_steps == []


def test_fft_four_steps_not_taken(device, splits, four_steps):
    """Below the threshold, primes, unbalanced lengths, n=, out=: numpy.fft's bits."""
    below = balanced_length(fft_four_step.MIN_LENGTH - 1, -1)
    prime = next(p for p in range(fft_four_step.MIN_LENGTH + 1, 10**7, 2)
                 if all(p % d for d in range(3, int(p**0.5) + 1, 2)))
    power_below = fft_four_step.MIN_LENGTH_POWER_OF_TWO // 2
    for n in (below, power_below, prime, 2 * prime):
        h = random_array(n, np.complex64)
        x = ca.asarray(h, device=device)
        same(ca.fft.fft(x, norm="ortho"), np.fft.fft(h, norm="ortho"))
        same(ca.fft.ifft(x), np.fft.ifft(h))
    assert True not in four_steps
    h = random_array(ABOVE[0], np.complex64)
    x = ca.asarray(h, device=device)
    same(ca.fft.fft(x, n=h.size), np.fft.fft(h, n=h.size))
    out = ca.empty(h.shape, dtype=np.complex64, device=device)
    ca.fft.fft(x, out=out)
    same(out, np.fft.fft(h))
    assert True not in four_steps and not splits


def test_fft_four_steps_factors_and_twiddle_cache(device):
    assert fft_four_step.factors(1 << 20) == (1024, 1024)
    assert fft_four_step.factors(1 << 21) == (1024, 2048)
    assert fft_four_step.factors(3**12) == (729, 729)
    assert fft_four_step.factors(2 * 1000003) is None  # 2 x a prime
    assert fft_four_step.factors(64 * 65537) is None  # 64 x a prime: 1024 to 1
    x = ca.asarray(random_array(ABOVE[0], np.complex64), device=device)
    for norm in (None, "ortho"):
        ca.fft.fft(x, norm=norm), ca.fft.ifft(x, norm=norm)
        ca.fft.fft(x.astype(np.complex128)), ca.fft.ifft(x.astype(np.complex128))
    assert len(fft_four_step._TWIDDLES) <= fft_four_step._TWIDDLES_KEPT


# ---------------------------------------------------------------- sort, argsort

def sort_data(shape, dtype):
    """Many ties (stability and tie order show) and, for floats, NaN and -0.0."""
    rng = np.random.default_rng(5)
    h = rng.integers(-20, 20, size=shape).astype(dtype)
    if np.dtype(dtype).kind == "f":
        h.flat[::97] = np.nan
        h.flat[1::89] = -0.0
    return h


def rows_around(threshold, cols, above):
    """A (rows, cols) shape just below or just above `threshold` elements."""
    rows = threshold // cols + (1 if above else 0)
    assert (rows * cols >= threshold) == above
    return rows, cols


SORT_BASE = {"sort": _sort_threads.SORT_MIN_SIZE, "argsort": _sort_threads.ARGSORT_MIN_SIZE}


@pytest.mark.parametrize("above", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.int16, np.uint8,
                                   np.complex64, np.bool_])
@pytest.mark.parametrize("kind", [None, "stable", "quicksort", "heapsort", "mergesort"])
@pytest.mark.parametrize("fn", ["sort", "argsort"])
def test_row_sorts(device, splits, fn, above, dtype, kind):
    t = _sort_threads.threshold(SORT_BASE[fn], np.empty(0, dtype),
                                _sort_threads.np_kind(kind, None))
    h = sort_data(rows_around(t, 257, above), dtype)
    x = ca.asarray(h, device=device)
    for axis in (-1, 1):
        splits.clear()
        same(getattr(ca, fn)(x, axis=axis, kind=kind), getattr(np, fn)(h, axis=axis,
                                                                       kind=kind))
        expect_split(splits, device, 1, above)


def test_kinds_and_thresholds():
    k = _sort_threads.np_kind
    assert [k(None, None), k(None, True), k(None, False)] == ["quicksort", "stable",
                                                              "quicksort"]
    assert [k("mergesort", None), k("heapsort", None)] == ["stable", "heapsort"]
    assert k("quick", None) is None and k("stable", True) is None and k(3, None) is None
    f4, i2 = np.empty(0, np.float32), np.empty(0, np.int16)
    base, stable = _sort_threads.ARGSORT_MIN_SIZE, _sort_threads.STABLE_MIN_SIZE
    assert _sort_threads.threshold(base, f4, "quicksort") == base
    assert _sort_threads.threshold(base, f4, "stable") == stable
    assert _sort_threads.threshold(base, i2, "stable") == base  # NumPy's radix sort


@pytest.mark.parametrize("kw", [{"stable": True}, {"stable": False}, {"kind": "q"},
                                {"kind": "stable", "stable": True}, {"kind": 3},
                                {"order": "x"}, {"kind": "bogus"}])
def test_other_kind_arguments_take_the_c_call(splits, kw):
    h = sort_data((600, 257), np.float32)
    x = ca.asarray(h, device="cpu")
    try:
        want = ca._core.argsort(x, **kw).get()
    except (ValueError, TypeError) as e:
        with pytest.raises(type(e), match="."):
            ca.argsort(x, **kw)
    else:
        same(ca.argsort(x, **kw), want)
    split = "stable" in kw and "kind" not in kw
    assert len(splits) == (1 if split else 0)


def test_row_sorts_three_dims_and_stable_flag(device, splits):
    h = sort_data((5, 31, 301), np.float32)
    x = ca.asarray(h, device=device)
    same(ca.argsort(x, axis=2, stable=True), np.argsort(h, axis=2, stable=True))
    same(ca.sort(x, kind="mergesort"), np.sort(h, kind="mergesort"))
    expect_split(splits, device, 2, True)


def test_sorts_not_split(device, splits):
    """Other axes and descending sorts: one C call (a flattened sort and one row are
    one run: test_run_sorts_flattened_and_one_row)."""
    h = sort_data((301, 257), np.float32)
    x = ca.asarray(h, device=device)
    same(ca.argsort(x, axis=0, kind="stable"), np.argsort(h, axis=0, kind="stable"))
    same(ca.argsort(x, descending=True, stable=True),
         ca._core.argsort(x, descending=True, stable=True).get())
    assert not splits


# ------------------------------------------------- sort, argsort of one run

ALL_DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32,
              np.int64, np.uint64, np.float16, np.float32, np.float64, np.complex64,
              np.complex128]
RUN_BASE = {"sort": _sort_threads.RUN_SORT_MIN_SIZE,
            "argsort": _sort_threads.RUN_ARGSORT_MIN_SIZE}


def run_data(n, dtype, seed=5):
    """n values with many ties; floats also NaN, -0.0, +0.0 and both infinities;
    complex numbers NaN in either part or both (NumPy's three NaN classes)."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.random(n) < 0.3
    h = rng.integers(-20, 20, size=n).astype(dtype)
    if dt.kind == "c":
        h.imag = rng.integers(-3, 3, size=n)
        h[::97] = complex(np.nan, 1)
        h[1::89] = complex(1, np.nan)
        h[2::83] = complex(np.nan, np.nan)
        h[3::79] = complex(-0.0, 0.0)
    if dt.kind == "f":
        h[::97] = np.nan
        h[1::89] = -0.0
        h[2::83] = np.inf
        h[3::79] = -np.inf
        h[4::73] = -np.nan  # a NaN with its sign bit set
    return h


def same_sort(fn, kind, r, h, e):
    """Stable kinds: NumPy's result bit for bit. Others: NumPy's sorted values, and
    an argsort that is a permutation putting h in that order."""
    r = r.get() if hasattr(r, "get") else np.asarray(r)
    assert r.dtype == e.dtype and r.shape == e.shape
    if fn == "argsort" and _sort_threads.np_kind(kind, None) != "stable":
        flat = r.reshape(-1)
        assert np.array_equal(np.sort(flat), np.arange(flat.size))
        assert np.array_equal(h.reshape(-1)[flat], h.reshape(-1)[e.reshape(-1)],
                              equal_nan=True)
    elif fn == "argsort" or _sort_threads.np_kind(kind, None) == "stable":
        assert np.array_equal(r.view(np.uint8), e.view(np.uint8))  # the very bits
    else:
        assert np.array_equal(r, e, equal_nan=True)


@pytest.mark.parametrize("above", [False, True])
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("kind", [None, "stable", "quicksort", "heapsort", "mergesort"])
@pytest.mark.parametrize("fn", ["sort", "argsort"])
def test_run_sorts(device, splits, fn, above, dtype, kind):
    """1-D arrays just below and above their threshold (odd lengths), every dtype and
    kind; bool, stable kinds of radix-sorted keys and sort's unstable kinds of
    float16 never split (run_threshold)."""
    t = _sort_threads.run_threshold(RUN_BASE[fn], np.empty(0, dtype),
                                    _sort_threads.np_kind(kind, None), fn == "sort")
    never = t == float("inf")
    n = (_sort_threads.RUN_SORT_MIN_SIZE if never else t) + (1 if above else -1)
    n |= 1
    h = run_data(n, dtype)
    x = ca.asarray(h, device=device)
    for axis in (-1, 0, None):
        splits.clear()
        same_sort(fn, kind, getattr(ca, fn)(x, axis=axis, kind=kind), h,
                  getattr(np, fn)(h, axis=axis, kind=kind))
        expect_split(splits, device, 1, above and not never)


@pytest.mark.parametrize("fn", ["sort", "argsort"])
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.complex128, np.float16])
def test_run_sorts_flattened_and_one_row(device, splits, fn, dtype):
    """axis=None of 2-D and 3-D arrays (contiguous, transposed, reversed) and the last
    axis of a (1, n) or (1, 1, n) array are one run each."""
    cols = max(RUN_BASE.values()) // 15 + 2
    h = run_data(15 * cols, dtype).reshape(3, 5, cols)
    x = ca.asarray(h, device=device)
    cases = ((x, h), (x.T, h.T), (x[::-1, :, ::-1], h[::-1, :, ::-1]),
             (x.reshape(15, -1), h.reshape(15, -1)))
    want = 0
    for v, hv in cases:
        for kw in ({"kind": "stable"}, {"stable": True}, {}):
            kind = kw.get("kind", "stable" if kw else None)
            same_sort(fn, kind, getattr(ca, fn)(v, axis=None, **kw), hv,
                      getattr(np, fn)(hv, axis=None, **kw))
            want += _sort_threads.run_threshold(RUN_BASE[fn], h, np_kind(kind),
                                                fn == "sort") <= h.size
    assert len(splits) == want >= 8
    splits.clear()
    for shape in ((1, h.size), (1, 1, h.size)):
        hv = h.reshape(shape)
        v = ca.asarray(hv, device=device)
        for axis in (-1, len(shape) - 1):
            same_sort(fn, "stable", getattr(ca, fn)(v, axis=axis, stable=True), hv,
                      getattr(np, fn)(hv, axis=axis, stable=True))
    expect_split(splits, device, 4, True)


def np_kind(kind):
    return _sort_threads.np_kind(kind, None)


@pytest.mark.parametrize("fn", ["sort", "argsort"])
def test_run_boundaries(device, splits, fn):
    """The halves meet on ties, hold only NaNs, are already in order or reversed, one
    half all below the other: the merge keeps NumPy's order, left run first."""
    n = 2 * _sort_threads.RUN_ARGSORT_MIN_SIZE + 1
    h = n // 2
    ramp = np.arange(n, dtype=np.float64)
    cases = [np.zeros(n), np.full(n, np.nan), ramp, ramp[::-1].copy(),
             np.concatenate([ramp[h:], ramp[:h]]),  # each half above the other
             np.where(ramp < h, np.nan, ramp),  # NaNs only in the left half
             np.where(ramp % 2 == 0, 0.0, -0.0),  # +0.0 and -0.0 tie
             np.tile([1.0, np.nan, -np.inf, 2.0, 1.0], n // 5 + 1)[:n]]
    for c in cases:
        for dtype in (np.float32, np.float64, np.complex64):
            hc = c.astype(dtype)
            x = ca.asarray(hc, device=device)
            for kind in ("stable", None, "heapsort"):
                same_sort(fn, kind, getattr(ca, fn)(x, kind=kind), hc,
                          getattr(np, fn)(hc, kind=kind))
    assert len(splits) == len(cases) * 9


def test_runs_not_split(device, splits):
    """Descending, order= and other axes of n-D arrays stay one C call; below the
    thresholds too."""
    h = run_data(_sort_threads.RUN_SORT_MIN_SIZE + 1, np.float32)
    x = ca.asarray(h, device=device)
    same(ca.sort(x, descending=True), ca._core.sort(x, descending=True).get())
    same(ca.argsort(x, descending=True, stable=True),
         ca._core.argsort(x, descending=True, stable=True).get())
    with pytest.raises(ValueError):
        ca._core.sort(x, order="a")
    with pytest.raises(ValueError):
        ca.sort(x, order="a")
    two = run_data(2 * 40001, np.float32).reshape(2, 40001)
    same(ca.argsort(ca.asarray(two, device=device), axis=0, kind="stable"),
         np.argsort(two, axis=0, kind="stable"))
    small = run_data(_sort_threads.RUN_STABLE_MIN_SIZE - 1, np.float64)
    same(ca.argsort(ca.asarray(small, device=device), kind="stable"),
         np.argsort(small, kind="stable"))
    assert not splits


# ---------------------------------------------------------------- searchsorted

@pytest.mark.parametrize("above", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.uint64])
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_queries(device, splits, above, dtype, side):
    q = _sort_threads.SEARCH_MIN_QUERIES + (1 if above else -1)
    a = np.sort(sort_data((3001,), dtype))
    v = sort_data((q,), dtype)
    r = ca.searchsorted(ca.asarray(a, device=device), ca.asarray(v, device=device), side)
    same(r, np.searchsorted(a, v, side))
    expect_split(splits, device, 1, above)


def test_searchsorted_two_dim_queries(device, splits):
    a = np.sort(sort_data((1001,), np.float32))
    v = sort_data((7, 5001), np.float32)
    same(ca.searchsorted(ca.asarray(a, device=device), ca.asarray(v, device=device)),
         np.searchsorted(a, v))
    expect_split(splits, device, 1, True)


def test_searchsorted_not_split(device, splits):
    """A sorter, another dtype, a strided `a`, one query row: one C call."""
    a = np.sort(sort_data((2001,), np.float32))
    v = sort_data((40001,), np.float32)
    ad, vd = ca.asarray(a, device=device), ca.asarray(v, device=device)
    order = np.argsort(a[::-1], kind="stable")
    same(ca.searchsorted(ca.asarray(a[::-1], device=device), vd,
                         sorter=ca.asarray(order, device=device)),
         np.searchsorted(a[::-1], v, sorter=order))
    same(ca.searchsorted(ad, ca.asarray(v.astype(np.float64), device=device)),
         np.searchsorted(a, v.astype(np.float64)))
    same(ca.searchsorted(ca.asarray(np.repeat(a, 2), device=device)[::2], vd),
         np.searchsorted(a, v))
    same(ca.searchsorted(ad, vd.reshape(1, -1)), np.searchsorted(a, v.reshape(1, -1)))
    assert not splits


# ---------------------------------------------------------------- the worker

def test_both_waits_for_the_worker_before_raising():
    import time
    done = []

    def fn(i):
        if i == 2:
            raise KeyError("here")
        time.sleep(0.05)
        done.append(i)
        return i

    for _ in range(5):
        done.clear()
        with pytest.raises(KeyError):
            _host_threads.both(fn, (1,), (2,))
        seen = list(done)
        time.sleep(0.1)
        assert done == seen and seen in ([], [1])  # nothing still running
    assert _host_threads.both(fn, (1,), (3,)) == (1, 3)


def test_both_runs_a_late_half_itself(monkeypatch):
    """A worker that has not started its half by the time this thread is done:
    this thread runs it (once), the worker then skips it."""
    import threading
    gate = threading.Event()
    ran = []
    _host_threads.both(lambda: None, (), ())  # the worker exists
    _host_threads._pool.submit(gate.wait)  # keeps the worker busy
    try:
        r = _host_threads.both(lambda i: ran.append(i) or i, (1,), (2,))
    finally:
        gate.set()
    _host_threads.both(lambda: None, (), ())  # the worker has drained its queue
    assert r == (1, 2) and sorted(ran) == [1, 2]


def test_halves():
    assert _host_threads.halves((5, 7), 0) == (1, (slice(None), slice(0, 3)),
                                               (slice(None), slice(3, None)))
    assert _host_threads.halves((5, 7), 1) == (0, (slice(0, 2),), (slice(2, None),))
    assert _host_threads.halves((1, 7), 1) is None


def python_prints(src):
    """What a fresh interpreter running `src` prints (it must exit cleanly)."""
    r = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def test_no_thread_at_import():
    src = ("import threading, cuarray, cuarray._host_threads as h; "
           "assert h._pool is None; "
           "assert not [t for t in threading.enumerate() if 'cuarray-host' in t.name]; "
           "print('ok')")
    assert python_prints(src) == "ok"


def test_strided_and_read_only_inputs(device, splits):
    """Views (every other column, a transpose, reversed rows) and a read-only array
    split like contiguous ones."""
    h = sort_data((1201, 514), np.float32)
    x = ca.asarray(h, device=device)
    for v, hv in ((x[:, ::2], h[:, ::2]), (x.T, h.T), (x[::-1], h[::-1])):
        same(ca.argsort(v, kind="stable"), np.argsort(hv, kind="stable"))
        same(ca.sort(v, kind="stable"), np.sort(hv, kind="stable"))
        c = np.ascontiguousarray(hv).astype(np.complex64)
        same(ca.fft.fft2(ca.asarray(c, device=device)[:, ::-1]), np.fft.fft2(c[:, ::-1]))
    expect_split(splits, device, 12, True)
    q = np.frombuffer(h.tobytes(), np.float32)  # read-only
    a = np.sort(q[:3001])
    same(ca.searchsorted(ca.asarray(a, device=device), ca.asarray(q, device=device)),
         np.searchsorted(a, q))
    same(ca.argsort(ca.asarray(q.reshape(1201, 514), device=device), kind="stable"),
         np.argsort(q.reshape(1201, 514), kind="stable"))
    expect_split(splits, device, 14, True)


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="no fork here")
def test_split_after_fork():
    """A forked child makes its own worker (the parent's thread is not there)."""
    src = ("import os, numpy as np, cuarray as ca, cuarray._host_threads as h; "
           "h.ENABLED = True; h.both(abs, (1,), (2,)); "
           "x = np.arange(400000, 0, -1, dtype=np.float32).reshape(800, 500); "
           "x = ca.asarray(x, device='cpu'); "
           "pid = os.fork(); "
           "ok = bool((ca.argsort(x, kind='stable').get() == "
           "np.argsort(x.get(), kind='stable')).all()) and h._pool is not None; "
           "os._exit(0 if ok else 3) if pid == 0 else None; "
           "print(os.waitpid(pid, 0)[1])")
    assert python_prints(src) == "0"


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_merge_runs(dtype):
    """_core._merge_runs of two sorted runs, any split point (empty runs, one run
    past the other), against NumPy's stable sort and argsort of the joined runs,
    over more than one merge task (2^18 outputs each)."""
    for n, hs in ((0, (0,)), (1, (0, 1)), (7, (0, 3, 7)), ((1 << 18) * 2 + 5, None)):
        h0 = run_data(n, dtype, seed=n)
        for h in hs or (0, n // 3, n // 2, n - 1):
            keys = np.concatenate([np.sort(h0[:h], kind="stable"),
                                   np.sort(h0[h:], kind="stable")])
            idx = np.random.default_rng(h).permutation(n).astype(np.int64)
            k, i = ca.asarray(keys, device="cpu"), ca.asarray(idx, device="cpu")
            out = ca.empty(n, dtype=keys.dtype, device="cpu")
            assert ca._core._merge_runs(k, h, None, out) is None
            want = np.sort(keys, kind="stable")
            assert np.array_equal(out.get().view(np.uint8), want.view(np.uint8))
            pos = ca.empty(n, dtype=np.int64, device="cpu")
            ca._core._merge_runs(k, h, i, pos)
            assert np.array_equal(pos.get(), idx[np.argsort(keys, kind="stable")])


def test_merge_runs_checks_its_arguments():
    k = ca.asarray(np.arange(10.0), device="cpu")
    i = ca.asarray(np.arange(10), device="cpu")
    out, pos = ca.empty(10, device="cpu"), ca.empty(10, dtype=np.int64, device="cpu")
    for args in ((k, 11, None, out), (k, -1, None, out), (k, 5, None, pos),
                 (k, 5, i, out), (k, 5, i.astype(np.int32), pos), (k[::2], 2, None, out),
                 (k, 5, None, ca.empty((2, 5), device="cpu"))):
        with pytest.raises(ValueError, match="_merge_runs"):
            ca._core._merge_runs(*args)
    with pytest.raises(TypeError):
        ca._core._merge_runs(k, 5, None)
    with pytest.raises(TypeError):
        ca._core._merge_runs(np.arange(10.0), 5, None, out)


def test_run_split_is_the_same_on_one_thread(device, splits, monkeypatch):
    """The split is at n // 2 and the merge's tasks depend on n alone: one thread
    (both halves on the caller, the merge's pool cut to one) gives the same bits,
    unstable kinds included."""
    h = run_data((1 << 19) + 3, np.float32)
    x = ca.asarray(h, device=device)
    calls = [(ca.argsort, {}), (ca.sort, {}), (ca.argsort, {"kind": "heapsort"}),
             (ca.argsort, {"stable": True})]
    want = [fn(x, **kw).get() for fn, kw in calls]
    monkeypatch.setattr(_host_threads, "_worker", lambda: _Idle())
    before = ca._core._host_threads()
    ca._core._host_threads(1)
    try:
        got = [fn(x, **kw).get() for fn, kw in calls]
    finally:
        ca._core._host_threads(before)
    for g, w in zip(got, want):
        assert np.array_equal(g.view(np.uint8), w.view(np.uint8))
    assert len(splits) == 2 * len(calls)


class _Idle:
    """A worker that never starts its task: both() runs both halves itself."""

    def submit(self, fn):
        import concurrent.futures
        return concurrent.futures.Future()
