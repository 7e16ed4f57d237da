"""Polynomial interpolators (SciPy's KroghInterpolator, BarycentricInterpolator,
krogh_interpolate, barycentric_interpolate) on cuarray arrays.

Krogh: the Newton coefficients of the Hermite data (repeated xi give
derivatives) are O(n^2) host arithmetic on a copy of the n nodes (n is a few
dozen: SciPy warns beyond 30), then evaluation is n multiply-adds over all
points on the device and the derivatives SciPy's recurrence, vectorized over
points. Barycentric: the weights are one (n, n) product on the device (SciPy
multiplies in a random order for rounding; here the order is fixed, so `rng` is
accepted and unused), evaluation is one (points, n) matrix of w / (x - xi) and a
matmul, derivatives the differentiation matrix applied to yi (nodes to nodes).
The cpu device runs the same compositions (SciPy's loops are no faster there)."""

import math as _math

import numpy as _np

import cuarray as _ca

from . import _common as _cm

__all__ = ["KroghInterpolator", "BarycentricInterpolator", "krogh_interpolate",
           "barycentric_interpolate"]


class _Interp1D:
    """SciPy's _Interpolator1D bookkeeping: y's interpolation axis first and
    flattened to (n, r); results reshaped and the point axes moved back."""

    def _set_yi(self, yi, xi, axis):
        shape = yi.shape if yi.shape != () else (1,)
        if xi is not None and shape[axis] != xi.shape[0]:
            raise ValueError("x and y arrays must be equal in length along "
                             "interpolation axis.")
        self._y_axis = axis % yi.ndim
        self._y_extra_shape = yi.shape[:self._y_axis] + yi.shape[self._y_axis + 1:]
        self.dtype = _np.complex128 if yi.dtype.kind == "c" else _np.float64

    def _reshape_yi(self, yi):
        yi = _ca.moveaxis(yi, self._y_axis, 0)
        return yi.reshape(yi.shape[0], -1).astype(self.dtype)

    def _prepare_x(self, x):
        x = _cm.on(x, self.xi.device)
        if x.dtype.kind not in "fc":
            x = x.astype(_np.float64)
        return x.reshape(-1), x.shape

    def _finish_y(self, y, x_shape, lead=0):
        y = y.reshape(y.shape[:lead] + x_shape + self._y_extra_shape)
        if self._y_axis != 0 and x_shape != ():
            nx, ny = len(x_shape), len(self._y_extra_shape)
            s = (list(range(lead)) + list(range(lead + nx, lead + nx + self._y_axis))
                 + list(range(lead, lead + nx))
                 + list(range(lead + nx + self._y_axis, lead + nx + ny)))
            y = y.transpose(s)
        return y

    def __call__(self, x):
        """The interpolant at x: y's shape with the axis replaced by x's shape."""
        x, shape = self._prepare_x(x)
        return self._finish_y(self._evaluate(x), shape)

    def derivatives(self, x, der=None):
        """The derivatives of orders 0 .. der-1 at x (all non-zero ones if None),
        stacked along a new first axis."""
        x, shape = self._prepare_x(x)
        return self._finish_y(self._evaluate_derivatives(x, der), shape, lead=1)

    def derivative(self, x, der=1):
        """The derivative of order der at x."""
        x, shape = self._prepare_x(x)
        return self._finish_y(self._evaluate_derivatives(x, der + 1)[der], shape)


