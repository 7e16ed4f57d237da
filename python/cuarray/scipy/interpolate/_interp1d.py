"""interp1d (SciPy's legacy 1-D interpolator) on cuarray arrays.

Every kind is one searchsorted over the sorted x and gathers of y's rows:
'linear' a fused lerp, 'nearest'/'nearest-up' a search among the midpoints,
'previous'/'next' a search among x nudged by nextafter (as SciPy's), the spline
kinds ('zero', 'slinear', 'quadratic', 'cubic', an int order) a
make_interp_spline BSpline. Out-of-range points take fill_value by two wheres;
bounds_error reads one any() per side. The cpu device (CPU_SCIPY) hands the
object to SciPy's interp1d on zero-copy views."""

import numpy as _np

import cuarray as _ca

from . import _common as _cm
from ._bsplines import make_interp_spline

__all__ = ["interp1d"]

_SPLINE_KINDS = {"zero": 0, "slinear": 1, "quadratic": 2, "cubic": 3}
_PLAIN_KINDS = ("linear", "nearest", "nearest-up", "previous", "next")


def _do_extrapolate(fill_value):
    return isinstance(fill_value, str) and fill_value == "extrapolate"


class interp1d:
    """interp1d(x, y, kind='linear', axis=-1, copy=True, bounds_error=None,
    fill_value=nan, assume_sorted=False)

    Interpolate a 1-D function (see the module notes for how each kind runs)."""

    def __init__(self, x, y, kind="linear", axis=-1, copy=True, bounds_error=None,
                 fill_value=_np.nan, assume_sorted=False):
        dev = _cm.device_of(x, y)
        x, y = _cm.on(x, dev), _cm.on(y, dev)
        self.bounds_error, self.copy = bounds_error, copy
        self.axis = axis % y.ndim if y.ndim else axis
        self._scipy = None
        if _cm.scipy_route(x.device):
            self._scipy = _cm.scipy_interpolate().interp1d(
                _cm.host(x), _cm.host(y), kind, axis, copy, bounds_error,
                _cm.host(fill_value), assume_sorted)
            self.x, self.y = x, y
            self.kind = kind
            return
        if kind in _SPLINE_KINDS:
            order, kind = _SPLINE_KINDS[kind], "spline"
        elif isinstance(kind, int):
            order, kind = kind, "spline"
        elif kind not in _PLAIN_KINDS:
            raise NotImplementedError(f"{kind} is unsupported: Use fitpack "
                                      "routines for other types.")
        self.kind = kind if kind != "spline" else order
        # The shape checks come before the sort: its take of y by x's order
        # would otherwise fail first, with an IndexError SciPy does not raise.
        if x.ndim != 1:
            raise ValueError("the x array must have exactly one dimension.")
        if y.ndim == 0:
            raise ValueError("the y array must have at least one dimension.")
        if x.shape[0] != y.shape[self.axis]:
            raise ValueError("x and y arrays must be equal in length along "
                             "interpolation axis.")
        if not assume_sorted:
            ind = _ca.argsort(x, kind="stable")
            x, y = x[ind], _ca.take(y, ind, axis=self.axis)
        if y.dtype.kind not in "fc":
            y = y.astype(_np.float64)
        self.x, self.y = x, y
        self._yr = _ca.moveaxis(y, self.axis, 0)
        self._extra = self._yr.shape[1:]
        self._yr = self._yr.reshape(self._yr.shape[0], -1)
        minval = 1 if kind != "spline" else order + 1
        if kind == "previous" and _do_extrapolate(fill_value):
            self._no_raise()
            fill_value = (_np.nan, _ca.take(self.y, -1, self.axis))
        if kind == "next" and _do_extrapolate(fill_value):
            self._no_raise()
            fill_value = (_ca.take(self.y, 0, self.axis), _np.nan)
        self._spline = None
        if kind == "spline":
            if x.shape[0] < minval:
                raise ValueError(f"x and y arrays must have at least {minval} entries")
            self._spline = self._make_spline(order)
        if x.shape[0] < minval:
            raise ValueError(f"x and y arrays must have at least {minval} entries")
        self._kind = kind
        self.fill_value = fill_value

    def _make_spline(self, order):
        xx, yy, self._nan = self.x.astype(_np.float64), self._yr, False
        if order > 1:
            mask = _ca.isnan(xx)
            if bool(mask.any()):
                if bool(mask.all()):
                    raise ValueError("`x` array is all-nan")
                xx = _ca.linspace(float(_ca.nanmin(xx)), float(_ca.nanmax(xx)),
                                  xx.shape[0], device=xx.device)
                self._nan = True
            if bool(_ca.isnan(yy).any()):
                yy, self._nan = _ca.ones_like(yy), True
        return make_interp_spline(xx, yy, k=order, check_finite=False)

    def _no_raise(self):
        if self.bounds_error:
            raise ValueError("Cannot extrapolate and raise at the same time.")

    @property
    def fill_value(self):
        """The fill value (below and above when they differ)."""
        return self._fill_value_orig

    @fill_value.setter
    def fill_value(self, fill_value):
        if self._scipy is not None:
            self._scipy.fill_value = _cm.host(fill_value)
            self._fill_value_orig = fill_value
            return
        self._fill_value_orig = fill_value
        if _do_extrapolate(fill_value):
            self._no_raise()
            self._extrapolate = True
            return
        shape = self._extra if self._extra else (1,)
        if isinstance(fill_value, tuple) and len(fill_value) == 2:
            pair = [_fill_to(v, shape, n, self.x.device)
                    for v, n in zip(fill_value, ("fill_value (below)", "fill_value (above)"))]
        else:
            pair = [_fill_to(fill_value, shape, "fill_value", self.x.device)] * 2
        self._below, self._above = pair
        self._extrapolate = False
        if self.bounds_error is None:
            self.bounds_error = True

    def __call__(self, x):
        """The interpolated values at x: y's shape with the interpolation axis
        replaced by x's shape."""
        if self._scipy is not None:
            return _cm.back(self._scipy(_cm.host(x)), self.x.device)
        x = _cm.on(x, self.x.device)
        if x.dtype.kind not in "fc":
            x = x.astype(_np.float64)
        flat = x.reshape(-1)
        out = self._call(flat)
        if not self._extrapolate:
            out = self._fill(flat, out)
        out = out.reshape(x.shape + self._extra)
        if self.axis != 0 and x.ndim:
            nx, ny = x.ndim, len(self._extra)
            order = (list(range(nx, nx + self.axis)) + list(range(nx))
                     + list(range(nx + self.axis, nx + ny)))
            out = out.transpose(order)
        return out

    def _call(self, xn):
        x, y, n = self.x, self._yr, self.x.shape[0]
        if self._kind == "spline":
            out = self._spline(xn)
            return _ca.full_like(out, _np.nan) if self._nan else out
        if self._kind == "linear":
            hi = _ca.clip(_ca.searchsorted(x, xn), 1, n - 1) if n > 1 else None
            if hi is None:
                return _ca.take(y, _ca.zeros(xn.shape, _np.int64, device=xn.device), 0)
            lo = hi - 1
            xlo, xhi = _ca.take(x, lo), _ca.take(x, hi)
            ylo, yhi = _ca.take(y, lo, axis=0), _ca.take(y, hi, axis=0)
            slope = (yhi - ylo) / (xhi - xlo)[:, None]
            return slope * (xn - xlo)[:, None] + ylo
        if self._kind in ("nearest", "nearest-up"):
            half = x / 2.0
            bds = half[1:] + half[:-1]
            side = "left" if self._kind == "nearest" else "right"
            i = _ca.clip(_ca.searchsorted(bds, xn, side=side), 0, n - 1)
            return _ca.take(y, i, axis=0)
        ind = 0 if self._kind == "previous" else 1
        shifted = _ca.nextafter(x, -_np.inf if ind == 0 else _np.inf)
        side = "left" if ind == 0 else "right"
        i = _ca.clip(_ca.searchsorted(shifted, xn, side=side), 1 - ind, n - ind)
        return _ca.take(y, i + ind - 1, axis=0)

    def _fill(self, xn, out):
        below, above = xn < self.x[0], xn > self.x[-1]
        if self.bounds_error:
            if bool(below.any()):
                v = float(xn[_ca.argmax(below)])
                raise ValueError(f"A value ({v}) in x_new is below the interpolation "
                                 f"range's minimum value ({float(self.x[0])}).")
            if bool(above.any()):
                v = float(xn[_ca.argmax(above)])
                raise ValueError(f"A value ({v}) in x_new is above the interpolation "
                                 f"range's maximum value ({float(self.x[-1])}).")
        if out.shape[0] == 0:
            return out
        out = _ca.where(below[:, None], self._below.reshape(1, -1).astype(out.dtype), out)
        return _ca.where(above[:, None], self._above.reshape(1, -1).astype(out.dtype), out)


def _fill_to(value, shape, name, device):
    """SciPy's _check_broadcast_up_to: value broadcast to shape, or a ValueError."""
    v = _np.asarray(_cm.host(value))
    if v.shape != tuple(shape):
        try:
            v = _np.broadcast_to(v, shape)
        except ValueError:
            raise ValueError(f"{name} argument must be able to broadcast up to shape "
                             f"{shape} but had shape {v.shape}") from None
    return _ca.asarray(_np.ascontiguousarray(v), device=device)
