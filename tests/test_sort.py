"""sort, argsort, partition, argpartition, searchsorted, lexsort, sort_complex and the
ndarray methods, against NumPy on both devices.

The cpu device runs twice: through NumPy on zero-copy views (its default) and
through kernels/host/host_sort.c (`_sort_host_kernels`), which orders the same keys as
the GPU kernels (kernels/shared/sort_keys.h): NaNs, -0.0, complex NaN classes, bool.
"""

import numpy as np
import pytest

import cuarray as ca
from conftest import ALL_DTYPES, requires_gpu
from cuarray import _host_threads

MODES = ["cpu", "cpu-kernels", pytest.param("cuda:0", marks=requires_gpu)]
REAL = [d for d in ALL_DTYPES if np.dtype(d).kind != "c"]
# sizes on both sides of the small-row and multi-block paths
SIZES = [0, 1, 2, 7, 300, 5000]


@pytest.fixture(params=MODES)
def dev(request, monkeypatch):
    """A device; 'cpu-kernels' is the cpu device through the host sort kernels (and
    no two-thread split, which runs NumPy's routines: _sort_threads)."""
    kernels = request.param == "cpu-kernels"
    if kernels:
        monkeypatch.setattr(_host_threads, "ENABLED", False)
    old = ca._core._sort_host_kernels(kernels)
    yield "cpu" if request.param.startswith("cpu") else request.param
    ca._core._sort_host_kernels(old)


def data(shape, dtype, rng=None, dups=True):
    """Random data with repeats (stability shows) and, for floats, NaN/±0/±inf."""
    rng = rng or np.random.default_rng(7)
    dt = np.dtype(dtype)
    n = int(np.prod(shape))
    if dt == np.bool_:
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = (-20, 20) if dups else (max(info.min, -10**6), min(info.max, 10**6))
        lo = max(lo, info.min)
        v = rng.integers(lo, hi, size=shape, endpoint=True).astype(dt)
        if n > 4 and not dups:
            v.flat[:2] = [info.min, info.max]
        return v
    if dt.kind == "f":
        v = (rng.integers(-8, 8, size=shape) / 4.0).astype(dt)
        if n:
            specials = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0], dt)
            pick = rng.random(shape) < 0.15
            v[pick] = rng.choice(specials, size=int(pick.sum()))
        return v
    re = data(shape, np.float64 if dt == np.complex128 else np.float32, rng)
    im = data(shape, np.float64 if dt == np.complex128 else np.float32, rng)
    out = np.empty(shape, dt)
    out.real = re
    out.imag = im
    return out


def to_dev(a, dev):
    return ca.asarray(a, device=dev)


def same(got, want):
    got = got.get() if isinstance(got, ca.ndarray) else np.asarray(got)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want)


def numpy_path(dev):
    """Whether dev runs NumPy's sorts: the cpu device does, of the kind asked for
    (kind=None is NumPy's quicksort); its host kernels and a GPU sort stably."""
    if dev != "cpu":
        return False
    old = ca._core._sort_host_kernels(False)
    ca._core._sort_host_kernels(old)
    return not old


def want_argsort(a, dev, axis=-1, kind=None):
    """NumPy's argsort as dev gives it: NumPy's own kind there, else stable."""
    return np.argsort(a, axis=axis, kind=kind if numpy_path(dev) else "stable")


def stable_desc_argsort(a, axis):
    """Positions of a stable descending sort (ties keep their input order)."""
    r = np.flip(a, axis)
    n = a.shape[axis]
    return np.flip(n - 1 - np.argsort(r, axis=axis, kind="stable"), axis)


# ------------------------------------------------------------------ sort --------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("n", SIZES)
def test_sort_1d(dev, dtype, n):
    a = data((n,), dtype)
    x = to_dev(a, dev)
    same(ca.sort(x), np.sort(a))
    same(ca.argsort(x), want_argsort(a, dev))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape,axis", [((3, 5, 7), -1), ((3, 5, 7), 0), ((3, 5, 7), 1),
                                        ((40, 300), -1), ((300, 40), 0), ((4, 0, 3), 1),
                                        ((5, 1), -1), ((2, 3), None)])
