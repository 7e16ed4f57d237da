"""RegularGridInterpolator and interpn (SciPy's) on cuarray arrays.

'linear': per axis one searchsorted and a normalized distance, then the 2^d
corners of every point's cell gathered by flat index and weighted (2^d gathers);
'nearest': one gather of the rounded indices; 'slinear'/'cubic'/'quintic': the
tensor-product interpolating spline (NdBSpline), its coefficients from one
make_interp_spline solve per axis on the device (the Kronecker structure of
SciPy's make_ndbspl system, solved exactly where SciPy iterates with gcrotmk);
'pchip' and the '*_legacy' methods: SciPy's recursive 1-D fits, the first axis
(the last one) fitted once for all points, every further axis batched over the
points (PCHIP's slopes along one axis of an (n, points, ...) array). On the cpu
device (CPU_SCIPY) SciPy's object runs on zero-copy views."""

import itertools as _it

import numpy as _np

import cuarray as _ca

from . import _common as _cm
from ._bsplines import basis_values, knot_interval, make_interp_spline
from ._cubic import PchipInterpolator, _hermite_coeffs
from ._ndbspline import NdBSpline

__all__ = ["RegularGridInterpolator", "interpn"]

_DEGREE = {"slinear": 1, "cubic": 3, "quintic": 5, "pchip": 3,
           "slinear_legacy": 1, "cubic_legacy": 3, "quintic_legacy": 5}
_RECURSIVE = {"slinear_legacy", "cubic_legacy", "quintic_legacy", "pchip"}
_NDBSPL = {"slinear", "cubic", "quintic"}
_ALL = ["linear", "nearest"] + list(_DEGREE)


def _check_points(points, device):
    grid, desc = [], []
    for i, p in enumerate(points):
        p = _cm.on(p, device, _np.float64)
        if p.ndim == 1 and not bool((p[1:] > p[:-1]).all()):
            if bool((p[1:] < p[:-1]).all()):
                desc.append(i)
                p = p[::-1]
            else:
                raise ValueError(f"The points in dimension {i} must be strictly "
                                 "ascending or descending")
        grid.append(_ca.ascontiguousarray(p))
    return tuple(grid), tuple(desc)


def _check_dimensionality(grid, values):
    if len(grid) > values.ndim:
        raise ValueError(f"There are {len(grid)} point arrays, but values has "
                         f"{values.ndim} dimensions")
    for i, p in enumerate(grid):
        if p.ndim != 1:
            raise ValueError(f"The points in dimension {i} must be 1-dimensional")
        if values.shape[i] != p.shape[0]:
            raise ValueError(f"There are {p.shape[0]} points and {values.shape[i]} "
                             f"values in dimension {i}")


def _coords(xi, nd, device):
    """SciPy's _ndim_coords_from_arrays: a tuple of arrays broadcast and stacked,
    else an array whose last axis is the coordinates."""
    if isinstance(xi, tuple) and len(xi) > 1 or (isinstance(xi, tuple) and nd == 1):
        arrs = _ca.broadcast_arrays(*[_cm.on(v, device, _np.float64) for v in xi])
        return _ca.stack(arrs, axis=-1)
    xi = _cm.on(xi, device, _np.float64)
    if xi.ndim == 1 and nd == 1:
        xi = xi[:, None]
    return xi


