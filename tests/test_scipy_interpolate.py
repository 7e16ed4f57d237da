"""cuarray.scipy.interpolate against scipy.interpolate on both devices.

Tests that take `route` run twice on the cpu device: SciPy's own routine on views
('scipy') and the compositions a GPU runs ('composition', CPU_SCIPY off)."""

import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest
import scipy.interpolate as si

import cuarray as ca
import cuarray.scipy.interpolate as ci
from cuarray.scipy.interpolate import _common

from conftest import ROUTES, scipy_route

RNG = np.random.default_rng


@pytest.fixture(params=ROUTES)
def route(request, monkeypatch, device):
    return scipy_route(request, monkeypatch, device, _common)


def dev(x, device):
    return ca.asarray(x, device=device)


def check(got, want, rtol=1e-10, atol=1e-10):
    got = got.get() if isinstance(got, ca.ndarray) else np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)


def same_error(ref, fn):
    with pytest.raises(Exception) as want:
        ref()
    with pytest.raises(want.type):
        fn()


def data(n=12, trail=(), seed=0):
    rng = RNG(seed)
    x = np.sort(rng.random(n)) * 4
    while np.any(np.diff(x) < 1e-3):
        x = np.sort(rng.random(n)) * 4
    return x, rng.standard_normal((n,) + trail)


def points(n=40, seed=1, lo=-0.5, hi=4.5):
    return RNG(seed).uniform(lo, hi, n)


def test_every_listed_name_exists():
    names = json.loads(Path("/work/shared/scipy-names.json").read_text()) \
        if Path("/work/shared/scipy-names.json").exists() else {}
    for name in names.get("scipy.interpolate", []):
        assert hasattr(ci, name), name
    for name in ["CubicSpline", "PPoly", "BSpline", "RBFInterpolator", "interpn", "pchip"]:
        assert hasattr(ci, name)


# ---- PPoly / BPoly / NdPPoly ------------------------------------------------

def piecewise(cls, seed, shape, width, npts, device):
    """Random coefficients and breakpoints: SciPy's and cuarray's cls of them and
    evaluation points reaching beyond both ends."""
    rng = RNG(seed)
    x = np.sort(rng.random(shape[1] + 1)) * width
    c = rng.standard_normal(shape)
    w, g = getattr(si, cls)(c, x), getattr(ci, cls)(dev(c, device), dev(x, device))
    return rng, x, c, w, g, rng.uniform(-0.5, width + 0.5, npts)


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("trail", [(), (3,)])
def test_ppoly_evaluate(device, route, descending, trail):
    rng = RNG(2)
    x = np.sort(rng.random(9))
    if descending:
        x = x[::-1].copy()
    c = rng.standard_normal((4, 8) + trail)
    w, g = si.PPoly(c, x), ci.PPoly(dev(c, device), dev(x, device))
    xp = rng.uniform(-0.3, 1.3, (5, 6))
    for nu in range(5):
        for ext in (True, False, "periodic"):
            check(g(dev(xp, device), nu, ext), w(xp, nu, ext))
    check(g(dev(np.array([np.nan, 0.5]), device)), w(np.array([np.nan, 0.5])))


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex64])
def test_ppoly_dtypes_and_axis(device, route, dtype):
    rng = RNG(3)
    x = np.sort(rng.random(6))
    c = (rng.standard_normal((2, 3, 5, 4)) * 3).astype(dtype)
    if np.dtype(dtype).kind == "c":
        c = c + 1j * c[::-1]
    w = si.PPoly(c, x, axis=1)
    g = ci.PPoly(dev(c, device), dev(x, device), axis=1)
    xp = rng.random((2, 7))
    check(g(dev(xp, device)), w(xp))
    assert g.c.dtype == w.c.dtype


def test_ppoly_calculus(device, route):
    rng, x, c, w, g, xp = piecewise("PPoly", 4, (4, 7, 2), 2, 30, device)
    for nu in (1, 2, 4, -1, -2):
        check(g.derivative(nu)(dev(xp, device)), w.derivative(nu)(xp), 1e-9, 1e-9)
        check(g.antiderivative(nu)(dev(xp, device)), w.antiderivative(nu)(xp), 1e-9, 1e-9)
    for a, b in [(0.1, 1.5), (1.5, 0.1), (-1, 3), (x[0], x[-1])]:
        check(g.integrate(a, b), w.integrate(a, b), 1e-9, 1e-9)
        check(g.integrate(a, b, extrapolate=False), w.integrate(a, b, extrapolate=False))
    wp, gp = si.PPoly(c, x, extrapolate="periodic"), ci.PPoly(dev(c, device), dev(x, device),
                                                              extrapolate="periodic")
    for a, b in [(0.1, 7.3), (-3.0, 0.4), (0.5, 0.7), (5.0, -2.0)]:
        check(gp.integrate(a, b), wp.integrate(a, b), 1e-9, 1e-9)
    r, s = g.roots(), w.roots()
    assert r.shape == s.shape
    for i in np.ndindex(s.shape):
        check(r[i], s[i])
    c1 = c[..., 0]
    check(ci.PPoly(dev(c1, device), dev(x, device)).solve(0.3),
          si.PPoly(c1, x).solve(0.3))


def test_ppoly_extend_and_conversions(device, route):
    rng = RNG(5)
    x = np.sort(rng.random(6))
    c = rng.standard_normal((3, 5))
    w, g = si.PPoly(c, x), ci.PPoly(dev(c, device), dev(x, device))
    c2, x2 = rng.standard_normal((4, 2)), np.array([1.2, 1.5])
    w.extend(c2, x2)
    g.extend(dev(c2, device), dev(x2, device))
    xp = rng.uniform(0, 1.6, 20)
    check(g(dev(xp, device)), w(xp))
    wb = si.BPoly.from_power_basis(w)
    gb = ci.BPoly.from_power_basis(g)
    check(gb.c, wb.c, 1e-9, 1e-9)
    check(ci.PPoly.from_bernstein_basis(gb).c, si.PPoly.from_bernstein_basis(wb).c,
          1e-8, 1e-8)
    with pytest.raises(TypeError):
        ci.PPoly.from_bernstein_basis(g)
    with pytest.raises(TypeError):
        ci.BPoly.from_power_basis(gb)


