"""Piecewise polynomials (SciPy's PPoly, BPoly, NdPPoly) on cuarray arrays.

Evaluation is one interval search (searchsorted) over the breakpoints, then per
coefficient row one gather of that row at the points' intervals and one
element-wise multiply-add (Horner's rule in the power basis, the Bernstein sum in
BPoly's): k gathers and k fused passes for k coefficients, no per-point Python.
Derivatives and antiderivatives transform the coefficients (a few passes over c);
an antiderivative's constants are an exclusive cumsum of the pieces' integrals, so
it is continuous as SciPy's fix_continuity makes it. On the cpu device (CPU_SCIPY)
evaluation is SciPy's own on zero-copy views. roots/solve, extend and
BPoly.from_derivatives are host math (SciPy on copies of the coefficients,
results back on the device): their outputs are data-dependent and small."""

import math as _math

import numpy as _np

import cuarray as _ca

from . import _common as _cm

__all__ = ["PPoly", "BPoly", "NdPPoly"]


def _poch(n, nu):
    """n (n+1) ... (n+nu-1) as a host vector (n a sequence of ints)."""
    return _np.array([_math.prod(range(v, v + nu)) for v in n], dtype=_np.float64)


def _col(v, ndim):
    """A host/device vector shaped to broadcast along axis 0 of an ndim array."""
    return v.reshape((-1,) + (1,) * (ndim - 1))


def _validate_extrapolate(extrapolate):
    if extrapolate is None:
        return True
    return extrapolate if extrapolate == "periodic" else bool(extrapolate)


class _PPolyBase:
    """What PPoly and BPoly share: c (k, m, ...) and breakpoints x (m + 1,)."""

    _scipy_name = None

    def __init__(self, c, x, extrapolate=None, axis=0):
        dev = _cm.device_of(c, x)
        c = _cm.on(c, dev)
        x = _cm.on(x, c.device, _np.float64)
        self.extrapolate = _validate_extrapolate(extrapolate)
        if c.ndim < 2:
            raise ValueError("Coefficients array must be at least 2-dimensional.")
        if not 0 <= axis < c.ndim - 1:
            raise ValueError(f"axis={axis} must be between 0 and {c.ndim-1}")
        self.axis = axis
        if axis != 0:
            c = _ca.moveaxis(_ca.moveaxis(c, axis + 1, 0), axis + 1, 0)
        if x.ndim != 1:
            raise ValueError("x must be 1-dimensional")
        if x.size < 2:
            raise ValueError("at least 2 breakpoints are needed")
        if c.shape[0] == 0:
            raise ValueError("polynomial must be at least of order 0")
        if c.shape[1] != x.size - 1:
            raise ValueError("number of coefficients != len(x)-1")
        dx = _ca.diff(x)
        if not (bool((dx >= 0).all()) or bool((dx <= 0).all())):
            raise ValueError("`x` must be strictly increasing or decreasing.")
        self.c = _ca.ascontiguousarray(c.astype(_cm.float_dtype(c.dtype)))
        self.x = _ca.ascontiguousarray(x)

    @classmethod
    def construct_fast(cls, c, x, extrapolate=None, axis=0):
        """Construct the piecewise polynomial without making checks."""
        self = object.__new__(cls)
        self.c, self.x = c, x
        self.axis = axis
        self.extrapolate = True if extrapolate is None else extrapolate
        return self

    def _like(self, c, extrapolate=None):
        ext = self.extrapolate if extrapolate is None else extrapolate
        return type(self).construct_fast(c, self.x, ext, self.axis)

    def _scipy(self):
        cls = getattr(_cm.scipy_interpolate(), self._scipy_name)
        return cls.construct_fast(_np.ascontiguousarray(_cm.host(self.c)),
                                  _np.ascontiguousarray(_cm.host(self.x)),
                                  self.extrapolate, self.axis)

    def __call__(self, x, nu=0, extrapolate=None):
        """Evaluate the piecewise polynomial or its nu-th derivative at x."""
        extrapolate, done, x = _cm.call_prologue(self, x, nu, extrapolate)
        if done is not None:
            return done
        flat = x.reshape(-1)
        if extrapolate == "periodic":
            x0, x1 = self.x[0], self.x[-1]
            flat = x0 + (flat - x0) % (x1 - x0)
            extrapolate = False
        if nu < 0:
            raise ValueError("Order of derivative cannot be negative")
        c = self.derivative(nu).c if nu else self.c
        out = self._evaluate(c.reshape(c.shape[0], c.shape[1], -1), flat)
        if not extrapolate:
            lo, hi = _ca.minimum(self.x[0], self.x[-1]), _ca.maximum(self.x[0], self.x[-1])
            out = _cm.nan_outside(out, _cm.outside(flat, lo, hi))
        out = out.reshape(x.shape + self.c.shape[2:])
        return _cm.move_point_axes(out, x.ndim, self.axis)

    def _points(self, flat):
        i = _cm.interval(self.x, flat)
        return i, (flat - _ca.take(self.x, i))[:, None]

    def integrate(self, a, b, extrapolate=None):
        """The definite integral over [a, b] (an array of c.shape[2:])."""
        extrapolate, a, b, sign = _cm.integral_bounds(self, a, b, extrapolate)
        anti = self.antiderivative()
        anti.axis = 0
        lo, hi = float(self.x[0]), float(self.x[-1])
        return sign * _cm.definite(anti, a, b, lo, hi, extrapolate)

    def extend(self, c, x):
        """Add breakpoints and coefficients (host math: SciPy's extend on copies,
        the result back on the device)."""
        sp = self._scipy()
        sp.c, sp.x = _np.ascontiguousarray(sp.c), _np.ascontiguousarray(sp.x)
        sp.extend(_cm.host(c), _cm.host(x))
        self.c = _cm.on(sp.c, self.c.device)
        self.x = _cm.on(sp.x, self.c.device)