class RegularGridInterpolator:
    """RegularGridInterpolator(points, values, method='linear', bounds_error=True,
    fill_value=nan, *, solver=None, solver_args=None)

    Interpolation on a rectilinear grid in any dimension (see the module notes)."""

    def __init__(self, points, values, method="linear", bounds_error=True,
                 fill_value=_np.nan, *, solver=None, solver_args=None):
        if method not in _ALL:
            raise ValueError(f"Method '{method}' is not defined")
        if method in _DEGREE:
            self._validate_grid_dimensions(points, method)
        dev = _cm.device_of(values, *points)
        self.method, self.bounds_error = method, bounds_error
        values = _cm.on(values, dev)
        self.grid, self._desc = _check_points(points, values.device)
        if values.dtype.kind not in "fc":
            values = values.astype(_np.float64)
        _check_dimensionality(self.grid, values)
        if fill_value is not None and not _np.can_cast(
                _np.asarray(fill_value).dtype, values.dtype, casting="same_kind"):
            raise ValueError("fill_value must be either 'None' or of a type "
                             "compatible with values")
        self.fill_value = fill_value
        if self._desc:
            values = _ca.flip(values, axis=self._desc)
        self.values = values
        if method == "pchip" and values.dtype.kind == "c":
            raise ValueError("`PchipInterpolator` only works with real values. If you "
                             "are trying to use the real components of the passed "
                             "array, use `np.real` on the array before passing to "
                             "`RegularGridInterpolator`.")
        if method not in _NDBSPL and (solver is not None or solver_args):
            raise ValueError(f"{method =} does not accept the 'solver' argument. Got "
                             f" {solver = } and with arguments {solver_args}.")
        self._spline = self._construct_spline(method) if method in _NDBSPL else None

    def _construct_spline(self, method):
        k = _DEGREE[method]
        c = self.values
        ts = []
        for d, g in enumerate(self.grid):       # one 1-D solve per axis (Kronecker)
            spl = make_interp_spline(g, c, k=k, axis=d)
            ts.append(spl.t)
            c = _ca.moveaxis(spl.c, 0, d)
        return NdBSpline._fast(tuple(ts), c, (k,) * len(self.grid))

    def _validate_grid_dimensions(self, points, method):
        k = _DEGREE[method]
        for i, p in enumerate(points):
            n = len(_np.atleast_1d(_cm.host(p)))
            if n <= k:
                raise ValueError(f"There are {n} points in dimension {i}, but method "
                                 f"{method} requires at least  {k+1} points per "
                                 "dimension.")

    def _scipy(self):
        vals = _cm.host(self.values)
        if self._desc:
            vals = _np.flip(vals, axis=self._desc)
            grid = tuple(_np.flip(_cm.host(g)) if i in self._desc else _cm.host(g)
                         for i, g in enumerate(self.grid))
        else:
            grid = tuple(_cm.host(g) for g in self.grid)
        return _cm.scipy_interpolate().RegularGridInterpolator(
            grid, vals, self.method, self.bounds_error, _cm.host(self.fill_value))

    def __call__(self, xi, method=None, *, nu=None):
        """The interpolated values at xi (..., ndim)."""
        method = self.method if method is None else method
        if method not in _ALL:
            raise ValueError(f"Method '{method}' is not defined")
        if nu is not None and method not in _NDBSPL:
            raise ValueError(f"Can only compute derivatives for methods {_NDBSPL}, "
                             f"got {method =}.")
        dev = self.values.device
        if _cm.scipy_route(dev):
            return _cm.back(_np.asarray(self._scipy()(_cm.host(xi), method, nu=nu)), dev)
        nd = len(self.grid)
        xi = _coords(xi, nd, dev)
        if xi.shape[-1] != nd:
            raise ValueError(f"The requested sample points xi have dimension "
                             f"{xi.shape[-1]} but this RegularGridInterpolator has "
                             f"dimension {nd}")
        shape = xi.shape
        pts = xi.reshape(-1, nd)
        nans = _ca.isnan(pts).any(axis=-1)
        oob = self._bounds(pts)
        if method == "linear":
            out = self._linear(pts)
        elif method == "nearest":
            out = self._nearest(pts)
        else:
            if method != self.method and method in _DEGREE:
                self._validate_grid_dimensions(self.grid, method)
            if method in _RECURSIVE:
                out = self._recursive(pts, method)
            else:
                spl = self._spline if method == self.method else self._construct_spline(method)
                out = spl(pts, nu=nu)
        if not self.bounds_error and self.fill_value is not None:
            out = _ca.where(_bcast(oob, out), _ca.asarray(self.fill_value, device=dev)
                            .astype(out.dtype), out)
        out = _ca.where(_bcast(nans, out), _np.nan, out)
        return out.reshape(shape[:-1] + self.values.shape[nd:])

    def _bounds(self, pts):
        if self.bounds_error:
            for i, g in enumerate(self.grid):
                p = pts[:, i]
                if not bool(((g[0] <= p) & (p <= g[-1])).all()):
                    raise ValueError(f"One of the requested xi is out of bounds in "
                                     f"dimension {i}")
            return None
        oob = None
        for i, g in enumerate(self.grid):
            o = (pts[:, i] < g[0]) | (pts[:, i] > g[-1])
            oob = o if oob is None else oob | o
        return oob

    def _indices(self, pts):
        out = []
        for i, g in enumerate(self.grid):
            p = pts[:, i]
            j = _ca.clip(_ca.searchsorted(g, p) - 1, 0, max(g.shape[0] - 2, 0))
            g0, g1 = _ca.take(g, j), _ca.take(g, _ca.minimum(j + 1, g.shape[0] - 1))
            out.append((j, (p - g0) / (g1 - g0)))
        return out

    def _flat_values(self):
        nd = len(self.grid)
        v = self.values
        return v.reshape((-1,) + v.shape[nd:]), [int(_np.prod(v.shape[d + 1:nd]))
                                                  for d in range(nd)]

    def _linear(self, pts):
        vals, strides = self._flat_values()
        idx = self._indices(pts)
        out = None
        for corner in _it.product((0, 1), repeat=len(idx)):
            f, w = 0, 1.0
            for (j, t), c, s in zip(idx, corner, strides):
                f = f + (j + c) * s
                w = w * (t if c else 1 - t)
            term = _ca.take(vals, f, axis=0) * _bcast(w, vals[:1])
            out = term if out is None else out + term
        return out

    def _nearest(self, pts):
        vals, strides = self._flat_values()
        f = 0
        for (j, t), s in zip(self._indices(pts), strides):
            f = f + _ca.where(t <= 0.5, j, j + 1) * s
        return _ca.take(vals, f, axis=0)

    def _recursive(self, pts, method):
        """SciPy's recursive 1-D fits: the last axis over all points at once, then
        each remaining axis (last to first) batched over the points."""
        nd, k = len(self.grid), _DEGREE[method]
        vals = _ca.moveaxis(self.values, list(range(nd)), list(range(nd))[::-1])
        folded = _fit_1d(self.grid[-1], vals, pts[:, -1], k, method)  # (N, ...)
        for i in range(nd - 2, -1, -1):
            lines = _ca.moveaxis(folded, 1, 0)          # (n_i, N, ...)
            folded = _fit_lines(self.grid[i], lines, pts[:, i], k, method)
        return folded