def test_ppoly_errors(device):
    x, c = np.array([0.0, 1, 2]), np.ones((2, 2))
    for args in [(np.ones(2), x), (np.ones((2, 3)), x), (c, np.array([0.0, 2, 1])),
                 (c, np.array([[0.0, 1, 2]])), (np.ones((0, 2)), x), (c, np.array([0.0]))]:
        same_error(lambda: si.PPoly(*args),
                   lambda: ci.PPoly(*(dev(a, device) for a in args)))
    same_error(lambda: si.PPoly(c, x, axis=1), lambda: ci.PPoly(dev(c, device),
                                                                dev(x, device), axis=1))


def test_bpoly(device, route):
    rng, x, c, w, g, xp = piecewise("BPoly", 6, (5, 6, 2), 3, 25, device)
    for nu in range(6):
        check(g(dev(xp, device), nu), w(xp, nu), 1e-8, 1e-8)
    for nu in (1, 3):
        check(g.derivative(nu)(dev(xp, device)), w.derivative(nu)(xp), 1e-8, 1e-8)
        check(g.antiderivative(nu)(dev(xp, device)), w.antiderivative(nu)(xp), 1e-8, 1e-8)
    check(g.integrate(0.2, 2.9), w.integrate(0.2, 2.9), 1e-9, 1e-9)
    xi, yi = [0.0, 1.0, 2.5], [[1, 0.5], [2, -1, 3], [0]]
    wd = si.BPoly.from_derivatives(xi, yi)
    gd = ci.BPoly.from_derivatives(dev(np.array(xi), device), yi)
    check(gd(dev(xp, device)), wd(xp))


def test_ndppoly(device, route):
    rng = RNG(7)
    c = rng.standard_normal((3, 2, 4, 5, 2))
    xs = (np.sort(rng.random(5)), np.sort(rng.random(6)))
    w = si.NdPPoly(c, xs)
    g = ci.NdPPoly(dev(c, device), tuple(dev(v, device) for v in xs))
    xp = rng.uniform(-0.1, 1.1, (4, 3, 2))
    check(g(dev(xp, device)), w(xp))
    check(g(dev(xp, device), nu=(1, 1)), w(xp, nu=(1, 1)))
    check(g(dev(xp, device), extrapolate=False), w(xp, extrapolate=False))
    check(g.derivative((1, 0))(dev(xp, device)), w.derivative((1, 0))(xp))
    check(g.antiderivative((1, 2))(dev(xp, device)), w.antiderivative((1, 2))(xp))
    rg = ((0.1, 0.8), (0.2, 0.7))
    check(g.integrate(rg), w.integrate(rg))
    check(g.integrate_1d(0.1, 0.6, 1)(dev(xp[..., :1], device)),
          w.integrate_1d(0.1, 0.6, 1)(xp[..., :1]))
    same_error(lambda: si.NdPPoly(c, xs[:1] + (xs[0],)),
               lambda: ci.NdPPoly(dev(c, device), (dev(xs[0], device),) * 2))


# ---- cubic interpolators ------------------------------------------------------

BCS = ["not-a-knot", "natural", "clamped", "periodic",
       ((1, 0.5), (2, -1.0)), ("natural", (1, 2.0)), ((2, 1.0), "not-a-knot")]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 17])
@pytest.mark.parametrize("bc", BCS)
def test_cubic_spline(device, route, n, bc):
    x, y = data(n, (2,))
    if bc == "periodic":
        y[-1] = y[0]
    if isinstance(bc, tuple):
        bc = tuple(b if isinstance(b, str) else (b[0], np.full(2, b[1])) for b in bc)
    w = si.CubicSpline(x, y, bc_type=bc)
    dbc = bc if isinstance(bc, str) else tuple(
        b if isinstance(b, str) else (b[0], dev(b[1], device)) for b in bc)
    g = ci.CubicSpline(dev(x, device), dev(y, device), bc_type=dbc)
    xp = points()
    for nu in range(4):
        check(g(dev(xp, device), nu), w(xp, nu), 1e-8, 1e-8)
    check(g.integrate(0.3, 3.1), w.integrate(0.3, 3.1), 1e-8, 1e-8)
    check(g.antiderivative()(dev(xp, device)), w.antiderivative()(xp), 1e-8, 1e-8)


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_cubic_spline_dtypes_axis(device, route, dtype, axis):
    rng = RNG(8)
    x = np.sort(rng.random(10)) * 5
    y = (rng.standard_normal((3, 10, 2)) * 4).astype(dtype)
    if np.dtype(dtype).kind == "c":
        y = y + 1j * y[::-1]
    ax = 1 if axis == 0 else axis
    yy = np.moveaxis(y, 1, ax)
    w = si.CubicSpline(x, yy, axis=ax)
    g = ci.CubicSpline(dev(x, device), dev(yy, device), axis=ax)
    xp = rng.uniform(-1, 6, (4, 2))
    check(g(dev(xp, device)), w(xp), 1e-9, 1e-9)
    check(g(dev(xp, device), extrapolate=False), w(xp, extrapolate=False), 1e-9, 1e-9)


def test_cubic_spline_roots(device, route):
    x = np.linspace(0, 10, 40)
    y = np.sin(x)
    w, g = si.CubicSpline(x, y), ci.CubicSpline(dev(x, device), dev(y, device))
    check(g.roots(), w.roots(), 1e-9, 1e-9)
    check(g.solve(0.5, extrapolate=False), w.solve(0.5, extrapolate=False), 1e-9, 1e-9)