def test_sort_axes(dev, dtype, shape, axis):
    a = data(shape, dtype)
    x = to_dev(a, dev)
    same(ca.sort(x, axis=axis), np.sort(a, axis=axis))
    same(ca.argsort(x, axis=axis), want_argsort(a, dev, axis))
    same(ca.argsort(x, axis=axis, kind="stable"), np.argsort(a, axis=axis, kind="stable"))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_sort_descending(dev, dtype):
    a = data((6, 500), dtype)
    x = to_dev(a, dev)
    for axis in (-1, 0):
        idx = stable_desc_argsort(a, axis)
        same(ca.argsort(x, axis=axis, descending=True), idx)
        same(ca.sort(x, axis=axis, descending=True), np.take_along_axis(a, idx, axis))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_sort_nan_zero_inf(dev, dtype):
    a = np.array([np.nan, 0.0, -0.0, np.inf, -np.inf, -np.nan, 1.0, -1.0, -0.0, 0.0,
                  np.nan], dtype)
    x = to_dev(a, dev)
    got = ca.sort(x).get()
    np.testing.assert_array_equal(got, np.sort(a))
    # NaNs last; zeros equal: the stable argsort keeps their input order
    same(ca.argsort(x, stable=True), np.argsort(a, kind="stable"))
    same(ca.argsort(x), want_argsort(a, dev))
    assert np.isnan(got[-2:]).all()


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_sort_complex_nan_classes(dev, dtype):
    nan = np.nan
    vals = [complex(nan, nan), complex(nan, 1), complex(1, nan), complex(1, 2),
            complex(0, 0), complex(-0.0, 0), complex(nan, 0), complex(2, nan),
            complex(0, nan), complex(-1, 5), complex(1, 1), complex(nan, -1),
            complex(np.inf, 0), complex(0, -np.inf)]
    a = np.array(vals * 3, dtype)
    x = to_dev(a, dev)
    same(ca.argsort(x, kind="stable"), np.argsort(a, kind="stable"))
    same(ca.argsort(x), want_argsort(a, dev))
    np.testing.assert_array_equal(ca.sort(x).get(), np.sort(a))


def test_sort_stable_many_ties(dev):
    a = np.random.default_rng(3).integers(0, 3, size=(7, 3000)).astype(np.float32)
    x = to_dev(a, dev)
    for kind in (None, "quicksort", "mergesort", "heapsort", "stable"):
        same(ca.argsort(x, kind=kind), want_argsort(a, dev, kind=kind))
    same(ca.argsort(x, stable=True), np.argsort(a, kind="stable"))
    same(ca.argsort(x, stable=False), want_argsort(a, dev))


# Rows of up to 2048 keys are sorted by one thread block each on the GPU
# (kernels/gpu/sort_block.cu: tiles of 128, 256, 512, 1024 and 2048 keys, shorter rows
# padded with the largest key); lengths on both sides of every tile and of the
# segmented sort beyond, as many rows and as one.
BLOCK_LENS = [1, 2, 3, 31, 32, 33, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1023,
              1024, 1025, 2047, 2048, 2049]
BLOCK_DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32,
                np.int64, np.uint64, np.float16, np.float32, np.float64, np.complex64,
                np.complex128]


@pytest.mark.parametrize("n", BLOCK_LENS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.uint64])
def test_sort_rows_around_block_tiles(dev, dtype, n):
    a = data((5, n), dtype)
    x = to_dev(a, dev)
    same(ca.sort(x, axis=-1), np.sort(a, axis=-1))
    same(ca.argsort(x, axis=-1, kind="stable"), np.argsort(a, axis=-1, kind="stable"))
    idx = stable_desc_argsort(a, -1)
    same(ca.argsort(x, axis=-1, descending=True), idx)
    same(ca.sort(x, axis=-1, descending=True), np.take_along_axis(a, idx, -1))
    same(ca.sort(x[2]), np.sort(a[2]))
    same(ca.argsort(x[2], stable=True), np.argsort(a[2], kind="stable"))


@pytest.mark.parametrize("dtype", BLOCK_DTYPES)
@pytest.mark.parametrize("n", [100, 256, 700, 2048])
def test_sort_rows_block_every_dtype(dev, dtype, n):
    for dups in (True, False):
        a = data((9, n), dtype, np.random.default_rng(n), dups=dups)
        x = to_dev(a, dev)
        same(ca.sort(x, axis=-1), np.sort(a, axis=-1))
        same(ca.argsort(x, axis=-1, stable=True), np.argsort(a, axis=-1, kind="stable"))
        same(ca.argsort(x, axis=-1, descending=True), stable_desc_argsort(a, -1))


