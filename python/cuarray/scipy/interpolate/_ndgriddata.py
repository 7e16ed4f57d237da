"""Scattered-data interpolators (SciPy's NearestNDInterpolator,
LinearNDInterpolator, CloughTocher2DInterpolator) with cuarray arrays.

Nearest: cuarray's brute-force KDTree query on the device, then one gather.
Linear: the triangulation is Qhull's on the host (cuarray.scipy.spatial.Delaunay)
and so is locating each point's simplex (Qhull's directed walk); the barycentric
coordinates (one gather of the simplices' affine transforms and a batched
matrix-vector product) and the weighted gather of the vertices' values run on the
device. CloughTocher2D is SciPy's on the host throughout (its gradient
estimation is a global Gauss-Seidel iteration and its evaluation a per-triangle
Bezier patch): the points are copied to the host and the values come back on the
data's device."""

import numpy as _np

import cuarray as _ca

from . import _common as _cm

__all__ = ["NearestNDInterpolator", "LinearNDInterpolator", "CloughTocher2DInterpolator"]


def _coords(args, ndim, device):
    """SciPy's _ndim_coords_from_arrays over call arguments."""
    if len(args) == 1 and isinstance(args[0], tuple):
        args = args[0]
    if len(args) > 1:
        arrs = _ca.broadcast_arrays(*[_cm.on(a, device, _np.float64) for a in args])
        return _ca.stack(arrs, axis=-1)
    x = _cm.on(args[0], device, _np.float64)
    if x.ndim == 1 and ndim == 1:
        x = x[:, None]
    return x


class _NDBase:
    """Points (npoints, ndim) and values on one device, rescaled as SciPy's."""

    def _setup(self, points, values, rescale):
        dev = _cm.device_of(points, values) if not isinstance(points, tuple) else \
            _cm.device_of(values, *points)
        pts = (_coords(points, 0, dev) if isinstance(points, tuple)
               else _cm.on(points, dev, _np.float64))
        if pts.ndim != 2:
            raise ValueError("points array must be 2-dimensional")
        if pts.shape[1] < 2 and not isinstance(self, NearestNDInterpolator):
            raise ValueError("input data must be at least 2-D")
        values = _cm.on(values, pts.device)
        if values.shape[0] != pts.shape[0]:
            raise ValueError("different number of values and points")
        self.offset = self.scale = None
        if rescale:
            self.offset = pts.mean(axis=0)
            scale = pts.max(axis=0) - pts.min(axis=0)
            self.scale = _ca.where(scale > 0, scale, 1.0)
            pts = (pts - self.offset) / self.scale
        self.points, self.values = pts, values
        self._device = pts.device

    def _xi(self, args):
        xi = _coords(args, self.points.shape[1], self._device)
        if xi.shape[-1] != self.points.shape[1]:
            raise ValueError("number of dimensions in xi does not match x")
        if self.offset is not None:
            xi = (xi - self.offset) / self.scale
        return xi


class NearestNDInterpolator(_NDBase):
    """NearestNDInterpolator(x, y, rescale=False, tree_options=None)

    The value of the nearest data point (cuarray's KDTree on the device);
    query_options (eps, p, distance_upper_bound, workers) go to its query,
    points with no neighbour within distance_upper_bound give NaN."""

    def __init__(self, x, y, rescale=False, tree_options=None):
        from cuarray.scipy.spatial import KDTree
        self._setup(x, y, rescale)
        self.tree = KDTree(self.points, **(tree_options or {}))

    def __call__(self, *args, **query_options):
        xi = self._xi(args)
        flat = xi.reshape(-1, xi.shape[-1])
        dist, i = self.tree.query(flat, **query_options)
        valid = _ca.isfinite(dist)
        v = self.values
        dt = v.dtype if v.dtype.kind == "c" else _np.float64
        got = _ca.take(v, _ca.where(valid, i, 0), axis=0).astype(dt)
        m = valid.reshape(valid.shape + (1,) * (v.ndim - 1))
        out = _ca.where(m, got, _np.nan)
        return out.reshape(xi.shape[:-1] + v.shape[1:])


class LinearNDInterpolator(_NDBase):
    """LinearNDInterpolator(points, values, fill_value=nan, rescale=False)

    Piecewise-linear interpolation on the Delaunay triangulation (see the module
    notes for what runs where)."""

    def __init__(self, points, values, fill_value=_np.nan, rescale=False):
        from cuarray.scipy.spatial import Delaunay
        if isinstance(points, Delaunay):
            self.tri = points
            points = points.points
        else:
            self.tri = None
        self._setup(points, values, rescale)
        if self.tri is None:
            self.tri = Delaunay(self.points)
        self.fill_value = fill_value
        v = self.values
        self._dt = _np.complex128 if v.dtype.kind == "c" else _np.float64
        self._vals = v.reshape(v.shape[0], -1).astype(self._dt)

    def __call__(self, *args):
        xi = self._xi(args)
        nd = self.points.shape[1]
        flat = xi.reshape(-1, nd)
        s = self.tri.find_simplex(flat)
        inside = s >= 0
        s0 = _ca.where(inside, s, 0)
        T = _ca.take(self.tri.transform, s0, axis=0)            # (N, nd+1, nd)
        b = (T[:, :nd, :] @ (flat - T[:, nd, :])[:, :, None])[:, :, 0]
        w = _ca.concatenate([b, 1 - b.sum(axis=1, keepdims=True)], axis=1)
        verts = _ca.take(self.tri.simplices, s0, axis=0)        # (N, nd+1)
        vv = _ca.take(self._vals, verts.reshape(-1), axis=0).reshape(
            verts.shape + (self._vals.shape[1],))
        out = (vv * w[:, :, None]).sum(axis=1)
        out = _ca.where(inside[:, None], out, _ca.asarray(self.fill_value,
                                                           device=out.device).astype(out.dtype))
        return out.reshape(xi.shape[:-1] + self.values.shape[1:])


class CloughTocher2DInterpolator(_NDBase):
    """CloughTocher2DInterpolator(points, values, fill_value=nan, tol=1e-6,
    maxiter=400, rescale=False)

    The C1 piecewise-cubic Clough-Tocher interpolant in 2-D: SciPy's on the host
    (see the module notes); arrays in and out live on the data's device."""

    def __init__(self, points, values, fill_value=_np.nan, tol=1e-6, maxiter=400,
                 rescale=False):
        from cuarray.scipy.spatial import Delaunay
        if isinstance(points, Delaunay):
            points = points.points
        self._setup(points, values, False)
        self._sp = _cm.scipy_interpolate().CloughTocher2DInterpolator(
            _cm.host(self.points), _cm.host(self.values), fill_value, tol, maxiter,
            rescale)
        self.fill_value = fill_value

    def __call__(self, *args):
        return _cm.on(self._sp(*[_cm.host(a) for a in args]), self._device)
