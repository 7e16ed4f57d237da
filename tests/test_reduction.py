"""Reductions and scans against NumPy, on every dtype and both devices.

Float results are compared within a tolerance scaled by the magnitude of what
was summed (cuarray accumulates float32 in double and float16 in float32, so it
is often closer to the exact value than NumPy); everything else, dtypes and
shapes included, must be equal.
"""

import warnings

import numpy as np
import pytest
from numpy.exceptions import AxisError

import cuarray as ca
from conftest import ALL_DTYPES, HAVE_GPU, random_array, requires_gpu

FLOATS = [np.float16, np.float32, np.float64, np.complex64, np.complex128]
INEXACT_EPS = {np.dtype(t): np.finfo(t).eps for t in FLOATS}


def dev(x, device):
    return ca.asarray(np.array(x, copy=True), device=device)


def logic_array(shape, dtype, rng=None):
    """Random data with about a third zeros (for any/all and products)."""
    x = random_array(shape, dtype, rng)
    rng = rng or np.random.default_rng(99)
    zero = rng.random(shape) < 0.35
    x = np.array(x, copy=True)
    x[zero] = 0
    return x


def small_array(shape, dtype, rng=None):
    """Values whose products stay finite in float16 (prod, cumprod)."""
    rng = rng or np.random.default_rng(7)
    dtype = np.dtype(dtype)
    if dtype.kind in "fc":
        x = rng.uniform(0.6, 1.4, shape) * rng.choice([-1, 1], shape)
        if dtype.kind == "c":
            x = x + 1j * rng.uniform(-0.3, 0.3, shape)
        return x.astype(dtype)
    return random_array(shape, dtype, rng)


def check(got, want, mag=None, rtol_scale=1.0, exact=False):
    """got: cuarray result; want: NumPy result (array or scalar); mag: the
    magnitude scale of the inputs that went into each result (for the absolute
    tolerance of float results)."""
    want = np.asarray(want)
    assert isinstance(got, ca.ndarray), type(got)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    g = got.get()
    if exact or want.dtype.kind not in "fc":
        np.testing.assert_array_equal(g, want)
        return
    eps = INEXACT_EPS[want.dtype]
    tol = 8 * eps * rtol_scale
    m = np.abs(want).astype(np.float64) if mag is None else np.asarray(mag, np.float64)
    bad_nan = np.isnan(g) != np.isnan(want)
    assert not bad_nan.any(), (g, want)
    fin = ~np.isnan(want)
    with np.errstate(invalid="ignore", over="ignore"):
        err = np.abs(g.astype(np.complex128) - want.astype(np.complex128))
        lim = tol * (np.abs(want.astype(np.complex128)) + m) + np.finfo(want.dtype).tiny
        ok = (err <= lim) | ~fin | (g == want)
    assert ok.all(), (g[~ok], want[~ok], err[~ok], lim[~ok] if lim.shape else lim)


def axis_variants(ndim):
    out = [None]
    for d in range(ndim):
        out += [d, d - ndim]
    if ndim >= 2:
        out += [(0, ndim - 1), tuple(range(ndim)), ()]
    if ndim >= 3:
        out += [(0, 2), (1, 2), (-1, 0)]
    return out


def layouts(x, device):
    """(NumPy, cuarray) pairs of x in several layouts."""
    a = dev(x, device)
    out = [(x, a)]
    if x.ndim >= 1:
        out.append((x[::-1], a[::-1]))
        big = np.repeat(x, 2, axis=x.ndim - 1)
        sl = (slice(None),) * (x.ndim - 1) + (slice(None, None, 2),)
        out.append((big[sl], dev(big, device)[sl]))
    if x.ndim >= 2:
        out.append((x.T, a.T))
    return out


def layout_axis_keepdims(x, device):
    """(NumPy, cuarray, axis, keepdims) for every layout, axis and keepdims."""
    for xn, a in layouts(x, device):
        for axis in axis_variants(xn.ndim):
            for keepdims in (False, True):
                yield xn, a, axis, keepdims


def abs_reduce(x, axis, keepdims, mean=False):
    """sum (or mean) of |x| in float64: the scale of a sum's rounding error."""
    ax = np.abs(x.astype(np.complex128)) if x.dtype.kind == "c" else \
        np.abs(x.astype(np.float64))
    if mean:
        if ax.size == 0:
            return 0.0
        return ax.mean(axis=axis, keepdims=keepdims)
    return ax.sum(axis=axis, keepdims=keepdims)


# ---- sum, prod, mean ------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_sum_every_dtype_axis_keepdims(device, dtype):
    x = random_array((3, 4, 5), dtype)
    for xn, a, axis, keepdims in layout_axis_keepdims(x, device):
        want = np.sum(xn, axis=axis, keepdims=keepdims)
        mag = abs_reduce(xn, axis, keepdims)
        check(a.sum(axis=axis, keepdims=keepdims), want, mag)
        check(ca.sum(a, axis, None, None, keepdims), want, mag)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_prod_every_dtype(device, dtype):
    x = small_array((3, 4, 5), dtype)
    for xn, a, axis, keepdims in layout_axis_keepdims(x, device):
        want = np.prod(xn, axis=axis, keepdims=keepdims)
        check(a.prod(axis=axis, keepdims=keepdims), want, rtol_scale=8)
        check(ca.prod(a, axis=axis, keepdims=keepdims), want, rtol_scale=8)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_mean_every_dtype(device, dtype):
    x = random_array((3, 4, 5), dtype)
    for xn, a, axis, keepdims in layout_axis_keepdims(x, device):
        want = np.mean(xn, axis=axis, keepdims=keepdims)
        mag = abs_reduce(xn, axis, keepdims, mean=True)
        check(a.mean(axis=axis, keepdims=keepdims), want, mag)
        check(ca.mean(a, axis=axis, keepdims=keepdims), want, mag)