@pytest.mark.parametrize("dtype", [np.uint32, np.int32, np.uint8, np.float32, np.bool_])
def test_sort_rows_block_largest_keys_and_ties(dev, dtype):
    """Keys equal to the pad key (uint max; NaN; descending int min; true) keep
    their order and the pads never reach the output."""
    dt = np.dtype(dtype)
    if dt.kind == "f":
        big, small = np.nan, -np.inf
    elif dt == np.bool_:
        big, small = True, False
    else:
        big, small = np.iinfo(dt).max, np.iinfo(dt).min
    rng = np.random.default_rng(4)
    for n in (5, 100, 129, 1000, 2047):
        a = np.where(rng.random((4, n)) < 0.5, big, small).astype(dt)
        a[0] = big
        a[1] = small
        x = to_dev(a, dev)
        same(ca.argsort(x, axis=-1, stable=True), np.argsort(a, axis=-1, kind="stable"))
        same(ca.argsort(x, axis=-1, descending=True), stable_desc_argsort(a, -1))
        same(ca.sort(x, axis=-1), np.sort(a, axis=-1))
        idx = stable_desc_argsort(a, -1)
        same(ca.sort(x, axis=-1, descending=True), np.take_along_axis(a, idx, -1))


@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.float64])
def test_sort_rows_block_many_rows_and_views(dev, dtype):
    a = data((3000, 256), dtype, np.random.default_rng(9))
    x = to_dev(a, dev)
    same(ca.sort(x, axis=-1), np.sort(a, axis=-1))
    same(ca.argsort(x, axis=-1, kind="stable"), np.argsort(a, axis=-1, kind="stable"))
    # non-contiguous rows and axes: copied to contiguous rows first
    for v, w in ((x[:, ::2], a[:, ::2]), (x[::3, 7:200], a[::3, 7:200]),
                 (x[:, ::-1], a[:, ::-1])):
        same(ca.sort(v, axis=-1), np.sort(w, axis=-1))
        same(ca.argsort(v, axis=-1, stable=True), np.argsort(w, axis=-1, kind="stable"))
    t = x[:300].T  # (256, 300) sorted along axis 0: rows of 256
    same(ca.sort(t, axis=0), np.sort(a[:300].T, axis=0))
    same(ca.argsort(t, axis=0, stable=True), np.argsort(a[:300].T, axis=0, kind="stable"))
    b = data((7, 11, 60), dtype)
    same(ca.argsort(to_dev(b, dev), axis=1, stable=True), np.argsort(b, axis=1, kind="stable"))
    # in place (the method): each block reads its row before it writes it
    y = to_dev(a, dev)
    y.sort(axis=-1)
    same(y, np.sort(a, axis=-1))


# rows past the block sort's 2048: one long row of 32/64-bit integers sorted for its
# values goes from the input straight into the output through CUB (no key map)
DIRECT_LENS = [2049, 2050, 4097, 70001, (1 << 20) + 3]


@pytest.mark.parametrize("dtype", [np.int32, np.uint32, np.int64, np.uint64])
@pytest.mark.parametrize("n", DIRECT_LENS)
def test_sort_long_row_integers(dev, dtype, n):
    """The full range with both extremes (and -1/0 for signed), a narrow band of
    ties; argsort (stable) and descending keep the mapped path beside it; the
    input is left as it was; views and the in-place method."""
    rng = np.random.default_rng(n + np.dtype(dtype).itemsize)
    info = np.iinfo(dtype)
    a = rng.integers(info.min, info.max, size=n, endpoint=True, dtype=dtype)
    for v in (info.min, info.max, 0, 1) + ((-1,) if info.min < 0 else ()):
        a[rng.integers(0, n, 7)] = v
    x = to_dev(a, dev)
    same(ca.sort(x), np.sort(a))
    same(x, a)
    same(ca.sort(x, descending=True), np.sort(a)[::-1])
    same(ca.argsort(x, kind="stable"), np.argsort(a, kind="stable"))
    ties = rng.integers(0, 5, size=n).astype(dtype)
    t = to_dev(ties, dev)
    same(ca.sort(t), np.sort(ties))
    same(ca.argsort(t, kind="stable"), np.argsort(ties, kind="stable"))
    same(ca.sort(x[::2]), np.sort(a[::2]))
    same(ca.sort(x[::-1]), np.sort(a))
    same(ca.sort(x.reshape(1, n), axis=None), np.sort(a))
    y = to_dev(a, dev)
    y.sort()
    same(y, np.sort(a))


def _f32_nans(n, rng):
    """n NaNs of float32 with different payloads and signs (CUB orders them by
    their bits: the negative ones first)."""
    bits = np.array([0x7FC00000, 0x7F800001, 0x7FFFFFFF, 0xFFC00000, 0xFF800001,
                     0xFFFFFFFF, 0x7FC00001], np.uint32)
    return rng.choice(bits, size=n).view(np.float32)


