"""ptp, average, cov, corrcoef and the math compositions of _statistics_extra
against NumPy on both devices."""

import warnings

import numpy as np
import pytest
from conftest import agree, close_to, requires_gpu

import cuarray as ca

DEVICES = ["cpu", pytest.param("cuda:0", marks=requires_gpu)]
NUM = [np.int8, np.uint8, np.int32, np.int64, np.float32, np.float64, np.complex128]

# the NumPy references warn on NaN, inf and zero degrees of freedom
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def close(got, want, rtol=1e-10):
    dt = np.asarray(want).dtype
    close_to(got, want, {np.dtype(np.float16): 2e-3, np.dtype(np.float32): 2e-5,
                         np.dtype(np.complex64): 2e-5}.get(dt, rtol))


def data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    h = rng.uniform(-4, 4, shape)
    if np.dtype(dtype).kind in "iu":
        h = rng.integers(0 if np.dtype(dtype).kind == "u" else -9, 10, shape)
    if np.dtype(dtype).kind == "c":
        h = h + 1j * rng.uniform(-4, 4, shape)
    if dtype == np.bool_:
        h = rng.integers(0, 2, shape)
    return np.asarray(h).astype(dtype)


def D(h, dev):
    return ca.asarray(h, device=dev)


def same_error(fn_np, fn_ca):
    with pytest.raises(Exception) as want:
        fn_np()
    with pytest.raises(want.type):
        fn_ca()


# ------------------------------------------------------------- ptp, average ----

@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", NUM + [np.float16])
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_ptp(dev, dtype, axis, keepdims):
    h = data((4, 5), dtype)
    close(ca.ptp(D(h, dev), axis=axis, keepdims=keepdims),
          np.ptp(h, axis=axis, keepdims=keepdims))


@pytest.mark.parametrize("dev", DEVICES)
def test_ptp_errors_and_nan(dev):
    close(ca.ptp(D(np.array([1.0, np.nan, 3.0]), dev)), np.ptp([1.0, np.nan, 3.0]))
    close(ca.ptp(D(np.array(4.0), dev)), np.ptp(np.array(4.0)))
    same_error(lambda: np.ptp(np.array([True, False])),
               lambda: ca.ptp(D(np.array([True, False]), dev)))
    same_error(lambda: np.ptp(np.zeros(0)), lambda: ca.ptp(D(np.zeros(0), dev)))
    same_error(lambda: np.ptp(np.zeros((2, 2)), axis=2),
               lambda: ca.ptp(D(np.zeros((2, 2)), dev), axis=2))


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", NUM + [np.bool_])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_average(dev, dtype, axis, keepdims):
    h = data((4, 5), dtype)
    close(ca.average(D(h, dev), axis=axis, keepdims=keepdims),
          np.average(h, axis=axis, keepdims=keepdims))
    g = ca.average(D(h, dev), axis=axis, returned=True, keepdims=keepdims)
    w = np.average(h, axis=axis, returned=True, keepdims=keepdims)
    close(g[0], w[0])
    close(g[1], w[1])


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("wdtype", [np.int64, np.float32, np.float64])
def test_average_weights(dev, dtype, wdtype):
    h = data((3, 4, 5), dtype)
    w_full = data((3, 4, 5), wdtype, 1)
    w_full = np.abs(w_full) + 1
    for axis, w in [(None, w_full), (1, w_full), (2, w_full[0, 0]),
                    ((0, 2), w_full[:, 0, :]), ((2, 0), w_full[:, 0, :].T),
                    (-1, w_full[0, 0])]:
        for keepdims in (False, True):
            g = ca.average(D(h, dev), axis=axis, weights=D(w, dev), returned=True,
                           keepdims=keepdims)
            want = np.average(h, axis=axis, weights=w, returned=True,
                              keepdims=keepdims)
            close(g[0], want[0])
            close(g[1], want[1])


@pytest.mark.parametrize("dev", DEVICES)
def test_average_errors(dev):
    h = np.ones((3, 4))
    for kw in [dict(weights=np.ones(4)), dict(weights=np.ones(3), axis=1),
               dict(weights=np.zeros((3, 4))), dict(axis=3),
               dict(weights=np.ones((3, 4)), axis=(0, 0))]:
        kw_ca = {k: (D(v, dev) if isinstance(v, np.ndarray) else v)
                 for k, v in kw.items()}
        same_error(lambda: np.average(h, **kw),
                   lambda: ca.average(D(h, dev), **kw_ca))
    e = np.zeros((0, 3))
    same_error(lambda: np.average(e, axis=1), lambda: ca.average(D(e, dev), axis=1))
    close(ca.average(D(e, dev), axis=0), np.average(e, axis=0))


# ----------------------------------------------------------- cov, corrcoef ----

