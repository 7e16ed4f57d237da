"""bincount, histogram, histogram2d, histogramdd, digitize, median, percentile,
quantile and the nan- forms against NumPy on both devices."""

import warnings

import numpy as np
import pytest

import cuarray as ca
from test_sort import MODES, data, same, to_dev  # noqa: F401
from conftest import agree, close_to, requires_gpu

REALS = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32,
         np.int64, np.uint64, np.float16, np.float32, np.float64]
METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation",
           "interpolated_inverted_cdf", "hazen", "weibull", "linear", "median_unbiased",
           "normal_unbiased", "lower", "higher", "midpoint", "nearest"]


@pytest.fixture(params=MODES)
def dev(request):
    old = ca._core._sort_host_kernels(request.param == "cpu-kernels")
    yield "cpu" if request.param.startswith("cpu") else request.param
    ca._core._sort_host_kernels(old)


def close(got, want, rtol=1e-10):
    close_to(got, want, {2: 1e-3, 4: 1e-6}.get(np.asarray(want).dtype.itemsize, rtol),
             atol=0)


# --------------------------------------------------------------- bincount ----

@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, np.int16, np.int32, np.uint32,
                                   np.int64])
@pytest.mark.parametrize("n", [0, 1, 50, 100000])
def test_bincount(dev, dtype, n):
    rng = np.random.default_rng(1)
    a = rng.integers(0, 2 if dtype == np.bool_ else 120, size=n).astype(dtype)
    x = to_dev(a, dev)
    same(ca.bincount(x), np.bincount(a))
    same(ca.bincount(x, minlength=200), np.bincount(a, minlength=200))
    w = rng.standard_normal(n)
    # the GPU adds weights in no fixed order (atomics): a few ulps apart
    close(ca.bincount(x, weights=to_dev(w, dev)), np.bincount(a, weights=w), rtol=1e-9)


def test_bincount_large_bins(dev):
    """More bins than the shared-memory kernel holds: the global-atomic path."""
    rng = np.random.default_rng(2)
    a = rng.integers(0, 50000, size=200000)
    x = to_dev(a, dev)
    same(ca.bincount(x), np.bincount(a))
    w = rng.random(a.size)
    close(ca.bincount(x, weights=to_dev(w, dev)), np.bincount(a, weights=w), rtol=1e-9)


def test_bincount_bad_input(dev):
    with pytest.raises(ValueError):
        ca.bincount(to_dev(np.array([1, -1, 2]), dev))
    with pytest.raises(ValueError):
        ca.bincount(to_dev(np.ones((2, 2), np.int64), dev))
    with pytest.raises(TypeError):
        ca.bincount(to_dev(np.ones(3), dev))
    with pytest.raises(ValueError):
        ca.bincount(to_dev(np.ones(3, np.int64), dev), minlength=-1)
    with pytest.raises(ValueError):
        ca.bincount(to_dev(np.ones(3, np.int64), dev), weights=to_dev(np.ones(2), dev))


# -------------------------------------------------------------- histogram ----

@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.int64, np.float16,
                                   np.float32, np.float64])
@pytest.mark.parametrize("n", [0, 1, 1000, 70000])
def test_histogram_int_bins(dev, dtype, n, np_route):
    a = data((n,), dtype, np.random.default_rng(3), dups=False)
    if a.dtype.kind == "f":
        a = a[np.isfinite(a)]
    x = to_dev(a, dev)
    for bins in (1, 10, 37):
        h, e = ca.histogram(x, bins=bins)
        wh, we = np.histogram(a, bins=bins)
        same(h, wh)
        same(e, we)
    h, e = ca.histogram(x, bins=7, range=(-3, 5))
    wh, we = np.histogram(a, bins=7, range=(-3, 5))
    same(h, wh)
    same(e, we)