@pytest.mark.parametrize("n", DIRECT_LENS)
def test_argsort_long_row_float32(dev, n):
    """The argsort of one long float32 row (CUB's own float order on a GPU, the
    NaN blocks moved to NumPy's place): stable ties, -0.0 beside +0.0 in input
    order, +-inf, NaNs of every sign and payload (last, in input order); rows
    without NaNs, with a few, with NaNs only at either end, and all NaN."""
    rng = np.random.default_rng(n + 3)
    base = (rng.integers(-50, 50, size=n) / 4.0).astype(np.float32)
    for v in (0.0, -0.0, np.inf, -np.inf, np.finfo(np.float32).max,
              -np.finfo(np.float32).tiny):
        base[rng.integers(0, n, 9)] = v
    rows = [base, rng.random(n).astype(np.float32)]
    some = base.copy()
    pick = rng.random(n) < 0.1
    some[pick] = _f32_nans(int(pick.sum()), rng)
    rows.append(some)
    for where in (slice(0, 5), slice(n - 5, n), slice(n // 2, n // 2 + 1)):
        r = base.copy()
        r[where] = _f32_nans(len(range(n)[where]), rng)
        rows.append(r)
    rows.append(_f32_nans(n, rng))
    zeros = np.where(rng.random(n) < 0.5, np.float32(-0.0), np.float32(0.0))
    rows.append(zeros.astype(np.float32))
    for a in rows:
        x = to_dev(a, dev)
        same(ca.argsort(x, kind="stable"), np.argsort(a, kind="stable"))
        same(ca.argsort(x, stable=True), np.argsort(a, kind="stable"))
        same(x.argsort(kind="stable"), np.argsort(a, kind="stable"))
    a = some
    x = to_dev(a, dev)
    same(ca.argsort(x[::3], kind="stable"), np.argsort(a[::3], kind="stable"))
    same(ca.argsort(x, axis=None, kind="stable"), np.argsort(a, kind="stable"))
    same(ca.argsort(x, descending=True), stable_desc_argsort(a, 0))
    got = ca.sort(x).get()  # the values keep the key-map path: NaNs last
    np.testing.assert_array_equal(got, np.sort(a))
    assert np.isnan(got[n - int(np.isnan(a).sum()):]).all()


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint64])
def test_unique_long_row_ranges(dev, dtype):
    """unique() of one long row sorts over the key bits its values span (fewer
    radix passes; the direct CUB sort on a GPU): small non-negative ranges,
    ranges around zero, and the full range."""
    rng = np.random.default_rng(5)
    info = np.iinfo(dtype)
    n = 70001
    cases = [rng.integers(0, 1 << 10, n), rng.integers(0, 3, n),
             rng.integers(info.min, info.max, n, endpoint=True, dtype=dtype)]
    if info.min < 0:
        cases.append(rng.integers(-1000, 1000, n))
    for c in cases:
        a = np.asarray(c).astype(dtype)
        same(ca.unique(to_dev(a, dev)), np.unique(a))


# the direct integer sort with CUB's pass count set by the key bits (8-bit digits
# on sm_90): 1, 2, 3, 5 and 8 passes, odd and even (CUB's out-of-place form puts
# the last pass in the output either way); the sort of the full width is 4 or 8
BIT_CASES = {np.int64: [8, 16, 20, 24, 40, 57, 63], np.uint64: [8, 17, 33, 62],
             np.int32: [5, 8, 17, 24, 31], np.uint32: [8, 12, 25]}