@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("shape", [(5,), (3, 6), (1, 4), (6, 2)])
@pytest.mark.parametrize("rowvar", [True, False])
def test_cov_corrcoef(dev, dtype, shape, rowvar):
    h = data(shape, dtype)
    close(ca.cov(D(h, dev), rowvar=rowvar), np.cov(h, rowvar=rowvar))
    close(ca.cov(D(h, dev), rowvar=rowvar, bias=True), np.cov(h, rowvar=rowvar,
                                                               bias=True))
    close(ca.cov(D(h, dev), rowvar=rowvar, ddof=0), np.cov(h, rowvar=rowvar, ddof=0))
    y = data(shape, dtype, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        close(ca.corrcoef(D(h, dev), rowvar=rowvar), np.corrcoef(h, rowvar=rowvar))
        try:
            want = np.cov(h, y, rowvar=rowvar)
        except ValueError:
            # (1, n) data with rowvar=False: NumPy's shapes do not concatenate
            same_error(lambda: np.cov(h, y, rowvar=rowvar),
                       lambda: ca.cov(D(h, dev), D(y, dev), rowvar=rowvar))
            return
        close(ca.cov(D(h, dev), D(y, dev), rowvar=rowvar), want)
        close(ca.corrcoef(D(h, dev), D(y, dev), rowvar=rowvar),
              np.corrcoef(h, y, rowvar=rowvar))


@pytest.mark.parametrize("dev", DEVICES)
def test_cov_weights_and_dtype(dev):
    h = data((3, 6), np.float64)
    fw = np.array([1, 2, 1, 3, 1, 1])
    aw = np.array([0.5, 1.0, 2.0, 1.0, 0.1, 1.0])
    for kw in [dict(fweights=fw), dict(aweights=aw), dict(fweights=fw, aweights=aw),
               dict(fweights=fw, aweights=aw, ddof=0), dict(aweights=aw, bias=True),
               dict(dtype=np.float32)]:
        close(ca.cov(D(h, dev), **kw), np.cov(h, **kw))
    close(ca.corrcoef(D(h, dev), dtype=np.float32), np.corrcoef(h, dtype=np.float32))


@pytest.mark.parametrize("dev", DEVICES)
def test_cov_edges_and_errors(dev):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        close(ca.cov(D(np.array([1.0]), dev)), np.cov(np.array([1.0])))
        close(ca.cov(D(np.zeros((0, 3)), dev)), np.cov(np.zeros((0, 3))))
        close(ca.corrcoef(D(np.array([1.0, 2.0, 4.0]), dev)), np.corrcoef([1.0, 2, 4]))
    with pytest.warns(RuntimeWarning):
        ca.cov(D(np.array([1.0]), dev))
    same_error(lambda: np.cov(np.ones((2, 2, 2))),
               lambda: ca.cov(D(np.ones((2, 2, 2)), dev)))
    same_error(lambda: np.cov(np.ones((2, 3)), ddof=1.5),
               lambda: ca.cov(D(np.ones((2, 3)), dev), ddof=1.5))
    same_error(lambda: np.cov(np.ones((2, 3)), fweights=[1, 2]),
               lambda: ca.cov(D(np.ones((2, 3)), dev), fweights=[1, 2]))
    same_error(lambda: np.cov(np.ones((2, 3)), fweights=[1.5, 2, 1]),
               lambda: ca.cov(D(np.ones((2, 3)), dev), fweights=[1.5, 2, 1]))
    same_error(lambda: np.cov(np.ones((2, 3)), aweights=[-1, 2, 1]),
               lambda: ca.cov(D(np.ones((2, 3)), dev), aweights=[-1, 2, 1]))


# ----------------------------------------------------------------- compare ----

SPECIAL = np.array([0.0, 1.0, -1.0, 1e-9, np.nan, np.inf, -np.inf, 1e10, 2.0])
OTHER = np.array([0.0, 1.000001, -1.1, 0.0, np.nan, np.inf, np.inf, 1.00001e10, 2.0])


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex128,
                                   np.bool_])
@pytest.mark.parametrize("equal_nan", [False, True])
def test_isclose_allclose(dev, dtype, equal_nan):
    with np.errstate(invalid="ignore"):
        a = SPECIAL.astype(dtype) if np.dtype(dtype).kind in "fc" else \
            data((9,), dtype)
        b = OTHER.astype(dtype) if np.dtype(dtype).kind in "fc" else \
            data((9,), dtype, 1)
    close(ca.isclose(D(a, dev), D(b, dev), equal_nan=equal_nan),
          np.isclose(a, b, equal_nan=equal_nan))
    close(ca.isclose(D(a, dev), D(b, dev), rtol=0.2, atol=0.5),
          np.isclose(a, b, rtol=0.2, atol=0.5))
    close(ca.isclose(D(a, dev), 1.0), np.isclose(a, 1.0))
    close(ca.isclose(2, D(b, dev)), np.isclose(2, b))
    close(ca.isclose(D(a.reshape(9, 1), dev), D(b, dev)),
          np.isclose(a.reshape(9, 1), b))
    for x, y in [(a, b), (a, a), (b, b)]:
        assert ca.allclose(D(x, dev), D(y, dev), equal_nan=equal_nan) is \
            bool(np.allclose(x, y, equal_nan=equal_nan))