@pytest.mark.parametrize("cls", ["CubicSpline", "PchipInterpolator", "Akima1DInterpolator"])
def test_cubic_errors(device, cls):
    S, C = getattr(si, cls), getattr(ci, cls)
    good = np.array([0.0, 1, 2, 3])
    cases = [(np.array([0.0, 2, 1, 3]), good), (np.array([0.0, 1, 1, 3]), good),
             (np.array([0.0, np.nan, 2, 3]), good), (good, np.array([0.0, np.inf, 1, 2])),
             (good, np.ones(3)), (np.array([0.0]), np.array([1.0])),
             (good + 0j, good), (good.reshape(2, 2), good)]
    for x, y in cases:
        same_error(lambda: S(x, y), lambda: C(dev(x, device), dev(y, device)))
    if cls != "CubicSpline":
        same_error(lambda: S(good, good + 1j), lambda: C(dev(good, device),
                                                         dev(good + 1j, device)))


def test_cubic_spline_bc_errors(device):
    x, y = data(6)
    for bc in ["periodic", "bogus", ("periodic", "natural"), ((3, 1.0), "natural"),
               ((1, np.ones(3)), "natural"), ("natural",), ((1,), "natural")]:
        same_error(lambda: si.CubicSpline(x, y, bc_type=bc),
                   lambda: ci.CubicSpline(dev(x, device), dev(y, device), bc_type=bc))


def test_hermite_pchip_akima(device, route):
    x, y = data(15, (3,))
    y[4:8, 0] = 1.0              # flat run: PCHIP's zero slopes
    y[9:11, 1] = y[8, 1]
    dydx = RNG(9).standard_normal(y.shape)
    xp = points()
    w = si.CubicHermiteSpline(x, y, dydx)
    check(ci.CubicHermiteSpline(dev(x, device), dev(y, device), dev(dydx, device))(
        dev(xp, device)), w(xp), 1e-9, 1e-9)
    for n in (2, 3, 15):
        w = si.PchipInterpolator(x[:n], y[:n])
        g = ci.PchipInterpolator(dev(x[:n], device), dev(y[:n], device))
        check(g(dev(xp, device)), w(xp), 1e-9, 1e-9)
        check(ci.pchip(dev(x[:n], device), dev(y[:n], device))(dev(xp, device), 1),
              w(xp, 1), 1e-9, 1e-9)
        for method in ("akima", "makima"):
            w = si.Akima1DInterpolator(x[:n], y[:n], method=method)
            g = ci.Akima1DInterpolator(dev(x[:n], device), dev(y[:n], device), method=method)
            check(g(dev(xp, device)), w(xp), 1e-9, 1e-9)
            check(g(dev(xp, device), extrapolate=True), w(xp, extrapolate=True), 1e-9, 1e-9)
    for der in (0, 1, [0, 2]):
        want = si.pchip_interpolate(x, y, xp, der=der)
        got = ci.pchip_interpolate(dev(x, device), dev(y, device), dev(xp, device), der=der)
        if isinstance(der, list):
            for a, b in zip(got, want):
                check(a, b, 1e-9, 1e-9)
        else:
            check(got, want, 1e-9, 1e-9)
    with pytest.raises(NotImplementedError):
        ci.Akima1DInterpolator(dev(x, device), dev(y, device), method="bogus")
    g = ci.Akima1DInterpolator(dev(x, device), dev(y, device))
    with pytest.raises(NotImplementedError):
        g.extend(g.c, g.x)


# ---- B-splines ----------------------------------------------------------------

@pytest.mark.parametrize("k", [0, 1, 2, 3, 4, 5])
def test_make_interp_spline(device, route, k):
    x, y = data(14, (2,))
    w = si.make_interp_spline(x, y, k=k)
    g = ci.make_interp_spline(dev(x, device), dev(y, device), k=k)
    xp = points()
    for nu in range(k + 2):
        want = w(xp, nu)
        check(g(dev(xp, device), nu), want, 1e-8, 1e-8 * max(1, np.abs(want).max()))
    for ext in (False, "periodic"):
        check(g(dev(xp, device), extrapolate=ext), w(xp, extrapolate=ext), 1e-8, 1e-8)
    check(g.integrate(-0.3, 3.0), w.integrate(-0.3, 3.0), 1e-8, 1e-8)
    check(g.integrate(-0.3, 3.0, extrapolate=False), w.integrate(-0.3, 3.0, extrapolate=False),
          1e-8, 1e-8)
    check(g.integrate(-2.0, 9.0, extrapolate="periodic"),
          w.integrate(-2.0, 9.0, extrapolate="periodic"), 1e-8, 1e-8)
    check(g.antiderivative(2)(dev(xp, device)), w.antiderivative(2)(xp), 1e-8, 1e-8)
    if k >= 1:
        check(g.derivative()(dev(xp, device)), w.derivative()(xp), 1e-8, 1e-6)
    w1 = si.make_interp_spline(x, y[:, 0], k=k)
    g1 = ci.make_interp_spline(dev(x, device), dev(y[:, 0], device), k=k)
    pp_w, pp_g = si.PPoly.from_spline(w1), ci.PPoly.from_spline(g1)
    check(pp_g(dev(xp, device)), pp_w(xp), 1e-8, 1e-8)


@pytest.mark.parametrize("bc", ["clamped", "natural", "periodic",
                                ([(1, 0.3)], [(2, -0.2)]), ([(1, 0.0), (2, 1.0)], None)])
def test_make_interp_spline_bc(device, route, bc):
    x, y = data(11)
    if bc == "periodic":
        y[-1] = y[0]
    k = 5 if isinstance(bc, tuple) and bc[1] is None else 3
    if isinstance(bc, tuple) and bc[1] is None:
        bc = (bc[0], [(1, 0.0), (2, 0.0)])
    w = si.make_interp_spline(x, y, k=k, bc_type=bc)
    g = ci.make_interp_spline(dev(x, device), dev(y, device), k=k, bc_type=bc)
    xp = points()
    check(g(dev(xp, device)), w(xp), 1e-8, 1e-8)
    check(g.t, w.t)


