"""Cubic piecewise interpolators (SciPy's CubicHermiteSpline, CubicSpline,
PchipInterpolator/pchip_interpolate, Akima1DInterpolator): PPoly subclasses whose
coefficients are computed on the data's device.

The slopes are element-wise compositions (PCHIP's harmonic means, Akima's
weights) except CubicSpline's, which solve a tridiagonal system by parallel
cyclic reduction (_banded.py; periodic ends by bordering, as SciPy does; the
3-point not-a-knot case a 3 x 3 cuarray.linalg.solve). On the cpu device
(CPU_SCIPY) SciPy's own constructor runs on zero-copy views and its
coefficients are kept."""

import numpy as _np

import cuarray as _ca

from . import _common as _cm
from ._banded import solve_cyclic_tridiagonal, solve_tridiagonal
from ._ppoly import PPoly

__all__ = ["CubicHermiteSpline", "CubicSpline", "PchipInterpolator",
           "pchip_interpolate", "Akima1DInterpolator"]


def _all(mask):
    return bool(mask.all())


def prepare_input(x, y, axis, dydx=None):
    """SciPy's checks of x, y (and dydx) on the device; y's axis moved first."""
    dev = _cm.device_of(x, y, dydx)
    x, y = _cm.on(x, dev), _cm.on(y, dev)
    if x.dtype.kind == "c":
        raise ValueError("`x` must contain real values.")
    x = x.astype(_np.float64)
    dtype = _np.complex128 if y.dtype.kind == "c" else _np.float64
    if dydx is not None:
        dydx = _cm.on(dydx, x.device)
        if y.shape != dydx.shape:
            raise ValueError("The shapes of `y` and `dydx` must be identical.")
        if dydx.dtype.kind == "c":
            dtype = _np.complex128
        dydx = dydx.astype(dtype)
    y = y.astype(dtype)
    axis = axis % y.ndim
    if x.ndim != 1:
        raise ValueError("`x` must be 1-dimensional.")
    if x.shape[0] < 2:
        raise ValueError("`x` must contain at least 2 elements.")
    if x.shape[0] != y.shape[axis]:
        raise ValueError(f"The length of `y` along `axis`={axis} doesn't "
                         "match the length of `x`")
    if not _all(_ca.isfinite(x)):
        raise ValueError("`x` must contain only finite values.")
    if not _all(_ca.isfinite(y)):
        raise ValueError("`y` must contain only finite values.")
    if dydx is not None and not _all(_ca.isfinite(dydx)):
        raise ValueError("`dydx` must contain only finite values.")
    dx = _ca.diff(x)
    if bool((dx <= 0).any()):
        raise ValueError("`x` must be strictly increasing sequence.")
    y = _ca.moveaxis(y, axis, 0)
    if dydx is not None:
        dydx = _ca.moveaxis(dydx, axis, 0)
    return x, dx, y, axis, dydx


def _real_only(y, name):
    if y.dtype.kind == "c":
        raise ValueError(f"`{name}` only works with real values for `y`. If you are "
                         "trying to use the real components of the passed array, use "
                         f"`np.real` on the array before passing to `{name}`.")


def _col(v, ndim):
    return v.reshape((v.shape[0],) + (1,) * (ndim - 1))


def _hermite_coeffs(dx, y, dydx):
    """The power-basis coefficients (4, n-1, ...) of the Hermite cubic pieces."""
    dxr = _col(dx, y.ndim)
    slope = _ca.diff(y, axis=0) / dxr
    t = (dydx[:-1] + dydx[1:] - 2 * slope) / dxr
    return _ca.stack([t / dxr, (slope - dydx[:-1]) / dxr - t, dydx[:-1], y[:-1]])


class CubicHermiteSpline(PPoly):
    """CubicHermiteSpline(x, y, dydx, axis=0, extrapolate=None)

    The piecewise cubic matching values y and first derivatives dydx at x;
    a PPoly on the data's device."""

    def __init__(self, x, y, dydx, axis=0, extrapolate=None):
        if extrapolate is None:
            extrapolate = True
        x, dx, y, axis, dydx = prepare_input(x, y, axis, dydx)
        self._set(_hermite_coeffs(dx, y, dydx), x, extrapolate, axis)

    def _set(self, c, x, extrapolate, axis):
        self.c, self.x = _ca.ascontiguousarray(c), x
        self.extrapolate = extrapolate
        self.axis = axis

    def _from_scipy(self, sp, device, axis):
        self._set(_cm.on(sp.c, device), _cm.on(sp.x, device), sp.extrapolate, axis)