class PPoly(_PPolyBase):
    """PPoly(c, x, extrapolate=None, axis=0)

    A piecewise polynomial in the power basis: on [x[i], x[i+1]] it is
    sum(c[m, i] * (xp - x[i])**(k-m) for m in range(k+1)). c and x are
    cuarray arrays on one device; evaluation runs there (see the module notes)."""

    _scipy_name = "PPoly"

    def _evaluate(self, c, flat):
        i, s = self._points(flat)
        y = _ca.take(c[0], i, axis=0)
        for j in range(1, c.shape[0]):
            y = y * s + _ca.take(c[j], i, axis=0)
        return y

    def derivative(self, nu=1):
        """The nu-th derivative as a PPoly (nu < 0: the antiderivative)."""
        if nu < 0:
            return self.antiderivative(-nu)
        c2 = self.c.copy() if nu == 0 else self.c[:-nu]
        if c2.shape[0] == 0:
            c2 = _ca.zeros((1,) + c2.shape[1:], dtype=c2.dtype, device=self.c.device)
        f = _poch(range(c2.shape[0], 0, -1), nu)
        c2 = c2 * _cm.on(_col(f, c2.ndim), self.c.device)
        return self._like(c2)

    def antiderivative(self, nu=1):
        """The nu-th antiderivative as a PPoly, continuous across breakpoints and
        zero at x[0] (nu < 0: the derivative)."""
        if nu <= 0:
            return self.derivative(-nu)
        c = self.c
        for _ in range(nu):
            c = self._integrate_once(c)
        ext = False if self.extrapolate == "periodic" else self.extrapolate
        return self._like(c, ext)

    def _integrate_once(self, c):
        k = c.shape[0]
        f = _cm.on(_col(_np.arange(k, 0, -1, dtype=_np.float64), c.ndim), c.device)
        body = c / f
        dx = _col(_ca.diff(self.x), c.ndim - 1)
        ends = _ca.zeros(c.shape[1:], dtype=c.dtype, device=c.device)
        for j in range(k):                  # each piece's integral over its interval
            ends = (ends + body[j]) * dx
        const = _ca.cumsum(ends, axis=0) - ends
        return _ca.concatenate([body, const[None]], axis=0)

    def solve(self, y=0.0, discontinuity=True, extrapolate=None):
        """The real solutions of pp(x) == y (host math: SciPy's solve on a copy of
        the coefficients; the roots come back on the device)."""
        r = self._scipy().solve(y, discontinuity, extrapolate)
        return _roots_back(r, self.c.device)

    def roots(self, discontinuity=True, extrapolate=None):
        """The real roots (host math, as solve)."""
        return self.solve(0.0, discontinuity, extrapolate)

    @classmethod
    def from_spline(cls, tck, extrapolate=None):
        """The PPoly of a BSpline or a (t, c, k) tuple: the local Taylor
        coefficients at each knot, from k + 1 device evaluations."""
        from ._bsplines import BSpline
        if isinstance(tck, BSpline):
            spl = tck
            if extrapolate is None:
                extrapolate = tck.extrapolate
        else:
            t, c, k = tck
            dev = _cm.device_of(t, c)
            spl = BSpline.construct_fast(_cm.on(t, dev, _np.float64), _cm.on(c, dev), k)
        t, k = spl.t, spl.k
        rows = [spl(t[:-1], nu=m) / _math.gamma(m + 1) for m in range(k, -1, -1)]
        return cls.construct_fast(_ca.stack(rows), t, extrapolate)

    @classmethod
    def from_bernstein_basis(cls, bp, extrapolate=None):
        """The PPoly of a BPoly: each power coefficient a binomial sum of the
        Bernstein coefficients (k^2 passes over c)."""
        c, k, h = _convertible(bp, BPoly, "from_bernstein_basis")
        rows = []
        for p in range(k, -1, -1):      # row k - p holds the power p
            acc = _ca.zeros(c.shape[1:], dtype=c.dtype, device=c.device)
            for j in range(p + 1):
                acc = acc + c[j] * (_math.comb(k, j) * _math.comb(k - j, p - j)
                                    * (-1.0) ** (p - j))
            rows.append(acc / h ** p)
        ext = bp.extrapolate if extrapolate is None else extrapolate
        return cls.construct_fast(_ca.stack(rows), bp.x, ext, bp.axis)


