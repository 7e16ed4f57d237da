"""RBFInterpolator (SciPy's) on cuarray arrays.

The system [[K + diag(smoothing), P], [P^T, 0]] (K the kernel of the scaled
pairwise distances, P the monomials of the shifted and scaled points) is built
on the device and solved by cuarray.linalg.solve (getrf/getrs); evaluation is
the kernel matrix of a chunk of points against the data and one matmul with the
coefficients, chunked by SciPy's memory budget. With `neighbors`, every point's
nearest data points come from cuarray's KDTree and each point's local system is
one matrix of a batched solve (SciPy groups points with equal neighbourhoods;
the results are the same). Complex data is solved as real and imaginary
columns, as SciPy does. The cpu device (CPU_SCIPY) runs SciPy's own."""

import itertools as _it
import math as _math
import warnings as _warnings

import numpy as _np

import cuarray as _ca

from . import _common as _cm

__all__ = ["RBFInterpolator"]

_SCALE_INVARIANT = {"linear", "thin_plate_spline", "cubic", "quintic"}
_MIN_DEGREE = {"multiquadric": 0, "linear": 0, "thin_plate_spline": 1, "cubic": 1,
               "quintic": 2}
_AVAILABLE = {"linear", "thin_plate_spline", "cubic", "quintic", "multiquadric",
              "inverse_multiquadric", "inverse_quadratic", "gaussian"}


def _kernel(name, r):
    if name == "linear":
        return -r
    if name == "thin_plate_spline":
        return _ca.where(r == 0, 0.0, r * r * _ca.log(_ca.where(r == 0, 1.0, r)))
    if name == "cubic":
        return r ** 3
    if name == "quintic":
        return -(r ** 5)
    if name == "multiquadric":
        return -_ca.sqrt(r * r + 1)
    if name == "inverse_multiquadric":
        return 1 / _ca.sqrt(r * r + 1)
    if name == "inverse_quadratic":
        return 1 / (r * r + 1)
    return _ca.exp(-r * r)


def _powers(ndim, degree):
    out = []
    for deg in range(degree + 1):
        for mono in _it.combinations_with_replacement(range(ndim), deg):
            row = [0] * ndim
            for v in mono:
                row[v] += 1
            out.append(row)
    return _np.asarray(out, dtype=_np.int64).reshape(-1, ndim)


def _distances(a, b):
    """Euclidean distances between the rows of a (..., p, m) and b (..., q, m)."""
    d = a[..., :, None, :] - b[..., None, :, :]
    return _ca.sqrt((d * d).sum(axis=-1))


def _poly(x, powers):
    """The monomials of x (..., m) for each power row: (..., R)."""
    cols = [_ca.prod(x ** _ca.asarray(p, device=x.device, dtype=_np.float64), axis=-1)
            for p in powers]
    return _ca.stack(cols, axis=-1) if cols else _ca.zeros(x.shape[:-1] + (0,),
                                                           device=x.device)


def _shift_scale(y):
    mins, maxs = y.min(axis=-2), y.max(axis=-2)
    shift, scale = (maxs + mins) / 2, (maxs - mins) / 2
    return shift, _ca.where(scale == 0, 1.0, scale)


def _solve_systems(y, d, smoothing, kernel, eps, powers):
    """The coefficients (..., p + R, s) of the (batched) RBF systems, with their
    polynomial shift and scale."""
    shift, scale = _shift_scale(y)
    p, r = y.shape[-2], powers.shape[0]
    K = _kernel(kernel, eps * _distances(y, y))
    K = K + smoothing[..., :, None] * _ca.eye(p, device=y.device)
    P = _poly((y - shift[..., None, :]) / scale[..., None, :], powers)
    zeros = _ca.zeros(y.shape[:-2] + (r, r), device=y.device)
    lhs = _ca.concatenate([_ca.concatenate([K, P], axis=-1),
                           _ca.concatenate([_ca.swapaxes(P, -1, -2), zeros], axis=-1)],
                          axis=-2)
    rhs = _ca.concatenate([d, _ca.zeros(d.shape[:-2] + (r, d.shape[-1]),
                                        device=y.device)], axis=-2)
    try:
        coeffs = _ca.linalg.solve(lhs, rhs)
    except _ca.linalg.LinAlgError:
        msg = "Singular matrix."
        if r > 0:
            rank = int(_ca.linalg.matrix_rank(P).min())
            if rank < r:
                msg = ("Singular matrix. The matrix of monomials evaluated at the "
                       f"data point coordinates does not have full column rank "
                       f"({rank}/{r}).")
        raise _ca.linalg.LinAlgError(msg) from None
    return shift, scale, coeffs


def _evaluate(x, y, kernel, eps, powers, shift, scale, coeffs):
    """Values (..., q, s) at x (..., q, m) of the systems over y (..., p, m)."""
    K = _kernel(kernel, eps * _distances(x, y))
    P = _poly((x - shift[..., None, :]) / scale[..., None, :], powers)
    return _ca.concatenate([K, P], axis=-1) @ coeffs


