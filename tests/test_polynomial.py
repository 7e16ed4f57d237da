"""poly, poly1d, polyadd, polysub, polymul, polyval, polyfit, roots against NumPy
on both devices."""

import numpy as np
import pytest
from conftest import close_to, requires_gpu

import cuarray as ca

DEVICES = ["cpu", pytest.param("cuda:0", marks=requires_gpu)]
DTYPES = [np.int32, np.int64, np.float32, np.float64, np.complex128]


def close(got, want, rtol=1e-10):
    single = np.asarray(want).dtype in (np.float32, np.complex64)
    close_to(got, want, 1e-5 if single else rtol)


def coeffs(dtype, n=4, seed=0):
    rng = np.random.default_rng(seed)
    h = rng.integers(-5, 6, n).astype(dtype)
    if np.dtype(dtype).kind == "c":
        h = h + 1j * rng.integers(-3, 4, n)
    h[0] = 2
    return h.astype(dtype)


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("xshape", [(), (0,), (7,), (3, 4)])
def test_polyval(dev, dtype, xshape):
    p = coeffs(dtype)
    x = np.linspace(-2, 2, int(np.prod(xshape))).reshape(xshape)
    x = x.astype(dtype) if np.dtype(dtype).kind != "i" else np.arange(
        int(np.prod(xshape))).reshape(xshape).astype(dtype)
    close(ca.polyval(ca.asarray(p, device=dev), ca.asarray(x, device=dev)),
          np.polyval(p, x))


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("p", [[3.0], [0.0, 0.0, 1.5], [1.0, -1.0], []])
def test_polyval_short(dev, p):
    x = np.array([0.5, -1.0, np.nan, np.inf])
    close(ca.polyval(ca.asarray(np.array(p), device=dev), ca.asarray(x, device=dev)),
          np.polyval(np.array(p), x))


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("n", [31, 32, 33, 50])
def test_polyval_long(dev, n):
    # both sides of the Horner / block-of-powers switch
    p = np.random.default_rng(n).uniform(-1, 1, n)
    x = np.linspace(-1.1, 1.1, 41)
    close(ca.polyval(ca.asarray(p, device=dev), ca.asarray(x, device=dev)),
          np.polyval(p, x), rtol=1e-9)
    close(ca.polyval(ca.asarray(p.astype(np.int64), device=dev),
                     ca.asarray(np.arange(3), device=dev)),
          np.polyval(p.astype(np.int64), np.arange(3)))


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n1,n2", [(1, 1), (3, 5), (5, 3), (4, 4)])
def test_add_sub_mul(dev, dtype, n1, n2):
    a, b = coeffs(dtype, n1, 1), coeffs(dtype, n2, 2)
    da, db = ca.asarray(a, device=dev), ca.asarray(b, device=dev)
    close(ca.polyadd(da, db), np.polyadd(a, b))
    close(ca.polysub(da, db), np.polysub(a, b))
    close(ca.polymul(da, db), np.polymul(a, b))


@pytest.mark.parametrize("dev", DEVICES)
def test_polymul_trims_leading_zeros(dev):
    a, b = np.array([0.0, 0.0, 1.0, 2.0]), np.array([0.0, 3.0])
    close(ca.polymul(ca.asarray(a, device=dev), ca.asarray(b, device=dev)),
          np.polymul(a, b))


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("r", [[1.0, 2.0], [1j, -1j], [0.5, -3.0, 2.0, 2.0], [3]])
def test_poly_roots(dev, r):
    r = np.array(r)
    close(ca.poly(ca.asarray(r, device=dev)), np.poly(r))
    p = np.poly(r)
    got = np.sort_complex(ca.roots(ca.asarray(p, device=dev)).get())
    np.testing.assert_allclose(got, np.sort_complex(np.roots(p)), rtol=1e-8)


@pytest.mark.parametrize("dev", DEVICES)
def test_poly_matrix_and_empty(dev):
    m = np.array([[1.0, 2.0], [3.0, 4.0]])
    close(ca.poly(ca.asarray(m, device=dev)), np.poly(m))
    assert ca.poly(ca.asarray(np.array([]), device=dev)) == np.poly([]) == 1.0
    with pytest.raises(ValueError):
        ca.poly(ca.asarray(np.ones((2, 3)), device=dev))


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("deg", [0, 1, 3])
@pytest.mark.parametrize("weighted", [False, True])
def test_polyfit(dev, deg, weighted):
    x = np.linspace(0, 3, 20)
    y = np.cos(x)
    w = np.linspace(1, 2, 20) if weighted else None
    dw = ca.asarray(w, device=dev) if weighted else None
    got = ca.polyfit(ca.asarray(x, device=dev), ca.asarray(y, device=dev), deg, w=dw)
    close(got, np.polyfit(x, y, deg, w=w))
    got, cov = ca.polyfit(ca.asarray(x, device=dev), ca.asarray(y, device=dev), deg,
                          cov=True)
    want, wcov = np.polyfit(x, y, deg, cov=True)
    close(got, want)
    close(cov, wcov)
    full = ca.polyfit(ca.asarray(x, device=dev), ca.asarray(y, device=dev), deg,
                      full=True)
    for g, w_ in zip(full, np.polyfit(x, y, deg, full=True)):
        close(g, w_)


@pytest.mark.parametrize("dev", DEVICES)
def test_polyfit_bad(dev):
    x = ca.asarray(np.arange(4.0), device=dev)
    with pytest.raises(ValueError):
        ca.polyfit(x, x, -1)
    with pytest.raises(TypeError):
        ca.polyfit(ca.asarray(np.array([]), device=dev), x, 1)