class PchipInterpolator(CubicHermiteSpline):
    """PchipInterpolator(x, y, axis=0, extrapolate=None)

    The shape-preserving piecewise cubic Hermite interpolant (Fritsch-Butland
    slopes as SciPy's), on the data's device."""

    def __init__(self, x, y, axis=0, extrapolate=None):
        x, dx, y, axis, _ = prepare_input(x, y, axis)
        _real_only(y, "PchipInterpolator")
        if extrapolate is None:
            extrapolate = True
        if _cm.scipy_route(x.device):
            sp = _cm.scipy_interpolate().PchipInterpolator(
                _cm.host(x), _cm.host(y), 0, extrapolate)
            return self._from_scipy(sp, x.device, axis)
        dk = self._find_derivatives(dx, y)
        self._set(_hermite_coeffs(dx, y, dk), x, extrapolate, axis)

    @staticmethod
    def _edge_case(h0, h1, m0, m1):
        d = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1)
        flip = _ca.sign(d) != _ca.sign(m0)
        big = (_ca.sign(m0) != _ca.sign(m1)) & (_ca.abs(d) > 3.0 * _ca.abs(m0))
        return _ca.where(flip, 0.0, _ca.where(big, 3.0 * m0, d))

    @staticmethod
    def _find_derivatives(dx, y):
        hk = _col(dx, y.ndim)
        mk = _ca.diff(y, axis=0) / hk
        if y.shape[0] == 2:
            return _ca.concatenate([mk, mk], axis=0)
        smk = _ca.sign(mk)
        flat = (smk[1:] != smk[:-1]) | (mk[1:] == 0) | (mk[:-1] == 0)
        w1 = 2 * hk[1:] + hk[:-1]
        w2 = hk[1:] + 2 * hk[:-1]
        safe0 = _ca.where(flat, 1.0, mk[:-1])
        safe1 = _ca.where(flat, 1.0, mk[1:])
        whmean = (w1 / safe0 + w2 / safe1) / (w1 + w2)
        inner = _ca.where(flat, 0.0, 1.0 / whmean)
        d0 = PchipInterpolator._edge_case(hk[0], hk[1], mk[0], mk[1])
        d1 = PchipInterpolator._edge_case(hk[-1], hk[-2], mk[-1], mk[-2])
        return _ca.concatenate([d0[None], inner, d1[None]], axis=0)


def pchip_interpolate(xi, yi, x, der=0, axis=0):
    """pchip_interpolate(xi, yi, x, der=0, axis=0)

    PchipInterpolator(xi, yi, axis)'s values (or derivatives of order der, a
    list of orders giving a list) at x."""
    P = PchipInterpolator(xi, yi, axis=axis)
    if _np.isscalar(der):
        return P(x) if der == 0 else P.derivative(der)(x)
    return [P.derivative(nu)(x) for nu in der]


class Akima1DInterpolator(CubicHermiteSpline):
    """Akima1DInterpolator(x, y, axis=0, *, method='akima', extrapolate=None)

    Akima's (or the modified 'makima') piecewise cubic, on the data's device.
    extrapolate defaults to False, as SciPy's."""

    def __init__(self, x, y, axis=0, *, method="akima", extrapolate=None):
        if method not in {"akima", "makima"}:
            raise NotImplementedError(f"`method`={method} is unsupported.")
        x, dx, y, axis, _ = prepare_input(x, y, axis)
        _real_only(y, "Akima1DInterpolator")
        extrapolate = False if extrapolate is None else extrapolate
        if _cm.scipy_route(x.device):
            sp = _cm.scipy_interpolate().Akima1DInterpolator(
                _cm.host(x), _cm.host(y), 0, method=method, extrapolate=extrapolate)
            return self._from_scipy(sp, x.device, axis)
        t = self._slopes(dx, y, method)
        self._set(_hermite_coeffs(dx, y, t), x, extrapolate, axis)

    @staticmethod
    def _slopes(dx, y, method):
        mk = _ca.diff(y, axis=0) / _col(dx, y.ndim)
        if y.shape[0] == 2:
            return _ca.concatenate([mk, mk], axis=0)
        # two extra slopes at each end, extrapolated linearly
        l1 = 2.0 * mk[0] - mk[1]
        l0 = 2.0 * l1 - mk[0]
        r1 = 2.0 * mk[-1] - mk[-2]
        r0 = 2.0 * r1 - mk[-1]
        m = _ca.concatenate([l0[None], l1[None], mk, r1[None], r0[None]], axis=0)
        t = 0.5 * (m[3:] + m[:-3])
        dm = _ca.abs(_ca.diff(m, axis=0))
        if method == "makima":
            pm = _ca.abs(m[1:] + m[:-1])
            f1, f2 = dm[2:] + 0.5 * pm[2:], dm[:-2] + 0.5 * pm[:-2]
        else:
            f1, f2 = dm[2:], dm[:-2]
        f12 = f1 + f2
        mmax = f12.max() if f12.size else -_np.inf
        defined = f12 > 1e-9 * mmax
        safe = _ca.where(defined, f12, 1.0)
        return _ca.where(defined, m[1:-2] + (f2 / safe) * (m[2:-1] - m[1:-2]), t)

    def extend(self, c, x, right=True):
        raise NotImplementedError("Extending a 1-D Akima interpolator is not "
                                  "yet implemented")

    @classmethod
    def from_spline(cls, tck, extrapolate=None):
        raise NotImplementedError("This method does not make sense for "
                                  "an Akima interpolator.")

    @classmethod
    def from_bernstein_basis(cls, bp, extrapolate=None):
        raise NotImplementedError("This method does not make sense for "
                                  "an Akima interpolator.")