def test_sum_int_overflow_wraps_as_numpy(device):
    big = np.iinfo(np.int64).max
    x = np.array([big, big, 3, -7], np.int64)
    check(dev(x, device).sum(), np.sum(x))
    u = np.array([np.iinfo(np.uint64).max, 5], np.uint64)
    check(dev(u, device).sum(), np.sum(u))
    i8 = np.full(1000, 127, np.int8)  # int8 sums in int64: no wrap
    check(dev(i8, device).sum(), np.sum(i8))
    check(dev(i8, device).sum(dtype=np.int8), np.sum(i8, dtype=np.int8))
    p = np.arange(1, 40, dtype=np.int64)
    check(dev(p, device).prod(), np.prod(p))
    check(dev(p.astype(np.uint32), device).prod(), np.prod(p.astype(np.uint32)))
    check(dev(p.astype(np.int16), device).prod(dtype=np.int16),
          np.prod(p.astype(np.int16), dtype=np.int16))


SUM_DTYPES = [None, np.int8, np.uint8, np.int32, np.int64, np.uint64, np.float16,
              np.float32, np.float64, np.complex64, np.complex128, np.bool_]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_sum_prod_dtype_argument(device, dtype):
    x = small_array((4, 6), dtype)
    a = dev(x, device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ComplexWarning, overflow in casts
        for req in SUM_DTYPES:
            for axis in (None, 0, 1):
                want = np.sum(x, axis=axis, dtype=req)
                check(a.sum(axis=axis, dtype=req), want,
                      abs_reduce(x.astype(want.dtype), axis, False), rtol_scale=4)
                want = np.prod(x, axis=axis, dtype=req)
                check(a.prod(axis=axis, dtype=req), want, rtol_scale=16)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_mean_dtype_argument(device, dtype):
    x = random_array((4, 6), dtype)
    a = dev(x, device)
    for req in (np.float16, np.float32, np.float64, np.complex64, np.complex128):
        if np.dtype(dtype).kind == "c" and np.dtype(req).kind != "c":
            continue
        for axis in (None, 0, 1):
            want = np.mean(x, axis=axis, dtype=req)
            check(a.mean(axis=axis, dtype=req), want,
                  abs_reduce(x, axis, False, mean=True), rtol_scale=4)


def test_float16_accumulates_in_float32(device):
    x = np.full(5000, 1.0, np.float16)  # 5000 is exact in float16; a float16 sum stalls
    check(dev(x, device).sum(), np.sum(x))
    assert float(dev(x, device).sum()) == 5000.0
    check(dev(x, device).mean(), np.mean(x))


def test_sum_accuracy_float32_2_26(device):
    """A float32 sum of 2^26 values is at least as close to the float64 result as
    NumPy's own float32 sum."""
    rng = np.random.default_rng(2026)
    x = rng.random(1 << 26, dtype=np.float32)
    exact = x.sum(dtype=np.float64)
    numpy_err = abs(float(x.sum()) - exact)
    a = dev(x, device)
    ours = float(a.sum())
    assert abs(ours - exact) <= numpy_err, (ours, float(x.sum()), exact)
    # also on a strided view (every other element) and as a mean
    ours_mean = float(a.mean())
    assert abs(ours_mean - exact / x.size) <= abs(float(x.mean()) - exact / x.size) + 1e-7
    xs = x[::2]
    exact_s = xs.sum(dtype=np.float64)
    assert abs(float(a[::2].sum()) - exact_s) <= abs(float(xs.sum()) - exact_s)


# ---- max, min, argmax, argmin ------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_max_min_every_dtype(device, dtype):
    x = random_array((3, 4, 5), dtype)
    for xn, a in layouts(x, device):
        for axis in axis_variants(xn.ndim):
            if axis == () or (isinstance(axis, tuple) and False):
                pass
            for keepdims in (False, True):
                check(a.max(axis=axis, keepdims=keepdims),
                      np.max(xn, axis=axis, keepdims=keepdims), exact=True)
                check(a.min(axis=axis, keepdims=keepdims),
                      np.min(xn, axis=axis, keepdims=keepdims), exact=True)
                check(ca.amax(a, axis=axis, keepdims=keepdims),
                      np.amax(xn, axis=axis, keepdims=keepdims), exact=True)
                check(ca.amin(a, axis, None, keepdims),
                      np.amin(xn, axis=axis, keepdims=keepdims), exact=True)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_argmax_argmin_every_dtype(device, dtype):
    # few distinct values: ties, so "first occurrence" is tested
    rng = np.random.default_rng(5)
    x = random_array((3, 4, 5), dtype, rng)
    if np.dtype(dtype) != np.bool_:
        x = (x // 20 * 20 if np.dtype(dtype).kind in "iu" else np.round(x / 20) * 20)
        x = x.astype(dtype)
    for xn, a in layouts(x, device):
        for axis in [None] + list(range(-xn.ndim, xn.ndim)):
            for keepdims in (False, True):
                check(a.argmax(axis=axis, keepdims=keepdims),
                      np.argmax(xn, axis=axis, keepdims=keepdims))
                check(ca.argmin(a, axis, keepdims=keepdims),
                      np.argmin(xn, axis=axis, keepdims=keepdims))


@pytest.mark.parametrize("dtype", FLOATS)
def test_nan_propagation(device, dtype):
    x = random_array((6, 7), dtype)
    x[2, 3] = np.nan
    x[4, 1] = np.nan
    if np.dtype(dtype).kind == "c":
        x[5, 5] = complex(1.0, np.nan)
    a = dev(x, device)
    for axis in (None, 0, 1):
        for f in ("max", "min"):
            got = getattr(a, f)(axis=axis).get()
            want = getattr(np, f)(x, axis=axis)
            np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
            fin = ~np.isnan(want)
            np.testing.assert_array_equal(np.asarray(got)[fin], np.asarray(want)[fin])
        check(a.argmax(axis=axis), np.argmax(x, axis=axis))
        check(a.argmin(axis=axis), np.argmin(x, axis=axis))
        check(a.sum(axis=axis), np.sum(x, axis=axis), abs_reduce(x, axis, False))


def test_argmax_flat_index_of_views(device):
    x = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    x = np.random.default_rng(3).permutation(x.ravel()).reshape(3, 4, 5)
    a = dev(x, device)
    for xn, an in [(x.T, a.T), (x[:, ::-1, 1:], a[:, ::-1, 1:]),
                   (x.transpose(1, 0, 2)[::2], a.transpose(1, 0, 2)[::2])]:
        check(an.argmax(), np.argmax(xn))
        check(an.argmin(), np.argmin(xn))
        check(an.argmax(keepdims=True), np.argmax(xn, keepdims=True))


# ---- var, std ------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_var_std_every_dtype(device, dtype):
    x = random_array((3, 4, 5), dtype)
    for xn, a in layouts(x, device):
        for axis in axis_variants(xn.ndim):
            if axis == ():
                continue
            for keepdims in (False, True):
                for ddof in (0, 1):
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", RuntimeWarning)
                        want = np.var(xn, axis=axis, keepdims=keepdims, ddof=ddof)
                        got = a.var(axis=axis, keepdims=keepdims, ddof=ddof)
                    # float16: NumPy squares and sums in float16
                    scale = 64 if np.dtype(dtype) == np.float16 else 4
                    check(got, want, rtol_scale=scale)
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", RuntimeWarning)
                        want = np.std(xn, axis=axis, keepdims=keepdims, ddof=ddof)
                        got = ca.std(a, axis=axis, keepdims=keepdims, ddof=ddof)
                    check(got, want, rtol_scale=scale)


def test_var_dtype_and_complex(device):
    x = random_array((5, 6), np.complex64)
    a = dev(x, device)
    check(a.var(), np.var(x), rtol_scale=4)
    check(a.var(dtype=np.complex128), np.var(x, dtype=np.complex128), rtol_scale=4)
    f = random_array((5, 6), np.float32)
    check(dev(f, device).var(axis=0, dtype=np.float64), np.var(f, axis=0, dtype=np.float64),
          rtol_scale=1e8 * np.finfo(np.float32).eps)
    i = random_array((5, 6), np.int32)
    check(dev(i, device).std(dtype=np.float32), np.std(i, dtype=np.float32), rtol_scale=4)
    check(dev(f, device).std(ddof=2.5), np.std(f, ddof=2.5), rtol_scale=4)


def test_var_ddof_too_large(device):
    x = np.array([1.0, 2.0, 4.0])
    a = dev(x, device)
    with pytest.warns(RuntimeWarning):
        got = a.var(ddof=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = np.var(x, ddof=3)
    check(got, want)


# ---- any, all ------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_any_all_every_dtype(device, dtype):
    x = logic_array((3, 4, 5), dtype)
    for xn, a, axis, keepdims in layout_axis_keepdims(x, device):
        check(a.any(axis=axis, keepdims=keepdims),
              np.any(xn, axis=axis, keepdims=keepdims))
        check(ca.all(a, axis=axis, keepdims=keepdims),
              np.all(xn, axis=axis, keepdims=keepdims))


def test_any_all_nan_is_true(device):
    x = np.array([0.0, np.nan, 0.0])
    a = dev(x, device)
    assert bool(a.any()) and not bool(a.all())
    assert bool(dev(np.array([np.nan, 1.0]), device).all())


# ---- cumsum, cumprod -------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_cumsum_cumprod_every_dtype(device, dtype):
    x = random_array((3, 4, 5), dtype)
    xs = small_array((3, 4, 5), dtype)
    for (xn, a), (xsn, as_) in zip(layouts(x, device), layouts(xs, device)):
        for axis in [None] + list(range(-xn.ndim, xn.ndim)):
            want = np.cumsum(xn, axis=axis)
            mag = np.cumsum(np.abs(xn.astype(np.complex128)), axis=axis).real
            check(a.cumsum(axis=axis), want, mag)
            check(ca.cumsum(a, axis), want, mag)
            want = np.cumprod(xsn, axis=axis)
            check(as_.cumprod(axis=axis), want, rtol_scale=16)
            check(ca.cumprod(as_, axis=axis), want, rtol_scale=16)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.float16, np.float32,
                                   np.complex64])
def test_cumsum_dtype_and_out(device, dtype):
    x = small_array((4, 5), dtype)
    a = dev(x, device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for req in (np.int8, np.int64, np.uint8, np.float32, np.float64, np.bool_,
                    np.complex128):
            for axis in (None, 0, 1):
                want = np.cumsum(x, axis=axis, dtype=req)
                check(a.cumsum(axis=axis, dtype=req), want,
                      np.cumsum(np.abs(x.astype(want.dtype)), axis=axis), rtol_scale=4)
                want = np.cumprod(x, axis=axis, dtype=req)
                check(a.cumprod(axis=axis, dtype=req), want, rtol_scale=16)
    # out=, also of another dtype, and in place
    o = ca.zeros((4, 5), dtype=np.float64, device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ComplexWarning
        r = a.cumsum(axis=1, out=o)
        want = np.cumsum(x, axis=1, out=np.empty((4, 5)))
    assert r is o
    check(o, want, rtol_scale=4)
    if np.dtype(dtype) == np.float32:
        b = dev(x, device)
        r = ca.cumsum(b, axis=0, out=b)
        assert r is b
        check(b, np.cumsum(x, axis=0), rtol_scale=4)


def test_cumsum_0d_and_empty(device):
    a = dev(np.array(3.0), device)
    check(a.cumsum(), np.cumsum(np.array(3.0)))
    check(ca.cumsum(a, axis=0), np.cumsum(np.array(3.0), axis=0))
    e = dev(np.zeros((0, 3), np.int32), device)
    check(e.cumsum(axis=0), np.cumsum(np.zeros((0, 3), np.int32), axis=0))
    check(e.cumprod(), np.cumprod(np.zeros((0, 3), np.int32)))
    with pytest.raises(AxisError):
        a.cumsum(axis=1)
    with pytest.raises(TypeError):
        dev(np.ones((2, 2)), device).cumsum(axis=(0,))


# ---- larger shapes: every GPU strategy --------------------------------------------------

# (shape, axis): one output with split passes, many rows, few long rows, columns
# (with and without 16-byte column loads), few columns with splits, odometers over
# several reduced dims, misaligned row starts.
BIG_CASES = [
    ((1 << 20,), None), ((1000003,), None), ((3, 1 << 18), 1), ((4096, 300), 1),
    ((300, 4096), 0), ((1 << 16, 8), 0), ((2048, 256), 0), ((2047, 255), 0),
    ((64, 32, 48), (0, 2)), ((64, 32, 48), (0, 1)), ((16, 16, 16, 16), (1, 3)),
    ((513, 515), None), ((100, 1000), -1),
]


@pytest.mark.parametrize("shape,axis", BIG_CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float64, np.uint8, np.float16,
                                   np.complex128])
def test_large_shapes(device, shape, axis, dtype):
    rng = np.random.default_rng(11)
    x = random_array(shape, dtype, rng)
    a = dev(x, device)
    views = [(x, a)]
    if len(shape) >= 2:
        views.append((x[:, 1:], a[:, 1:]))  # rows start off 16-byte boundaries
    if len(shape) == 3:
        views.append((x[:, ::2], a[:, ::2]))
    for xn, an in views:
        mag = abs_reduce(xn, axis, False)
        check(an.sum(axis=axis), np.sum(xn, axis=axis), mag)
        check(an.max(axis=axis), np.max(xn, axis=axis), exact=True)
        check(an.any(axis=axis), np.any(xn, axis=axis))
        check(an.mean(axis=axis), np.mean(xn, axis=axis),
              abs_reduce(xn, axis, False, mean=True))
        if axis is None or isinstance(axis, int):
            check(an.argmin(axis=axis), np.argmin(xn, axis=axis))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            want = np.var(xn, axis=axis)
            # NumPy adds rows one by one along a non-contiguous axis: its error
            # grows with the count
            n = xn.size // max(want.size, 1)
            check(an.var(axis=axis), want,
                  rtol_scale=64 if np.dtype(dtype) == np.float16 else max(8, n / 64))


@pytest.mark.parametrize("shape,axis", [((1 << 20,), 0), ((1000003,), None),
                                        ((3, 100000), 1), ((5000, 40), 0),
                                        ((40, 5000), 1), ((64, 7), 0), ((3000, 3), 1)])
@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.complex64])
def test_large_scans(device, shape, axis, dtype):
    x = random_array(shape, dtype, np.random.default_rng(12))
    a = dev(x, device)
    want = np.cumsum(x, axis=axis)
    mag = np.cumsum(np.abs(x.astype(np.complex128)), axis=axis).real
    check(a.cumsum(axis=axis), want, mag, rtol_scale=4)
    if axis is not None and len(shape) == 2:
        check(a[:, 1:].cumsum(axis=axis), np.cumsum(x[:, 1:], axis=axis),
              np.cumsum(np.abs(x[:, 1:].astype(np.complex128)), axis=axis).real,
              rtol_scale=4)