def _convertible(obj, cls, method):
    """(c, degree, interval widths shaped for c[j]) of a basis conversion's input."""
    if not isinstance(obj, cls):
        raise TypeError(f".{method} only accepts {cls.__name__} instances. "
                        f"Got {type(obj)} instead.")
    c = obj.c
    return c, c.shape[0] - 1, _ca.diff(obj.x).reshape((-1,) + (1,) * (c.ndim - 2))


def _roots_back(r, device):
    if r.dtype == object:
        out = _np.empty(r.shape, dtype=object)
        for idx in _np.ndindex(r.shape):
            out[idx] = _cm.on(r[idx], device)
        return out
    return _cm.on(r, device)


class BPoly(_PPolyBase):
    """BPoly(c, x, extrapolate=None, axis=0)

    A piecewise polynomial in the Bernstein basis: on [x[i], x[i+1]] it is
    sum(c[a, i] * comb(k, a) * t**a * (1-t)**(k-a)), t = (xp - x[i]) / (x[i+1] - x[i]).
    Evaluation runs on c's device (see the module notes)."""

    _scipy_name = "BPoly"

    def _evaluate(self, c, flat):
        i, s = self._points(flat)
        t = s / _ca.take(_ca.diff(self.x), i)[:, None]
        u = 1.0 - t
        k = c.shape[0] - 1
        # de Casteljau-free form: the sum of the k + 1 weighted basis terms
        y = None
        for a in range(k + 1):
            term = _ca.take(c[a], i, axis=0) * (_math.comb(k, a) * t ** a * u ** (k - a))
            y = term if y is None else y + term
        return y

    def derivative(self, nu=1):
        """The nu-th derivative as a BPoly (nu < 0: the antiderivative)."""
        if nu < 0:
            return self.antiderivative(-nu)
        c = self.c
        h = _ca.diff(self.x).reshape((-1,) + (1,) * (c.ndim - 2))
        for _ in range(nu):
            k = c.shape[0] - 1
            if k == 0:
                c = _ca.zeros_like(c)
                break
            c = k * (c[1:] - c[:-1]) / h
        return self._like(c)

    def antiderivative(self, nu=1):
        """The nu-th antiderivative as a BPoly, continuous and zero at x[0]."""
        if nu <= 0:
            return self.derivative(-nu)
        c = self.c
        h = _ca.diff(self.x).reshape((-1,) + (1,) * (c.ndim - 2))
        for _ in range(nu):
            k = c.shape[0]
            body = _ca.cumsum(c, axis=0) * h / k
            zero = _ca.zeros((1,) + c.shape[1:], dtype=c.dtype, device=c.device)
            c2 = _ca.concatenate([zero, body], axis=0)
            ends = c2[-1]
            c = c2 + (_ca.cumsum(ends, axis=0) - ends)
        ext = False if self.extrapolate == "periodic" else self.extrapolate
        return self._like(c, ext)

    @classmethod
    def from_power_basis(cls, pp, extrapolate=None):
        """The BPoly of a PPoly (k^2 passes over c)."""
        c, k, h = _convertible(pp, PPoly, "from_power_basis")
        rows = []
        for j in range(k + 1):
            acc = _ca.zeros(c.shape[1:], dtype=c.dtype, device=c.device)
            for p in range(j + 1):
                acc = acc + c[k - p] * h ** p * (_math.comb(j, p) / _math.comb(k, p))
            rows.append(acc)
        ext = pp.extrapolate if extrapolate is None else extrapolate
        return cls.construct_fast(_ca.stack(rows), pp.x, ext, pp.axis)

    @classmethod
    def from_derivatives(cls, xi, yi, orders=None, extrapolate=None):
        """The BPoly matching derivatives at the breakpoints (host math: SciPy's
        construction on copies; its coefficients back on the inputs' device)."""
        dev = _cm.device_of(xi, yi) or _ca.asarray(0).device
        yi_h = [_cm.host(v) for v in yi] if isinstance(yi, (list, tuple)) else _cm.host(yi)
        sp = _cm.scipy_interpolate().BPoly.from_derivatives(_cm.host(xi), yi_h, orders,
                                                            extrapolate)
        return cls.construct_fast(_cm.on(sp.c, dev), _cm.on(sp.x, dev), sp.extrapolate)