class CubicSpline(CubicHermiteSpline):
    """CubicSpline(x, y, axis=0, bc_type='not-a-knot', extrapolate=None)

    The C2 cubic spline through (x, y) with SciPy's boundary conditions
    ('not-a-knot', 'periodic', 'clamped', 'natural', or a pair of those and
    (order, value) tuples). The slopes solve a tridiagonal system on the data's
    device by parallel cyclic reduction (see the module notes)."""

    def __init__(self, x, y, axis=0, bc_type="not-a-knot", extrapolate=None):
        x, dx, y, axis, _ = prepare_input(x, y, axis)
        bc, y = self._validate_bc(bc_type, y, y.shape[1:], axis)
        if extrapolate is None:
            extrapolate = "periodic" if bc[0] == "periodic" else True
        if _cm.scipy_route(x.device):
            sp = _cm.scipy_interpolate().CubicSpline(
                _cm.host(x), _cm.host(y), 0, _host_bc(bc_type), extrapolate)
            return self._from_scipy(sp, x.device, axis)
        s = self._slopes(x, dx, y, bc) if y.size else _ca.zeros_like(y)
        self._set(_hermite_coeffs(dx, y, s), x, extrapolate, axis)

    @staticmethod
    def _slopes(x, dx, y, bc):
        n = x.shape[0]
        dxr = _col(dx, y.ndim)
        slope = _ca.diff(y, axis=0) / dxr
        if n == 2:
            bc = [(1, slope[0]) if b in ("not-a-knot", "periodic") else b for b in bc]
        if n == 3 and bc[0] == "not-a-knot" and bc[1] == "not-a-knot":
            return _three_point(dx, dxr, slope, y)
        if n == 3 and bc[0] == "periodic":
            t = (slope / dxr).sum(0) / (1.0 / dxr).sum(0)
            return _ca.broadcast_to(t, (n,) + y.shape[1:]).copy()
        if bc[0] == "periodic":
            return _periodic_slopes(dx, dxr, slope)
        dl = _ca.concatenate([dx[:1], dx[1:], dx[:1]])      # ends replaced below
        d = _ca.concatenate([dx[:1], 2 * (dx[:-1] + dx[1:]), dx[:1]])
        du = _ca.concatenate([dx[:1], dx[:-1], dx[:1]])
        rows = [None, 3 * (dxr[1:] * slope[:-1] + dxr[:-1] * slope[1:]), None]
        d0, du0, rows[0] = _start_row(bc[0], x, dx, dxr, slope, y)
        dn, dln, rows[2] = _end_row(bc[1], x, dx, dxr, slope, y)
        d[0], du[0], d[-1], dl[-1] = d0, du0, dn, dln
        b = _ca.concatenate([_ca.broadcast_to(rows[0], y.shape[1:])[None], rows[1],
                             _ca.broadcast_to(rows[2], y.shape[1:])[None]])
        return solve_tridiagonal(dl, d, du, b.astype(y.dtype))

    @staticmethod
    def _validate_bc(bc_type, y, expected_deriv_shape, axis):
        if isinstance(bc_type, str):
            if bc_type == "periodic":
                if not bool(_ca.allclose(y[0], y[-1], rtol=1e-15, atol=1e-15)):
                    raise ValueError(
                        f"The first and last `y` point along axis {axis} must "
                        "be identical (within machine precision) when "
                        "bc_type='periodic'.")
            bc_type = (bc_type, bc_type)
        else:
            if len(bc_type) != 2:
                raise ValueError("`bc_type` must contain 2 elements to "
                                 "specify start and end conditions.")
            if "periodic" in [b for b in bc_type if isinstance(b, str)]:
                raise ValueError("'periodic' `bc_type` is defined for both "
                                 "curve ends and cannot be used with other "
                                 "boundary conditions.")
        out = []
        for bc in bc_type:
            if isinstance(bc, str):
                if bc == "clamped":
                    out.append((1, _ca.zeros(expected_deriv_shape, device=y.device)))
                elif bc == "natural":
                    out.append((2, _ca.zeros(expected_deriv_shape, device=y.device)))
                elif bc in ("not-a-knot", "periodic"):
                    out.append(bc)
                else:
                    raise ValueError(f"bc_type={bc} is not allowed.")
                continue
            try:
                order, value = bc
            except Exception as e:
                raise ValueError("A specified derivative value must be "
                                 "given in the form (order, value).") from e
            if order not in (1, 2):
                raise ValueError("The specified derivative order must be 1 or 2.")
            value = _cm.on(value, y.device)
            if value.shape != tuple(expected_deriv_shape):
                raise ValueError(f"`deriv_value` shape {value.shape} is not "
                                 f"the expected one {tuple(expected_deriv_shape)}.")
            if value.dtype.kind == "c":
                y = y.astype(_np.complex128)
            out.append((order, value))
        return out, y