def test_make_interp_spline_given_knots_and_errors(device, route):
    x, y = data(10)
    t = np.r_[[x[0]] * 4, x[2:-2], [x[-1]] * 4]
    w = si.make_interp_spline(x, y, k=3, t=t)
    g = ci.make_interp_spline(dev(x, device), dev(y, device), k=3, t=dev(t, device))
    check(g(dev(points(), device)), w(points()), 1e-9, 1e-9)
    bad = [dict(x=x[::-1].copy()), dict(x=np.r_[x[:1], x[:-1]]), dict(y=y[:-1]),
           dict(k=0, bc_type="natural"), dict(k=1, bc_type="clamped"),
           dict(bc_type=([(4, 0.0)], [(1, 0.0)])), dict(bc_type=([(1, 0.0)], None)),
           dict(t=t[:-3]), dict(y=np.r_[y[:-1], np.nan])]
    for kw in bad:
        args = dict(x=x, y=y, k=3)
        args.update(kw)
        dargs = {a: dev(v, device) if isinstance(v, np.ndarray) else v for a, v in args.items()}
        same_error(lambda: si.make_interp_spline(**args),
                   lambda: ci.make_interp_spline(**dargs))


@pytest.mark.parametrize("method", ["qr", "norm-eq"])
@pytest.mark.parametrize("k", [1, 3])
def test_make_lsq_spline(device, route, method, k):
    rng = RNG(10)
    x = np.sort(rng.random(60))
    x[0], x[-1] = 0, 1
    y = np.sin(5 * x)[:, None] + rng.random((60, 2)) * 0.1
    w8 = rng.random(60) + 0.5
    t = np.r_[[0.0] * (k + 1), np.linspace(0.15, 0.85, 6), [1.0] * (k + 1)]
    w = si.make_lsq_spline(x, y, t, k=k, w=w8, method=method)
    g = ci.make_lsq_spline(dev(x, device), dev(y, device), dev(t, device), k=k,
                           w=dev(w8, device), method=method)
    check(g.c, w.c, 1e-8, 1e-8)
    same_error(lambda: si.make_lsq_spline(x[::-1].copy(), y, t, k=k),
               lambda: ci.make_lsq_spline(dev(x[::-1].copy(), device), dev(y, device),
                                          dev(t, device), k=k))


def test_bspline_class(device, route):
    rng = RNG(11)
    t = np.r_[[0.0] * 4, np.sort(rng.random(6)), [1.0] * 4]
    c = rng.standard_normal((10, 3))
    w, g = si.BSpline(t, c, 3), ci.BSpline(dev(t, device), dev(c, device), 3)
    xp = rng.uniform(-0.2, 1.2, (3, 9))
    for nu in range(5):
        check(g(dev(xp, device), nu), w(xp, nu), 1e-8, 1e-6)
    wa, ga = si.BSpline(t, c.T, 3, axis=1), ci.BSpline(dev(t, device), dev(c.T, device), 3,
                                                      axis=1)
    check(ga(dev(xp, device)), wa(xp), 1e-10, 1e-10)
    tb = [0.0, 1, 2.5, 3]
    check(ci.BSpline.basis_element(dev(np.array(tb), device))(dev(xp * 3, device)),
          si.BSpline.basis_element(tb)(xp * 3))
    xs = np.sort(rng.random(12))
    check(ci.BSpline.design_matrix(dev(xs, device), dev(t, device), 3).toarray(),
          si.BSpline.design_matrix(xs, t, 3).toarray())
    same_error(lambda: si.BSpline.design_matrix(xs + 2, t, 3),
               lambda: ci.BSpline.design_matrix(dev(xs + 2, device), dev(t, device), 3))
    for args in [(t[::-1].copy(), c, 3), (t, c[:5], 3), (t, c, -1), (t[:5], c, 3),
                 (np.r_[t[:-1], np.inf], c, 3)]:
        same_error(lambda: si.BSpline(*args),
                   lambda: ci.BSpline(dev(args[0], device), dev(args[1], device), args[2]))


def test_splder_splantider(device, route):
    x, y = data(12, (2,))
    w = si.make_interp_spline(x, y)
    g = ci.make_interp_spline(dev(x, device), dev(y, device))
    cp = np.r_[w.c, np.zeros((4, 2))]
    for n in (1, 2, 3):
        tw, cw, kw = si.splder((w.t, cp, 3), n)
        tg, cg, kg = ci.splder((dev(w.t, device), dev(cp, device), 3), n)
        check(tg, tw)
        check(cg, cw, 1e-9, 1e-9)
        assert kg == kw
        tw, cw, kw = si.splantider((w.t, cp, 3), n)
        tg, cg, kg = ci.splantider((dev(w.t, device), dev(cp, device), 3), n)
        check(cg, cw, 1e-9, 1e-9)
    xp = points()
    check(ci.splder(g, 2)(dev(xp, device)), si.splder(w, 2)(xp), 1e-8, 1e-8)
    check(ci.splantider(g, 2)(dev(xp, device)), si.splantider(w, 2)(xp), 1e-8, 1e-8)
    same_error(lambda: si.splder((w.t, cp, 3), 4),
               lambda: ci.splder((dev(w.t, device), dev(cp, device), 3), 4))


def test_ndbspline(device, route):
    rng = RNG(12)
    t1 = np.r_[[0.0] * 4, [0.3, 0.6], [1.0] * 4]
    t2 = np.r_[[0.0] * 3, [0.5], [1.0] * 3]
    c = rng.standard_normal((6, 4, 2))
    w = si.NdBSpline((t1, t2), c, (3, 2))
    g = ci.NdBSpline((dev(t1, device), dev(t2, device)), dev(c, device), (3, 2))
    xp = rng.uniform(-0.1, 1.1, (5, 2))
    check(g(dev(xp, device)), w(xp))
    check(g(dev(xp, device), nu=(1, 2)), w(xp, nu=(1, 2)), 1e-9, 1e-9)
    check(g(dev(xp, device), extrapolate=False), w(xp, extrapolate=False))
    xs = rng.random((7, 2))
    check(ci.NdBSpline.design_matrix(dev(xs, device), (dev(t1, device), dev(t2, device)),
                                     (3, 2)).toarray(),
          si.NdBSpline.design_matrix(xs, (t1, t2), (3, 2)).toarray())
    for args in [((t1, t2), c[:5], (3, 2)), ([t1, t2], c, 3), ((t1, t2), c, (3, 2, 1))]:
        same_error(lambda: si.NdBSpline(*args),
                   lambda: ci.NdBSpline(tuple(dev(v, device) for v in args[0])
                                        if isinstance(args[0], tuple) else args[0],
                                        dev(args[1], device), args[2]))
    same_error(lambda: w(xp, nu=(1,)), lambda: g(dev(xp, device), nu=(1,)))


