"""B-splines (SciPy's BSpline, make_interp_spline, make_lsq_spline, splder,
splantider) on cuarray arrays.

Evaluation: one searchsorted over the knots for each point's interval l, then
the k + 1 nonzero basis functions by the Cox-de Boor recurrence (k(k+1)/2
element-wise steps over all points, each knot t[l + j] one gather), derivatives
by the derivative recurrence on the lower-degree basis (so repeated knots need no
special case), and the sum of k + 1 gathered coefficient rows. The fits build the
dense collocation (or least-squares design) matrix from those basis values on
the device and solve it with cuarray.linalg.solve / lstsq: O(n^3) in the number of
coefficients, which suits the few thousand coefficients interpolating splines
have (a banded LU is not a cuarray primitive). The periodic interpolating spline
is SciPy's fit on the host (its cyclic Woodbury system), coefficients back on the
device. On the cpu device (CPU_SCIPY) evaluation and the fits are SciPy's own on
zero-copy views."""

import math as _math
import operator as _operator

import numpy as _np

import cuarray as _ca

from . import _common as _cm

__all__ = ["BSpline", "make_interp_spline", "make_lsq_spline", "splder", "splantider"]


def _knot_at(t, l, cache, off):
    """t[l + off] for every point (one gather, kept in cache)."""
    if off not in cache:
        cache[off] = _ca.take(t, l + off)
    return cache[off]


def basis_values(t, k, l, x, nu=0):
    """The nu-th derivatives of the k + 1 B-splines B_{l-k}, ..., B_l of degree k
    at x (each point in its interval l): a list of k + 1 arrays shaped like x."""
    cache = {}
    h = [_ca.ones_like(x)]
    for j in range(1, k - nu + 1):          # Cox-de Boor up to degree k - nu
        new = [None] * (j + 1)
        for r in range(j):
            tl = _knot_at(t, l, cache, r + 1 - j)
            tr = _knot_at(t, l, cache, r + 1)
            den = tr - tl       # zero only in an empty end interval: B = 0 there
            w = _ca.where(den > 0, h[r] / _ca.where(den > 0, den, 1.0), 0.0)
            new[r] = (tr - x) * w if new[r] is None else new[r] + (tr - x) * w
            new[r + 1] = (x - tl) * w
        h = new
    for j in range(max(k - nu, 0) + 1, k + 1):   # the derivative recurrence
        if not h:
            break
        new = []
        for r in range(j + 1):              # B_{i, j}' with i = l - j + r
            v = _ca.zeros_like(x)
            if r >= 1:
                den = _knot_at(t, l, cache, r) - _knot_at(t, l, cache, r - j)
                v = v + _ca.where(den > 0, h[r - 1] / _ca.where(den > 0, den, 1.0), 0.0)
            if r <= j - 1:
                den = _knot_at(t, l, cache, r + 1) - _knot_at(t, l, cache, r + 1 - j)
                v = v - _ca.where(den > 0, h[r] / _ca.where(den > 0, den, 1.0), 0.0)
            new.append(v * j)
        h = new
    return h


def knot_interval(t, k, n, x):
    """Each point's interval l with t[l] <= x < t[l+1], in [k, n-1] (a search of
    the knots t[k+1:n] only, so no clip pass)."""
    return _ca.searchsorted(t[k + 1:n], x, side="right") + k


