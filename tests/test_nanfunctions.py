"""The NaN-ignoring reductions against NumPy, on both devices: nansum, nanprod,
nancumsum, nancumprod (rows of kernels/reductions.def), nanmax, nanmin,
nanargmax, nanargmin, nanmean, nanvar, nanstd (python/cuarray/_nanfunctions.py):
random data with NaN, inf and -0.0, integer extremes, all-NaN and empty slices,
axes, keepdims, dtype=, out=, NumPy's warnings and exceptions."""

import warnings

import numpy as np
import pytest

import cuarray as ca

from conftest import ALL_DTYPES

FLOATS = [np.float16, np.float32, np.float64, np.complex64, np.complex128]
ALL_NAN = ["nanmax", "nanmin", "nanargmax", "nanargmin", "nanmean", "nanvar", "nanstd"]


def data(shape, dtype, seed=0, nan_frac=0.25):
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -50), min(info.max, 50), shape,
                            endpoint=True).astype(dtype)
    x = rng.standard_normal(shape) * 4
    if dtype.kind == "c":
        x = x + 1j * rng.standard_normal(shape) * 4
    x = x.astype(dtype)
    x[rng.random(shape) < nan_frac] = np.nan
    return x


def tol(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind not in "fc":
        return 0
    size = dtype.itemsize // 2 if dtype.kind == "c" else dtype.itemsize
    return {2: 4e-3, 4: 2e-5, 8: 1e-11}[size]


def close(got, want, rtol=None, dtype=True):
    got = got.get() if isinstance(got, ca.ndarray) else np.asarray(got)
    want = np.asarray(want)
    if dtype:
        assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    r = tol(want.dtype) if rtol is None else rtol
    if want.dtype.kind in "fc":
        np.testing.assert_allclose(got, want, rtol=r, atol=r, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


def npq(fn, *args, **kw):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


def caq(fn, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return fn(*args, **kw)


# ---------------------------------------------------------------------------
# every function x every dtype x axes, against NumPy
# ---------------------------------------------------------------------------

SUMS = ["nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd"]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("name", SUMS)
def test_reductions_against_numpy(name, dtype, device):
    x = data((4, 5, 6), dtype, seed=hash((name, np.dtype(dtype).char)) % 1000,
             nan_frac=0.1)
    if name == "nanprod" and np.dtype(dtype).kind in "fc":
        x = (x / 8 + 1).astype(dtype)
    if name == "nanprod" and np.dtype(dtype).kind in "iu":
        x = (x % 3).astype(dtype)
    a = ca.asarray(x, device=device)
    for axis in [None, 0, 1, -1, (0, 2)]:
        for keepdims in (False, True):
            want = npq(getattr(np, name), x, axis=axis, keepdims=keepdims)
            got = caq(getattr(ca, name), a, axis=axis, keepdims=keepdims)
            # float16 sums accumulate wider here (NumPy: pairwise float16)
            close(got, want, rtol=2e-2 if np.dtype(dtype) == np.float16 else None)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("name", ["nanargmax", "nanargmin", "nancumsum", "nancumprod"])
def test_axis_functions_against_numpy(name, dtype, device):
    x = data((5, 7), dtype, seed=3, nan_frac=0.2)
    if np.dtype(dtype).kind in "fc":
        x[:, 0] = 1  # no all-NaN row or column for the arg functions
        x[0, :] = 1
    if name == "nancumprod" and np.dtype(dtype).kind in "fc":
        x = (x / 8 + 1).astype(dtype)
    if name == "nancumprod" and np.dtype(dtype).kind in "iu":
        x = (x % 3).astype(dtype)
    a = ca.asarray(x, device=device)
    for axis in [None, 0, 1, -1]:
        want = npq(getattr(np, name), x, axis=axis)
        got = getattr(ca, name)(a, axis=axis)
        close(got, want, rtol=2e-2 if np.dtype(dtype) == np.float16 else None)


def test_edge_values(device):
    v = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, np.nan, -2.5], np.float64)
    a = ca.asarray(v, device=device)
    for name in ("nansum", "nanprod", "nanmax", "nanmin", "nanargmax", "nanargmin",
                 "nancumsum", "nancumprod", "nanmean"):
        close(caq(getattr(ca, name), a), npq(getattr(np, name), v))
    # inf - inf inside the variance is NaN, as NumPy's
    close(caq(ca.nanvar, a), npq(np.nanvar, v))
    fin = np.array([np.nan, 3.0, -0.0, 2.0])
    close(ca.nanvar(ca.asarray(fin, device=device)), np.nanvar(fin))
    close(ca.nanstd(ca.asarray(fin, device=device), ddof=1), np.nanstd(fin, ddof=1))


def test_signed_zero_sums(device):
    for v in ([np.nan], [-0.0], [-0.0, np.nan], [np.nan, np.nan]):
        x = np.array(v)
        got = ca.nansum(ca.asarray(x, device=device)).get()
        want = np.nansum(x)
        assert np.signbit(got) == np.signbit(want), v
        assert got == want


def test_integer_extremes(device):
    for dt in (np.int8, np.int64, np.uint64, np.uint8):
        info = np.iinfo(dt)
        x = np.array([info.min, info.max, 0, info.max, 1], dt)
        a = ca.asarray(x, device=device)
        for name in ("nansum", "nanprod", "nanmax", "nanmin", "nanargmax", "nanargmin",
                     "nancumsum", "nanmean", "nanvar"):
            close(getattr(ca, name)(a), getattr(np, name)(x))


def test_complex_nans(device):
    x = np.array([1 + 1j, complex(np.nan, 1), complex(1, np.nan), 3 - 1j, 3 + 2j])
    a = ca.asarray(x, device=device)
    for name in ("nansum", "nanprod", "nanmax", "nanmin", "nanargmax", "nanargmin",
                 "nanmean", "nanvar", "nanstd", "nancumsum"):
        close(getattr(ca, name)(a), getattr(np, name)(x))


def test_large_and_strided(device):
    x = data((3, 70001), np.float32, seed=5)
    a = ca.asarray(x, device=device)
    close(ca.nansum(a, axis=1), np.nansum(x.astype(np.float64), axis=1).astype(np.float32))
    close(ca.nanmax(a[:, ::3], axis=1), np.nanmax(x[:, ::3], axis=1))
    close(ca.nanargmin(a.T, axis=0), np.nanargmin(x.T, axis=0))
    close(ca.nanmean(a, axis=1), np.nanmean(x.astype(np.float64), axis=1).astype(np.float32))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.complex64])