# ---- FITPACK splines ---------------------------------------------------------

@pytest.mark.parametrize("ext", [0, 1, 2, 3, "const"])
def test_univariate_spline(device, ext):
    rng = RNG(13)
    x = np.sort(rng.random(40))
    y = np.sin(6 * x) + rng.random(40) * 0.1
    xp = rng.uniform(0, 1, 30) if ext == 2 else rng.uniform(-0.3, 1.3, 30)
    xp[:2] = x[0], x[-1]
    for make in (lambda m, a, b: m.UnivariateSpline(a, b, ext=ext, s=0.1),
                 lambda m, a, b: m.InterpolatedUnivariateSpline(a, b, ext=ext, k=2)):
        w, g = make(si, x, y), make(ci, dev(x, device), dev(y, device))
        for nu in (0, 1, 2):
            check(g(dev(xp, device), nu), w(xp, nu), 1e-9, 1e-9)
        check(g.get_knots(), w.get_knots())
        check(g.get_coeffs(), w.get_coeffs())
        assert g.get_residual() == w.get_residual()
        check(g.integral(-0.1, 0.7), w.integral(-0.1, 0.7), 1e-9, 1e-9)
        check(g.derivatives(0.4), w.derivatives(0.4), 1e-9, 1e-9)
        check(g.derivative()(dev(xp, device)), w.derivative()(xp), 1e-9, 1e-9)
        check(g.antiderivative(2)(dev(xp, device)), w.antiderivative(2)(xp), 1e-9, 1e-9)
    if ext != 2:
        same_error(lambda: si.UnivariateSpline(x, y, ext=2)(np.array([2.0])),
                   lambda: ci.UnivariateSpline(dev(x, device), dev(y, device), ext=2)(
                       dev(np.array([2.0]), device)))
    w = si.LSQUnivariateSpline(x, y, [0.25, 0.5, 0.75], ext=ext)
    g = ci.LSQUnivariateSpline(dev(x, device), dev(y, device), dev(np.array([0.25, 0.5, 0.75]),
                                                                      device), ext=ext)
    check(g(dev(xp, device)), w(xp), 1e-9, 1e-9)
    check(g.roots(), w.roots(), 1e-9, 1e-9)
    u = ci.UnivariateSpline(dev(x, device), dev(y, device), ext=ext)
    v = si.UnivariateSpline(x, y, ext=ext)
    u.set_smoothing_factor(0.5)
    v.set_smoothing_factor(0.5)
    check(u(dev(xp, device)), v(xp), 1e-9, 1e-9)
    same_error(lambda: si.UnivariateSpline(x[::-1], y), lambda: ci.UnivariateSpline(
        dev(x[::-1].copy(), device), dev(y, device)))


# ---- polynomial interpolators ------------------------------------------------

@pytest.mark.parametrize("cls", ["KroghInterpolator", "BarycentricInterpolator"])
@pytest.mark.parametrize("axis", [0, 1])
def test_polynomial_interpolators(device, cls, axis):
    rng = RNG(14)
    xi = np.sort(rng.random(8))
    yi = rng.standard_normal((8, 3)) if axis == 0 else rng.standard_normal((3, 8))
    w = getattr(si, cls)(xi, yi, axis=axis)
    g = getattr(ci, cls)(dev(xi, device), dev(yi, device), axis=axis)
    x = rng.random((2, 5))
    check(g(dev(x, device)), w(x), 1e-7, 1e-7)
    check(g(dev(xi[2:5], device)), w(xi[2:5]), 1e-9, 1e-9)
    check(g(dev(np.float64(0.3), device)), w(0.3), 1e-7, 1e-7)
    check(g.derivative(dev(x, device), 2), w.derivative(x, 2), 1e-6, 1e-6)
    check(g.derivatives(dev(x, device)), w.derivatives(x), 1e-5, 1e-4)
    check(g.derivatives(dev(x, device), 3), w.derivatives(x, 3), 1e-6, 1e-6)
    yc = yi + 1j
    check(getattr(ci, cls)(dev(xi, device), dev(yc, device), axis=axis)(dev(x, device)),
          getattr(si, cls)(xi, yc, axis=axis)(x), 1e-7, 1e-7)


def test_krogh_hermite_and_functions(device):
    xh, yh = np.array([0, 0, 1, 1, 2.0]), np.array([1, 2, 0, -1, 3.0])
    x = np.linspace(-0.5, 2.5, 9)
    for der in (0, 1, [0, 2]):
        check(ci.krogh_interpolate(dev(xh, device), dev(yh, device), dev(x, device), der=der),
              si.krogh_interpolate(xh, yh, x, der=der), 1e-9, 1e-9)
    xi, yi = np.linspace(0, 1, 7), np.cos(np.linspace(0, 3, 7))
    for der in (0, 1, [0, 1, 3]):
        check(ci.barycentric_interpolate(dev(xi, device), dev(yi, device), dev(x, device),
                                         der=der),
              si.barycentric_interpolate(xi, yi, x, der=der), 1e-8, 1e-7)
    same_error(lambda: si.KroghInterpolator([0.0, 1, 1, 0], [1.0, 2, 3, 4]),
               lambda: ci.KroghInterpolator(dev(np.array([0.0, 1, 1, 0]), device),
                                            dev(np.array([1.0, 2, 3, 4]), device)))
    same_error(lambda: si.BarycentricInterpolator([0.0, 1, 1], [1.0, 2, 3]),
               lambda: ci.BarycentricInterpolator(dev(np.array([0.0, 1, 1]), device),
                                                  dev(np.array([1.0, 2, 3]), device)))
    # SciPy 1.17's add_xi flips the sign of every other new weight (its product
    # runs over xi[:j] - xi[j]), so its result is not the interpolating polynomial:
    # compare with SciPy's interpolator built on all the points
    w = si.BarycentricInterpolator(xi, yi)
    g = ci.BarycentricInterpolator(dev(xi[:4], device), dev(yi[:4], device))
    g.add_xi(dev(xi[4:], device), dev(yi[4:], device))
    check(g(dev(x, device)), w(x), 1e-8, 1e-8)
    w.set_yi(yi * 2)
    g.set_yi(dev(yi * 2, device))
    check(g(dev(x, device)), w(x), 1e-8, 1e-8)