@pytest.mark.parametrize("dtype", list(BIT_CASES))
@pytest.mark.parametrize("n", [2049, 70001, (1 << 20) + 3])
def test_sort_direct_key_bits(dev, dtype, n):
    """_sort_bits over the low `bits` key bits (CUB's key of a signed integer has
    its sign bit flipped): non-negative values below 2^bits, negative ones in
    [-2^bits, 0) (their keys agree above the low bits too), ties and both range
    ends; the input is left as it was."""
    rng = np.random.default_rng(n + 11 * np.dtype(dtype).itemsize)
    signed = np.dtype(dtype).kind == "i"
    for bits in BIT_CASES[dtype]:
        top = 1 << bits
        cases = [rng.integers(0, top, size=n, dtype=np.uint64),
                 rng.integers(0, 3, size=n, dtype=np.uint64) * (top // 3)]
        for c in cases:
            c[:3] = [0, top - 1, top - 1]
            a = c.astype(dtype)
            x = to_dev(a, dev)
            same(ca._core._sort_bits(x, bits, 0), np.sort(a))
            same(x, a)
        if signed:
            neg = rng.integers(-top, 0, size=n, dtype=np.int64)
            neg[:2] = [-top, -1]
            a = neg.astype(dtype)
            same(ca._core._sort_bits(to_dev(a, dev), bits, 0), np.sort(a))


@pytest.mark.parametrize("dtype", [np.int64, np.uint64, np.int32])
@pytest.mark.parametrize("n", [2049, 70001, (1 << 20) + 3])
def test_sort_long_row_integers_bit_patterns(dev, dtype, n):
    """The full-width direct sort on keys that vary only in some bit positions
    (high bits only, one high and one low bit, the benchmark's [0, 2^62) for
    64-bit), all-equal keys (every one of them and the extremes), negative values
    only, and rows made of the two extremes."""
    rng = np.random.default_rng(n + 5 * np.dtype(dtype).itemsize)
    info = np.iinfo(dtype)
    w = np.dtype(dtype).itemsize * 8
    u = np.uint64
    hi = rng.integers(0, 4, size=n, dtype=u) << u(w - 3)  # bits w-3, w-2
    top = rng.integers(0, 4, size=n, dtype=u) << u(w - 2)  # bits w-2, w-1 (sign)
    mix = (rng.integers(0, 2, size=n, dtype=u) << u(w - 9)) | rng.integers(0, 2, n, dtype=u)
    ends = np.array([info.min, info.max], dtype)
    rows = [hi.astype(dtype), top.astype(dtype), (top | u(5)).astype(dtype),
            mix.astype(dtype), np.full(n, 7, dtype), np.full(n, info.min, dtype),
            np.full(n, info.max, dtype), ends[rng.integers(0, 2, n)]]
    if w == 64:
        rows.append(rng.integers(0, 2**62, size=n, dtype=np.int64).astype(dtype))
    if info.min < 0:
        rows.append(rng.integers(info.min, 0, size=n, dtype=dtype))
    for a in rows:
        x = to_dev(a, dev)
        same(ca.sort(x), np.sort(a))
        same(x, a)


@pytest.mark.parametrize("n", [2049, 70001, (1 << 20) + 3])
def test_argsort_long_row_float32_nan_ends(dev, n):
    """The float32 argsort's NaN bounds (CUB puts sign-bit NaNs first and the
    others last; each block is looked for at its end first): NaNs of one sign
    only, one NaN of each sign, NaNs at the first and last positions, all but one
    NaN, 3, 4 and 8 leading (sign-bit) NaNs (the widening pass runs 4 at a time
    when the leading count is a multiple of 4), uniform [0, 1) (the benchmark's
    data: no NaN), and NaNs beside -0.0/+0.0 and +-inf."""
    rng = np.random.default_rng(n + 29)
    pos_nan = np.array([0x7FC00000, 0x7F800001, 0x7FFFFFFF], np.uint32).view(np.float32)
    neg_nan = np.array([0xFFC00000, 0xFF800001, 0xFFFFFFFF], np.uint32).view(np.float32)
    base = (rng.integers(-20, 20, size=n) / 2.0).astype(np.float32)
    rows = [rng.random(n, dtype=np.float32)]
    for nans in (pos_nan, neg_nan):
        r = base.copy()
        pick = rng.random(n) < 0.05
        r[pick] = rng.choice(nans, size=int(pick.sum()))
        rows.append(r)
        r = base.copy()
        r[[0, n - 1]] = nans[:2]
        rows.append(r)
        r = rng.choice(nans, size=n)
        r[n // 3] = -0.0
        rows.append(r.astype(np.float32))
    r = base.copy()
    r[n // 2], r[n // 5] = pos_nan[0], neg_nan[0]
    rows.append(r)
    for lead in (3, 4, 8):  # the widening's 16-byte path needs a multiple of 4 of them
        r = base.copy()
        r[rng.choice(n, size=lead + 5, replace=False)] = np.concatenate(
            [np.resize(neg_nan, lead), np.resize(pos_nan, 5)])
        rows.append(r)
    r = np.where(rng.random(n) < 0.5, np.float32(-0.0), np.float32(0.0)).astype(np.float32)
    specials = np.array([0x7F800000, 0xFF800000, 0x7F800001, 0xFF800001, 0x7FFFFFFF,
                         0xFFFFFFFF], np.uint32).view(np.float32)
    r[rng.choice(n, size=6, replace=False)] = specials
    rows.append(r)
    for a in rows:
        x = to_dev(a, dev)
        want = np.argsort(a, kind="stable")
        same(ca.argsort(x, kind="stable"), want)
        if numpy_path(dev):
            same_order(ca.argsort(x), a, np.argsort(a))
        else:
            same(ca.argsort(x), want)


def same_order(got, a, want):
    """An unstable argsort of 1-D `a`: a permutation ordering a as `want` does (the
    cpu device merges two halves of a long run, _sort_threads, so ties may be
    ordered otherwise than by NumPy's one call)."""
    got = got.get() if isinstance(got, ca.ndarray) else np.asarray(got)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(np.sort(got), np.arange(a.size))
    np.testing.assert_array_equal(a[got], a[want])


def test_sort_0d_and_noncontiguous(dev):
    a = np.array(3.5)
    x = to_dev(a, dev)
    with pytest.raises(np.exceptions.AxisError):
        ca.sort(x)
    same(ca.sort(x, axis=None), np.sort(a, axis=None))
    same(ca.argsort(x), np.argsort(a))
    b = data((20, 30), np.int32)
    y = to_dev(b, dev)
    same(ca.sort(y[::2, ::3].T, axis=0), np.sort(b[::2, ::3].T, axis=0))
    same(ca.argsort(y[:, ::-1]), want_argsort(b[:, ::-1], dev))


def test_sort_bad_input(dev):
    x = to_dev(np.arange(5), dev)
    with pytest.raises(np.exceptions.AxisError):
        ca.sort(x, axis=1)
    with pytest.raises(np.exceptions.AxisError):
        ca.argsort(x, axis=-2)
    with pytest.raises(ValueError):
        ca.sort(x, kind="foo")
    with pytest.raises(ValueError):
        ca.sort(x, kind="stable", stable=True)
    with pytest.raises(ValueError):
        ca.sort(x, order="f")
    with pytest.raises(TypeError):
        ca.sort(np.arange(3))


# --------------------------------------------------------------- methods --------

@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.float32, np.complex128])
def test_methods(dev, dtype):
    a = data((4, 6, 50), dtype)
    for axis in (-1, 0, 1):
        x = to_dev(a, dev)
        x.sort(axis=axis)
        np.testing.assert_array_equal(x.get(), np.sort(a, axis=axis))
        same(to_dev(a, dev).argsort(axis=axis), want_argsort(a, dev, axis))
    x = to_dev(a, dev)
    x.partition(3)
    np.testing.assert_array_equal(x.get()[..., 3], np.sort(a)[..., 3])
    want = (np.argpartition(a, 3, axis=0) if numpy_path(dev)
            else np.argsort(a, axis=0, kind="stable"))
    same(to_dev(a, dev).argpartition(3, axis=0), want)
    s = np.sort(a.reshape(-1))
    same(to_dev(s, dev).searchsorted(s[::7]), np.searchsorted(s, s[::7]))


def test_method_sort_view_in_place(dev):
    a = data((10, 10), np.float64)
    x = to_dev(a, dev)
    x[:, ::2].sort(axis=0)
    b = a.copy()
    b[:, ::2].sort(axis=0)
    np.testing.assert_array_equal(x.get(), b)


# ------------------------------------------------------------- partition --------

def check_partition(got, a, kth, axis):
    s = np.sort(a, axis=axis)
    got = np.moveaxis(got, axis, -1)
    s = np.moveaxis(s, axis, -1)
    for k in np.atleast_1d(kth):
        np.testing.assert_array_equal(got[..., k], s[..., k])
        assert (got[..., :k] <= got[..., k:k + 1]).all()
        assert (got[..., k + 1:] >= got[..., k:k + 1]).all()


@pytest.mark.parametrize("dtype", [np.int16, np.uint32, np.int64, np.float32,
                                   np.float64])
def test_partition(dev, dtype):
    a = data((5, 400), dtype, dups=False)
    if a.dtype.kind == "f":
        a[np.isnan(a)] = 0
    x = to_dev(a, dev)
    for kth, axis in ((3, -1), ([0, 10, 399], -1), (-1, -1), (2, 0)):
        check_partition(ca.partition(x, kth, axis=axis).get(), a,
                        np.array(kth) % a.shape[axis], axis)
        idx = ca.argpartition(x, kth, axis=axis).get()
        check_partition(np.take_along_axis(a, idx, axis), a,
                        np.array(kth) % a.shape[axis], axis)
    check_partition(ca.partition(x, 5, axis=None).get(), a.reshape(-1), 5, 0)


def test_partition_bad_kth(dev):
    x = to_dev(np.arange(5.0), dev)
    for kth in (5, -6, [1, 5]):
        with pytest.raises(ValueError):
            ca.partition(x, kth)
        with pytest.raises(ValueError):
            ca.argpartition(x, kth)
    with pytest.raises(ValueError):
        ca.partition(x, 1, kind="quick")
    with pytest.raises(np.exceptions.AxisError):
        ca.partition(to_dev(np.array(1.0), dev), 0)
    same(ca.partition(to_dev(np.array(1.0), dev), 0, axis=None), np.array([1.0]))


# ----------------------------------------------------------- searchsorted --------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted(dev, dtype, side):
    a = np.sort(data((1000,), dtype))
    v = data((7, 50), dtype, np.random.default_rng(11))
    x = to_dev(a, dev)
    same(ca.searchsorted(x, to_dev(v, dev), side=side),
         np.searchsorted(a, v, side=side))
    perm = np.random.default_rng(5).permutation(a.size)
    u = a[perm]
    sorter = np.argsort(u, kind="stable")
    same(ca.searchsorted(to_dev(u, dev), to_dev(v, dev), side=side,
                         sorter=to_dev(sorter, dev)),
         np.searchsorted(u, v, side=side, sorter=sorter))


# Arrays of 8 MiB and more searched by 2^16 and more queries go down sampled
# levels on a GPU (kernels/shared/search_plan.h): every element size, runs of equal
# keys longer than a window, NaN/±0/inf, exact hits, the first and last element,
# an array starting off a sector, and sizes just under the thresholds.
LEVEL_CASES = [(np.float32, (1 << 21) + 12345), (np.int8, 1 << 23),
               (np.float16, (1 << 22) + 5), (np.int64, (1 << 20) + 77),
               (np.complex128, (1 << 19) + 3), (np.bool_, (1 << 23) + 1),
               (np.uint16, (1 << 22) + 9)]


@requires_gpu
@pytest.mark.parametrize("dtype,n", LEVEL_CASES)
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_sampled_levels(dtype, n, side):
    rng = np.random.default_rng(n)
    a = np.sort(data((n,), dtype, rng, dups=dtype != np.int64))
    v = data(((1 << 16) + 3,), dtype, rng)
    v[: v.size // 4] = a[rng.integers(0, n, v.size // 4)]          # exact hits
    v[-2:] = a[[0, -1]]
    x = ca.asarray(a)
    same(ca.searchsorted(x, ca.asarray(v), side=side), np.searchsorted(a, v, side=side))
    # off a sector: a view one element in, 2-D queries
    same(ca.searchsorted(x[1:], ca.asarray(v).reshape(-1, 1)[:-3], side=side),
         np.searchsorted(a[1:], v.reshape(-1, 1)[:-3], side=side))


@requires_gpu
def test_searchsorted_levels_thresholds():
    """Just under each threshold (the plain search) and at it (the levels)."""
    rng = np.random.default_rng(1)
    for n, nq in (((8 << 20) // 4 - 1, 1 << 16), ((8 << 20) // 4, (1 << 16) - 1),
                  ((8 << 20) // 4, 1 << 16)):
        a = np.sort(rng.random(n, dtype=np.float32))
        v = rng.random(nq, dtype=np.float32)
        same(ca.searchsorted(ca.asarray(a), ca.asarray(v)), np.searchsorted(a, v))


def test_searchsorted_scalars_and_promotion(dev):
    a = np.array([1, 2, 3, 50, 100], np.int8)
    x = to_dev(a, dev)
    same(ca.searchsorted(x, 2), np.asarray(np.searchsorted(a, 2)))
    same(ca.searchsorted(x, 300), np.asarray(np.searchsorted(a, 300)))
    same(ca.searchsorted(x, 2.5), np.asarray(np.searchsorted(a, 2.5)))
    same(ca.searchsorted(x, [0, 3, 101]), np.searchsorted(a, [0, 3, 101]))
    f = np.array([-np.inf, -1.0, 0.0, 2.0, np.inf, np.nan])
    y = to_dev(f, dev)
    q = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 5.0])
    for side in ("left", "right"):
        same(ca.searchsorted(y, to_dev(q, dev), side=side),
             np.searchsorted(f, q, side=side))
    same(ca.searchsorted(to_dev(np.zeros(0), dev), to_dev(q, dev)),
         np.searchsorted(np.zeros(0), q))


def test_searchsorted_bad_input(dev):
    x = to_dev(np.arange(5), dev)
    with pytest.raises(ValueError):
        ca.searchsorted(x, 1, side="middle")
    with pytest.raises(ValueError):
        ca.searchsorted(to_dev(np.ones((2, 2)), dev), 1)
    with pytest.raises(ValueError):
        ca.searchsorted(x, 1, sorter=to_dev(np.arange(3), dev))


# --------------------------------------------------- lexsort, sort_complex --------

@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.float64, np.bool_])
def test_lexsort(dev, dtype):
    rng = np.random.default_rng(2)
    keys = [data((500,), dtype, rng) for _ in range(3)]
    same(ca.lexsort([to_dev(k, dev) for k in keys]), np.lexsort(keys))
    k2 = [data((4, 60), dtype, rng) for _ in range(2)]
    same(ca.lexsort([to_dev(k, dev) for k in k2]), np.lexsort(k2))
    same(ca.lexsort([to_dev(k, dev) for k in k2], axis=0), np.lexsort(k2, axis=0))
    same(ca.lexsort(to_dev(np.stack(keys), dev)), np.lexsort(np.stack(keys)))
    with pytest.raises(TypeError):
        ca.lexsort([])


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.float32,
                                   np.float64, np.complex64])