class NdPPoly:
    """NdPPoly(c, x, extrapolate=None)

    A piecewise tensor-product polynomial: c (k1, ..., kd, m1, ..., md, ...) on the
    breakpoints x = (x1, ..., xd). Evaluation gathers each point's k1...kd
    coefficients in one take and contracts them with the per-axis powers; its
    calculus works axis by axis through PPoly's."""

    def __init__(self, c, x, extrapolate=None):
        dev = _cm.device_of(c, *x)
        self.x = tuple(_cm.on(v, dev, _np.float64) for v in x)
        c = _cm.on(c, dev)
        self.extrapolate = True if extrapolate is None else bool(extrapolate)
        nd = len(self.x)
        if any(v.ndim != 1 for v in self.x):
            raise ValueError("x arrays must all be 1-dimensional")
        if any(v.size < 2 for v in self.x):
            raise ValueError("x arrays must all contain at least 2 points")
        if c.ndim < 2 * nd:
            raise ValueError("c must have at least 2*len(x) dimensions")
        if any(bool((_ca.diff(v) < 0).any()) for v in self.x):
            raise ValueError("x-coordinates are not in increasing order")
        if any(a.size - 1 != c.shape[nd + i] for i, a in enumerate(self.x)):
            raise ValueError("x and c do not agree on the number of intervals")
        self.c = _ca.ascontiguousarray(c.astype(_cm.float_dtype(c.dtype)))

    @classmethod
    def construct_fast(cls, c, x, extrapolate=None):
        """Construct the piecewise polynomial without making checks."""
        self = object.__new__(cls)
        self.c, self.x = c, tuple(x)
        self.extrapolate = True if extrapolate is None else extrapolate
        return self

    def __call__(self, x, nu=None, extrapolate=None):
        """Evaluate at points x (..., ndim) (or a tuple of coordinate arrays), the
        partial derivatives of orders nu (one per axis) if given."""
        nd = len(self.x)
        ext = self.extrapolate if extrapolate is None else bool(extrapolate)
        dev = self.c.device
        nu = (0,) * nd if nu is None else tuple(nu)
        if len(nu) != nd:
            raise ValueError("invalid number of derivative orders nu")
        pts = (_ca.stack(_ca.broadcast_arrays(*[_cm.on(v, dev, _np.float64) for v in x]),
                         axis=-1) if isinstance(x, tuple) else _cm.on(x, dev, _np.float64))
        if pts.ndim == 1 and nd == 1:
            pts = pts[:, None]
        lead = pts.shape[:-1]
        pts = pts.reshape(-1, nd)
        ks, ms, trail = self.c.shape[:nd], self.c.shape[nd:2 * nd], self.c.shape[2 * nd:]
        flat, bad, weights = 0, None, []
        for d in range(nd):
            p = pts[:, d]
            i = _cm.interval(self.x[d], p)
            flat = flat * ms[d] + i
            weights.append(_power_weights(p - _ca.take(self.x[d], i), ks[d], nu[d]))
            if not ext:
                o = _cm.outside(p, self.x[d][0], self.x[d][-1])
                bad = o if bad is None else bad | o
        perm = tuple(range(nd, 2 * nd)) + tuple(range(nd)) + tuple(range(2 * nd, self.c.ndim))
        cr = self.c.transpose(perm).reshape(_math.prod(ms), _math.prod(ks), -1)
        g = _ca.take(cr, flat, axis=0).reshape((-1,) + tuple(ks) + (cr.shape[-1],))
        for d in range(nd - 1, -1, -1):
            w = weights[d].reshape((-1,) + (1,) * d + (ks[d], 1))
            g = (g * w).sum(axis=1 + d)
        if bad is not None:
            g = _cm.nan_outside(g, bad)
        return g.reshape(lead + trail)

    def _along(self, axis, fn):
        """fn applied to the PPoly along axis; the NdPPoly of its coefficients."""
        nd = len(self.x)
        c = _ca.moveaxis(self.c, (axis, nd + axis), (0, 1))
        pp = fn(PPoly.construct_fast(c, self.x[axis], self.extrapolate))
        return _ca.moveaxis(pp.c, (0, 1), (axis, nd + axis))

    def _per_axis(self, nu, method):
        out = self
        for axis, n in enumerate(nu):
            c = out._along(axis, lambda p: getattr(p, method)(n))
            out = NdPPoly.construct_fast(c, self.x, self.extrapolate)
        return out

    def derivative(self, nu):
        """The partial derivative of orders nu (one per axis), an NdPPoly."""
        return self._per_axis(nu, "derivative")

    def antiderivative(self, nu):
        """The antiderivative of orders nu (one per axis), an NdPPoly."""
        return self._per_axis(nu, "antiderivative")

    def integrate_1d(self, a, b, axis, extrapolate=None):
        """The integral over [a, b] along axis: an NdPPoly of one dimension less
        (an array when this one is 1-d)."""
        nd = len(self.x)
        ext = self.extrapolate if extrapolate is None else bool(extrapolate)
        c = _ca.moveaxis(self.c, (axis, nd + axis), (0, 1))
        pp = PPoly.construct_fast(c, self.x[axis], ext)
        r = pp.integrate(a, b, extrapolate=ext)
        if nd == 1:
            return r
        x = self.x[:axis] + self.x[axis + 1:]
        return NdPPoly.construct_fast(r, x, self.extrapolate)

    def integrate(self, ranges, extrapolate=None):
        """The integral over the box ranges ((a1, b1), ..., (ad, bd))."""
        nd = len(self.x)
        if not hasattr(ranges, "__len__") or len(ranges) != nd:
            raise ValueError("Range not a sequence of correct length")
        out = self
        for a, b in ranges:
            out = out.integrate_1d(a, b, 0, extrapolate)
        return out


def _power_weights(s, k, nu):
    """(N, k): the nu-th derivative of s**(k-1-j) for each coefficient row j."""
    cols = []
    for j in range(k):
        p = k - 1 - j
        if p < nu:
            cols.append(_ca.zeros_like(s))
        else:
            cols.append(s ** (p - nu) * float(_math.prod(range(p - nu + 1, p + 1))))
    return _ca.stack(cols, axis=-1)
