"""FITPACK's 1-D smoothing splines (SciPy's UnivariateSpline,
InterpolatedUnivariateSpline, LSQUnivariateSpline) with cuarray arrays.

The fit is FITPACK's (SciPy's classes on host copies of the data: its knot
placement for a smoothing factor is an iterative, sequential search with no
device form); the fitted knots and coefficients are then kept on the data's
device and every evaluation, derivative, antiderivative and integral runs there
as a BSpline (searchsorted + basis recurrence + gathers). roots() is FITPACK's
sproot on the host (a few roots per knot interval); get_residual and
set_smoothing_factor use the host fit."""

import numpy as _np

import cuarray as _ca

from . import _common as _cm
from ._bsplines import BSpline, splantider, splder

__all__ = ["UnivariateSpline", "InterpolatedUnivariateSpline", "LSQUnivariateSpline"]

_EXT = {0: 0, 1: 1, 2: 2, 3: 3, "extrapolate": 0, "zeros": 1, "raise": 2, "const": 3}


def _ext_code(ext):
    try:
        return _EXT[ext]
    except (KeyError, TypeError):
        raise ValueError(f"Unknown extrapolation mode {ext}.") from None


class UnivariateSpline:
    """UnivariateSpline(x, y, w=None, bbox=[None]*2, k=3, s=None, ext=0,
    check_finite=False)

    A smoothing spline of degree k through the data (FITPACK's fit on the host,
    evaluation on the data's device: see the module notes)."""

    def __init__(self, x, y, w=None, bbox=[None] * 2, k=3, s=None, ext=0,
                 check_finite=False):
        dev = _cm.device_of(x, y, w)
        sp = _cm.scipy_interpolate().UnivariateSpline(
            _cm.host(x), _cm.host(y), _cm.host(w), bbox, k, s, ext, check_finite)
        self._adopt(sp, dev)

    @classmethod
    def _from_scipy(cls, sp, device):
        self = object.__new__(cls)
        self._adopt(sp, device)
        return self

    def _adopt(self, sp, device):
        self._sp = sp
        self._device = device if device is not None else _ca.asarray(0).device
        self.ext = _ext_code(sp.ext)
        t, c, k = sp._eval_args
        self._t = _cm.on(_np.asarray(t, dtype=_np.float64), self._device)
        n = t.shape[0] - k - 1
        self._spl = BSpline.construct_fast(self._t, _cm.on(_np.asarray(c[:n]),
                                                           self._device), k)

    @staticmethod
    def validate_input(x, y, w, bbox, k, s, ext, check_finite):
        """SciPy's input checks (on host copies); the checked arrays."""
        r = _cm.scipy_interpolate().UnivariateSpline.validate_input(
            _cm.host(x), _cm.host(y), _cm.host(w), bbox, k, s, ext, check_finite)
        return r

    def __call__(self, x, nu=0, ext=None):
        """The spline (or its nu-th derivative) at x; ext as the constructor's."""
        ext = self.ext if ext is None else _ext_code(ext)
        x = _cm.on(x, self._device, _np.float64)
        t, k = self._spl.t, self._spl.k
        n = t.shape[0] - k - 1
        lo, hi = t[k], t[n]
        out_lo, out_hi = x < lo, x > hi
        if ext == 2 and bool((out_lo | out_hi).any()):
            raise ValueError("Found x value not in the domain")
        # FITPACK clamps only values: its derivatives extrapolate under ext=3
        xe = _ca.clip(x, lo, hi) if ext == 3 and nu == 0 else x
        y = self._spl(xe, nu, True)
        if ext == 1:
            y = _ca.where(out_lo | out_hi, 0.0, y)
        return y

    def get_knots(self):
        """The interior and end knots (the base interval's distinct knots)."""
        k = self._spl.k
        return self._t[k:self._t.shape[0] - k]

    def get_coeffs(self):
        """The B-spline coefficients."""
        return self._spl.c

    def get_residual(self):
        """The weighted sum of squared residuals of the fit (FITPACK's fp)."""
        return self._sp.get_residual()

    def set_smoothing_factor(self, s):
        """Refit with smoothing factor s on the current knots (host FITPACK)."""
        self._sp.set_smoothing_factor(s)
        self._adopt(self._sp, self._device)

    def integral(self, a, b):
        """The integral over [a, b] (zero outside the base interval, as splint)."""
        return self._spl.integrate(a, b, extrapolate=False)

    def derivatives(self, x):
        """All derivatives (orders 0 .. k) at the point x."""
        xs = _ca.asarray([float(x)], device=self._device)
        return _ca.concatenate([self._spl(xs, nu) for nu in range(self._spl.k + 1)])

    def roots(self):
        """The zeros of a cubic spline (FITPACK's sproot on the host)."""
        return _cm.on(self._sp.roots(), self._device)

    def _from_tck(self, tck, ext):
        t, c, k = (_cm.host(v) for v in tck)
        sp = _cm.scipy_interpolate().UnivariateSpline._from_tck((t, c, k), ext)
        return UnivariateSpline._from_scipy(sp, self._device)

    def derivative(self, n=1):
        """The n-th derivative as a UnivariateSpline (coefficients on the device)."""
        tck = splder((self._t, _pad(self._spl.c, self._t.shape[0]), self._spl.k), n)
        return self._from_tck(tck, 1 if self.ext == 3 else self.ext)

    def antiderivative(self, n=1):
        """The n-th antiderivative as a UnivariateSpline."""
        tck = splantider((self._t, _pad(self._spl.c, self._t.shape[0]), self._spl.k), n)
        return self._from_tck(tck, self.ext)


def _pad(c, nt):
    if c.shape[0] >= nt:
        return c
    return _ca.concatenate([c, _ca.zeros((nt - c.shape[0],) + c.shape[1:],
                                         dtype=c.dtype, device=c.device)])


class InterpolatedUnivariateSpline(UnivariateSpline):
    """InterpolatedUnivariateSpline(x, y, w=None, bbox=[None]*2, k=3, ext=0,
    check_finite=False)

    The interpolating FITPACK spline (s = 0)."""

    def __init__(self, x, y, w=None, bbox=[None] * 2, k=3, ext=0, check_finite=False):
        dev = _cm.device_of(x, y, w)
        sp = _cm.scipy_interpolate().InterpolatedUnivariateSpline(
            _cm.host(x), _cm.host(y), _cm.host(w), bbox, k, ext, check_finite)
        self._adopt(sp, dev)


class LSQUnivariateSpline(UnivariateSpline):
    """LSQUnivariateSpline(x, y, t, w=None, bbox=[None]*2, k=3, ext=0,
    check_finite=False)

    The weighted least-squares FITPACK spline on the interior knots t."""

    def __init__(self, x, y, t, w=None, bbox=[None] * 2, k=3, ext=0, check_finite=False):
        dev = _cm.device_of(x, y, t, w)
        sp = _cm.scipy_interpolate().LSQUnivariateSpline(
            _cm.host(x), _cm.host(y), _cm.host(t), _cm.host(w), bbox, k, ext,
            check_finite)
        self._adopt(sp, dev)