@pytest.mark.parametrize("dev", DEVICES)
def test_poly1d(dev):
    h = np.array([1.0, -3.0, 2.0])
    q, n = ca.poly1d(ca.asarray(h, device=dev)), np.poly1d(h)
    assert isinstance(ca.poly1d, type) and ca.poly1d is ca._polynomial.poly1d
    for attr in ("coeffs", "c", "coef", "coefficients"):
        close(getattr(q, attr), getattr(n, attr))
    assert q.order == n.order == len(q)
    assert q.variable == "x"
    close(np.sort(q.roots.get()), np.sort(n.roots))
    assert repr(q) == repr(n) and str(q) == str(n)
    x = np.array([0.0, 1.5, -2.0])
    close(q(ca.asarray(x, device=dev)), n(x))
    close(q(2.0), n(2.0))
    r = ca.poly1d(ca.asarray(np.array([1.0, 1.0]), device=dev))
    close(q(r).coeffs, n(np.poly1d([1.0, 1.0])).coeffs)
    close((q * q).coeffs, (n * n).coeffs)
    close((q * 2).coeffs, (n * 2).coeffs)
    close((3 * q).coeffs, (3 * n).coeffs)
    close((q + r).coeffs, (n + np.poly1d([1.0, 1.0])).coeffs)
    close((q + 1).coeffs, (n + 1).coeffs)
    close((1 - q).coeffs, (1 - n).coeffs)
    close((q - q).coeffs, (n - n).coeffs)
    close((-q).coeffs, (-n).coeffs)
    close((q ** 3).coeffs, (n ** 3).coeffs)
    close((q / 2).coeffs, (n / 2).coeffs)
    qq, rr = q / r
    nq, nr = n / np.poly1d([1.0, 1.0])
    close(qq.coeffs, nq.coeffs)
    close(rr.coeffs, nr.coeffs)
    close(q.deriv().coeffs, n.deriv().coeffs)
    close(q.deriv(2).coeffs, n.deriv(2).coeffs)
    close(q.integ().coeffs, n.integ().coeffs)
    close(q.integ(2, k=[1, 2]).coeffs, n.integ(2, k=[1, 2]).coeffs)
    assert q == ca.poly1d(ca.asarray(h, device=dev)) and q != r
    close(q[2], n[2])
    assert q[5] == n[5] == 0
    np.testing.assert_array_equal(np.asarray(q), np.asarray(n))
    # NumPy's own poly1d turns np.float64(2) * p into an array (its scalar's
    # operator wins); here the poly1d defers through __array_ufunc__ = None
    close((np.float64(2) * q).coeffs, (n * 2).coeffs)
    close((np.array([1.0, 0.0]) + q).coeffs, (np.poly1d([1.0, 0.0]) + n).coeffs)
    with pytest.raises(ValueError):
        q ** -1
    with pytest.raises(ValueError):
        q.deriv(-1)
    with pytest.raises(ValueError):
        q.integ(-1)
    with pytest.raises(ValueError):
        ca.poly1d(ca.asarray(np.ones((2, 2)), device=dev))


@pytest.mark.parametrize("dev", DEVICES)
def test_poly1d_trim_roots_variable(dev):
    z = np.array([0.0, 0.0, 2.0, 1.0])
    q, n = ca.poly1d(ca.asarray(z, device=dev)), np.poly1d(z)
    close(q.coeffs, n.coeffs)
    close(ca.poly1d(ca.asarray(np.zeros(3), device=dev)).coeffs,
          np.poly1d(np.zeros(3)).coeffs)
    q, n = ca.poly1d(ca.asarray(np.array([1.0, 2.0]), device=dev), r=True), \
        np.poly1d([1.0, 2.0], r=True)
    close(q.coeffs, n.coeffs)
    q, n = ca.poly1d([1, 2], variable="z"), np.poly1d([1, 2], variable="z")
    assert str(q) == str(n) and q.variable == "z"
    q[4] = 7
    n[4] = 7
    close(q.coeffs, n.coeffs)


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_polyder_polyint_polydiv(dev, dtype):
    p = coeffs(dtype, n=5)
    a = ca.asarray(p, device=dev)
    for m in (0, 1, 2, 6):
        close(ca.polyder(a, m), np.polyder(p, m))
    close(ca.polyint(a), np.polyint(p))
    close(ca.polyint(a, 2, [1, 2]), np.polyint(p, 2, [1, 2]))
    close(ca.polyint(a, 3, 5), np.polyint(p, 3, 5))
    v = coeffs(dtype, n=2, seed=1)
    q, r = ca.polydiv(a, ca.asarray(v, device=dev))
    wq, wr = np.polydiv(p, v)
    close(q, wq)
    close(r, wr)
    assert q.device == a.device
    pd = ca.polyder(ca.poly1d(a))
    assert isinstance(pd, ca.poly1d)
    close(pd.coeffs, np.polyder(np.poly1d(p)).coeffs)
    assert isinstance(ca.polyint(ca.poly1d(a)), ca.poly1d)
    qq, rr = ca.polydiv(ca.poly1d(a), v)
    assert isinstance(qq, ca.poly1d) and isinstance(rr, ca.poly1d)
    with pytest.raises(ValueError, match="Order of derivative must be positive"):
        ca.polyder(a, -1)
    with pytest.raises(ValueError, match="k must be a scalar"):
        ca.polyint(a, 3, [1, 2])