def _boundary_pairs(dtype, n=4099, seed=5):
    """b random (some specials), a at the edge of the tolerance: every decision
    rests on the last bit of atol + rtol * |b| (NumPy rounds each step)."""
    rng = np.random.default_rng(seed)
    real = np.dtype(dtype).kind == "f"
    rdt = np.dtype(dtype) if real else np.dtype(np.float32 if np.dtype(dtype).itemsize == 8
                                                 else np.float64)
    with np.errstate(all="ignore"):
        b = (rng.standard_normal(n) * 10.0 ** rng.integers(-6, 6, n)).astype(rdt)
        if not real:
            b = (b + 1j * rng.standard_normal(n).astype(rdt)).astype(dtype)
        tol = rdt.type(1e-8) + rdt.type(1e-5) * np.abs(b)
        f = rng.choice(np.array([-1.0001, -1, -0.9999, 0, 0.9999, 1, 1.0001]), n)
        a = (b + (tol * f).astype(rdt)).astype(dtype)
    specials = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0]).astype(dtype)
    a[:36] = np.repeat(specials, 6)
    b[:36] = np.tile(specials, 6)
    return a, b


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("equal_nan", [False, True])
def test_isclose_one_kernel_exact(dev, dtype, equal_nan):
    # the one-kernel path (same-dtype arrays, Python tolerances) answers
    # exactly NumPy's, decision by decision, at the edges of the tolerance
    a, b = _boundary_pairs(dtype)
    xa, ya = D(a, dev), D(b, dev)
    for rtol, atol in ((1e-05, 1e-08), (0.1, 0), (0, 0.5), (3, 1), (-1e-3, 2.0),
                       (1e300, 0.0)):
        with np.errstate(all="ignore"):
            want = np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
        got = ca.isclose(xa, ya, rtol=rtol, atol=atol, equal_nan=equal_nan)
        if np.dtype(dtype).kind == "c":
            # complex |z| is a hypot whose last bit may differ from NumPy's (and
            # between host loops): compare away from the tolerance's edge
            eps = 1e-6 if dtype == np.complex64 else 1e-14
            with np.errstate(all="ignore"):
                d = np.abs(a.astype(np.complex128) - b.astype(np.complex128))
                t = atol + rtol * np.abs(b.astype(np.complex128))
                keep = ~(np.abs(d - t) <= eps * np.abs(t))
            np.testing.assert_array_equal(got.get()[keep], want[keep])
            continue
        close(got, want)
    # broadcasting, views, 0-d
    A, B = D(a[:40].reshape(8, 5), dev), D(b[:5], dev)
    close(ca.isclose(A, B, equal_nan=equal_nan),
          np.isclose(a[:40].reshape(8, 5), b[:5], equal_nan=equal_nan))
    close(ca.isclose(A[::2, ::-1], A.T[::-1].T[::2], equal_nan=equal_nan),
          np.isclose(a[:40].reshape(8, 5)[::2, ::-1], a[:40].reshape(8, 5)[:, ::-1][::2],
                     equal_nan=equal_nan))
    close(ca.isclose(D(a[1:4001], dev), D(b[:4000], dev)), np.isclose(a[1:4001], b[:4000]))
    z = ca.isclose(D(np.array(a[0]), dev), D(np.array(b[0]), dev), equal_nan=equal_nan)
    assert isinstance(z, ca.ndarray) and z.shape == () and z.dtype == np.bool_
    assert bool(z) == bool(np.isclose(a[0], b[0], equal_nan=equal_nan))


@pytest.mark.parametrize("dev", DEVICES)
def test_isclose_mixed_and_strong_tolerances(dev):
    # the cases outside the one-kernel path keep NumPy's promotions: mixed
    # dtypes, float16, NumPy-scalar (strong) tolerances, array tolerances
    a, b = _boundary_pairs(np.float32, n=600)
    cases = [(a, b.astype(np.float64), {}), (a.astype(np.float16), b.astype(np.float16), {}),
             (a, b, dict(rtol=np.float64(1e-5))), (a, b, dict(atol=np.float32(1e-8))),
             (a, b, dict(rtol=np.full(600, 1e-5, np.float32))),
             (a.astype(np.complex64), b, {}), (a.astype(np.int64), b, {}),
             (a, b, dict(rtol=True))]
    for x, y, kw in cases:
        with np.errstate(all="ignore"):
            want = np.isclose(x, y, **kw)
        kw = {k: (D(v, dev) if isinstance(v, np.ndarray) else v) for k, v in kw.items()}
        close(ca.isclose(D(x, dev), D(y, dev), **kw), want)
    with np.errstate(all="ignore"):
        assert ca.allclose(D(a, dev), D(a, dev), equal_nan=True) is True
        assert ca.allclose(D(a, dev), D(a, dev)) is False  # NaNs
        assert ca.allclose(D(a, dev), D(b, dev)) is bool(np.allclose(a, b))