def _bcast(mask, like):
    return mask.reshape(mask.shape + (1,) * (like.ndim - mask.ndim))


def _fit_1d(x, y, pt, k, method):
    if method == "pchip":
        return PchipInterpolator(x, y, axis=0)(pt)
    return make_interp_spline(x, y, k=k, axis=0)(pt)


def _fit_lines(x, lines, pt, k, method):
    """Each point p its own 1-D interpolant over lines[:, p, ...], evaluated at
    pt[p]: the fits batched as extra columns, evaluated at each point's column."""
    n, N = lines.shape[0], lines.shape[1]
    if method == "pchip":
        dk = PchipInterpolator._find_derivatives(_ca.diff(x), lines)
        c = _hermite_coeffs(_ca.diff(x), lines, dk)          # (4, n-1, N, ...)
        i = _ca.clip(_ca.searchsorted(x, pt, side="right") - 1, 0, n - 2)
        s = _bcast(pt - _ca.take(x, i), lines[0])
        cols = _ca.arange(N, device=pt.device)
        y = c[0][i, cols]
        for j in range(1, 4):
            y = y * s + c[j][i, cols]
        return y
    spl = make_interp_spline(x, lines, k=k, axis=0)      # c: (nt, N, ...)
    t = spl.t
    l = knot_interval(t, k, t.shape[0] - k - 1, pt)
    h = basis_values(t, k, l, pt)
    cols = _ca.arange(N, device=pt.device)
    out = None
    for r in range(k + 1):
        term = _bcast(h[r], lines[0]) * spl.c[l - k + r, cols]
        out = term if out is None else out + term
    return out


def interpn(points, values, xi, method="linear", bounds_error=True, fill_value=_np.nan):
    """interpn(points, values, xi, method='linear', bounds_error=True, fill_value=nan)

    Multidimensional interpolation on a regular grid (RegularGridInterpolator's
    methods; 'splinef2d' is SciPy's RectBivariateSpline on the host)."""
    allowed = ["linear", "nearest", "cubic", "quintic", "pchip", "splinef2d",
               "slinear", "slinear_legacy", "cubic_legacy", "quintic_legacy"]
    if method not in allowed:
        raise ValueError("interpn only understands the methods 'linear', 'nearest', "
                         "'slinear', 'cubic', 'quintic', 'pchip', and 'splinef2d'. "
                         f"You provided {method}.")
    dev = _cm.device_of(values, xi, *points)
    values = _cm.on(values, dev)
    if method == "splinef2d":
        r = _cm.scipy_interpolate().interpn(_cm.host(tuple(points)), _cm.host(values),
                                            _cm.host(xi), method, bounds_error, fill_value)
        return _cm.on(r, values.device)
    if len(points) > values.ndim:
        raise ValueError(f"There are {len(points)} point arrays, but values has "
                         f"{values.ndim} dimensions")
    grid, _ = _check_points(points, values.device)
    _check_dimensionality(grid, values)
    xi = _coords(xi, len(grid), values.device)
    if xi.shape[-1] != len(grid):
        raise ValueError(f"The requested sample points xi have dimension "
                         f"{xi.shape[-1]}, but this RegularGridInterpolator has "
                         f"dimension {len(grid)}")
    interp = RegularGridInterpolator(points, values, method=method,
                                     bounds_error=bounds_error, fill_value=fill_value)
    return interp(xi)