@pytest.mark.parametrize("shape", [(1000, 1000), (3, 1 << 18), (1 << 18, 3), (4000, 257)])
def test_nansum_accuracy_any_layout(device, dtype, shape):
    """nansum of transposed and C arrays, along each axis and all of them:
    within a few ulps of the float64 sum, never further than NumPy's own result
    (NumPy adds a strided axis one element at a time in the input's precision:
    its float32 column sums of 2^18 rows are 1e-5 off, so a comparison with NumPy
    at float32's tolerance fails where cuarray is right)."""
    rng = np.random.default_rng(7)
    x = rng.random(shape).astype(dtype)
    if dtype == np.complex64:
        x = x + 1j * rng.random(shape).astype(np.float32)
    x.flat[::97] = np.nan
    wide = np.complex128 if dtype == np.complex64 else np.float64
    eps = np.finfo(dtype).eps
    for view in (x, x.T):
        a = ca.asarray(view, device=device)
        for axis in (0, 1, None):
            truth = np.nansum(view.astype(wide), axis=axis)
            got = ca.nansum(a, axis=axis).get()
            assert got.dtype == dtype
            with np.errstate(over="ignore"):
                ref = np.nansum(view, axis=axis)
            fin = np.isfinite(ref) & (np.abs(truth) < np.finfo(dtype).max / 2)
            err = np.abs(got.astype(wide) - truth)[fin]
            np_err = np.abs(ref.astype(wide) - truth)[fin]
            bound = np.maximum(np_err, 4 * eps * np.abs(truth)[fin])
            assert np.all(err <= bound), (axis, float(np.max(err - bound)))


# ---------------------------------------------------------------------------
# dtype=, out=, keepdims
# ---------------------------------------------------------------------------

def test_dtype_and_out(device):
    x = data((4, 6), np.float32, seed=9)
    a = ca.asarray(x, device=device)
    close(ca.nansum(a, axis=0, dtype=np.float64), np.nansum(x, axis=0, dtype=np.float64))
    close(ca.nanmean(a, axis=1, dtype=np.float64), np.nanmean(x, axis=1, dtype=np.float64))
    # NumPy's deviations round to the float32 input's dtype; ours stay float64
    close(ca.nanvar(a, axis=1, dtype=np.float64), np.nanvar(x, axis=1, dtype=np.float64),
          rtol=1e-6)
    out = ca.zeros(6, np.float32, device=device)
    r = ca.nanmax(a, axis=0, out=out)
    assert r is out
    close(out, np.nanmax(x, axis=0))
    out = ca.zeros(4, np.float64, device=device)
    r = ca.nanmean(a, axis=1, out=out)
    assert r is out
    close(out, np.nanmean(x, axis=1).astype(np.float64), rtol=1e-6)
    out = ca.zeros(4, np.int64, device=device)
    assert ca.nanargmax(a, axis=1, out=out) is out
    close(out, np.nanargmax(x, axis=1))
    close(ca.nanargmax(a, axis=1, keepdims=True), np.nanargmax(x, axis=1, keepdims=True))
    s = ca.nansum(ca.asarray(np.arange(6, dtype=np.int16), device=device))
    assert s.dtype == np.int64


def test_integer_and_bool_fall_back(device):
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    a = ca.asarray(x, device=device)
    close(ca.nanmean(a, axis=0), np.nanmean(x, axis=0))
    close(ca.nanvar(a, ddof=1), np.nanvar(x, ddof=1))
    close(ca.nanstd(a, axis=1), np.nanstd(x, axis=1))
    b = ca.asarray(x > 4, device=device)
    close(ca.nansum(b), np.nansum(x > 4))
    close(ca.nanmax(b, axis=0), np.nanmax(x > 4, axis=0))