class BSpline:
    """BSpline(t, c, k, extrapolate=True, axis=0)

    A univariate spline in the B-spline basis, sum(c[j] * B_{j,k}(x)). t and c are
    cuarray arrays on one device; evaluation runs there (see the module notes)."""

    def __init__(self, t, c, k, extrapolate=True, axis=0):
        dev = _cm.device_of(c, t)
        self.k = _operator.index(k)
        c = _cm.on(c, dev)
        t = _cm.on(t, c.device, _np.float64)
        self.extrapolate = extrapolate if extrapolate == "periodic" else bool(extrapolate)
        k = self.k
        n = t.shape[0] - k - 1
        if c.ndim < 1:
            raise ValueError("Coefficients must be at least 1-dimensional.")
        if not -c.ndim <= axis < c.ndim:
            raise _np.exceptions.AxisError(axis, c.ndim)
        axis %= c.ndim
        self.axis = axis
        if axis != 0:
            c = _ca.moveaxis(c, axis, 0)
        if k < 0:
            raise ValueError("Spline order cannot be negative.")
        if t.ndim != 1:
            raise ValueError("Knot vector must be one-dimensional.")
        if n < k + 1:
            raise ValueError(f"Need at least {2*k + 2} knots for degree {k}")
        if bool((_ca.diff(t) < 0).any()):
            raise ValueError("Knots must be in a non-decreasing order.")
        if _ca.unique(t[k:n + 1]).size < 2:
            raise ValueError("Need at least two internal knots.")
        if not bool(_ca.isfinite(t).all()):
            raise ValueError("Knots should not have nans or infs.")
        if c.shape[0] < n:
            raise ValueError("Knots, coefficients and degree are inconsistent.")
        self.t = _ca.ascontiguousarray(t)
        self.c = _ca.ascontiguousarray(c.astype(_cm.float_dtype(c.dtype)))

    @classmethod
    def construct_fast(cls, t, c, k, extrapolate=True, axis=0):
        """Construct a spline without making checks."""
        self = object.__new__(cls)
        self.t, self.c, self.k = t, c, k
        self.extrapolate, self.axis = extrapolate, axis
        return self

    @property
    def tck(self):
        """The (t, c, k) tuple."""
        return self.t, self.c, self.k

    @classmethod
    def basis_element(cls, t, extrapolate=True):
        """The B-spline basis element of the knots t (degree len(t) - 2)."""
        t = _cm.on(t, _cm.device_of(t), _np.float64)
        k = t.shape[0] - 2
        lo = _ca.full((k,), 1.0, device=t.device) * (t[0] - 1)
        hi = _ca.full((k,), 1.0, device=t.device) * (t[-1] + 1)
        tt = _ca.concatenate([lo, t, hi])
        c = _ca.zeros_like(tt)
        c[k] = 1.0
        return cls.construct_fast(tt, c, k, extrapolate)

    @classmethod
    def design_matrix(cls, x, t, k, extrapolate=False):
        """The (len(x), len(t) - k - 1) collocation matrix as a cuarray.scipy.sparse
        csr_array (each row its k + 1 basis values)."""
        from cuarray.scipy import sparse
        dev = _cm.device_of(x, t)
        x, t = _cm.on(x, dev, _np.float64).reshape(-1), _cm.on(t, dev, _np.float64)
        n = t.shape[0] - k - 1
        if not extrapolate and x.size and bool(
                ((x < t[k]) | (x > t[n])).any()):
            raise ValueError(f"Out of bounds w/ x = {x.get()}.")
        if extrapolate == "periodic":
            x = t[k] + (x - t[k]) % (t[n] - t[k])
        l = knot_interval(t, k, n, x)
        vals = _ca.stack(basis_values(t, k, l, x), axis=1).reshape(-1)
        cols = (l[:, None] - k + _ca.arange(k + 1, device=dev)).reshape(-1)
        indptr = _ca.arange(0, (k + 1) * x.size + 1, k + 1, device=dev)
        return sparse.csr_matrix((vals, cols.astype(_np.int32), indptr.astype(_np.int32)),
                                 shape=(x.size, n))

    def _scipy(self):
        return _cm.scipy_interpolate().BSpline.construct_fast(
            _np.ascontiguousarray(_cm.host(self.t)), _np.ascontiguousarray(_cm.host(self.c)),
            self.k, self.extrapolate, self.axis)

    def __call__(self, x, nu=0, extrapolate=None):
        """The spline (or its nu-th derivative) at x."""
        extrapolate, done, x = _cm.call_prologue(self, x, nu, extrapolate)
        if done is not None:
            return done
        flat = x.reshape(-1)
        t, k = self.t, self.k
        n = t.shape[0] - k - 1
        if extrapolate == "periodic":
            flat = t[k] + (flat - t[k]) % (t[n] - t[k])
            extrapolate = False
        c = self.c.reshape(self.c.shape[0], -1)
        out = self._evaluate(c, flat, nu)
        if not extrapolate:
            out = _cm.nan_outside(out, _cm.outside(flat, t[k], t[n]))
        out = out.reshape(x.shape + self.c.shape[1:])
        return _cm.move_point_axes(out, x.ndim, self.axis)

    def _evaluate(self, c, flat, nu):
        t, k = self.t, self.k
        n = t.shape[0] - k - 1
        if nu > k:
            return _ca.zeros((flat.size, c.shape[1]), dtype=c.dtype, device=c.device)
        l = knot_interval(t, k, n, flat)
        h = basis_values(t, k, l, flat, nu)
        out = None
        for r in range(k + 1):
            term = h[r][:, None] * _ca.take(c, l - k + r, axis=0)
            out = term if out is None else out + term
        if k == 0:      # no arithmetic on x: NaN points would take a value
            out = _ca.where(_ca.isnan(flat)[:, None], _np.nan, out)
        return out

    def _padded(self):
        return _pad_to(self.c, self.t.shape[0])

    def derivative(self, nu=1):
        """The nu-th derivative as a BSpline."""
        t, c, k = splder((self.t, self._padded(), self.k), nu)
        return self.construct_fast(t, c, k, self.extrapolate, self.axis)

    def antiderivative(self, nu=1):
        """The nu-th antiderivative as a BSpline (extrapolate 'periodic' becomes
        False, as SciPy's)."""
        t, c, k = splantider((self.t, self._padded(), self.k), nu)
        ext = False if self.extrapolate == "periodic" else self.extrapolate
        return self.construct_fast(t, c, k, ext, self.axis)

    def integrate(self, a, b, extrapolate=None):
        """The definite integral over [a, b] (zero outside the base interval when
        extrapolate is False)."""
        extrapolate, a, b, sign = _cm.integral_bounds(self, a, b, extrapolate)
        n = self.t.shape[0] - self.k - 1
        tk, tn = float(self.t[self.k]), float(self.t[n])
        if extrapolate != "periodic" and not extrapolate:
            a, b = max(a, tk), min(b, tn)
            if a > b:       # both ends beyond the same side: nothing there
                return _ca.zeros(self.c.shape[1:], dtype=self.c.dtype, device=self.c.device)
        anti = self.antiderivative()
        anti.axis = 0
        return sign * _cm.definite(anti, a, b, tk, tn, extrapolate)