def test_histogram_edges_weights_density(dev, np_route):
    rng = np.random.default_rng(4)
    a = rng.standard_normal(5000)
    a[:5] = [np.nan, 3.0, -1.0, 10.0, -10.0]
    x = to_dev(a, dev)
    edges = np.array([-3.0, -1.0, 0.0, 0.5, 3.0])
    h, e = ca.histogram(x, bins=to_dev(edges, dev))
    same(h, np.histogram(a, bins=edges)[0])
    w = rng.random(a.size)
    h, _ = ca.histogram(x, bins=to_dev(edges, dev), weights=to_dev(w, dev))
    close(h, np.histogram(a, bins=edges, weights=w)[0])
    h, _ = ca.histogram(x, bins=to_dev(edges, dev), density=True)
    close(h, np.histogram(a, bins=edges, density=True)[0])
    b = a[np.isfinite(a)]
    y = to_dev(b, dev)
    h, e = ca.histogram(y, bins=12, density=True, weights=to_dev(w[:b.size], dev))
    wh, we = np.histogram(b, bins=12, density=True, weights=w[:b.size])
    close(h, wh)
    close(e, we)
    wi = rng.integers(0, 5, size=b.size)
    close(ca.histogram(y, bins=5, weights=to_dev(wi, dev))[0],
          np.histogram(b, bins=5, weights=wi)[0])


def test_histogram_bad_input(dev, np_route):
    x = to_dev(np.arange(10.0), dev)
    with pytest.raises(ValueError):
        ca.histogram(x, bins=to_dev(np.array([0.0, 2.0, 1.0]), dev))
    with pytest.raises(ValueError):
        ca.histogram(x, bins=0)
    with pytest.raises(ValueError):
        ca.histogram(x, bins=3, range=(5, 1))
    with pytest.raises(ValueError):
        ca.histogram(to_dev(np.array([1.0, np.inf]), dev), bins=3)
    with pytest.raises(ValueError):
        ca.histogram(x, bins=3, weights=to_dev(np.ones(3), dev))


def test_histogram2d_dd(dev):
    rng = np.random.default_rng(5)
    xs, ys, zs = rng.standard_normal((3, 3000))
    X, Y = to_dev(xs, dev), to_dev(ys, dev)
    for bins in (5, [4, 6], np.linspace(-2, 2, 7)):
        cb = bins if not isinstance(bins, np.ndarray) else to_dev(bins, dev)
        h, ex, ey = ca.histogram2d(X, Y, bins=cb)
        wh, wx, wy = np.histogram2d(xs, ys, bins=bins)
        same(h, wh)
        close(ex, wx)
        close(ey, wy)
    w = rng.random(xs.size)
    h, _, _ = ca.histogram2d(X, Y, bins=8, weights=to_dev(w, dev), density=True,
                             range=[[-1, 1], [-2, 2]])
    close(h, np.histogram2d(xs, ys, bins=8, weights=w, density=True,
                            range=[[-1, 1], [-2, 2]])[0])
    s = np.stack([xs, ys, zs], axis=1)
    h, e = ca.histogramdd(to_dev(s, dev), bins=(3, 4, 5))
    wh, we = np.histogramdd(s, bins=(3, 4, 5))
    same(h, wh)
    for g, w_ in zip(e, we):
        close(g, w_)


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64])
@pytest.mark.parametrize("right", [False, True])
def test_digitize(dev, dtype, right):
    rng = np.random.default_rng(6)
    x = data((40, 30), dtype, rng)
    inc = np.array([-4, -1, 0, 0, 2, 3.5]).astype(dtype)
    for bins in (inc, inc[::-1].copy()):
        same(ca.digitize(to_dev(x, dev), to_dev(bins, dev), right=right),
             np.digitize(x, bins, right=right))
    with pytest.raises(ValueError):
        ca.digitize(to_dev(x, dev), to_dev(np.array([1, 3, 2]).astype(dtype), dev))


# -------------------------------------------------------- order statistics ----