@pytest.mark.parametrize("dev", DEVICES)
def test_isclose_edges(dev):
    e = np.zeros(0)
    close(ca.isclose(D(e, dev), D(e, dev)), np.isclose(e, e))
    close(ca.isclose(D(np.array(1.0), dev), D(np.array(1.0), dev)),
          np.asarray(np.isclose(np.array(1.0), np.array(1.0))))
    assert ca.allclose(D(e, dev), D(e, dev)) is True
    same_error(lambda: np.isclose(np.ones(3), np.ones(4)),
               lambda: ca.isclose(D(np.ones(3), dev), D(np.ones(4), dev)))


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("equal_nan", [False, True])
def test_array_equal_equiv(dev, equal_nan):
    cases = [(SPECIAL, SPECIAL), (SPECIAL, OTHER), (np.arange(4), np.arange(4.0)),
             (np.arange(4), np.arange(5)), (np.ones((2, 3)), np.ones(3)),
             (np.zeros(0), np.zeros(0)), (np.array(2.0), np.array(2.0)),
             (np.array([1 + 1j, np.nan]), np.array([1 + 1j, np.nan])),
             (np.array([np.nan, 1.0]), np.array([1.0, np.nan]))]
    for a, b in cases:
        assert ca.array_equal(D(a, dev), D(b, dev), equal_nan=equal_nan) is \
            np.array_equal(a, b, equal_nan=equal_nan)
        assert ca.array_equiv(D(a, dev), D(b, dev)) is np.array_equiv(a, b)
    assert ca.array_equiv(D(np.ones((2, 3)), dev), D(np.ones(4), dev)) is False


# ------------------------------------------------------------- differences ----

@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", NUM + [np.bool_, np.uint16])
@pytest.mark.parametrize("n", [0, 1, 2, 5])
@pytest.mark.parametrize("axis", [0, -1, 1])
def test_diff(dev, dtype, n, axis):
    h = data((4, 5), dtype)
    g = ca.diff(D(h, dev), n=n, axis=axis)
    close(g, np.diff(h, n=n, axis=axis))


@pytest.mark.parametrize("dev", DEVICES)
def test_diff_prepend_append_and_errors(dev):
    h = data((3, 4), np.float64)
    close(ca.diff(D(h, dev), prepend=0, append=D(h[:, :2], dev)),
          np.diff(h, prepend=0, append=h[:, :2]))
    close(ca.diff(D(h, dev), axis=0, prepend=D(h[:1], dev), append=2.5),
          np.diff(h, axis=0, prepend=h[:1], append=2.5))
    close(ca.diff(D(np.zeros(0), dev)), np.diff(np.zeros(0)))
    close(ca.diff(D(np.array([1.0, np.inf, np.nan]), dev)),
          np.diff(np.array([1.0, np.inf, np.nan])))
    same_error(lambda: np.diff(np.array(1.0)), lambda: ca.diff(D(np.array(1.0), dev)))
    same_error(lambda: np.diff(h, n=-1), lambda: ca.diff(D(h, dev), n=-1))
    same_error(lambda: np.diff(h, axis=2), lambda: ca.diff(D(h, dev), axis=2))


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex128])
def test_ediff1d(dev, dtype):
    h = data((3, 4), dtype)
    close(ca.ediff1d(D(h, dev)), np.ediff1d(h))
    close(ca.ediff1d(D(h, dev), to_begin=[1, 2], to_end=D(np.array([5], dtype), dev)),
          np.ediff1d(h, to_begin=[1, 2], to_end=np.array([5], dtype)))
    close(ca.ediff1d(D(np.zeros(0, dtype), dev), to_end=3),
          np.ediff1d(np.zeros(0, dtype), to_end=3))
    if np.dtype(dtype).kind == "i":
        same_error(lambda: np.ediff1d(h, to_begin=[1.5]),
                   lambda: ca.ediff1d(D(h, dev), to_begin=[1.5]))


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.float32, np.float64,
                                   np.complex128])
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient(dev, dtype, edge_order):
    h = data((4, 6), dtype)
    for got, want in zip(ca.gradient(D(h, dev), edge_order=edge_order),
                         np.gradient(h, edge_order=edge_order)):
        close(got, want)
    xs = np.cumsum(np.linspace(0.5, 2, 6))
    for args, kw in [((2.0,), {}), ((2.0, 0.5), {}), ((1.0, xs), {}),
                     ((xs,), dict(axis=1)), ((np.arange(4),), dict(axis=0)),
                     ((np.arange(6) * 2,), dict(axis=-1)), ((), dict(axis=(1, 0)))]:
        got = ca.gradient(D(h, dev), *args, edge_order=edge_order, **kw)
        want = np.gradient(h, *args, edge_order=edge_order, **kw)
        if isinstance(want, tuple):
            assert isinstance(got, tuple) and len(got) == len(want)
            for g, w in zip(got, want):
                close(g, w)
        else:
            close(got, want)


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_float16_exact(dev, edge_order):
    """float16 gradients are NumPy's bits: each difference rounded to binary16, the
    scalar spacings of each kind (Python float: weak; NumPy float64: strong), the
    spacing arrays in their own dtype, values big enough to overflow binary16."""
    rng = np.random.default_rng(21)
    for scale in (1.0, 100.0, 3e4):
        h = (rng.standard_normal((5, 7)) * scale).astype(np.float16)
        x16 = np.cumsum(rng.random(7) + 0.1).astype(np.float16)
        x64 = np.cumsum(rng.random(5) + 0.1)
        for args, kw in [((), {}), ((0.3,), {}), ((np.float64(0.3),), {}),
                         ((np.float16(0.3), np.float32(2.5)), {}), ((x16,), dict(axis=1)),
                         ((x64,), dict(axis=0)), ((x64, x16), {}),
                         ((np.arange(7) * 0.5,), dict(axis=-1))]:
            got = ca.gradient(D(h, dev), *args, edge_order=edge_order, **kw)
            want = np.gradient(h, *args, edge_order=edge_order, **kw)
            got, want = (got, want) if isinstance(want, tuple) else ((got,), (want,))
            for g, w in zip(got, want):
                assert g.dtype == w.dtype == np.float16
                np.testing.assert_array_equal(g.get(), w)