def _host_bc(bc_type):
    if isinstance(bc_type, str):
        return bc_type
    return tuple(b if isinstance(b, str) else (b[0], _cm.host(b[1])) for b in bc_type)


def _start_row(bc, x, dx, dxr, slope, y):
    """(diagonal, upper, right-hand side) of the first equation."""
    if bc == "not-a-knot":
        d = x[2] - x[0]
        return dx[1], d, ((dxr[0] + 2 * d) * dxr[1] * slope[0] + dxr[0] ** 2 * slope[1]) / d
    if bc[0] == 1:
        return 1.0, 0.0, bc[1]
    return 2 * dx[0], dx[0], -0.5 * bc[1] * dx[0] ** 2 + 3 * (y[1] - y[0])


def _end_row(bc, x, dx, dxr, slope, y):
    """(diagonal, lower, right-hand side) of the last equation."""
    if bc == "not-a-knot":
        d = x[-1] - x[-3]
        return dx[-2], d, (dxr[-1] ** 2 * slope[-2] + (2 * d + dxr[-1]) * dxr[-2]
                           * slope[-1]) / d
    if bc[0] == 1:
        return 1.0, 0.0, bc[1]
    return 2 * dx[-1], dx[-1], 0.5 * bc[1] * dx[-1] ** 2 + 3 * (y[-1] - y[-2])


def _three_point(dx, dxr, slope, y):
    """Three points, not-a-knot at both ends: the parabola's slopes (3 x 3 solve)."""
    one, zero = _ca.ones_like(dx[0]), _ca.zeros_like(dx[0])
    A = _ca.stack([_ca.stack([one, one, zero]),
                   _ca.stack([dx[1], 2 * (dx[0] + dx[1]), dx[0]]),
                   _ca.stack([zero, one, one])])
    b = _ca.stack([2 * slope[0], 3 * (dxr[0] * slope[1] + dxr[1] * slope[0]),
                   2 * slope[1]])
    return _ca.linalg.solve(A.astype(b.dtype), b.reshape(3, -1)).reshape(b.shape)


def _periodic_slopes(dx, dxr, slope):
    """The periodic spline's slopes: the cyclic system over the n-1 distinct
    points, each row the interior equation with its neighbours wrapped."""
    prev, sprev = _ca.roll(dx, 1), _ca.roll(slope, 1, axis=0)
    b = 3 * (dxr * sprev + _col(prev, slope.ndim) * slope)
    s = solve_cyclic_tridiagonal(dx, 2 * (prev + dx), prev, b)
    return _ca.concatenate([s, s[:1]], axis=0)