def _pad_to(c, nt):
    """c padded with zero rows to nt (FITPACK's convention of len(c) == len(t))."""
    if c.shape[0] >= nt:
        return c
    z = _ca.zeros((nt - c.shape[0],) + c.shape[1:], dtype=c.dtype, device=c.device)
    return _ca.concatenate([c, z])


def _tck_on_device(tck):
    t, c, k = tck
    dev = _cm.device_of(t, c)
    return _cm.on(t, dev, _np.float64), _cm.on(c, dev), k


def splder(tck, n=1):
    """splder(tck, n=1)

    The n-th derivative of a spline (a BSpline, or a (t, c, k) tuple giving a
    tuple), by the difference formula on the coefficients."""
    if isinstance(tck, BSpline):
        return tck.derivative(n)
    if n < 0:
        return splantider(tck, -n)
    t, c, k = _tck_on_device(tck)
    if n > k:
        raise ValueError(f"Order of derivative (n = {n!r}) must be <= "
                         f"order of spline (k = {tck[2]!r})")
    for _ in range(n):
        dt = t[k + 1:-1] - t[1:-k - 1]
        if bool((dt == 0).any()):
            raise ValueError("The spline has internal repeated knots "
                             f"and is not differentiable {n} times")
        dt = dt.reshape((-1,) + (1,) * (c.ndim - 1))
        c = (c[1:-1 - k] - c[:-2 - k]) * k / dt
        c = _ca.concatenate([c, _ca.zeros((k,) + c.shape[1:], dtype=c.dtype,
                                          device=c.device)])
        t = t[1:-1]
        k -= 1
    return t, c, k


