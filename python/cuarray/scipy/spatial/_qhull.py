"""Delaunay (SciPy's scipy.spatial.Delaunay) with cuarray arrays in and out.

The triangulation is Qhull's, run by SciPy on the host on a copy of the points
(an incremental geometric algorithm with no device form). Its arrays (points,
simplices, neighbors, equations, transform, ...) are handed back as cuarray
arrays on the points' device, each copied once on first access; find_simplex,
plane_distance and lift_points take device points and return device arrays
(find_simplex is Qhull's directed walk on the host)."""

import numpy as _np

import cuarray as _ca

__all__ = ["Delaunay"]

_ARRAYS = ("points", "simplices", "neighbors", "equations", "transform",
           "vertex_to_simplex", "convex_hull", "coplanar", "min_bound", "max_bound",
           "paraboloid_scale", "paraboloid_shift", "furthest_site", "npoints", "ndim",
           "nsimplex")


def _host(x):
    if isinstance(x, _ca.ndarray):
        return _np.asarray(x) if x.device == "cpu" else x.get()
    return _np.asarray(x)


class Delaunay:
    """Delaunay(points, furthest_site=False, incremental=False, qhull_options=None)

    The Delaunay triangulation of points (npoints, ndim) by Qhull on the host
    (see the module notes); the results live on the points' device."""

    def __init__(self, points, furthest_site=False, incremental=False,
                 qhull_options=None):
        import scipy.spatial as ss
        self._device = points.device if isinstance(points, _ca.ndarray) else \
            _ca.asarray(0).device
        self._tri = ss.Delaunay(_host(points), furthest_site, incremental, qhull_options)
        self._cache = {}

    def __getattr__(self, name):
        if name.startswith("_") or name not in _ARRAYS + ("vertex_neighbor_vertices",
                                                           "simplices"):
            raise AttributeError(name)
        if name not in self._cache:
            v = getattr(self._tri, name)
            if isinstance(v, tuple):
                v = tuple(_ca.asarray(a, device=self._device) for a in v)
            elif isinstance(v, _np.ndarray):
                v = _ca.asarray(v, device=self._device)
            self._cache[name] = v
        return self._cache[name]

    @property
    def vertices(self):
        """The simplices' vertex indices (SciPy's deprecated alias)."""
        return self.simplices

    def find_simplex(self, xi, bruteforce=False, tol=None):
        """The index of the simplex holding each point (-1 outside)."""
        r = self._tri.find_simplex(_host(xi), bruteforce, tol)
        return _ca.asarray(r, device=self._device)

    def plane_distance(self, xi):
        """The signed distances of xi's lifted points to every simplex's plane."""
        return _ca.asarray(self._tri.plane_distance(_host(xi)), device=self._device)

    def lift_points(self, x):
        """x lifted onto the paraboloid of the triangulation."""
        return _ca.asarray(self._tri.lift_points(_host(x)), device=self._device)

    def add_points(self, points, restart=False):
        """Add points (incremental mode only)."""
        self._tri.add_points(_host(points), restart)
        self._cache.clear()

    def close(self):
        """Finish incremental processing."""
        self._tri.close()