def test_sort_complex(dev, dtype):
    a = data((300,), dtype)
    got = ca.sort_complex(to_dev(a, dev))
    want = np.sort_complex(a)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.get(), want)


# ------------------------------------------------ GPU memory kinds, streams --------

@requires_gpu
@pytest.mark.parametrize("memory", ["device", "managed", "pinned"])
def test_sort_memory_kinds(memory):
    a = data((3, 2000), np.float32)
    x = ca.asarray(a, device="cuda:0", memory=memory)
    same(ca.sort(x), np.sort(a))
    same(ca.argsort(x, axis=0), np.argsort(a, axis=0, kind="stable"))
    s = np.sort(a.reshape(-1))
    same(ca.searchsorted(ca.asarray(s, device="cuda:0", memory=memory), x),
         np.searchsorted(s, a))


@requires_gpu
def test_sort_on_a_stream_and_of_deferred_work():
    a = data((50, 999), np.float64)
    x = ca.asarray(a, device="cuda:0")
    with ca.cuda.Stream(non_blocking=True) as st:
        y = ca.sort(x * 2.0 + 1.0, axis=-1)  # a deferred (fused) input
        i = ca.argsort(x, axis=0)
        st.synchronize()
    np.testing.assert_array_equal(y.get(), np.sort(a * 2.0 + 1.0, axis=-1))
    same(i, np.argsort(a, axis=0, kind="stable"))