# ---- interp1d ------------------------------------------------------------------

KINDS = ["linear", "nearest", "nearest-up", "previous", "next", "zero", "slinear",
         "quadratic", "cubic", 5]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("fill", [np.nan, "extrapolate", (-1.0, 2.0), 0.5])
def test_interp1d(device, route, kind, fill):
    rng = RNG(15)
    x = rng.random(10)              # unsorted: interp1d sorts
    y = rng.standard_normal((3, 10))
    xp = rng.uniform(-0.2, 1.2, (4, 5))
    w = si.interp1d(x, y, kind=kind, fill_value=fill, bounds_error=False)
    g = ci.interp1d(dev(x, device), dev(y, device), kind=kind, fill_value=fill,
                    bounds_error=False)
    check(g(dev(xp, device)), w(xp), 1e-9, 1e-9)
    check(g(dev(np.array([np.nan, 0.5]), device)), w(np.array([np.nan, 0.5])), 1e-9, 1e-9)


@pytest.mark.parametrize("xd", [np.float32, np.float64, np.int64])
@pytest.mark.parametrize("yd", [np.float16, np.float32, np.float64, np.int32, np.bool_,
                                np.complex64, np.complex128])
def test_interp1d_dtypes(device, route, xd, yd):
    x = np.arange(6).astype(xd)
    y = (np.arange(12).reshape(6, 2) % 4).astype(yd)
    xp = np.array([0.5, 2.25, 4.0], dtype=np.float32)
    for kind in ("linear", "nearest", "previous", "cubic"):
        w = si.interp1d(x, y, kind=kind, axis=0)
        g = ci.interp1d(dev(x, device), dev(y, device), kind=kind, axis=0)
        tol = 1e-3 if np.dtype(yd).itemsize <= 2 or np.float32 in (xd, yd) else 1e-9
        check(g(dev(xp, device)), w(xp), tol, tol)


def test_interp1d_errors(device, route):
    x, y = np.array([0.0, 1, 2, 3]), np.array([1.0, 2, 0, 1])
    for kw in [dict(kind="bogus"), dict(kind="cubic", x=x[:3], y=y[:3]),
               dict(fill_value="extrapolate", bounds_error=True), dict(y=y[:3]),
               dict(x=x.reshape(2, 2), y=y.reshape(2, 2)),
               dict(fill_value=np.ones(3))]:
        args = dict(x=x, y=y)
        args.update(kw)
        dargs = {a: dev(v, device) if a in "xy" else v for a, v in args.items()}
        same_error(lambda: si.interp1d(**args), lambda: ci.interp1d(**dargs))
    w, g = si.interp1d(x, y), ci.interp1d(dev(x, device), dev(y, device))
    for v in (-1.0, 4.0):
        same_error(lambda: w(np.array([v])), lambda: g(dev(np.array([v]), device)))


# ---- regular grids ----------------------------------------------------------------

METHODS = ["linear", "nearest", "slinear", "cubic", "quintic", "pchip",
           "slinear_legacy", "cubic_legacy"]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("fill", [np.nan, None])
def test_regular_grid(device, route, method, fill):
    rng = RNG(16)
    g1 = np.sort(rng.random(7))
    g2 = np.sort(rng.random(8))[::-1].copy()           # descending: flipped
    v = rng.standard_normal((7, 8, 2))
    xi = rng.uniform(-0.1, 1.1, (5, 3, 2))
    xi[0, 0] = [np.nan, 0.5]
    w = si.RegularGridInterpolator((g1, g2), v, method=method, bounds_error=False,
                                   fill_value=fill)
    g = ci.RegularGridInterpolator((dev(g1, device), dev(g2, device)), dev(v, device),
                                   method=method, bounds_error=False, fill_value=fill)
    # SciPy solves the NdBSpline system iteratively (gcrotmk): compare with its
    # exact recursive form, and with the iterative one to its tolerance
    tol = 1e-3 if method in ("slinear", "cubic", "quintic") else 1e-9
    check(g(dev(xi, device)), w(xi), tol, tol)
    if method in ("slinear", "cubic", "quintic") and route == "composition":
        ex = si.RegularGridInterpolator((g1, g2), v, method=method + "_legacy",
                                        bounds_error=False, fill_value=fill)
        check(g(dev(xi, device)), ex(xi), 1e-9, 1e-9)


def test_regular_grid_3d_nu_and_interpn(device, route):
    rng = RNG(17)
    grid = tuple(np.sort(rng.random(n)) for n in (5, 6, 7))
    v = rng.standard_normal((5, 6, 7))
    xi = rng.uniform(0.2, 0.8, (9, 3))
    for method in ("linear", "nearest", "cubic", "pchip"):
        w = si.interpn(grid, v, xi, method=method)
        got = ci.interpn(tuple(dev(p, device) for p in grid), dev(v, device),
                         dev(xi, device), method=method)
        check(got, w, 1e-4 if method == "cubic" else 1e-9, 1e-4 if method == "cubic" else 1e-9)
    if route == "composition":
        w = si.RegularGridInterpolator(grid, v, method="cubic")
        g = ci.RegularGridInterpolator(tuple(dev(p, device) for p in grid), dev(v, device),
                                       method="cubic")
        check(g(dev(xi, device), nu=(1, 0, 1)), w(xi, nu=(1, 0, 1)), 1e-2, 1e-2)
    lo, hi = max(p[0] for p in grid), min(p[-1] for p in grid)
    mesh = np.meshgrid(*(np.linspace(lo, hi, 3),) * 3, indexing="ij")
    w = si.interpn(grid, v, tuple(mesh))
    check(ci.interpn(tuple(dev(p, device) for p in grid), dev(v, device),
                     tuple(dev(m, device) for m in mesh)), w)