class RBFInterpolator:
    """RBFInterpolator(y, d, neighbors=None, smoothing=0.0,
    kernel='thin_plate_spline', epsilon=None, degree=None)

    Radial basis function interpolation in N dimensions (see the module notes)."""

    def __init__(self, y, d, neighbors=None, smoothing=0.0, kernel="thin_plate_spline",
                 epsilon=None, degree=None):
        dev = _cm.device_of(y, d, smoothing)
        y = _cm.on(y, dev, _np.float64)
        if y.ndim != 2:
            raise ValueError("`y` must be a 2-dimensional array.")
        ny, ndim = y.shape
        d = _cm.on(d, y.device)
        self.d_dtype = _np.complex128 if d.dtype.kind == "c" else _np.float64
        d = d.astype(self.d_dtype)
        if d.shape[0] != ny:
            raise ValueError(f"Expected the first axis of `d` to have length {ny}.")
        self.d_shape = d.shape[1:]
        d = d.reshape(ny, -1)
        if self.d_dtype == _np.complex128:       # SciPy's float view: re, im columns
            d = _ca.stack([d.real, d.imag], axis=-1).reshape(ny, -1)
        if _np.ndim(_cm.host(smoothing)) == 0:
            smoothing = _ca.full((ny,), float(_cm.host(smoothing)), device=y.device)
        else:
            smoothing = _cm.on(smoothing, y.device, _np.float64)
            if smoothing.shape != (ny,):
                raise ValueError(f"Expected `smoothing` to be a scalar or have shape "
                                 f"({ny},).")
        kernel = kernel.lower()
        if kernel not in _AVAILABLE:
            raise ValueError(f"`kernel` must be one of {_AVAILABLE}.")
        if epsilon is None:
            if kernel not in _SCALE_INVARIANT:
                raise ValueError("`epsilon` must be specified if `kernel` is not one "
                                 f"of {_SCALE_INVARIANT}.")
            epsilon = 1.0
        epsilon = float(epsilon)
        min_degree = _MIN_DEGREE.get(kernel, -1)
        if degree is None:
            degree = max(min_degree, 0)
        else:
            degree = int(degree)
            if degree < -1:
                raise ValueError("`degree` must be at least -1.")
            if -1 < degree < min_degree:
                _warnings.warn(f"`degree` should not be below {min_degree} except -1 "
                               f"when `kernel` is '{kernel}'.The interpolant may not be "
                               "uniquely solvable, and the smoothing parameter may "
                               "have an unintuitive effect.", UserWarning, stacklevel=2)
        nobs = ny if neighbors is None else int(min(neighbors, ny))
        neighbors = None if neighbors is None else nobs
        self.powers = _powers(ndim, degree)
        if self.powers.shape[0] > nobs:
            raise ValueError(f"At least {self.powers.shape[0]} data points are required "
                             f"when `degree` is {degree} and the number of dimensions "
                             f"is {ndim}.")
        self.y, self.d, self.smoothing = y, d, smoothing
        self.neighbors, self.kernel, self.epsilon = neighbors, kernel, epsilon
        self._scipy = None
        if _cm.scipy_route(y.device):
            self._scipy = _cm.scipy_interpolate().RBFInterpolator(
                _cm.host(y), _cm.host(_cm.on(self._complex_d(), y.device)).reshape(
                    (ny,) + self.d_shape), neighbors, _cm.host(smoothing), kernel,
                epsilon, degree)
        elif neighbors is None:
            self._shift, self._scale, self._coeffs = _solve_systems(
                y, d, smoothing, kernel, epsilon, self.powers)
        else:
            from cuarray.scipy.spatial import KDTree
            self._tree = KDTree(y)

    def _complex_d(self):
        if self.d_dtype != _np.complex128:
            return self.d
        pair = self.d.reshape(self.d.shape[0], -1, 2)
        return pair[..., 0] + 1j * pair[..., 1]

    def __call__(self, x):
        """The interpolant at x (npts, ndim)."""
        x = _cm.on(x, self.y.device, _np.float64)
        if x.ndim != 2:
            raise ValueError("`x` must be a 2-dimensional array.")
        nx, ndim = x.shape
        if ndim != self.y.shape[1]:
            raise ValueError("Expected the second axis of `x` to have length "
                             f"{self.y.shape[1]}.")
        if self._scipy is not None:
            return _cm.back(self._scipy(_cm.host(x)), x.device)
        budget = max(x.size + self.y.size + self.d.size, 1_000_000)
        if self.neighbors is None:
            out = self._chunks(x, budget)
        else:
            out = self._local(x, budget)
        if self.d_dtype == _np.complex128:
            pair = out.reshape(nx, -1, 2)
            out = pair[..., 0] + 1j * pair[..., 1]
        return out.reshape((nx,) + self.d_shape)

    def _chunks(self, x, budget):
        rows = max(budget // max(self.y.shape[0] + self.powers.shape[0], 1), 1)
        parts = [_evaluate(x[s:s + rows], self.y, self.kernel, self.epsilon,
                           self.powers, self._shift, self._scale, self._coeffs)
                 for s in range(0, x.shape[0], rows)]
        return _ca.concatenate(parts) if parts else _ca.zeros(
            (0, self.d.shape[1]), device=x.device)

    def _local(self, x, budget):
        """One local system per point over its neighbours, batched."""
        k = self.neighbors
        _, idx = self._tree.query(x, k)
        idx = _ca.sort(idx.reshape(x.shape[0], -1), axis=1)
        m = k + self.powers.shape[0]
        rows = max(budget // (m * m + 1), 1)
        parts = []
        for s in range(0, x.shape[0], rows):
            ii = idx[s:s + rows]
            yn, dn, sn = self.y[ii], self.d[ii], self.smoothing[ii]
            shift, scale, coeffs = _solve_systems(yn, dn, sn, self.kernel,
                                                  self.epsilon, self.powers)
            v = _evaluate(x[s:s + rows, None, :], yn, self.kernel, self.epsilon,
                          self.powers, shift, scale, coeffs)
            parts.append(v[:, 0, :])
        return _ca.concatenate(parts) if parts else _ca.zeros(
            (0, self.d.shape[1]), device=x.device)