# ----------------------------------------------------------- big (GPU only) --------

@requires_gpu
@pytest.mark.big_memory
def test_sort_past_2_31_elements():
    """One row longer than 2^31: 64-bit positions and counts (device memory). The
    argsort holds about 66 GiB at once, so it runs alone on the card (big_memory):
    beside 13 other pytest workers an 80 GB H100 had too little free. Where the card
    has less free than that (a smaller card, or other work on it), it skips, saying
    how much it needs and how much there is."""
    need = 70 << 30  # the argsort's ~66 GiB and the sort's scratch, with some margin
    free, total = ca.cuda.runtime.memGetInfo()
    pool = ca.get_default_memory_pool()
    free += pool.total_bytes() - pool.used_bytes()  # our own cached blocks come back
    if free < need:
        pytest.skip(f"needs {need / 2**30:.0f} GiB of free GPU memory; this card has "
                    f"{free / 2**30:.1f} GiB free of {total / 2**30:.0f} GiB (run it alone: "
                    f"pytest -m big_memory)")
    old = pool.get_limit()
    pool.set_limit(size=100 << 30)  # argsort: ~32 bytes per element
    try:
        n = (1 << 31) + 12345
        x = ca.random.default_rng(1).integers(0, 100, size=n, dtype=np.int8)
        s = ca.sort(x)
        head = s[:1 << 20].get()
        assert (np.diff(head.astype(np.int16)) >= 0).all()
        assert int(s[-1]) <= 99 and int(s[0]) >= 0
        assert bool(ca.all(s[1:] >= s[:-1]))
        counts = ca.bincount(x, minlength=100)
        assert int(counts.sum()) == n
        del s
        i = ca.argsort(x[: (1 << 31) + 5])
        assert i.dtype == np.int64
        assert int(i.max()) == (1 << 31) + 4
        del i
    finally:
        pool.free_all_blocks()
        pool.set_limit(size=old)