def splantider(tck, n=1):
    """splantider(tck, n=1)

    The n-th antiderivative of a spline (a BSpline, or a (t, c, k) tuple giving a
    tuple): cumulative sums of the coefficients, one knot added at each end."""
    if isinstance(tck, BSpline):
        return tck.antiderivative(n)
    if n < 0:
        return splder(tck, -n)
    t, c, k = _tck_on_device(tck)
    for _ in range(n):
        dt = (t[k + 1:] - t[:-k - 1]).reshape((-1,) + (1,) * (c.ndim - 1))
        c = _ca.cumsum(c[:-k - 1] * dt, axis=0) / (k + 1)
        zero = _ca.zeros((1,) + c.shape[1:], dtype=c.dtype, device=c.device)
        tail = _ca.broadcast_to(c[-1:], (k + 2,) + c.shape[1:])
        c = _ca.concatenate([zero, c, tail])
        t = _ca.concatenate([t[:1], t, t[-1:]])
        k += 1
    return t, c, k


# ---- fits -------------------------------------------------------------------

def _not_a_knot(x, k):
    if k % 2 == 1:
        k2, t = (k + 1) // 2, x
    else:
        k2, t = k // 2, (x[1:] + x[:-1]) / 2
    t = t[k2:-k2] if k2 else t
    return _ca.concatenate([_ca.broadcast_to(x[:1], (k + 1,)), t,
                            _ca.broadcast_to(x[-1:], (k + 1,))])


def _augknt(x, k):
    return _ca.concatenate([_ca.broadcast_to(x[:1], (k,)), x,
                            _ca.broadcast_to(x[-1:], (k,))])


def _deriv_spec(deriv, target_shape, device):
    if isinstance(deriv, str):
        if deriv == "clamped":
            deriv = [(1, _np.zeros(target_shape))]
        elif deriv == "natural":
            deriv = [(2, _np.zeros(target_shape))]
        else:
            raise ValueError(f"Unknown boundary condition : {deriv}")
    if deriv is None:
        return [], []
    try:
        ords, vals = zip(*deriv)
    except TypeError as e:
        raise ValueError("Derivatives, `bc_type`, should be specified as a pair of "
                         "iterables of pairs of (order, value).") from e
    return list(ords), [_cm.on(v, device) for v in vals]


def _split_bc(bc_type):
    if bc_type is None or bc_type in ("not-a-knot", "periodic"):
        return None, None
    if isinstance(bc_type, str):
        return bc_type, bc_type
    try:
        return bc_type
    except TypeError as e:
        raise ValueError(f"Unknown boundary condition: {bc_type}") from e


def _host_spline(sp, device, axis=0):
    return BSpline.construct_fast(_cm.on(sp.t, device), _cm.on(sp.c, device), sp.k,
                                  sp.extrapolate, axis)