# ---------------------------------------------------------------------------
# all-NaN and empty slices: NumPy's warnings and errors
# ---------------------------------------------------------------------------

def test_all_nan_slices(device):
    x = np.array([[np.nan, np.nan], [1.0, 2.0]])
    a = ca.asarray(x, device=device)
    for name in ("nanmax", "nanmin"):
        with pytest.warns(RuntimeWarning, match="All-NaN slice encountered"):
            got = getattr(ca, name)(a, axis=1)
        close(got, npq(getattr(np, name), x, axis=1))
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        got = ca.nanmean(a, axis=1)
    close(got, npq(np.nanmean, x, axis=1))
    for name in ("nanvar", "nanstd"):
        with pytest.warns(RuntimeWarning, match="Degrees of freedom <= 0"):
            got = getattr(ca, name)(a, axis=1)
        close(got, npq(getattr(np, name), x, axis=1))
    for name in ("nanargmax", "nanargmin"):
        with pytest.raises(ValueError, match="All-NaN slice encountered"):
            getattr(ca, name)(a, axis=1)
        close(getattr(ca, name)(a, axis=0), getattr(np, name)(x, axis=0))
    close(ca.nansum(a, axis=1), np.nansum(x, axis=1))
    close(ca.nanprod(a, axis=1), np.nanprod(x, axis=1))
    close(ca.nancumsum(a, axis=1), np.nancumsum(x, axis=1))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ca.nanmax(ca.asarray(np.array([1.0, np.nan]), device=device))  # no warning


def _all_nan_warning(f, *args, **kwargs):
    """The All-NaN RuntimeWarnings of f(*args, **kwargs) and its result."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = f(*args, **kwargs)
    return [x for x in w if "All-NaN" in str(x.message)], r


@pytest.mark.parametrize("name", ["nanmax", "nanmin"])
@pytest.mark.parametrize("route", ["plain", "initial", "where", "datetime"])
def test_all_nan_warning_points_at_the_caller(device, name, route):
    """Each of nanmax/nanmin's routes warns as numpy.nanmax does: once, at the
    line that called it (warnings' stacklevel counts the frames in between)."""
    x = np.array([[np.nan, np.nan, 1.0], [np.nan, np.nan, np.nan]])
    kw = {"axis": 1}
    if route == "initial":
        kw["initial"] = np.nan
    elif route == "where":
        kw.update(initial=np.nan, where=np.array([True, True, False]))
    elif route == "datetime":
        x = np.array([["NaT", "2001-01-01"], ["NaT", "NaT"]], "M8[s]")
    a = ca.asarray(x, device=device)
    want_w, want = _all_nan_warning(getattr(np, name), x, **kw)
    got_w, got = _all_nan_warning(getattr(ca, name), a, **kw)
    assert len(got_w) == len(want_w) == 1
    assert got_w[0].filename == want_w[0].filename == __file__
    np.testing.assert_array_equal(got.get(), want)


def test_empty(device):
    e = ca.asarray(np.zeros((0, 3)), device=device)
    with pytest.raises(ValueError, match="zero-size array to reduction operation fmax"):
        ca.nanmax(e)
    with pytest.raises(ValueError, match="zero-size array to reduction operation fmin"):
        ca.nanmin(e, axis=0)
    with pytest.raises(ValueError, match="attempt to get argmax of an empty sequence"):
        ca.nanargmax(e)
    with pytest.raises(ValueError, match="attempt to get argmin of an empty sequence"):
        ca.nanargmin(e)
    close(ca.nansum(e, axis=0), np.nansum(np.zeros((0, 3)), axis=0))
    close(ca.nanprod(e), np.nanprod(np.zeros((0, 3))))
    close(ca.nanmax(e, axis=1), np.nanmax(np.zeros((0, 3)), axis=1))
    close(ca.nancumsum(e), np.nancumsum(np.zeros((0, 3))))
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        r = ca.nanmean(e, axis=0)
    close(r, npq(np.nanmean, np.zeros((0, 3)), axis=0))


def test_errors(device):
    a = ca.asarray(np.ones((2, 3)), device=device)
    with pytest.raises(TypeError, match="dtype must be inexact"):
        ca.nanmean(a, dtype=np.int64)
    with pytest.raises(TypeError, match="out must be inexact"):
        ca.nanvar(a, axis=0, out=ca.zeros(3, np.int64, device=device))
    with pytest.raises(np.exceptions.AxisError):
        ca.nansum(a, axis=2)
    with pytest.raises(np.exceptions.AxisError):
        ca.nanmax(a, axis=-3)
    with pytest.raises(TypeError):
        ca.nanargmax(a, axis=(0, 1))
    for name in ALL_NAN + ["nansum", "nanprod", "nancumsum", "nancumprod"]:
        with pytest.raises(TypeError):
            getattr(ca, name)([1.0, 2.0])


def test_no_ndarray_methods():
    for name in ("nansum", "nanprod", "nanmax", "nancumsum"):
        assert not hasattr(ca.ndarray, name)
        assert not hasattr(np.ndarray, name)