def test_regular_grid_errors(device):
    g1, g2 = np.array([0.0, 1, 2, 3]), np.array([0.0, 1, 2])
    v = np.ones((4, 3))
    dg = (dev(g1, device), dev(g2, device))
    cases = [((g1, np.array([0.0, 2, 1])), v, {}), ((g1, g2), np.ones((4, 4)), {}),
             ((g1, g2, g2), v, {}), ((g1, g2), v, dict(method="bogus")),
             ((g1, g2), v, dict(method="cubic")), ((g1, g2), v, dict(fill_value=1j)),
             ((g1, g2), v + 1j, dict(method="pchip"))]
    for pts, vals, kw in cases:
        same_error(lambda: si.RegularGridInterpolator(pts, vals, **kw),
                   lambda: ci.RegularGridInterpolator(tuple(dev(p, device) for p in pts),
                                                      dev(vals, device), **kw))
    w, g = si.RegularGridInterpolator((g1, g2), v), ci.RegularGridInterpolator(dg, dev(v, device))
    for xi in (np.array([[5.0, 1.0]]), np.array([[1.0, 1.0, 1.0]])):
        same_error(lambda: w(xi), lambda: g(dev(xi, device)))
    same_error(lambda: w(np.array([[1.0, 1.0]]), nu=(1, 0)),
               lambda: g(dev(np.array([[1.0, 1.0]]), device), nu=(1, 0)))
    same_error(lambda: si.interpn((g1, g2), v, np.array([[1.0, 1.0]]), method="bogus"),
               lambda: ci.interpn(dg, dev(v, device), dev(np.array([[1.0, 1.0]]), device),
                                  method="bogus"))


# ---- RBF ----------------------------------------------------------------------------

KERNELS = ["linear", "thin_plate_spline", "cubic", "quintic", "multiquadric",
           "inverse_multiquadric", "inverse_quadratic", "gaussian"]


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("neighbors", [None, 12])
@pytest.mark.parametrize("smoothing", [0.0, 0.1])
def test_rbf(device, route, kernel, neighbors, smoothing):
    rng = RNG(18)
    y, d, x = rng.random((40, 2)), rng.standard_normal((40, 3)), rng.random((25, 2))
    w = si.RBFInterpolator(y, d, neighbors=neighbors, smoothing=smoothing, kernel=kernel,
                           epsilon=2.0)
    g = ci.RBFInterpolator(dev(y, device), dev(d, device), neighbors=neighbors,
                           smoothing=smoothing, kernel=kernel, epsilon=2.0)
    # The global unsmoothed gaussian system has a condition number of about 5e11:
    # two LU solvers (LAPACK's dgesv, cuSOLVER's getrf/getrs, SciPy 1.17's and
    # 1.18's OpenBLAS) agree only to about 1e-5 there.
    rt = 1e-4 if (kernel, smoothing, neighbors) == ("gaussian", 0.0, None) else 1e-6
    check(g(dev(x, device)), w(x), rt, 1e-6)


def test_rbf_degree_complex_shapes(device, route):
    rng = RNG(19)
    y, x = rng.random((30, 3)), rng.random((10, 3))
    dc = rng.standard_normal((30, 2, 2)) + 1j * rng.standard_normal((30, 2, 2))
    for degree in (-1, 0, 2):
        w = si.RBFInterpolator(y, dc, degree=degree, kernel="gaussian", epsilon=1.0)
        g = ci.RBFInterpolator(dev(y, device), dev(dc, device), degree=degree,
                               kernel="gaussian", epsilon=1.0)
        check(g(dev(x, device)), w(x), 1e-6, 1e-6)
    sm = rng.random(30) * 0.1
    w = si.RBFInterpolator(y, dc[:, 0, 0].real, smoothing=sm)
    g = ci.RBFInterpolator(dev(y, device), dev(dc[:, 0, 0].real, device),
                           smoothing=dev(sm, device))
    check(g(dev(x, device)), w(x), 1e-6, 1e-6)


def test_rbf_errors(device):
    rng = RNG(20)
    y, d = rng.random((10, 2)), rng.random(10)
    for kw in [dict(y=rng.random(10)), dict(d=rng.random(9)), dict(kernel="bogus"),
               dict(kernel="gaussian"), dict(degree=-2), dict(smoothing=np.ones(3)),
               dict(y=rng.random((3, 2)), d=rng.random(3), degree=2)]:
        args = dict(y=y, d=d)
        args.update(kw)
        dargs = {a: dev(v, device) if isinstance(v, np.ndarray) else v
                 for a, v in args.items()}
        same_error(lambda: si.RBFInterpolator(**args), lambda: ci.RBFInterpolator(**dargs))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning):
            ci.RBFInterpolator(dev(y, device), dev(d, device), degree=0)
    g, w = ci.RBFInterpolator(dev(y, device), dev(d, device)), si.RBFInterpolator(y, d)
    for x in (rng.random(3), rng.random((3, 3))):
        same_error(lambda: w(x), lambda: g(dev(x, device)))
    same_error(lambda: si.RBFInterpolator(np.zeros((5, 2)), np.ones(5)),
               lambda: ci.RBFInterpolator(dev(np.zeros((5, 2)), device),
                                          dev(np.ones(5), device)))


# ---- scattered data --------------------------------------------------------------

@pytest.mark.parametrize("cls", ["NearestNDInterpolator", "LinearNDInterpolator",
                                 "CloughTocher2DInterpolator"])