@pytest.mark.parametrize("dev", DEVICES)
def test_gradient_1d_and_errors(dev):
    h = np.array([1.0, 4.0, 9.0, 16.0, np.nan])
    close(ca.gradient(D(h, dev)), np.gradient(h))
    close(ca.gradient(D(h, dev), D(np.arange(5.0), dev)),
          np.gradient(h, np.arange(5.0)))
    for args, kw in [((), dict(edge_order=3)), ((1.0, 2.0), {}),
                     ((np.ones((5, 1)),), {}), ((np.ones(3),), {})]:
        same_error(lambda: np.gradient(h, *args, **kw),
                   lambda: ca.gradient(D(h, dev), *args, **kw))
    same_error(lambda: np.gradient(np.ones(2), edge_order=2),
               lambda: ca.gradient(D(np.ones(2), dev), edge_order=2))


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("axis", [0, -1])
def test_trapezoid(dev, dtype, axis):
    h = data((4, 5), dtype)
    close(ca.trapezoid(D(h, dev), axis=axis), np.trapezoid(h, axis=axis))
    close(ca.trapezoid(D(h, dev), dx=0.5, axis=axis),
          np.trapezoid(h, dx=0.5, axis=axis))
    x1 = np.cumsum(np.arange(1.0, h.shape[axis] + 1))
    close(ca.trapezoid(D(h, dev), x=D(x1, dev), axis=axis),
          np.trapezoid(h, x=x1, axis=axis))
    x2 = np.cumsum(data((4, 5), np.float64, 2) ** 2, axis=axis)
    close(ca.trapezoid(D(h, dev), x=D(x2, dev), axis=axis),
          np.trapezoid(h, x=x2, axis=axis))
    close(ca.trapezoid(D(np.zeros((0,)), dev)), np.trapezoid(np.zeros((0,))))


# ------------------------------------------------------------------ interp ----

XP = np.array([0.0, 1.0, 2.5, 4.0, 4.5])
FP = np.array([1.0, 3.0, -1.0, 2.0, 2.0])
XQ = np.array([-1.0, 0.0, 0.5, 1.0, 2.0, 2.5, 3.9, 4.0, 4.2, 4.5, 5.0, np.nan,
               np.inf, -np.inf])


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64])
def test_interp(dev, dtype, np_route):
    x, xp = XQ.astype(np.float64), XP.astype(dtype)
    fp = FP.astype(dtype)
    close(ca.interp(D(x, dev), D(xp, dev), D(fp, dev)), np.interp(x, xp, fp))
    close(ca.interp(D(x, dev), D(xp, dev), D(fp, dev), left=-9, right=np.nan),
          np.interp(x, xp, fp, left=-9, right=np.nan))
    close(ca.interp(D(x.reshape(2, 7), dev), D(xp, dev), D(fp, dev)),
          np.interp(x.reshape(2, 7), xp, fp))
    close(ca.interp(D(np.array(2.2), dev), D(xp, dev), D(fp, dev)),
          np.asarray(np.interp(np.array(2.2), xp, fp)))
    close(ca.interp(D(np.zeros(0), dev), D(xp, dev), D(fp, dev)),
          np.interp(np.zeros(0), xp, fp))


@pytest.mark.parametrize("dev", DEVICES)
def test_interp_complex_period_single(dev, np_route):
    fpc = FP + 1j * FP[::-1]
    close(ca.interp(D(XQ, dev), D(XP, dev), D(fpc, dev)), np.interp(XQ, XP, fpc))
    xq = XQ[:11]
    for period in (3.0, -5.0, 360):
        close(ca.interp(D(xq, dev), D(XP, dev), D(FP, dev), period=period),
              np.interp(xq, XP, FP, period=period))
    close(ca.interp(D(XQ, dev), D(np.array([1.0]), dev), D(np.array([3.0]), dev)),
          np.interp(XQ, [1.0], [3.0]))
    # an infinite slope (repeated xp) and infinite values
    xp, fp = np.array([0.0, 1.0, 1.0, 2.0]), np.array([0.0, 1.0, 5.0, np.inf])
    close(ca.interp(D(XQ, dev), D(xp, dev), D(fp, dev)), np.interp(XQ, xp, fp))