# One long contiguous row goes to CUB's single-pass scan (reduce_scan_cub.cuh) for
# its pairs, longer than 4096 (below: the BLOCK path's one launch); sizes on both
# sides of that and of several CUB tiles, past 2^20. Float results against a
# float64 reference (NumPy's float32 scan adds in float32, ours in double).
CUB_SCAN_LENS = [4096, 4097, 5000, 12289, (1 << 16) + 1, (1 << 20) + 3, 3 << 20]


def scan_data(n, dtype, rng, nans=False):
    x = random_array((n,), dtype, rng)
    if nans:
        x[rng.random(n) < 0.05] = np.nan
    return x


def near_one(n, dtype, rng):
    """Factors whose running products stay finite over millions (a few negative)."""
    x = rng.uniform(0.999, 1.001, n)
    x[rng.random(n) < 0.001] *= -1
    return x.astype(dtype)


def scan_tol(n):
    """check()'s rtol_scale for a float scan of one row of n in its own precision
    (float32 accumulates in float32, as NumPy's cumsum does): check allows
    8 * eps * rtol_scale * (|want| + sum|x|). A scan's result i is a chain of
    roundings: a recursive sum along a chain of k adds is off by at most
    k * eps * sum|x| (k * eps relative for a product). NumPy's sequential cumsum has
    k = i, up to n. CUB's look-back scan has at most a thread's items plus the
    block scan's levels (under 64 together) plus one add per earlier tile (a tile
    holds at least 256 items; sm_90 float tiles hold 3072), so k <= n / 256 + 64."""
    return max(4.0, (n / 256 + 64) / 8)