def make_interp_spline(x, y, k=3, t=None, bc_type=None, axis=0, check_finite=True):
    """make_interp_spline(x, y, k=3, t=None, bc_type=None, axis=0, check_finite=True)

    The interpolating B-spline of degree k (not-a-knot knots by default), its
    coefficients one dense cuarray.linalg.solve of the collocation system on the
    data's device ('periodic': SciPy's fit on the host, see the module notes)."""
    dev = _cm.device_of(x, y, t)
    x, y = _cm.on(x, dev, _np.float64), _cm.on(y, dev)
    axis = axis % y.ndim if y.ndim else axis
    if _cm.scipy_route(x.device) or bc_type == "periodic":
        sp = _cm.scipy_interpolate().make_interp_spline(
            _cm.host(x), _cm.host(y), k, _cm.host(t), _host_bc(bc_type), axis,
            check_finite)
        return _host_spline(sp, x.device, sp.axis)
    y = _ca.moveaxis(y, axis, 0)
    if check_finite:
        _cm.check_finite_host(x, y)
    deriv_l, deriv_r = _split_bc(bc_type)
    k = int(k)
    if x.size != y.shape[0]:
        raise ValueError(f"Shapes of x {x.shape} and y {y.shape} are incompatible")
    if x.size > 1 and bool((x[1:] == x[:-1]).any()):
        raise ValueError("Expect x to not have duplicates")
    if x.ndim != 1 or bool((x[1:] < x[:-1]).any()):
        raise ValueError("Expect x to be a 1D strictly increasing sequence.")
    cdt = _cm.float_dtype(y.dtype)
    if k == 0:
        if any(v is not None for v in (t, deriv_l, deriv_r)):
            raise ValueError("Too much info for k=0: t and bc_type can only be None.")
        return BSpline.construct_fast(_ca.concatenate([x, x[-1:]]), y.astype(cdt), 0,
                                      axis=axis)
    if k == 1 and t is None:
        if not (deriv_l is None and deriv_r is None):
            raise ValueError("Too much info for k=1: bc_type can only be None.")
        return BSpline.construct_fast(_ca.concatenate([x[:1], x, x[-1:]]), y.astype(cdt),
                                      1, axis=axis)
    if t is None:
        t = _not_a_knot(x, k) if deriv_l is None and deriv_r is None else _augknt(x, k)
    t = _cm.on(t, x.device, _np.float64)
    if k < 0:
        raise ValueError("Expect non-negative k.")
    if t.ndim != 1 or bool((t[1:] < t[:-1]).any()):
        raise ValueError("Expect t to be a 1-D sorted array_like.")
    if t.size < x.size + k + 1:
        raise ValueError(f"Got {t.size} knots, need at least {x.size + k + 1}.")
    if bool(x[0] < t[k]) or bool(x[-1] > t[-k]):
        raise ValueError(f"Out of bounds w/ x = {x.get()}.")
    return _solve_collocation(x, y, t, k, deriv_l, deriv_r, axis, cdt)


def _solve_collocation(x, y, t, k, deriv_l, deriv_r, axis, cdt):
    ords_l, vals_l = _deriv_spec(deriv_l, y.shape[1:], x.device)
    ords_r, vals_r = _deriv_spec(deriv_r, y.shape[1:], x.device)
    if not all(0 <= i <= k for i in ords_l):
        raise ValueError(f"Bad boundary conditions at {float(x[0])}.")
    if not all(0 <= i <= k for i in ords_r):
        raise ValueError(f"Bad boundary conditions at {float(x[-1])}.")
    nt = t.size - k - 1
    if nt - x.size != len(ords_l) + len(ords_r):
        raise ValueError("The number of derivatives at boundaries does not "
                         f"match: expected {nt - x.size}, got {len(ords_l)}+{len(ords_r)}")
    if y.size == 0:
        c = _ca.zeros((nt,) + y.shape[1:], dtype=_np.float64, device=x.device)
        return BSpline.construct_fast(t, c, k, axis=axis)
    rows = [_dense_rows(t, k, nt, x[:1], o) for o in ords_l]
    rows.append(_dense_rows(t, k, nt, x, 0))
    rows += [_dense_rows(t, k, nt, x[-1:], o) for o in ords_r]
    A = _ca.concatenate(rows)
    trail = y.shape[1:]
    rhs = [v.reshape(1, -1) for v in vals_l] + [y.reshape(y.shape[0], -1)]
    rhs += [v.reshape(1, -1) for v in vals_r]
    dt = _np.result_type(cdt, *[v.dtype for v in vals_l + vals_r])
    rhs = _ca.concatenate([r.astype(dt) for r in rhs])
    try:
        c = _ca.linalg.solve(A.astype(dt), rhs)
    except _ca.linalg.LinAlgError as e:
        raise _ca.linalg.LinAlgError("Colocation matrix is singular.") from e
    return BSpline.construct_fast(t, _ca.ascontiguousarray(c.reshape((nt,) + trail)), k,
                                  axis=axis)