def np_quiet(f, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return f(*args, **kw)


@pytest.mark.parametrize("dtype", REALS)
@pytest.mark.parametrize("shape,axis", [((1,), None), ((1001,), None), ((6, 50), -1),
                                        ((6, 50), 0), ((3, 4, 5), (0, 2)),
                                        ((2, 600), None)])
def test_median(dev, dtype, shape, axis):
    if dtype == np.bool_:
        pytest.skip("NumPy's median of bool (a mean of bools) is not a real median")
    a = data(shape, dtype, np.random.default_rng(8), dups=False)
    x = to_dev(a, dev)
    close(ca.median(x, axis=axis), np_quiet(np.median, a, axis=axis))
    close(ca.median(x, axis=axis, keepdims=True),
          np_quiet(np.median, a, axis=axis, keepdims=True))


def _select_case(dtype, n, rng, kind):
    """n values of dtype: 'random' (few repeats), 'dups' (a handful of values) or
    'edges' (the dtype's extremes, and NaN/±0/±inf for floats, mixed in)."""
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return rng.random(n) < 0.3
    if dt.kind in "iu":
        info = np.iinfo(dt)
        if kind == "dups":
            return rng.integers(max(info.min, -3), min(info.max, 3), size=n,
                                endpoint=True).astype(dt)
        a = rng.integers(info.min, info.max, size=n, endpoint=True, dtype=dt)
        if kind == "edges":
            a[rng.integers(0, n, 50)] = info.min
            a[rng.integers(0, n, 50)] = info.max
        return a
    a = (rng.standard_normal(n) * 100).astype(dt)
    if kind == "dups":
        a = np.round(a / 100).astype(dt)
    if kind == "edges":
        for v in (0.0, -0.0, np.inf, -np.inf, np.finfo(dt).max, np.finfo(dt).min,
                  np.finfo(dt).tiny):
            a[rng.integers(0, n, 40)] = v
    return a


@requires_gpu
@pytest.mark.parametrize("dtype", REALS)
@pytest.mark.parametrize("kind", ["random", "dups", "edges"])
def test_select_ranks_gpu(dtype, kind):
    """_select (the radix select behind a long row's median): the elements at
    any one or two ranks, as NumPy's sort orders them, on every real dtype."""
    rng = np.random.default_rng(sum(map(ord, np.dtype(dtype).str + kind)))
    for n in (1, 2, 3, 257, 70001):
        a = _select_case(dtype, n, rng, kind)
        s = np.sort(a, kind="stable")
        x = ca.asarray(a, device="cuda:0")
        for ranks in ((0,), (n - 1,), ((n - 1) // 2, n // 2), (0, n - 1),
                      (int(rng.integers(0, n)), int(rng.integers(0, n)))):
            got = ca._core._select(x, ranks)
            want = s[list(ranks)]
            same(got, want)  # (-0.0 == 0.0: NumPy's sort keeps them in input order)
    x = ca.asarray(_select_case(np.float32, 1000, rng, "random"), device="cuda:0")
    with pytest.raises(IndexError):
        ca._core._select(x, (1000,))
    with pytest.raises(IndexError):
        ca._core._select(x, (-1,))
    with pytest.raises(ValueError):
        ca._core._select(x, (1, 2, 3))
    with pytest.raises(ValueError):
        ca._core._select(x, ())
    assert ca._core._select(x[::2], (0,)) is None  # not contiguous: the caller sorts
    assert ca._core._select(ca.asarray(np.ones(4, np.complex64), device="cuda:0"),
                            (0,)) is None


def test_select_cpu_has_none():
    assert ca._core._select(ca.asarray(np.arange(5.0), device="cpu"), (2,)) is None
    assert ca._core._select(ca.asarray(np.arange(5.0), device="cpu"), (2,), True) is None


def _bits(a):
    """The elements' bit patterns (-0.0 and +0.0, NaN payloads tell apart)."""
    a = np.ascontiguousarray(a)
    return a.view(np.uint8 if a.itemsize == 1 else np.dtype(f"u{a.itemsize}"))


def _rank_sets(n, rng):
    k = int(rng.integers(0, n))
    return ((0,), (n - 1,), ((n - 1) // 2, n // 2), (0, n - 1), (k,),
            (k, int(rng.integers(0, n))))


@requires_gpu
@pytest.mark.parametrize("dtype", REALS)
def test_select_sizes_bitwise(dtype):
    """_select at sizes around its tiling (a warp's step of 256 elements, a block's
    share of 8192 when the row is short; 8 Mi: one wave of blocks, each round of
    the grid-stride loop several times) and median's 2^16 threshold:
    bit for bit the element the GPU's own sort puts at each rank (-0.0 before
    +0.0, every NaN as the sort's NaN), and NumPy's sort's value there."""
    rng = np.random.default_rng(sum(map(ord, np.dtype(dtype).str)) + 17)
    for n in (8191, 8192, 8193, 65535, 65536, 65537, (1 << 23) + 3):
        for kind in (("random", "dups", "edges") if n < (1 << 20) else ("edges",)):
            a = _select_case(dtype, n, rng, kind)
            if np.dtype(dtype).kind == "f" and kind == "edges":
                a[rng.integers(0, n, 30)] = np.nan
            x = ca.asarray(a, device="cuda:0")
            s = ca.sort(x).get()
            ns = np.sort(a, kind="stable")
            for ranks in _rank_sets(n, rng):
                got = ca._core._select(x, ranks).get()
                np.testing.assert_array_equal(_bits(got), _bits(s[list(ranks)]))
                np.testing.assert_array_equal(got, ns[list(ranks)])


def _digit_rows(dtype, n, rng):
    """Rows whose middle pair parts at the first key digit (the two ranks count
    apart from the second pass on), rows of keys that agree in all but their low
    bits (they share every histogram but the last), and a narrow band of ties."""
    dt = np.dtype(dtype)
    half = np.arange(n) < n // 2
    if dt.kind == "f":
        lo, hi = dt.type(-1.0), dt.type(1.0)
        one = np.array(1.0, dt).view(_bits(np.ones(1, dt)).dtype)
        band = (one + (np.arange(n) % 1000).astype(one.dtype)).view(dt)
    else:
        info = np.iinfo(dt)
        lo, hi = dt.type(info.min), dt.type(info.max)
        span = min(n, 60000)  # distinct values a 16-bit type holds
        base = (int(info.max) - span - 5) if dt.kind == "u" else -(span // 2)
        band = (np.arange(n) % span).astype(dt) + dt.type(base)
    rows = [np.where(half, lo, hi).astype(dt), band,
            (band[:1].astype(dt) + rng.integers(0, 4, n).astype(dt)).astype(dt)]
    for r in rows:
        rng.shuffle(r)
    return rows


@requires_gpu
@pytest.mark.parametrize("dtype", [np.int16, np.uint16, np.float16, np.int32, np.uint32,
                                   np.float32, np.int64, np.uint64, np.float64])
@pytest.mark.parametrize("n", [100000, 100001])
def test_select_digit_boundaries(dtype, n):
    rng = np.random.default_rng(n + np.dtype(dtype).itemsize)
    for a in _digit_rows(dtype, n, rng):
        x = ca.asarray(a, device="cuda:0")
        s = np.sort(a, kind="stable")
        for ranks in _rank_sets(n, rng) + ((n // 2 - 1, n // 2),):
            same(ca._core._select(x, ranks), s[list(ranks)])


@requires_gpu
@pytest.mark.parametrize("dtype", REALS)
def test_select_nan_poison(dtype):
    """nan_poison: every selected element NaN when the row holds a NaN (median's
    rule, found in the select's first pass), else the same elements as without."""
    rng = np.random.default_rng(sum(map(ord, np.dtype(dtype).str)) + 23)
    for n in (1, 2, 3, 8193, 70001):
        a = _select_case(dtype, n, rng, "edges" if n > 100 else "random")
        x = ca.asarray(a, device="cuda:0")
        for ranks in _rank_sets(n, rng):
            want = np.sort(a, kind="stable")[list(ranks)]
            same(ca._core._select(x, ranks, True), want)
            same(ca._core._select(x, ranks, False), want)
        if np.dtype(dtype).kind != "f":
            continue
        for where in (0, n // 2, n - 1):
            b = a.copy()
            b[where] = -np.nan if where else np.nan
            y = ca.asarray(b, device="cuda:0")
            for ranks in _rank_sets(n, rng):
                got = ca._core._select(y, ranks, True).get()
                assert got.dtype == b.dtype and np.isnan(got).all(), (n, where, ranks)
                same(ca._core._select(y, ranks), np.sort(b, kind="stable")[list(ranks)])
        nan_row = ca.asarray(np.full(n, np.nan, dtype), device="cuda:0")
        assert np.isnan(ca._core._select(nan_row, (0,), True).get()).all()
    x = ca.asarray(np.arange(10.0), device="cuda:0")
    with pytest.raises(TypeError):
        ca._core._select(x, (1,), True, 2)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_median_long_rows_specials(device, dtype):
    """A long row's median (the select on a GPU) of signed zeros, infinities and
    NaNs: the middle pair's mean as NumPy takes it (-inf and inf: NaN), NaN when a
    NaN is anywhere."""
    n = 70000
    rng = np.random.default_rng(31)
    half = np.arange(n) < n // 2
    rows = [np.where(half, -0.0, 0.0), np.where(half, -np.inf, np.inf),
            np.where(np.arange(n) < n // 3, -np.inf, np.inf),
            np.where(half, 0.0, np.inf), np.where(np.arange(n) < n // 2 + 1, -1.0, 2.0)]
    for r in rows:
        for m in (n, n - 1):
            a = r[:m].astype(dtype)
            rng.shuffle(a)
            x = ca.asarray(a, device=device)
            close(ca.median(x), np_quiet(np.median, a))
            a[int(rng.integers(0, m))] = np.nan
            close(ca.median(ca.asarray(a, device=device)), np_quiet(np.median, a))


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.uint64, np.int64,
                                   np.float16, np.float32, np.float64])
@pytest.mark.parametrize("n", [(1 << 16) - 1, 1 << 16, (1 << 16) + 1, 200003, 300000])
def test_median_long_rows(device, dtype, n):
    """Rows long enough for the GPU's radix select: odd and even lengths, ties,
    extremes (no overflow of x + x for an odd length), NaN anywhere."""
    rng = np.random.default_rng(n)
    for kind in ("random", "dups", "edges"):
        a = _select_case(dtype, n, rng, kind)
        if a.dtype.kind == "f" and kind == "edges":
            a[a == np.inf] = 1.0  # the middle pair's mean stays finite: see the NaN case
            a[a == -np.inf] = -1.0
        x = ca.asarray(a, device=device)
        close(ca.median(x), np_quiet(np.median, a))
        close(ca.median(x.reshape(-1, 1), axis=0), np_quiet(np.median, a.reshape(-1, 1),
                                                             axis=0))
        close(ca.median(x, keepdims=True), np_quiet(np.median, a, keepdims=True))
    if np.dtype(dtype).kind == "f":
        for where in (0, n // 2, n - 1):
            a = _select_case(dtype, n, rng, "random")
            a[where] = np.nan
            close(ca.median(ca.asarray(a, device=device)), np_quiet(np.median, a))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dtype", [np.int16, np.uint32, np.int64, np.float32,
                                   np.float64])
def test_quantile_methods(dev, method, dtype, np_route):
    a = data((7, 61), dtype, np.random.default_rng(9), dups=False)
    if a.dtype.kind == "f":
        a[np.isnan(a)] = 1.5  # NaN rows are tested below
    x = to_dev(a, dev)
    for q in (0.5, 0.0, 1.0, [0.1, 0.25, 0.9], np.array([[0.3], [0.7]])[:, 0]):
        close(ca.quantile(x, q, axis=-1, method=method),
              np.quantile(a, q, axis=-1, method=method))
    close(ca.quantile(x, 0.37, method=method), np.quantile(a, 0.37, method=method))
    close(ca.percentile(x, [12.5, 50, 99], axis=0, method=method),
          np.percentile(a, [12.5, 50, 99], axis=0, method=method))


def test_quantile_nan_and_errors(dev, np_route):
    a = data((5, 40), np.float64, np.random.default_rng(10))
    x = to_dev(a, dev)
    close(ca.quantile(x, [0.2, 0.8], axis=1),
          np_quiet(np.quantile, a, [0.2, 0.8], axis=1))
    close(ca.percentile(x, 50, axis=1, keepdims=True),
          np_quiet(np.percentile, a, 50, axis=1, keepdims=True))
    with pytest.raises(ValueError):
        ca.quantile(x, 1.5)
    with pytest.raises(ValueError):
        ca.percentile(x, -1)
    with pytest.raises(ValueError):
        ca.quantile(x, 0.5, method="foo")
    with pytest.raises(TypeError):
        ca.quantile(to_dev(np.ones(3, np.complex64), dev), 0.5)


NAN_METHODS = METHODS


@pytest.mark.parametrize("method", NAN_METHODS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_nanquantile(dev, method, dtype, np_route):
    a = data((9, 33), dtype, np.random.default_rng(11), dups=False)
    a[2] = np.nan  # an all-NaN row
    x = to_dev(a, dev)
    for q in (0.5, [0.0, 0.3, 1.0]):
        close(ca.nanquantile(x, q, axis=1, method=method),
              np_quiet(np.nanquantile, a, q, axis=1, method=method))
    close(ca.nanpercentile(x, [10, 90], axis=1, method=method),
          np_quiet(np.nanpercentile, a, [10, 90], axis=1, method=method))
    b = a[3]
    close(ca.nanquantile(to_dev(b, dev), 0.4, method=method),
          np_quiet(np.nanquantile, b, 0.4, method=method))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int32])
def test_nanmedian(dev, dtype):
    a = data((8, 31), dtype, np.random.default_rng(12), dups=False)
    if a.dtype.kind == "f":
        a[4] = np.nan
    x = to_dev(a, dev)
    for axis in (None, 0, 1):
        close(ca.nanmedian(x, axis=axis), np_quiet(np.nanmedian, a, axis=axis))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_nanmedian_complex(dev, dtype):
    """A complex element is NaN if either part is (NumPy's isnan); the median of
    the rest, NumPy's lexicographic order; empty rows give NaN+NaNj."""
    rng = np.random.default_rng(13)
    for shape in [(7,), (4, 9), (3, 4, 5), (2, 0), (0,)]:
        a = (rng.integers(-3, 4, shape) + 1j * rng.integers(-3, 4, shape)).astype(dtype)
        u = rng.random(shape)
        a[u < 0.2] = np.nan
        a[(u >= 0.2) & (u < 0.3)] = complex(1, np.nan)
        a[(u >= 0.3) & (u < 0.35)] = complex(np.nan, 2)
        if a.ndim > 1 and a.shape[1]:
            a[0] = np.nan  # an all-NaN row
        x = to_dev(a, dev)
        axes = [None] + list(range(a.ndim)) + ([(0, -1)] if a.ndim > 2 else [])
        for axis in axes:
            for keepdims in (False, True):
                got = ca.nanmedian(x, axis=axis, keepdims=keepdims).get()
                want = np.asarray(np_quiet(np.nanmedian, a, axis=axis, keepdims=keepdims))
                assert got.dtype == want.dtype and got.shape == want.shape
                np.testing.assert_array_equal(got.real, want.real)
                np.testing.assert_array_equal(got.imag, want.imag)
        if a.size == 0:
            got = ca.median(x, axis=-1).get()
            want = np_quiet(np.median, a, axis=-1)
            np.testing.assert_array_equal(got.imag, np.asarray(want).imag)


@pytest.mark.parametrize("dev", ["cpu", pytest.param("cuda:0", marks=requires_gpu)])
def test_histogram_bin_edges(dev, np_route):
    x = np.random.default_rng(3).standard_normal(200).astype(np.float32)
    a = ca.asarray(x, device=dev)
    for bins, rng in ((10, None), (7, (-1, 2)), (1, None), (np.array([-1.0, 0, 0.5, 3]), None)):
        b = ca.asarray(bins, device=dev) if isinstance(bins, np.ndarray) else bins
        got = ca.histogram_bin_edges(a, b, range=rng)
        want = np.histogram_bin_edges(x, bins, range=rng)
        np.testing.assert_array_equal(got.get(), want)
        assert got.get().dtype == want.dtype
        np.testing.assert_array_equal(ca.histogram(a, b, range=rng)[1].get(), want)
    with pytest.raises(ValueError, match="positive"):
        ca.histogram_bin_edges(a, 0)
    with pytest.raises(ValueError, match="monotonically"):
        ca.histogram_bin_edges(a, ca.asarray(np.array([1.0, 0.0]), device=dev))
    with pytest.raises(ValueError, match="same shape"):
        ca.histogram_bin_edges(a, 4, weights=ca.ones(3, device=dev))
    for name in ("auto", "sturges", "fd"):
        np.testing.assert_allclose(ca.histogram_bin_edges(a, name).get(),
                                   np.histogram_bin_edges(x, name), rtol=1e-6)
    with pytest.raises(TypeError, match="weighted data"):
        ca.histogram_bin_edges(a, "auto", weights=ca.ones(200, device=dev))


ESTIMATORS = ["auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt"]


@pytest.mark.parametrize("name", ESTIMATORS)
def test_histogram_bin_estimators(dev, name, np_route):
    rng = np.random.default_rng(21)
    sets = (rng.standard_normal(3000), rng.integers(-40, 60, 2000),
            rng.standard_normal(700).astype(np.float32) * 5, np.full(9, 2.5),
            np.array([3.0]), np.array([0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 9.0]))
    for h in sets:
        for r in (None, (-1, 1.5)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # stone's "suboptimal"
                got, ge = ca.histogram(ca.asarray(h, device=dev), bins=name, range=r)
                want, we = np.histogram(h, bins=name, range=r)
            assert ge.shape == we.shape, (name, h.dtype, h.size, r)
            np.testing.assert_array_equal(got.get(), want)
            np.testing.assert_allclose(ge.get(), we, rtol=1e-12)


def test_histogram_bin_estimator_errors(dev, np_route):
    x = ca.asarray(np.arange(10.0), device=dev)
    with pytest.raises(ValueError, match="not a valid estimator"):
        ca.histogram(x, bins="bogus")
    with pytest.raises(TypeError, match="weighted"):
        ca.histogram(x, bins="auto", weights=x)
    n, e = ca.histogram(ca.asarray(np.array([], np.float64), device=dev), bins="auto")
    wn, we = np.histogram(np.array([], np.float64), bins="auto")
    np.testing.assert_array_equal(n.get(), wn)
    np.testing.assert_array_equal(e.get(), we)


@pytest.mark.parametrize("name", ["quantile", "nanquantile", "percentile",
                                  "nanpercentile"])
def test_quantile_weights(dev, name, np_route):
    rng = np.random.default_rng(8)
    a = rng.standard_normal((4, 5, 9))
    if name.startswith("nan"):
        a[1, 2, 3] = a[0, 0, 0] = np.nan
    w = rng.integers(1, 4, a.shape).astype(np.float64)
    # zero weight on each row's smallest value: never chosen, not even for q = 0
    i, j = np.indices(a.shape[:2])
    w[i, j, np.nanargmin(a, axis=2)] = 0.0
    scale = 100 if "percentile" in name else 1
    x, wx = ca.asarray(a, device=dev), ca.asarray(w, device=dev)
    for axis in (None, 2, 0, (0, 2)):
        for q in (0.0, 0.3, 0.5, 1.0, [0.1, 0.9], np.float32(0.3)):
            for kd in (False, True):
                qq = np.asarray(q) * scale
                got = getattr(ca, name)(x, qq, axis=axis, method="inverted_cdf",
                                        weights=wx, keepdims=kd)
                want = getattr(np, name)(a, qq, axis=axis, method="inverted_cdf",
                                         weights=w, keepdims=kd)
                assert got.shape == want.shape and got.dtype == want.dtype
                np.testing.assert_array_equal(got.get(), want)
    # weights of the reduced axes' shape (NumPy's nan-functions fail on these with
    # two axes: IndexError in numpy 2.4's _nanquantile_1d, so quantile's only)
    if not name.startswith("nan"):
        got = getattr(ca, name)(x, 0.4 * scale, axis=(2, 0), method="inverted_cdf",
                                weights=ca.asarray(w[:, 0, :].T, device=dev))
        want = getattr(np, name)(a, 0.4 * scale, axis=(2, 0), method="inverted_cdf",
                                 weights=w[:, 0, :].T)
        np.testing.assert_array_equal(got.get(), want)
    # integer data keeps its dtype
    ai = rng.integers(0, 20, (6, 7))
    got = getattr(ca, name)(ca.asarray(ai, device=dev), [0.25 * scale, 0.75 * scale],
                            axis=1, method="inverted_cdf",
                            weights=ca.asarray(rng.random((6, 7)), device=dev))
    assert got.dtype == np.int64


def test_quantile_weights_errors(dev, np_route):
    x = ca.asarray(np.arange(12.0).reshape(3, 4), device=dev)
    w = ca.asarray(np.ones((3, 4)), device=dev)
    with pytest.raises(ValueError, match="Only method 'inverted_cdf'"):
        ca.quantile(x, 0.5, weights=w)
    with pytest.raises(ValueError, match="non-negative"):
        ca.quantile(x, 0.5, method="inverted_cdf", weights=-w)
    with pytest.raises(TypeError, match="Axis must be specified"):
        ca.quantile(x, 0.5, method="inverted_cdf", weights=w[0])
    with pytest.raises(ValueError, match="consistent"):
        ca.quantile(x, 0.5, axis=1, method="inverted_cdf", weights=w[:, 0])
    with pytest.raises(ValueError, match="all zero"):
        ca.quantile(x, 0.5, axis=1, method="inverted_cdf", weights=w * 0)


@pytest.mark.parametrize("dev", ["cpu", pytest.param("cuda:0", marks=requires_gpu)])
@pytest.mark.parametrize("bins", [
    [0.0, np.nan, 3.0], [0.0, 3.0, np.nan], [np.nan, 3.0, 0.0], [np.nan, np.nan, 1.0],
    [1.0, 1.0, np.nan], [np.nan], [0.0, 3.0, 1.0], [3.0, 3.0, 1.0, 1.0], [2.0, 2.0],
    [np.nan, 2.0, 1.0, 1.0], [1.0, 2.0, 3.0, np.nan, np.nan]])
@pytest.mark.parametrize("right", [False, True])
def test_digitize_nan_bins(dev, bins, right):
    """NumPy's monotonicity rule (a NaN compares false: the first bin unequal to
    bins[0] sets the direction); the values where the NaNs sit at the end of the
    order the search reads (increasing bins ending, decreasing ones starting, with
    NaNs), the exception everywhere."""
    x = np.array([-1.0, 0.0, 1.0, 2.0, 3.0, 4.0, np.nan])
    b = np.array(bins)

    def run(xp):
        return xp.digitize(to_dev(x, dev) if xp is ca else x,
                           to_dev(b, dev) if xp is ca else b, right=right)
    nan = np.isnan(b)
    k = int(nan.sum())
    tidy = not k or nan[b.size - k:].all() or nan[:k].all()
    if tidy:
        agree(run)
    else:
        try:
            run(np)
        except ValueError:
            with pytest.raises(ValueError):
                run(ca)
        else:
            assert run(ca).shape == x.shape


@pytest.mark.parametrize("dev", ["cpu", pytest.param("cuda:0", marks=requires_gpu)])
@pytest.mark.parametrize("bins", [
    [[0, 0.5, 1], [0, 1]], [3, [0, 1]], ((0, 0.5, 1), (0, 1)), [2, 2, 2], 2.5, [-1, 2],
    [[1, 0], [0, 1]], 0, [[[0, 1]], [0, 1]], [np.int64(2), 3], [2.0, 3], "array",
    "0-d arrays", [[0, 1, 1, 2], [0, 1]]])
def test_histogramdd_bins(dev, bins):
    """histogramdd's bins as NumPy takes them: counts, sequences of edges, arrays
    (0-d ones are counts), NumPy's errors for the rest."""
    r = np.random.default_rng(0).random((10, 2))

    def run(xp):
        b = bins
        if b == "array":
            b = [xp.asarray(np.array([0, 0.5, 1])), [0, 1]]
        elif b == "0-d arrays":
            b = [xp.asarray(np.array(2)), xp.asarray(np.array(3))]
        if xp is ca and isinstance(b, list):
            b = [to_dev(e.get(), dev) if isinstance(e, ca.ndarray) else e for e in b]
        return xp.histogramdd(to_dev(r, dev) if xp is ca else r, bins=b)
    agree(run)
