"""NdBSpline (SciPy's tensor-product B-spline) on cuarray arrays.

Each axis contributes its points' knot intervals and k + 1 basis values (the
1-D recurrence of _bsplines.basis_values); the (k1+1)...(kd+1) coefficients of
every point are one gather by flat index, weighted by the product of the axes'
basis values and summed. The cpu device (CPU_SCIPY) runs SciPy's own."""

import itertools as _it
import math as _math
import operator as _operator

import numpy as _np

import cuarray as _ca

from . import _common as _cm
from ._bsplines import basis_values, knot_interval

__all__ = ["NdBSpline"]


def _check_knots(k, t):
    if not isinstance(t, tuple):
        raise ValueError(f"Expect `t` to be a tuple of array-likes. Got {t} instead.")
    nd = len(t)
    try:
        len(k)
    except TypeError:
        k = (k,) * nd
    k = tuple(_operator.index(v) for v in k)
    if len(k) != nd:
        raise ValueError(f"len(t) = {len(t)} != {len(k) = }.")
    dev = _cm.device_of(*t)
    t = tuple(_cm.on(v, dev, _np.float64) for v in t)
    for d, (td, kd) in enumerate(zip(t, k)):
        n = td.shape[0] - kd - 1
        if kd < 0:
            raise ValueError(f"Spline degree in dimension {d} cannot be negative.")
        if td.ndim != 1:
            raise ValueError(f"Knot vector in dimension {d} must be one-dimensional.")
        if n < kd + 1:
            raise ValueError(f"Need at least {2*kd + 2} knots for degree {kd} in "
                             f"dimension {d}.")
        if bool((_ca.diff(td) < 0).any()):
            raise ValueError(f"Knots in dimension {d} must be in a non-decreasing order.")
        if _ca.unique(td[kd:n + 1]).size < 2:
            raise ValueError(f"Need at least two internal knots in dimension {d}.")
        if not bool(_ca.isfinite(td).all()):
            raise ValueError(f"Knots in dimension {d} should not have nans or infs.")
    return k, t


class NdBSpline:
    """NdBSpline(t, c, k, *, extrapolate=None)

    A tensor-product spline: t a tuple of knot vectors, c (n1, ..., nd, ...)."""

    def __init__(self, t, c, k, *, extrapolate=None):
        self.k, self.t = _check_knots(k, t)
        self.extrapolate = True if extrapolate is None else bool(extrapolate)
        c = _cm.on(c, self.t[0].device)
        nd = len(self.t)
        if c.ndim < nd:
            raise ValueError(f"Coefficients must be at least {nd}-dimensional.")
        for d in range(nd):
            n = self.t[d].shape[0] - self.k[d] - 1
            if c.shape[d] != n:
                raise ValueError(f"Knots, coefficients and degree in dimension {d} are "
                                 f"inconsistent: got {c.shape[d]} coefficients for "
                                 f"{self.t[d].shape[0]} knots, need at least {n} for "
                                 f"k={k}.")
        self.c = _ca.ascontiguousarray(c.astype(_cm.float_dtype(c.dtype)))

    @classmethod
    def _fast(cls, t, c, k, extrapolate=True):
        self = object.__new__(cls)
        self.t, self.c, self.k, self.extrapolate = tuple(t), c, tuple(k), extrapolate
        return self

    def __call__(self, xi, *, nu=None, extrapolate=None):
        """The spline (or its partial derivatives of orders nu) at xi (..., ndim)."""
        nd = len(self.t)
        ext = self.extrapolate if extrapolate is None else bool(extrapolate)
        nu = _check_nu(nu, nd)
        dev = self.c.device
        if _cm.scipy_route(dev):
            sp = _cm.scipy_interpolate().NdBSpline(
                tuple(_cm.host(v) for v in self.t), _cm.host(self.c), self.k,
                extrapolate=self.extrapolate)
            return _cm.back(_np.asarray(sp(_cm.host(xi), nu=nu, extrapolate=ext)), dev)
        xi = _cm.on(xi, dev, _np.float64)
        shape = xi.shape
        if shape[-1] != nd:
            raise ValueError(f"Shapes: xi.shape={shape} and ndim={nd}")
        pts = xi.reshape(-1, nd)
        flat, weight, bad = self._gather_plan(pts, nu, ext)
        trail = self.c.shape[nd:]
        cr = self.c.reshape(-1, _math.prod(trail))
        g = _ca.take(cr, flat.reshape(-1), axis=0).reshape(flat.shape + (cr.shape[1],))
        out = (g * weight[..., None]).sum(axis=1)
        if bad is not None:
            out = _cm.nan_outside(out, bad)
        return out.reshape(shape[:-1] + trail)

    def _gather_plan(self, pts, nu, ext):
        """(N, K) flat coefficient indices and weights of every point, and the
        out-of-range mask when not extrapolating."""
        nd = len(self.t)
        per_axis, bad = [], None
        for d in range(nd):
            td, kd, x = self.t[d], self.k[d], pts[:, d]
            n = td.shape[0] - kd - 1
            l = knot_interval(td, kd, n, x)
            h = basis_values(td, kd, l, x, nu[d]) if nu[d] <= kd else \
                [_ca.zeros_like(x)] * (kd + 1)
            per_axis.append((l - kd, h))
            if not ext:
                o = _cm.outside(x, td[kd], td[n])
                bad = o if bad is None else bad | o
        strides = [_math.prod(self.c.shape[d + 1:nd]) for d in range(nd)]
        flats, weights = [], []
        for combo in _it.product(*[range(k + 1) for k in self.k]):
            f, w = 0, 1.0
            for d, r in enumerate(combo):
                f = f + (per_axis[d][0] + r) * strides[d]
                w = w * per_axis[d][1][r]
            flats.append(f)
            weights.append(w)
        return _ca.stack(flats, axis=1), _ca.stack(weights, axis=1), bad

    @classmethod
    def design_matrix(cls, xvals, t, k, extrapolate=True):
        """The (len(xvals), prod(n_d)) collocation matrix as a cuarray.scipy.sparse
        csr_matrix."""
        from cuarray.scipy import sparse
        k, t = _check_knots(k, t)
        xv = _cm.on(xvals, t[0].device, _np.float64)
        nd = len(t)
        if xv.shape[-1] != nd:
            raise ValueError(f"Data and knots are inconsistent: len(t) = {nd} for "
                             f"{xv.shape = }.")
        ns = tuple(td.shape[0] - kd - 1 for td, kd in zip(t, k))
        dummy = cls._fast(t, _ca.zeros(ns, device=xv.device), k, extrapolate)
        pts = xv.reshape(-1, nd)
        flat, weight, bad = dummy._gather_plan(pts, (0,) * nd, bool(extrapolate))
        if bad is not None and bool(bad.any()):
            raise ValueError("Out of bounds in the data points.")
        m, K = flat.shape
        indptr = _ca.arange(0, m * K + 1, K, device=xv.device).astype(_np.int32)
        return sparse.csr_matrix((weight.reshape(-1), flat.reshape(-1).astype(_np.int32),
                                  indptr), shape=(m, _math.prod(ns)))


def _check_nu(nu, nd):
    if nu is None:
        return (0,) * nd
    nu = _np.asarray(nu, dtype=_np.int64)
    if nu.ndim != 1 or nu.shape[0] != nd:
        raise ValueError(f"invalid number of derivative orders {nu = } for ndim = {nd}.")
    if (nu < 0).any():
        raise ValueError(f"derivatives must be positive, got {nu = }")
    return tuple(int(v) for v in nu)