@pytest.mark.parametrize("rescale", [False, True])
@pytest.mark.parametrize("vdtype", [np.float64, np.int64, np.complex128])
def test_scattered(device, cls, rescale, vdtype):
    rng = RNG(21)
    p = rng.random((30, 2)) * [1, 50]
    v = (rng.standard_normal((30, 2)) * 5).astype(vdtype)
    if cls == "CloughTocher2DInterpolator" and vdtype == np.int64:
        v = v.astype(np.float64)
    x = rng.random((4, 5, 2)) * [1.2, 60]
    w = getattr(si, cls)(p, v, rescale=rescale)
    g = getattr(ci, cls)(dev(p, device), dev(v, device), rescale=rescale)
    check(g(dev(x, device)), w(x), 1e-9, 1e-9)
    check(g(dev(x[..., 0], device), dev(x[..., 1], device)), w(x[..., 0], x[..., 1]),
          1e-9, 1e-9)


def test_scattered_3d_and_options(device):
    rng = RNG(22)
    p, v = rng.random((40, 3)), rng.standard_normal(40)
    x = rng.uniform(-0.1, 1.1, (12, 3))
    w, g = si.LinearNDInterpolator(p, v, fill_value=-3.0), \
        ci.LinearNDInterpolator(dev(p, device), dev(v, device), fill_value=-3.0)
    check(g(dev(x, device)), w(x), 1e-9, 1e-9)
    w, g = si.NearestNDInterpolator(p, v), ci.NearestNDInterpolator(dev(p, device),
                                                                    dev(v, device))
    check(g(dev(x, device), distance_upper_bound=0.15), w(x, distance_upper_bound=0.15))
    same_error(lambda: si.LinearNDInterpolator(p, v[:5]),
               lambda: ci.LinearNDInterpolator(dev(p, device), dev(v[:5], device)))
    same_error(lambda: w(rng.random((3, 2))), lambda: g(dev(rng.random((3, 2)), device)))


# ---- the tridiagonal solver (the GPU's CubicSpline path) --------------------------

@pytest.mark.parametrize("n", [1, 2, 3, 7, 64, 1000])
def test_tridiagonal_solvers(device, n):
    from cuarray.scipy.interpolate._banded import solve_cyclic_tridiagonal, solve_tridiagonal
    rng = RNG(23)
    dl, du, d = rng.random(n), rng.random(n), 2.5 + rng.random(n)
    b = rng.standard_normal((n, 3))
    A = np.diag(d) + np.diag(dl[1:], -1) + np.diag(du[:-1], 1)
    got = solve_tridiagonal(*(dev(v, device) for v in (dl, d, du, b)))
    check(got, np.linalg.solve(A, b), 1e-12, 1e-12)
    if n >= 3:
        A[0, -1], A[-1, 0] = dl[0], du[-1]
        got = solve_cyclic_tridiagonal(*(dev(v, device) for v in (dl, d, du, b)))
        check(got, np.linalg.solve(A, b), 1e-12, 1e-12)


def test_large_spline_evaluation_matches(device, route):
    x = np.linspace(0, 10, 2000) + RNG(24).random(2000) * 1e-3
    y = np.sin(x)
    xp = RNG(25).uniform(-1, 11, 200_000)
    w = si.CubicSpline(x, y)
    g = ci.CubicSpline(dev(x, device), dev(y, device))
    check(g(dev(xp, device)), w(xp), 1e-9, 1e-9)
    assert math.isfinite(float(g.integrate(0, 10)))


# ---- dtypes, axes and NaN points across the 1-D interpolators -------------------

ONE_D = {
    "CubicSpline": lambda m, x, y, **kw: m.CubicSpline(x, y, **kw),
    "PchipInterpolator": lambda m, x, y, **kw: m.PchipInterpolator(x, y, **kw),
    "Akima1DInterpolator": lambda m, x, y, **kw: m.Akima1DInterpolator(x, y, **kw),
    "make_interp_spline": lambda m, x, y, **kw: m.make_interp_spline(x, y, **kw),
    "interp1d": lambda m, x, y, axis=0: m.interp1d(x, y, kind="cubic", axis=axis,
                                                   bounds_error=False),
}


@pytest.mark.parametrize("name", list(ONE_D))
@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint16, np.float16, np.float32,
                                   np.float64, np.complex64, np.complex128, np.bool_])
def test_one_d_dtypes(device, route, name, dtype):
    rng = RNG(26)
    x = np.sort(rng.random(9)) * 3
    y = (rng.standard_normal((9, 2)) * 5).astype(dtype)
    if np.dtype(dtype).kind == "c":
        y = y + 1j * y[::-1]
    xp = np.r_[rng.uniform(0, 3, 5), np.nan]
    make = ONE_D[name]
    try:
        want = make(si, x, y)(xp)
    except ValueError:              # complex data PCHIP and Akima refuse
        with pytest.raises(ValueError):
            make(ci, dev(x, device), dev(y, device))
        return
    check(make(ci, dev(x, device), dev(y, device))(dev(xp, device)), want, 1e-9, 1e-9)


@pytest.mark.parametrize("name", list(ONE_D))
def test_one_d_axis(device, route, name):
    rng = RNG(27)
    x = np.sort(rng.random(8))
    y = rng.standard_normal((3, 8, 2))
    xp = rng.uniform(-0.1, 1.1, (2, 4))
    want = ONE_D[name](si, x, y, axis=1)(xp)
    check(ONE_D[name](ci, dev(x, device), dev(y, device), axis=1)(dev(xp, device)), want,
          1e-9, 1e-9)


def test_interp1d_assume_sorted_and_scalar(device, route):
    x, y = data(8)
    w = si.interp1d(x, y, assume_sorted=True)
    g = ci.interp1d(dev(x, device), dev(y, device), assume_sorted=True)
    check(g(dev(np.float64(x[3] + 0.01), device)), w(x[3] + 0.01))
    check(g(dev(x, device)), w(x))