@pytest.mark.parametrize("dev", DEVICES)
def test_interp_errors(dev, np_route):
    for xp, fp, kw in [(XP, FP[:3], {}), (np.zeros(0), np.zeros(0), {}),
                       (XP, FP, dict(period=0)), (XP.reshape(5, 1), FP, {})]:
        same_error(lambda: np.interp(XQ, xp, fp, **kw),
                   lambda: ca.interp(D(XQ, dev), D(xp, dev), D(fp, dev), **kw))


# ------------------------------------------------------------------ unwrap ----

@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_unwrap(dev, dtype):
    rng = np.random.default_rng(4)
    ph = (np.cumsum(rng.uniform(-3, 3, (3, 20)), axis=1) % (2 * np.pi))
    h = ph.astype(dtype) if np.dtype(dtype).kind == "f" else \
        rng.integers(0, 10, (3, 20)).astype(dtype)
    close(ca.unwrap(D(h, dev)), np.unwrap(h))
    close(ca.unwrap(D(h, dev), axis=0), np.unwrap(h, axis=0))
    close(ca.unwrap(D(h, dev), discont=4.0), np.unwrap(h, discont=4.0))
    close(ca.unwrap(D(h, dev), period=6), np.unwrap(h, period=6))
    close(ca.unwrap(D(h, dev), period=7), np.unwrap(h, period=7))
    close(ca.unwrap(D(h, dev), period=360.0), np.unwrap(h, period=360.0))


@pytest.mark.parametrize("dev", DEVICES)
def test_unwrap_edges(dev):
    close(ca.unwrap(D(np.array([0.0, np.pi, 0.0, -np.pi, np.nan]), dev)),
          np.unwrap(np.array([0.0, np.pi, 0.0, -np.pi, np.nan])))
    close(ca.unwrap(D(np.zeros(0), dev)), np.unwrap(np.zeros(0)))
    close(ca.unwrap(D(np.array([1.0]), dev)), np.unwrap(np.array([1.0])))


# ------------------------------------------------------------ element-wise ----

@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", [np.int32, np.float16, np.float32, np.float64,
                                   np.complex128])
def test_sinc(dev, dtype):
    h = np.array([0.0, 0.5, 1.0, -2.3, 3.0, 1e-9, np.inf, np.nan, -1.0])
    if np.dtype(dtype).kind in "fc":
        h = h.astype(dtype)
    else:
        h = np.arange(-3, 4, dtype=dtype)
    with np.errstate(invalid="ignore"):
        want = np.sinc(h)
    close(ca.sinc(D(h, dev)), want)
    close(ca.sinc(D(np.array(0.0, dtype=np.float64), dev)), np.asarray(np.sinc(0.0)))
    close(ca.sinc(D(np.zeros((0, 2)), dev)), np.sinc(np.zeros((0, 2))))


SPECIALS = np.array([np.nan, np.inf, -np.inf, 1.0, -0.0, 3.5])


@pytest.mark.parametrize("n_x", [2, 9])
def test_interp_complex_composition_on_cpu(monkeypatch, n_x):
    """The device's composition (forced on the cpu device) for complex fp: each part
    interpolated apart, with NumPy's rounding (the step's reciprocal), for fewer
    and for more nodes than points, bit for bit (GPU runs take this path for every complex interp)."""
    import cuarray._statistics_extra as se
    monkeypatch.setattr(se, "_cpu", lambda *a: False)
    rng = np.random.default_rng(5)
    vals = [0.0, 1.0, -2.5, np.inf, -np.inf, np.nan, 3.5, 1 / 3]
    for _ in range(80):
        n = int(rng.integers(2, 8))
        xp = np.sort(rng.integers(-5, 6, n).astype(float) + rng.random(n) / 7)
        fp = rng.choice(vals, n) + 1j * rng.choice(vals, n)
        x = np.concatenate([rng.choice([-6.0, 0.5, np.nan, np.inf], 1),
                            rng.uniform(-6, 6, n_x - 1)])
        with np.errstate(all="ignore"):
            want = np.interp(x, xp, fp)
        got = ca.interp(ca.asarray(x), ca.asarray(xp), ca.asarray(fp))
        np.testing.assert_array_equal(got.get(), want)


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64,
                                   np.complex128, np.int32, np.bool_])
def test_nan_to_num(dev, dtype, np_route):
    if np.dtype(dtype).kind == "c":
        h = (SPECIALS + 1j * SPECIALS[::-1]).astype(dtype)
    elif np.dtype(dtype).kind == "f":
        h = SPECIALS.astype(dtype)
    else:
        h = data((6,), dtype)
    close(ca.nan_to_num(D(h, dev)), np.nan_to_num(h))
    close(ca.nan_to_num(D(h, dev), nan=5, posinf=7, neginf=-7),
          np.nan_to_num(h, nan=5, posinf=7, neginf=-7))
    d = D(h, dev)
    r = ca.nan_to_num(d, copy=False)
    assert r is d
    close(d, np.nan_to_num(h))
    close(ca.nan_to_num(D(np.array(np.nan), dev)), np.asarray(np.nan_to_num(np.nan)))