@pytest.mark.parametrize("n", CUB_SCAN_LENS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_long_row_scans_float(device, n, dtype):
    """Long rows (CUB's scan on a GPU) of float32 and float64 against a float64
    reference within scan_tol's bound."""
    rng = np.random.default_rng(n)
    x = scan_data(n, dtype, rng)
    a = dev(x, device)
    x64 = x.astype(np.float64)
    mag = np.cumsum(np.abs(x64))
    tol = scan_tol(n)
    check(a.cumsum(), np.cumsum(x64).astype(dtype), mag, rtol_scale=tol)
    check(ca.cumsum(a, axis=0), np.cumsum(x64).astype(dtype), mag, rtol_scale=tol)
    # float64 products: NumPy's own sequential rounding (the reference) walks
    # about sqrt(n) ulps as well
    prod_scale = tol if dtype == np.float32 else max(tol, 4 * np.sqrt(n))
    p = near_one(n, dtype, rng)
    b = dev(p, device)
    check(b.cumprod(), np.cumprod(p.astype(np.float64)).astype(dtype),
          rtol_scale=prod_scale)
    xn = scan_data(n, dtype, rng, nans=True)
    c = dev(xn, device)
    xn64 = xn.astype(np.float64)
    check(ca.nancumsum(c), np.nancumsum(xn64).astype(dtype),
          np.nancumsum(np.abs(xn64)), rtol_scale=tol)
    pn = near_one(n, dtype, rng)
    pn[rng.random(n) < 0.05] = np.nan
    check(ca.nancumprod(dev(pn, device)),
          np.nancumprod(pn.astype(np.float64)).astype(dtype), rtol_scale=prod_scale)


@pytest.mark.parametrize("n", [4097, (1 << 20) + 3])
def test_long_row_scans_int(device, n):
    rng = np.random.default_rng(5)
    info = np.iinfo(np.int32)
    x = rng.integers(info.min, info.max, size=n, endpoint=True).astype(np.int32)
    a = dev(x, device)
    check(a.cumsum(), np.cumsum(x))  # int64, exact
    check(a.cumsum(dtype=np.int32), np.cumsum(x, dtype=np.int32))  # wraps as NumPy
    y = rng.integers(-(1 << 62), 1 << 62, size=n).astype(np.int64)
    check(dev(y, device).cumsum(), np.cumsum(y))  # int64 wraps as NumPy
    b = rng.random(n) < 0.5
    check(dev(b, device).cumsum(), np.cumsum(b))
    p = rng.choice(np.array([1, 1, 1, -1, 2, 3], np.int64), size=n)
    with np.errstate(over="ignore"):
        check(dev(p, device).cumprod(), np.cumprod(p))
    # pairs without a CUB scan stay on the BLOCK path
    u = rng.integers(0, 200, size=n).astype(np.uint8)
    check(dev(u, device).cumsum(), np.cumsum(u))
    h = rng.integers(-5, 5, size=n).astype(np.int16)
    check(dev(h, device).cumprod(), np.cumprod(h))


@pytest.mark.parametrize("shape,axis", [((1, 1 << 20), 1), ((1 << 20, 1), 0),
                                        ((1, 70000, 1), 1), ((1 << 20,), None)])
def test_long_row_scans_unit_dims_and_layouts(device, shape, axis):
    rng = np.random.default_rng(8)
    x = random_array(shape, np.float32, rng)
    a = dev(x, device)
    x64 = x.astype(np.float64)
    want = np.cumsum(x64, axis=axis).astype(np.float32)
    mag = np.cumsum(np.abs(x64), axis=axis)
    tol = scan_tol(x.size)
    check(a.cumsum(axis=axis), want, mag, rtol_scale=tol)
    flat = x.reshape(-1)
    f = dev(flat, device)
    f64 = flat.astype(np.float64)
    # strided and reversed rows take the other paths; an offset one is CUB's
    for xv, av in ((flat[::2], f[::2]), (flat[::-1], f[::-1]), (flat[3:], f[3:])):
        v64 = xv.astype(np.float64)
        check(av.cumsum(), np.cumsum(v64).astype(np.float32), np.cumsum(np.abs(v64)),
              rtol_scale=tol)
    # out= of the kernel's dtype (written by the scan), of another dtype, and in place
    o = ca.empty(flat.shape, dtype=np.float32, device=device)
    assert ca.cumsum(f, out=o) is o
    check(o, np.cumsum(f64).astype(np.float32), np.cumsum(np.abs(f64)), rtol_scale=tol)
    o64 = ca.empty(flat.shape, dtype=np.float64, device=device)
    assert ca.cumsum(f, out=o64) is o64
    check(o64, np.cumsum(flat, out=np.empty(flat.shape)), np.cumsum(np.abs(f64)),
          rtol_scale=4)
    g = dev(flat, device)
    assert ca.cumsum(g, out=g) is g
    check(g, np.cumsum(f64).astype(np.float32), np.cumsum(np.abs(f64)), rtol_scale=tol)
    q = near_one(flat.size, np.float64, rng)
    h = dev(q, device)
    assert ca.cumprod(h, out=h) is h
    check(h, np.cumprod(q), rtol_scale=max(tol, 4 * np.sqrt(q.size)))


def test_long_row_scans_small_and_empty(device):
    for n in (0, 1, 2, 17, 4095):
        x = random_array((n,), np.float32, np.random.default_rng(n))
        x64 = x.astype(np.float64)
        check(dev(x, device).cumsum(), np.cumsum(x64).astype(np.float32),
              np.cumsum(np.abs(x64)), rtol_scale=4)
        p = near_one(n, np.float32, np.random.default_rng(n))
        check(ca.nancumprod(dev(p, device)),
              np.nancumprod(p.astype(np.float64)).astype(np.float32), rtol_scale=4)
    e = dev(np.zeros((1, 0), np.float64), device)
    check(e.cumsum(axis=1), np.zeros((1, 0)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_long_row_scans_specials(device, dtype):
    """CUB's float scans with inf, -inf, NaN and signed zeros in a long row: inf
    runs on, inf - inf and NaN make NaN from there on (NumPy's order of adds gives
    the same classes: they do not depend on rounding), nancumsum/nancumprod skip
    NaNs, a row that starts with -0.0 keeps its sign."""
    n = 70001
    rng = np.random.default_rng(21)
    tol = scan_tol(n)
    x = scan_data(n, dtype, rng)
    x[0] = -0.0
    x[5000] = np.inf
    for xs in (x, np.where(np.arange(n) == 30000, np.float64(-np.inf), x).astype(dtype),
               np.where(np.arange(n) == 60000, np.float64(np.nan), x).astype(dtype)):
        x64 = xs.astype(np.float64)
        with np.errstate(invalid="ignore"):
            want = np.cumsum(x64).astype(dtype)
        check(dev(xs, device).cumsum(), want, np.cumsum(np.abs(x64)), rtol_scale=tol)
    g = dev(x, device).cumsum().get()
    assert np.signbit(g[0]) and g[0] == 0 and np.isinf(g[5000:]).all()
    xn = x.copy()
    xn[rng.integers(0, n, 500)] = np.nan
    x64 = xn.astype(np.float64)
    check(ca.nancumsum(dev(xn, device)), np.nancumsum(x64).astype(dtype),
          np.nancumsum(np.abs(x64)), rtol_scale=tol)
    p = near_one(n, dtype, rng)
    p[7] = np.nan
    p[40000] = np.inf
    p64 = p.astype(np.float64)
    check(dev(p, device).cumprod(), np.cumprod(p64).astype(dtype), rtol_scale=tol)
    check(ca.nancumprod(dev(p, device)), np.nancumprod(p64).astype(dtype),
          rtol_scale=max(tol, 4 * np.sqrt(n)))


def test_many_dims_fall_back(device):
    """18 axes of length 2 with every other one reduced: nothing merges, more
    dims than the GPU kernels take, so the input is regrouped first."""
    x = random_array((2,) * 18, np.float32)
    a = dev(x, device)
    axes = tuple(range(0, 18, 2))
    check(a.sum(axis=axes), np.sum(x, axis=axes), abs_reduce(x, axes, False))
    check(a.max(axis=axes), np.max(x, axis=axes), exact=True)
    check(a.argmax(), np.argmax(x))
    t = a.transpose(tuple(range(17, -1, -1)))
    check(t.cumsum(axis=3), np.cumsum(x.T, axis=3), rtol_scale=16)


# ---- out= ------------------------------------------------------------------------------

def test_out_argument(device):
    x = random_array((4, 5, 6), np.float32)
    a = dev(x, device)
    o = ca.empty((4, 6), dtype=np.float32, device=device)
    assert a.sum(axis=1, out=o) is o
    check(o, np.sum(x, axis=1), abs_reduce(x, 1, False))
    o64 = ca.empty((4, 6), dtype=np.float64, device=device)
    assert ca.mean(a, axis=1, out=o64) is o64
    check(o64, np.mean(x, axis=1, out=np.empty((4, 6), np.float64)),
          abs_reduce(x, 1, False, mean=True))
    ok = ca.empty((4, 1, 6), dtype=np.float32, device=device)
    assert a.max(axis=1, out=ok, keepdims=True) is ok
    check(ok, np.max(x, axis=1, keepdims=True), exact=True)
    oi = ca.empty((4, 6), dtype=np.int32, device=device)
    assert a.argmax(axis=1, out=oi) is oi
    check(oi, np.argmax(x, axis=1).astype(np.int32))
    ob = ca.empty((5, 6), dtype=np.float32, device=device)
    a.any(axis=0, out=ob)
    check(ob, np.any(x, axis=0).astype(np.float32))
    ov = ca.empty((), dtype=np.float64, device=device)
    a.var(out=ov)
    check(ov, np.var(x, out=np.empty((), np.float64)), rtol_scale=1e9)
    # a strided out
    big = ca.zeros((4, 12), dtype=np.float32, device=device)
    a.sum(axis=1, out=big[:, ::2])
    check(big[:, ::2], np.sum(x, axis=1), abs_reduce(x, 1, False))
    # out aliasing the input: computed through a temporary
    y = random_array((5, 5), np.float64)
    b = dev(y, device)
    b.sum(axis=0, out=b[0])
    want = y.copy()
    np.sum(y, axis=0, out=want[0])
    check(b, want)
    # NumPy's reduce dtype with out=: the promotion of input and out
    i8 = np.full(700, 100, np.int8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        o16 = ca.empty((), dtype=np.float16, device=device)
        dev(i8, device).sum(out=o16)
        check(o16, np.sum(i8, out=np.empty((), np.float16)))


def test_out_errors(device):
    a = dev(np.ones((3, 4), np.float32), device)
    with pytest.raises(ValueError):
        a.sum(axis=1, out=ca.empty((4,), dtype=np.float32, device=device))
    with pytest.raises(ValueError):
        a.sum(axis=1, out=ca.empty((3, 1), dtype=np.float32, device=device))
    with pytest.raises(ValueError):
        a.sum(axis=1, keepdims=True, out=ca.empty((3,), dtype=np.float32, device=device))
    with pytest.raises(TypeError):
        a.argmax(axis=1, out=ca.empty((3,), dtype=np.float64, device=device))
    with pytest.raises(TypeError):
        a.sum(out=np.empty(()))
    with pytest.raises(ValueError):
        a.cumsum(axis=0, out=ca.empty((4, 3), dtype=np.float32, device=device))


@requires_gpu
def test_out_on_another_device_is_an_error():
    g = ca.asarray(np.ones((3, 4), np.float32), device="cuda:0")
    h = ca.empty((3,), dtype=np.float32, device="cpu")
    with pytest.raises(ValueError):
        g.sum(axis=1, out=h)
    with pytest.raises(ValueError):
        ca.asarray(np.ones((3, 4), np.float32), device="cpu").sum(
            axis=1, out=ca.empty((3,), dtype=np.float32, device="cuda:0"))
    with pytest.raises(ValueError):
        g.cumsum(out=ca.empty((12,), dtype=np.float32, device="cpu"))


# ---- empty arrays, 0-d arrays ---------------------------------------------------------------

def test_empty_reductions(device):
    e = dev(np.zeros((0, 3), np.float32), device)
    check(e.sum(), np.sum(np.zeros((0, 3), np.float32)))
    check(e.sum(axis=0), np.sum(np.zeros((0, 3), np.float32), axis=0))
    check(e.sum(axis=1), np.sum(np.zeros((0, 3), np.float32), axis=1))
    check(e.prod(axis=0), np.prod(np.zeros((0, 3), np.float32), axis=0))
    check(dev(np.zeros((0,), np.int8), device).sum(), np.sum(np.zeros((0,), np.int8)))
    check(dev(np.zeros((0,), np.bool_), device).prod(), np.prod(np.zeros((0,), np.bool_)))
    check(e.any(axis=0), np.any(np.zeros((0, 3)), axis=0))
    check(e.all(axis=0), np.all(np.zeros((0, 3)), axis=0))
    with pytest.warns(RuntimeWarning):
        got = e.mean(axis=0)
    assert np.isnan(got.get()).all() and got.shape == (3,)
    with pytest.warns(RuntimeWarning):
        got = e.mean()
    assert np.isnan(float(got))
    with pytest.warns(RuntimeWarning):
        got = e.var(axis=0)
    assert np.isnan(got.get()).all()
    for f in ("max", "min", "argmax", "argmin"):
        with pytest.raises(ValueError):
            getattr(e, f)()
        with pytest.raises(ValueError):
            getattr(e, f)(axis=0)
    check(e.max(axis=1), np.max(np.zeros((0, 3)), axis=1).astype(np.float32))
    check(e.argmax(axis=1), np.argmax(np.zeros((0, 3)), axis=1))


def test_zero_d(device):
    x = np.array(2.5, np.float32)
    a = dev(x, device)
    for f in ("sum", "prod", "mean", "max", "min", "argmax", "argmin", "var", "std",
              "any", "all"):
        check(getattr(a, f)(), getattr(np, f)(x), exact=False)
    check(a.sum(axis=0), np.sum(x, axis=0))
    check(a.sum(axis=-1), np.sum(x, axis=-1))
    check(a.argmax(axis=0), np.argmax(x, axis=0))
    with pytest.raises(AxisError):
        a.sum(axis=1)
    with pytest.raises(AxisError):
        a.sum(axis=(0,))


# ---- bad arguments ------------------------------------------------------------------------

def test_bad_axes(device):
    a = dev(np.ones((2, 3)), device)
    for f in ("sum", "prod", "mean", "max", "min", "var", "std", "any", "all"):
        with pytest.raises(AxisError):
            getattr(a, f)(axis=2)
        with pytest.raises(AxisError):
            getattr(a, f)(axis=-3)
        with pytest.raises(AxisError):
            getattr(a, f)(axis=(0, 5))
        with pytest.raises(ValueError):
            getattr(a, f)(axis=(1, 1))
        with pytest.raises(ValueError):
            getattr(a, f)(axis=(0, -2))
        with pytest.raises(TypeError):
            getattr(a, f)(axis=1.0)
    for f in ("argmax", "argmin", "cumsum", "cumprod"):
        with pytest.raises(AxisError):
            getattr(a, f)(axis=2)
        with pytest.raises(TypeError):
            getattr(a, f)(axis=(0, 1))
    assert issubclass(AxisError, ValueError) and issubclass(AxisError, IndexError)


def test_bad_arguments(device):
    a = dev(np.ones((2, 3)), device)
    with pytest.raises(TypeError):
        a.argmax(initial=0)  # sum's initial= and where=: tests/test_ufunc_where.py
    with pytest.raises(TypeError):
        a.sum(0, None, None, False, 7, True, 1)
    with pytest.raises(TypeError):
        a.argmax(0, None, True)  # keepdims is keyword-only
    with pytest.raises(TypeError):
        ca.sum(np.ones(3))
    with pytest.raises(TypeError):
        ca.sum([1, 2, 3])
    with pytest.raises(TypeError):
        a.sum(dtype="not a dtype")
    with pytest.raises(TypeError):
        ca.sum()


def test_positional_and_keyword_forms(device):
    x = random_array((3, 4), np.float64)
    a = dev(x, device)
    check(a.sum(1, None, None, True), np.sum(x, 1, None, None, True))
    check(ca.sum(a, 0, np.float32), np.sum(x, 0, np.float32))
    check(a.std(0, None, None, 1), np.std(x, 0, None, None, 1))
    check(ca.var(a, axis=1, ddof=1, keepdims=True), np.var(x, axis=1, ddof=1, keepdims=True))
    check(a.argmax(1, None, keepdims=True), np.argmax(x, 1, None, keepdims=True))
    check(ca.cumprod(a, 1, None, None), np.cumprod(x, 1))
    # NumPy's functions call the methods of other array types
    check(np.sum(a, axis=0), np.sum(x, axis=0))
    check(np.mean(a), np.mean(x))


# ---- results stay on the device, asynchronously ------------------------------------------

def test_results_are_0d_arrays(device):
    a = dev(np.arange(10, dtype=np.float32), device)
    r = a.sum()
    assert isinstance(r, ca.ndarray) and r.shape == () and r.dtype == np.float32
    assert str(r.device) == str(a.device)
    assert float(r) == 45.0
    assert int(a.argmax()) == 9
    assert bool(a.any())


def test_no_leaks():
    import gc
    import tracemalloc
    a = dev(np.ones((64, 64), np.float32), "cpu")
    for _ in range(50):
        a.sum(axis=0)
        a.var()
        a.cumsum()
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for _ in range(300):
        a.sum(axis=0)
        a.var(axis=1)
        a.cumsum(axis=1)
        try:
            a.sum(axis=5)
        except AxisError:
            pass
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
    assert grown < 64 * 1024, grown


@pytest.mark.skipif(not HAVE_GPU, reason="no CUDA GPU on this machine")
def test_gpu_matches_host_bitwise_for_exact_ops():
    x = random_array((257, 129), np.int32)
    g = ca.asarray(x, device="cuda:0")
    h = ca.asarray(x, device="cpu")
    for f in ("sum", "prod", "max", "min", "argmax", "argmin", "any", "all"):
        for axis in (None, 0, 1):
            np.testing.assert_array_equal(getattr(g, f)(axis=axis).get(),
                                          getattr(h, f)(axis=axis).get())