class KroghInterpolator(_Interp1D):
    """KroghInterpolator(xi, yi, axis=0)

    The polynomial through (xi, yi); a value of xi repeated m times takes the
    next yi as the derivatives up to order m - 1 there (see the module notes)."""

    def __init__(self, xi, yi, axis=0):
        dev = _cm.device_of(xi, yi)
        self.xi, yi = _cm.on(xi, dev), _cm.on(yi, dev)
        self._set_yi(yi, self.xi, axis)
        self.yi = self._reshape_yi(yi)
        self.n, self.r = self.yi.shape
        if self.xi.size > 30:
            import warnings
            warnings.warn(f"{self.xi.size} degrees provided, degrees higher than about "
                          "thirty cause problems with numerical instability with "
                          "'KroghInterpolator'", stacklevel=2)
        self.c = _cm.on(self._coefficients(_cm.host(self.xi), _cm.host(self.yi)),
                        self.xi.device)

    def _coefficients(self, xi, yi):
        """The Newton coefficients by divided differences over the confluent
        nodes (host, O(n^2) on n nodes)."""
        n, r = yi.shape
        c = _np.zeros((n + 1, r), dtype=self.dtype)
        c[0] = yi[0]
        vk = _np.zeros((n, r), dtype=self.dtype)
        for k in range(1, n):
            s = 0
            while s <= k and xi[k - s] == xi[k]:
                s += 1
            s -= 1
            vk[0] = yi[k] / float(_math.factorial(s))
            for i in range(k - s):
                if xi[i] == xi[k]:
                    raise ValueError("Elements of `xi` can't be equal.")
                prev = c[i] if s == 0 else vk[i + 1]
                vk[i + 1] = (prev - vk[i]) / (xi[i] - xi[k])
            c[k] = vk[k - s]
        return c

    def _evaluate(self, x):
        p = _ca.broadcast_to(self.c[0], (x.shape[0], self.r)).astype(self.dtype)
        pi = _ca.ones(x.shape, dtype=x.dtype, device=x.device)
        for k in range(1, self.n):
            pi = (x - self.xi[k - 1]) * pi
            p = p + pi[:, None] * self.c[k]
        return p

    def _evaluate_derivatives(self, x, der=None):
        n, r = self.n, self.r
        der = n if der is None else der
        w = [_ca.zeros(x.shape, dtype=_np.float64, device=x.device)] * n
        pi = [_ca.ones(x.shape, dtype=_np.float64, device=x.device)]
        p = _ca.broadcast_to(self.c[0], (x.shape[0], r)).astype(self.dtype)
        for k in range(1, n):
            w[k - 1] = x - self.xi[k - 1]
            pi.append(w[k - 1] * pi[k - 1])
            p = p + pi[k][:, None] * self.c[k]
        zero = _ca.zeros((x.shape[0], r), dtype=self.dtype, device=x.device)
        cn = [zero + self.c[j] if j <= n else zero for j in range(max(der, n + 1))]
        cn[0] = p
        for k in range(1, n):
            for i in range(1, n - k + 1):
                pi[i] = w[k + i - 1] * pi[i - 1] + pi[i]
                cn[k] = cn[k] + pi[i][:, None] * cn[k + i]
            cn[k] = cn[k] * float(_math.factorial(k))
        cn[n] = zero
        return _ca.stack(cn[:der])