@pytest.mark.parametrize("dev", DEVICES)
def test_real_if_close(dev):
    for h, tol in [(np.array([1 + 1e-15j, 2]), 100), (np.array([1 + 1e-5j, 2]), 100),
                   (np.array([1 + 1e-5j]), 1e-4), (np.array([1.0, 2.0]), 100),
                   (np.array([1 + 1e-7j], np.complex64), 100),
                   (np.zeros(0, np.complex128), 100)]:
        close(ca.real_if_close(D(h, dev), tol=tol), np.real_if_close(h, tol=tol))


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int32,
                                   np.uint8, np.bool_])
def test_isposinf_isneginf(dev, dtype):
    h = SPECIALS.astype(dtype) if np.dtype(dtype).kind == "f" else data((6,), dtype)
    close(ca.isposinf(D(h, dev)), np.isposinf(h))
    close(ca.isneginf(D(h, dev)), np.isneginf(h))
    out = ca.zeros(h.shape, dtype=np.bool_, device=dev)
    assert ca.isposinf(D(h, dev), out=out) is out
    close(out, np.isposinf(h))


@pytest.mark.parametrize("dev", DEVICES)
def test_isinf_complex_raises(dev):
    c = np.array([1 + 1j])
    same_error(lambda: np.isposinf(c), lambda: ca.isposinf(D(c, dev)))
    same_error(lambda: np.isneginf(c), lambda: ca.isneginf(D(c, dev)))


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("h", [np.array([1 + 1j, 2 + 0j, -0j]), np.array([1.0, 2.0]),
                               np.arange(3), np.array(1j), np.zeros((0, 2))])
def test_complex_real_predicates(dev, h):
    close(ca.iscomplex(D(h, dev)), np.asarray(np.iscomplex(h)))
    close(ca.isreal(D(h, dev)), np.asarray(np.isreal(h)))
    assert ca.iscomplexobj(D(h, dev)) is np.iscomplexobj(h)
    assert ca.isrealobj(D(h, dev)) is np.isrealobj(h)


def test_obj_predicates_host_inputs():
    for x in [1, 1.5, 1j, [1, 2], [1j], np.complex64(1), np.zeros(2, complex)]:
        assert ca.iscomplexobj(x) is np.iscomplexobj(x)
        assert ca.isrealobj(x) is np.isrealobj(x)


@pytest.mark.parametrize("dev", DEVICES)
def test_isfortran(dev):
    h = np.arange(6.0).reshape(2, 3)
    for x in [h, np.asfortranarray(h), np.arange(3.0), h.T]:
        d = D(x, dev)
        if x.flags.f_contiguous and not x.flags.c_contiguous:
            d = ca.asfortranarray(D(np.ascontiguousarray(x), dev))
        assert ca.isfortran(d) is np.isfortran(x)
    assert ca.isfortran(D(h, dev).T) is np.isfortran(h.T)


# ----------------------------------------------------- convolve, correlate ----

SIZES = [(5, 3), (3, 5), (4, 4), (6, 2), (2, 6), (1, 1), (7, 1), (1, 4)]


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.float32,
                                   np.float64, np.complex128])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("na,nv", SIZES)
def test_convolve_correlate(dev, dtype, mode, na, nv, np_route):
    a, v = data((na,), dtype, 1), data((nv,), dtype, 2)
    close(ca.convolve(D(a, dev), D(v, dev), mode), np.convolve(a, v, mode))
    close(ca.correlate(D(a, dev), D(v, dev), mode), np.correlate(a, v, mode))


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", [np.float64, np.complex128, np.float32])
@pytest.mark.parametrize("na,nv", [(3000, 2000), (2000, 3001), (5000, 1500)])
def test_convolve_fft_path(dev, dtype, na, nv, np_route):
    a, v = data((na,), dtype, 1), data((nv,), dtype, 2)
    for mode in ("full", "same", "valid"):
        tol = 1e-9 if dtype != np.float32 else None
        got, want = ca.convolve(D(a, dev), D(v, dev), mode), np.convolve(a, v, mode)
        if tol is None:
            g = got.get()
            assert g.dtype == want.dtype and g.shape == want.shape
            np.testing.assert_allclose(g, want, atol=1e-3 * np.abs(want).max())
        else:
            assert got.dtype == want.dtype
            np.testing.assert_allclose(got.get(), want, rtol=tol,
                                       atol=tol * np.abs(want).max())
        got, want = ca.correlate(D(a, dev), D(v, dev), mode), np.correlate(a, v, mode)
        np.testing.assert_allclose(got.get(), want, rtol=1e-9 if tol else 1e-3,
                                   atol=(tol or 1e-3) * np.abs(want).max())


