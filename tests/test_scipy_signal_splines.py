"""cuarray.scipy.signal's B-spline filters and LTI/host routines against SciPy
(both routes on the cpu device, see signal_helpers).

Tolerances: cspline1d/qspline1d (full boundary sums, as SciPy's) 1e-9; the
evaluators 1e-9; symiirorder1's boundary sum takes ceil(log(precision) /
log|z1|) terms, which is SciPy's length for most inputs but not all (its stop
depends on the terms): compared to 1e-5 (10x at precision 1e-3), float32 2e-3.
symiirorder2, cspline2d with smoothing and spline_filter: SciPy stops its
boundary sums at the first term under `precision` (a data-dependent error), the
composition sums until the weights fall under 1e-18, so they are compared with
SciPy at precision 1e-30 (its sums then run to the weights' underflow) to 1e-9 and at the default precision to 1e-4 (float32
data, precision 1e-3: 5e-3 of the largest value)."""

import numpy as np
import pytest
import scipy.signal as ss

import cuarray as ca
import cuarray.scipy.signal as cs

from conftest import random_array
from signal_helpers import dev, near, near_all, route, same_error  # noqa: F401


DT = [np.float32, np.float64, np.int64]


@pytest.mark.parametrize("dtype", DT)
@pytest.mark.parametrize("n", [1, 2, 10, 100])
def test_spline1d(route, device, dtype, n):
    x = random_array((n,), dtype)
    near(cs.cspline1d(dev(x, device)), ss.cspline1d(x))
    near(cs.qspline1d(dev(x, device)), ss.qspline1d(x))
    if n >= 4:
        near(cs.cspline1d(dev(x, device), 0.5), ss.cspline1d(x, 0.5))
    same_error(lambda: ss.qspline1d(x, 0.5), lambda: cs.qspline1d(dev(x, device), 0.5))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_spline_eval(route, device, dtype):
    x = random_array((50,), dtype)
    cj = ss.cspline1d(x)
    newx = np.linspace(-150, 250, 333).astype(dtype)
    near(cs.cspline1d_eval(dev(cj, device), dev(newx, device), 2.0, -3),
         ss.cspline1d_eval(cj, newx, 2.0, -3))
    qj = ss.qspline1d(x)
    near(cs.qspline1d_eval(dev(qj, device), dev(newx, device), 2.0, -3),
         ss.qspline1d_eval(qj, newx, 2.0, -3))
    near(cs.cspline1d_eval(dev(cj, device), dev(np.zeros(0), device)),
         ss.cspline1d_eval(cj, np.zeros(0)))
    same_error(lambda: ss.cspline1d_eval(np.zeros(0), newx),
               lambda: cs.cspline1d_eval(dev(np.zeros(0), device), dev(newx, device)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_symiirorder(route, device, dtype):
    x = random_array((3, 100), dtype)
    r1 = 1e-5 if dtype == np.float64 else 2e-3
    for c0, z1 in [(0.5, 0.3), (1.0, -0.7)]:
        near(cs.symiirorder1(dev(x, device), c0, z1), ss.symiirorder1(x, c0, z1), r1)
        near(cs.symiirorder1(dev(x[0], device), c0, z1, 1e-3),
             ss.symiirorder1(x[0], c0, z1, 1e-3), 10 * r1)
    # precision 1e-30 makes SciPy's sums run until the weights underflow (its
    # stop is data-dependent), which needs > 135 samples at r = 0.6
    xl = random_array((2, 300), dtype)
    prec = 1e-30 if dtype == np.float64 else -1
    r = None if dtype == np.float64 else 2e-3
    near(cs.symiirorder2(dev(xl, device), 0.6, 0.5, prec), ss.symiirorder2(xl, 0.6, 0.5, prec),
         r)
    near(cs.symiirorder2(dev(x, device), 0.6, 0.5), ss.symiirorder2(x, 0.6, 0.5), 5e-2)
    for fn, args in [(lambda m, v: m.symiirorder1(v, 1.0, 1.5), ()),
                     (lambda m, v: m.symiirorder2(v, 1.5, 0.5), ()),
                     (lambda m, v: m.symiirorder1(v[:, :, None], 1.0, 0.5), ()),
                     (lambda m, v: m.symiirorder1(v[:, :3], 1.0, 0.9), ())]:
        same_error(lambda: fn(ss, x), lambda: fn(cs, dev(x, device)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_spline2d(route, device, dtype):
    x = random_array((40, 50), dtype)
    r = None if dtype == np.float64 else 5e-3
    near(cs.cspline2d(dev(x, device)), ss.cspline2d(x), r)
    near(cs.qspline2d(dev(x, device)), ss.qspline2d(x), r)
    # smoothing (symiirorder2): SciPy at precision 1e-30, see the module docstring
    xl = random_array((80, 90), dtype)
    if dtype == np.float64:
        near(cs.cspline2d(dev(xl, device), 0.1, 1e-30), ss.cspline2d(xl, 0.1, 1e-30))
        h = np.array([1.0, 4.0, 1.0], np.float32) / 6.0
        want = ss.sepfir2d(ss.cspline2d(xl, 0.1, 1e-30), h, h)
        if route == "composition":
            near(cs.spline_filter(dev(xl, device), 0.1), want, 1e-8)
    near(cs.spline_filter(dev(xl, device), 0.1), ss.spline_filter(xl, 0.1), 5e-2)
    same_error(lambda: ss.qspline2d(x, 0.5), lambda: cs.qspline2d(dev(x, device), 0.5))
    same_error(lambda: ss.spline_filter(x.astype(int)),
               lambda: cs.spline_filter(dev(x.astype(int), device)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.int64])
def test_sepfir2d(route, device, dtype):
    x = random_array((12, 15), dtype)
    h = np.array([1.0, 2, 3], np.float32)
    g = np.array([1.0, -1, 4, 2, 1], np.float32)
    near(cs.sepfir2d(dev(x, device), h, g), ss.sepfir2d(x, h, g))
    same_error(lambda: ss.sepfir2d(x, np.ones(4), g),
               lambda: cs.sepfir2d(dev(x, device), np.ones(4), g))
    if dtype == np.float32:
        same_error(lambda: ss.sepfir2d(x, h.astype(float), g),
                   lambda: cs.sepfir2d(dev(x, device), h.astype(float), g))


def test_gauss_spline(device):
    x = np.linspace(-3, 3, 11)
    for n in (0, 3):
        near(cs.gauss_spline(dev(x, device), n), ss.gauss_spline(x, n))


# ---- LTI systems and host routines -------------------------------------------

def test_lti_classes(device):
    num, den = dev([1.0, 3], device), dev([1.0, 2, 1], device)
    s = cs.lti(num, den)
    assert isinstance(s, cs.lti) and isinstance(s, cs.TransferFunction)
    assert isinstance(s, ss.lti)
    assert isinstance(cs.dlti([1.0], [1.0, -0.5]), cs.dlti)
    zpk = cs.ZerosPolesGain(dev([-1.0], device), dev([-2.0, -3], device), 2.0)
    assert isinstance(zpk, ss.ZerosPolesGain)
    sys_ss = cs.StateSpace(np.array([[0, 1], [-2, -3.0]]), np.array([[0], [1.0]]),
                           np.array([[1, 0.0]]), np.array([[0.0]]))
    assert isinstance(sys_ss, cs.StateSpace)
    near_all(cs.step(s), ss.step(ss.lti([1.0, 3], [1.0, 2, 1])))
    t, y = cs.impulse((num, den))
    assert isinstance(y, ca.ndarray) and y.device == device
    near_all((t, y), ss.impulse(([1.0, 3], [1.0, 2, 1])))


@pytest.mark.filterwarnings("ignore::scipy.signal.BadCoefficients")
def test_lti_functions(device):
    A, B = np.array([[0, 1], [-2, -3.0]]), np.array([[0], [1.0]])
    C, D = np.array([[1, 0.0]]), np.array([[0.0]])
    sysd = (A, B, C, D)
    t = np.linspace(0, 5, 50)
    u = np.sin(t)
    cases = [("ss2tf", sysd, {}), ("ss2zpk", sysd, {}), ("tf2ss", ([1.0, 3], [1.0, 2, 1]), {}),
             ("zpk2ss", ([-1.0], [-2.0, -3], 2.0), {}), ("abcd_normalize", sysd, {}),
             ("cont2discrete", (sysd, 0.1), {}), ("bode", (([1.0], [1.0, 1]),), {}),
             ("freqresp", (([1.0], [1.0, 1]),), {}), ("lsim", (([1.0], [1.0, 1]), u, t), {}),
             ("dlsim", (([1.0], [1.0, -0.5], 1.0), u), {}),
             ("dimpulse", (([1.0], [1.0, -0.5], 1.0),), {}),
             ("dstep", (([1.0], [1.0, -0.5], 1.0),), {}),
             ("dbode", (([1.0], [1.0, -0.5], 1.0),), {}),
             ("dfreqresp", (([1.0], [1.0, -0.5], 1.0),), {}),
             ("findfreqs", ([1.0], [1.0, 2, 1], 10), {}),
             ("residue", ([1.0, 2], [1.0, 3, 2]), {}), ("residuez", ([1.0, 2], [1.0, 3, 2]), {}),
             ("invres", ([1.0, 2], [-1.0, -2], []), {}), ("invresz", ([1.0, 2], [0.5, 0.2], []), {}),
             ("unique_roots", ([1.0, 1.0001, 3],), dict(tol=1e-3)),
             ("gammatone", (440, "iir"), dict(fs=16000)), ("minimum_phase", (ss.firwin(31, 0.3),), {})]
    for name, args, kw in cases:
        want = getattr(ss, name)(*args, **kw)
        got = getattr(cs, name)(*args, **kw)
        near_all(got, want)
    pp = cs.place_poles(A, B, [-4.0, -5])
    near(pp.gain_matrix, ss.place_poles(A, B, [-4.0, -5]).gain_matrix)
    # band_stop_obj(wp, ind, passb, stopb, gpass, gstop, type): a float objective
    args = (0.45, 0, np.array([0.4, 0.6]), np.array([0.2, 0.7]), 1, 40, "butter")
    assert cs.band_stop_obj(*args) == ss.band_stop_obj(*args)