class BarycentricInterpolator(_Interp1D):
    """BarycentricInterpolator(xi, yi=None, axis=0, *, wi=None, rng=None)

    The polynomial through (xi, yi) in barycentric form (see the module notes)."""

    def __init__(self, xi, yi=None, axis=0, *, wi=None, rng=None):
        dev = _cm.device_of(xi, yi, wi)
        self.xi = _cm.on(xi, dev, _np.float64)
        self._axis0 = axis
        self.n = self.xi.shape[0]
        self._diff = None
        self.yi = None
        self.dtype = _np.float64
        self.set_yi(yi, axis)
        self.wi = self._weights() if wi is None else _cm.on(wi, self.xi.device)

    def _weights(self):
        x = self.xi
        self._inv_capacity = 4.0 / float(x.max() - x.min()) if x.size > 1 else 1.0
        dist = self._inv_capacity * (x[:, None] - x[None, :])
        dist = dist + _ca.eye(self.n, dtype=_np.float64, device=x.device)
        prod = _ca.prod(dist, axis=1)
        if bool((prod == 0).any()):
            raise ValueError("Interpolation points xi must be distinct.")
        return 1.0 / prod

    def set_yi(self, yi, axis=None):
        """Replace the y values (the weights depend only on xi)."""
        if yi is None:
            self.yi = None
            return
        yi = _cm.on(yi, self.xi.device)
        self._set_yi(yi, self.xi, self._axis0 if axis is None else axis)
        self.yi = self._reshape_yi(yi)
        self.n, self.r = self.yi.shape
        self._diff = None

    def add_xi(self, xi, yi=None):
        """Add nodes (and their values); the weights are recomputed."""
        if yi is not None:
            if self.yi is None:
                raise ValueError("No previous yi value to update!")
            yi = _cm.on(yi, self.xi.device)
            yi = _ca.moveaxis(yi, self._y_axis, 0) if yi.ndim > 1 else yi
            self.yi = _ca.concatenate([self.yi, yi.reshape(yi.shape[0], -1)
                                       .astype(self.dtype)])
        elif self.yi is not None:
            raise ValueError("No update to yi provided!")
        self.xi = _ca.concatenate([self.xi, _cm.on(xi, self.xi.device, _np.float64)
                                   .reshape(-1)])
        self.n = self.xi.shape[0]
        self.wi = self._weights()
        self._diff = None

    def _evaluate(self, x, yi=None):
        yi = self.yi if yi is None else yi
        if x.shape[0] == 0:
            return _ca.zeros((0, self.r), dtype=self.dtype, device=x.device)
        c = x[:, None] - self.xi[None, :]
        z = c == 0
        c = self.wi / _ca.where(z, 1.0, c)
        p = (c @ yi) / c.sum(axis=-1)[:, None]
        hit = z.any(axis=1)
        at = _ca.take(yi, _ca.argmax(z, axis=1), axis=0)
        return _ca.where(hit[:, None], at, p)

    def _evaluate_derivatives(self, x, der=None):
        der = self.n if der is None else der
        if x.shape[0] == 0 or self.r == 0:
            return _ca.zeros((der, x.shape[0], self.r), dtype=self.dtype, device=x.device)
        if self._diff is None:
            c = self.xi[:, None] - self.xi
            eye = _ca.eye(self.n, dtype=bool, device=x.device)
            c = self.wi / (_ca.where(eye, 1.0, c) * self.wi[:, None])
            c = _ca.where(eye, 0.0, c)
            self._diff = _ca.where(eye, -c.sum(axis=1)[:, None], c)
        out, y = [], self.yi
        for j in range(der):
            if j >= self.n:
                out.append(_ca.zeros((x.shape[0], self.r), dtype=self.dtype,
                                     device=x.device))
                continue
            out.append(self._evaluate(x, y))
            y = (self._diff @ y) * 1.0
        return _ca.stack(out)

    def derivative(self, x, der=1):
        """The derivative of order der at x."""
        x, shape = self._prepare_x(x)
        if der >= self.n:
            return self._finish_y(_ca.zeros((x.shape[0], self.r), dtype=self.dtype,
                                            device=x.device), shape)
        return self._finish_y(self._evaluate_derivatives(x, der + 1)[der], shape)


def krogh_interpolate(xi, yi, x, der=0, axis=0):
    """krogh_interpolate(xi, yi, x, der=0, axis=0)

    KroghInterpolator(xi, yi, axis)'s values (der 0), derivative (an int) or
    derivatives (a list of orders) at x."""
    P = KroghInterpolator(xi, yi, axis=axis)
    if der == 0:
        return P(x)
    if _np.isscalar(der):
        return P.derivative(x, der=der)
    return P.derivatives(x, der=int(_np.amax(der)) + 1)[_np.asarray(der)]


def barycentric_interpolate(xi, yi, x, axis=0, *, der=0, rng=None):
    """barycentric_interpolate(xi, yi, x, axis=0, *, der=0, rng=None)

    BarycentricInterpolator(xi, yi, axis)'s values or derivatives at x."""
    P = BarycentricInterpolator(xi, yi, axis=axis, rng=rng)
    if _np.isscalar(der) and der == 0:
        return P(x)
    if _np.isscalar(der):
        return P.derivative(x, der=der)
    return P.derivatives(x, der=int(_np.amax(der)) + 1)[_np.asarray(der)]