@pytest.mark.parametrize("dev", DEVICES)
def test_convolve_mixed_and_errors(dev, np_route):
    a, v = np.array([1, 2, 3], np.int32), np.array([0.5, -1.0])
    close(ca.convolve(D(a, dev), D(v, dev)), np.convolve(a, v))
    close(ca.correlate(D(a, dev), D(v, dev), "full"), np.correlate(a, v, "full"))
    close(ca.convolve(D(np.array(2.0), dev), D(v, dev)), np.convolve(2.0, v))
    close(ca.convolve(D(np.array([1.0, np.nan]), dev), D(v, dev)),
          np.convolve([1.0, np.nan], v))
    e = np.zeros(0)
    for x, y, mode in [(e, v, "full"), (v, e, "full"), (v, v, "bogus"),
                       (np.ones((2, 2)), v, "full")]:
        same_error(lambda: np.convolve(x, y, mode),
                   lambda: ca.convolve(D(x, dev), D(y, dev), mode))
        same_error(lambda: np.correlate(x, y, mode),
                   lambda: ca.correlate(D(x, dev), D(y, dev), mode))


def test_exported_names():
    for mod in (ca._statistics_extra, ca._polynomial, ca._window):
        for name in mod.__all__:
            assert getattr(ca, name) is getattr(mod, name)


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("a,v", [
    (np.array(3.0), [1.0, 2.0]), ([1.0, 2.0], np.array(3.0)), (np.array(2.0), np.array(3.0)),
    ([], [1.0, 2.0]), ([1.0, 2.0], []), ([], []), ([[1.0, 2.0]], [1.0]),
    ([1.0], [[1.0, 2.0]]), ([1.0, 2.0, 3.0], [1.0, 1.0])])
@pytest.mark.parametrize("name", ["correlate", "convolve"])
def test_correlate_convolve_shapes(dev, a, v, name):
    """NumPy's correlate takes 1-d non-empty inputs only (its own messages for
    0-d, 2-d and empty ones); convolve treats 0-d as 1-d."""
    agree(lambda xp: getattr(xp, name)(
        D(np.asarray(a, float), dev) if xp is ca else np.asarray(a, float),
        D(np.asarray(v, float), dev) if xp is ca else np.asarray(v, float)))


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("seed", range(4))
def test_interp_special_values(dev, seed):
    """interp with infinite and NaN values in fp (real and complex), x beyond
    both ends, at the nodes, infinite and NaN, left=/right= and period=: NumPy's
    values bit for bit (NaN for inf - inf where NumPy's formula gives one)."""
    rng = np.random.default_rng(seed)
    for _ in range(60):
        n = int(rng.integers(1, 8))
        xp = np.sort(rng.integers(-5, 6, n).astype(float))
        fp = rng.choice([0.0, 1.0, -2.0, np.inf, -np.inf, np.nan, 3.5], n)
        if rng.random() < 0.3:
            fp = fp + 1j * rng.choice([0.0, 1.0, np.inf, -np.inf, np.nan], n)
        x = rng.choice([-6.0, -5, -2.5, 0, 0.5, 1, 2.25, 5, 6, np.nan, np.inf, -np.inf],
                       int(rng.integers(1, 6)))
        kw = {}
        if rng.random() < 0.3:
            kw["left"] = rng.choice([np.nan, -1.0, np.inf])
        if rng.random() < 0.3:
            kw["right"] = rng.choice([np.nan, 7.0, -np.inf])
        if rng.random() < 0.2 and fp.dtype.kind == "f":
            # nodes distinct modulo the period: NumPy orders equal ones with its
            # unstable argsort (SIMD sorts on x86), which no other sort can repeat
            k = min(n, 4)
            xp = np.sort(rng.choice(np.arange(4.0), k, replace=False)
                         + 4 * rng.integers(-1, 2, k))
            fp = fp[:xp.size]
            kw = {"period": 4.0}
        agree(lambda xp_: xp_.interp(*(D(v, dev) if xp_ is ca else v
                                      for v in (x, xp, fp)), **kw))


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64,
                                   np.complex128, np.int32, np.uint8, np.bool_])
def test_ptp_nan_inf(dev, dtype):
    """ptp with NaN and inf along every axis, keepdims: NumPy's values (NaN where a
    slice holds one, NaN for inf - inf), dtype and shape; bool raises as NumPy."""
    rng = np.random.default_rng(5)
    for shape in [(7,), (3, 5), (2, 3, 4)]:
        a = (rng.standard_normal(shape) * 10)
        if np.dtype(dtype).kind == "c":
            a = a + 1j * rng.standard_normal(shape)
        a = a.astype(dtype)
        if a.dtype.kind in "fc":
            a[rng.random(shape) < 0.2] = np.nan
            a[rng.random(shape) < 0.1] = np.inf
        for axis in [None] + list(range(len(shape))):
            for keepdims in (False, True):
                agree(lambda xp: xp.ptp(D(a, dev) if xp is ca else a, axis=axis,
                                        keepdims=keepdims))