def _dense_rows(t, k, nt, x, nu):
    """The dense (len(x), nt) matrix of the nu-th derivatives of the basis at x."""
    n = t.shape[0] - k - 1
    l = knot_interval(t, k, n, x)
    vals = _ca.stack(basis_values(t, k, l, x, nu), axis=1)
    cols = l[:, None] - k + _ca.arange(k + 1, device=x.device)
    out = _ca.zeros((x.size, nt), dtype=_np.float64, device=x.device)
    _ca.put_along_axis(out, cols, vals, axis=1)
    return out


def _host_bc(bc):
    if bc is None or isinstance(bc, str):
        return bc
    return tuple(side if side is None or isinstance(side, str)
                 else [(o, _cm.host(v)) for o, v in side] for side in bc)


def make_lsq_spline(x, y, t, k=3, w=None, axis=0, check_finite=True, *, method="qr"):
    """make_lsq_spline(x, y, t, k=3, w=None, axis=0, check_finite=True, *, method='qr')

    The least-squares B-spline on knots t: the weighted design matrix built on the
    data's device and solved by cuarray.linalg.lstsq (method 'qr') or the normal
    equations by cuarray.linalg.solve ('norm-eq')."""
    dev = _cm.device_of(x, y, t, w)
    x, y, t = _cm.on(x, dev, _np.float64), _cm.on(y, dev), _cm.on(t, dev, _np.float64)
    if method not in ("qr", "norm-eq"):
        raise ValueError(f"Unknown {method =}.")
    if _cm.scipy_route(x.device):
        sp = _cm.scipy_interpolate().make_lsq_spline(
            _cm.host(x), _cm.host(y), _cm.host(t), k, _cm.host(w), axis, check_finite,
            method=method)
        return _host_spline(sp, x.device, sp.axis)
    w = _ca.ones_like(x) if w is None else _cm.on(w, x.device, _np.float64)
    k = int(k)
    axis = axis % y.ndim
    y = _ca.moveaxis(y, axis, 0)
    if check_finite:
        _cm.check_finite_host(x, y, t, w)
    _check_lsq(x, y, t, k, w)
    nt = t.size - k - 1
    A = _dense_rows(t, k, nt, x, 0) * w[:, None]
    cdt = _cm.float_dtype(y.dtype)
    rhs = (y.reshape(y.shape[0], -1).astype(cdt) * w[:, None])
    if method == "qr":
        c = _ca.linalg.lstsq(A.astype(cdt), rhs, rcond=None)[0]
    else:
        At = A.T.astype(cdt)
        c = _ca.linalg.solve(At @ A.astype(cdt), At @ rhs)
    return BSpline.construct_fast(t, _ca.ascontiguousarray(c.reshape((nt,) + y.shape[1:])),
                                  k, axis=axis)


def _check_lsq(x, y, t, k, w):
    if x.ndim != 1:
        raise ValueError("Expect x to be a 1D sequence.")
    if x.shape[0] != y.shape[0]:
        raise ValueError(f"Shapes of x {x.shape} and y {y.shape} are incompatible")
    if k > 0 and bool((t[1:] < t[:-1]).any()):
        raise ValueError("Expect t to be a 1D strictly increasing sequence.")
    if x.size and bool((x[1:] < x[:-1]).any()):
        raise ValueError("Expect x to be a sorted 1D sequence.")
    if x.size < t.size - k - 1:
        raise ValueError("Need more x points.")
    if k < 0:
        raise ValueError("Expect non-negative k.")
    if t.ndim != 1 or bool((t[1:] < t[:-1]).any()):
        raise ValueError("Expect t to be a 1D strictly increasing sequence.")
    if bool(x[0] < t[k]) or bool(x[-1] > t[-k - 1]):
        raise ValueError(f"Out of bounds w/ x = {x.get()}.")
    if x.size != w.size:
        raise ValueError(f"Shapes of x {x.shape} and w {w.shape} are incompatible")
