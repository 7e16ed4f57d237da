"""Polynomials: poly, poly1d, polyadd, polysub, polymul, polyval, polyfit, roots,
as NumPy's (numpy/lib/_polynomial_impl.py).

Coefficients live on the device as cuarray arrays. polyval evaluates all points
at once against a Vandermonde block built by cumprod (the same products Horner's
rule would form, one kernel for all powers); polymul is a convolution. Three
functions need linear algebra cuarray does not have yet (no eigvals, lstsq or
qr in cuarray.linalg): roots, poly of a square matrix and polyfit run NumPy on
the host values (one transfer each way), so their results are NumPy's exactly.
"""

import numbers
import operator
import sys as _sys

import numpy as _np

# the package namespace (element-wise functions live in _ufuncs, reductions and
# shapes in _core); names are looked up at call time, so __init__'s order of
# imports does not matter
_ca = _sys.modules[__package__]

__all__ = ["poly", "poly1d", "polyadd", "polysub", "polymul", "polyval", "polyfit",
           "roots", "polyder", "polyint", "polydiv"]


def _arr(a, device=None):
    if isinstance(a, poly1d):
        return a.coeffs
    if isinstance(a, _ca.ndarray):
        return a
    return _ca.asarray(a, device=device)


def _host(a):
    return a.get() if isinstance(a, _ca.ndarray) else _np.asarray(a)


def _device_of(*args):
    for a in args:
        if isinstance(a, poly1d):
            return a.coeffs.device
        if isinstance(a, _ca.ndarray):
            return a.device
    return None


def _atleast_1d(a):
    return a.reshape(1) if a.ndim == 0 else a


def poly(seq_of_zeros):
    """poly(seq_of_zeros)

    The coefficients of the monic polynomial with the given roots, or the
    characteristic polynomial of a square matrix (numpy.poly). Computed by NumPy
    on the host (the matrix case needs eigvals, and the product of (x - r) is a
    chain of tiny convolutions), moved back to the input's device; returns the
    float 1.0 for no roots, as NumPy does.
    """
    dev = _device_of(seq_of_zeros)
    out = _np.poly(_host(seq_of_zeros))
    if isinstance(out, _np.ndarray):
        return _ca.asarray(out, device=dev)
    return out


def roots(p):
    """roots(p)

    The roots of the polynomial with coefficients p (numpy.roots): eigenvalues
    of the companion matrix, computed by NumPy on the host (cuarray has no
    eigvals), returned on p's device.
    """
    dev = _device_of(p)
    return _ca.asarray(_np.roots(_host(p)), device=dev)


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False)

    Least-squares polynomial fit (numpy.polyfit). cuarray.linalg has no lstsq or
    qr, so the fit runs in NumPy on the host values (x, y and w read back once)
    and every array of the result goes back to x's device.
    """
    dev = _device_of(x, y, w)
    res = _np.polyfit(_host(x), _host(y), deg, rcond=rcond, full=full,
                      w=None if w is None else _host(w), cov=cov)

    def back(r):
        return _ca.asarray(r, device=dev) if isinstance(r, _np.ndarray) else r

    if isinstance(res, tuple):
        return tuple(back(r) for r in res)
    return back(res)


# polynomials of lower degree than this evaluate by Horner's rule (one multiply-
# add per coefficient); longer ones through a block of powers
_HORNER_MAX = 32


def polyval(p, x):
    """polyval(p, x)

    The polynomial with coefficients p (highest power first) at the points x
    (numpy.polyval); x a poly1d composes the polynomials. All points at once,
    by Horner's rule over the coefficients (element-wise calls the GPU fuses);
    from _HORNER_MAX coefficients on, a cumprod block of powers and one sum.
    """
    if isinstance(x, poly1d):
        # composition: Horner's rule over the (few) coefficients, on poly1d
        y = poly1d(_arr([0], x.coeffs.device))
        for pv in _host(_arr(p)):
            y = y * x + pv
        return y
    if isinstance(p, poly1d):
        p = p.coeffs
    dev = _device_of(p, x)
    p = _arr(p, dev)
    x = _arr(x, p.device)
    p = p.reshape(-1) if p.ndim == 0 else p
    dt = _np.result_type(x.dtype, p.dtype)
    d = p.shape[0] - 1
    if d < 0:
        return _ca.zeros(x.shape, dtype=x.dtype, device=x.device)
    xs = x.astype(dt)
    pc = p.astype(dt)
    if d < _HORNER_MAX:
        # NumPy's own loop, y = y * x + p[i] from y = 0 * x (so an infinite x
        # gives NaN as there; bools start from zeros_like, as bool * 0 is an
        # int): one multiply-add per coefficient, which a GPU fuses into one
        # element-wise program, no intermediate of x's size
        y = _ca.zeros_like(xs) if dt == _np.bool_ else xs * 0
        for i in range(d + 1):
            y = y * xs + pc[i]
        return y
    # long polynomials: the powers x, x*x, ... from one cumprod (the products
    # Horner's rule forms), weighted and summed in one reduction
    powers = _ca.cumprod(_ca.broadcast_to(xs[..., None], x.shape + (d,)), axis=-1)
    # powers[..., k] = x**(k+1); the highest power goes with p[0]
    y = (powers[..., ::-1] * pc[:-1]).sum(axis=-1) + pc[-1]
    return (y + xs * 0).astype(dt)


def _pad_front(a, n):
    if n <= 0:
        return a
    return _ca.concatenate([_ca.zeros((n,), dtype=a.dtype, device=a.device), a])


def _addsub(a1, a2, sign):
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    dev = _device_of(a1, a2)
    a1 = _atleast_1d(_arr(a1, dev))
    a2 = _atleast_1d(_arr(a2, a1.device))
    n = max(a1.shape[0], a2.shape[0])
    a1 = _pad_front(a1, n - a1.shape[0])
    a2 = _pad_front(a2, n - a2.shape[0])
    val = a1 + a2 if sign > 0 else a1 - a2
    return poly1d(val) if truepoly else val


def polyadd(a1, a2):
    """polyadd(a1, a2)

    The sum of two polynomials (numpy.polyadd): the shorter is padded with
    leading zeros. A poly1d argument gives a poly1d.
    """
    return _addsub(a1, a2, 1)


def polysub(a1, a2):
    """polysub(a1, a2)

    The difference of two polynomials (numpy.polysub).
    """
    return _addsub(a1, a2, -1)


def polymul(a1, a2):
    """polymul(a1, a2)

    The product of two polynomials (numpy.polymul): the convolution of their
    coefficients with leading zeros trimmed, as NumPy's poly1d conversion does.
    """
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    dev = _device_of(a1, a2)
    a1 = poly1d(_arr(a1, dev))
    a2 = poly1d(_arr(a2, a1.coeffs.device))
    from ._statistics_extra import convolve
    val = convolve(a1.coeffs, a2.coeffs)
    return poly1d(val) if truepoly else val


def polyder(p, m=1):
    """polyder(p, m=1)

    The m-th derivative of a polynomial (numpy.polyder): a poly1d for a poly1d,
    else the coefficient array.
    """
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    r = _arr(p)
    for _ in range(m):
        # past the order the coefficients run out: an empty array, as NumPy's
        n = max(r.shape[0] - 1, 0)
        r = r[:-1] * _ca.arange(n, 0, -1, device=r.device)
    return poly1d(r) if isinstance(p, poly1d) else r


def polyint(p, m=1, k=None):
    """polyint(p, m=1, k=None)

    The m-th antiderivative, k the integration constants (a scalar, or m values
    for the highest order first; default 0), as numpy.polyint.
    """
    r = _polyint(p, m, 0 if k is None else k)
    return poly1d(r) if isinstance(p, poly1d) else r


def polydiv(u, v):
    """polydiv(u, v)

    Quotient and remainder of polynomial division (numpy.polydiv). The division is
    a short sequential loop with NumPy's trimming of the remainder: it runs in
    NumPy on the host values (one transfer each way), as roots and polyfit do.
    """
    truepoly = isinstance(u, poly1d) or isinstance(v, poly1d)
    dev = _device_of(u, v)
    q, r = _np.polydiv(_host(_arr(u, dev)), _host(_arr(v, dev)))
    q, r = _ca.asarray(q, device=dev), _ca.asarray(r, device=dev)
    if truepoly:
        return poly1d(q), poly1d(r)
    return q, r


def _polyder(p, m):
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    p = _arr(p)
    for _ in range(m):
        n = p.shape[0] - 1
        if n <= 0:
            return _ca.zeros((1,), dtype=p.dtype, device=p.device)
        p = p[:-1] * _ca.arange(n, 0, -1, device=p.device)
    return p


def _polyint(p, m, k):
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    p = _arr(p)
    k = _np.atleast_1d(_np.asarray(k) if not isinstance(k, _ca.ndarray) else k.get())
    if len(k) == 1 and m > 1:
        k = k[0] * _np.ones(m, float)
    if len(k) < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    for i in range(m):
        n = p.shape[0]
        c = _ca.asarray(k[i:i + 1].astype(_np.float64), device=p.device)
        p = _ca.concatenate([p / _ca.arange(n, 0, -1, dtype=_np.float64,
                                                device=p.device), c])
    return p


class poly1d:
    """poly1d(c_or_r, r=False, variable=None)

    A one-dimensional polynomial (numpy.poly1d) with its coefficients, highest
    power first, on the device as a cuarray array. Leading zeros are trimmed
    (one read-back of where the first nonzero is). Arithmetic, calls, deriv and
    integ stay on the device; roots, repr and str go through the host.
    """

    __hash__ = None
    # NumPy arrays and scalars defer to the reflected operators (2.0 * p, a + p)
    # instead of treating the poly1d as an array of coefficients
    __array_ufunc__ = None
    _coeffs = None
    _variable = None

    @property
    def coeffs(self):
        """The coefficients, highest power first."""
        return self._coeffs

    @coeffs.setter
    def coeffs(self, value):
        if value is not self._coeffs:
            raise AttributeError("Cannot set attribute")

    c = coef = coefficients = coeffs

    @property
    def variable(self):
        """The name of the polynomial's variable."""
        return self._variable

    @property
    def order(self):
        """The order (degree) of the polynomial."""
        return self._coeffs.shape[0] - 1

    o = order

    @property
    def roots(self):
        """The roots of the polynomial (numpy.roots on the host)."""
        return roots(self._coeffs)

    r = roots

    def __init__(self, c_or_r, r=False, variable=None):
        if isinstance(c_or_r, poly1d):
            self._variable = c_or_r._variable
            self._coeffs = c_or_r._coeffs
            if variable is not None:
                self._variable = variable
            return
        if r:
            c_or_r = poly(c_or_r)
        c_or_r = _atleast_1d(_arr(c_or_r))
        if c_or_r.ndim > 1:
            raise ValueError("Polynomial must be 1d only.")
        if c_or_r.size:
            nz = c_or_r != 0
            first = int(nz.argmax()) if bool(nz.any()) else c_or_r.shape[0]
            c_or_r = c_or_r[first:]
        if c_or_r.shape[0] == 0:
            c_or_r = _ca.zeros((1,), dtype=c_or_r.dtype, device=c_or_r.device)
        self._coeffs = c_or_r
        self._variable = "x" if variable is None else variable

    def _np(self):
        return _np.poly1d(self._coeffs.get(), variable=self._variable)

    def __array__(self, t=None, copy=None):
        h = self._coeffs.get()
        return h.astype(t) if t is not None else h

    def __repr__(self):
        return repr(self._np())

    def __str__(self):
        return str(self._np())

    def __len__(self):
        return self.order

    def __call__(self, val):
        return polyval(self._coeffs, val)

    def __neg__(self):
        return poly1d(-self._coeffs)

    def __pos__(self):
        return self

    @staticmethod
    def _scalar(other):
        return isinstance(other, numbers.Number) or (
            isinstance(other, (_np.ndarray, _ca.ndarray, _np.generic))
            and _np.ndim(other) == 0 and not isinstance(other, poly1d))

    def __mul__(self, other):
        if self._scalar(other):
            return poly1d(self._coeffs * other)
        return poly1d(polymul(self, poly1d(other)))

    def __rmul__(self, other):
        if self._scalar(other):
            return poly1d(other * self._coeffs)
        return poly1d(polymul(poly1d(other), self))

    def __add__(self, other):
        return poly1d(polyadd(self, poly1d(_arr(other, self._coeffs.device))))

    def __radd__(self, other):
        return poly1d(polyadd(poly1d(_arr(other, self._coeffs.device)), self))

    def __sub__(self, other):
        return poly1d(polysub(self, poly1d(_arr(other, self._coeffs.device))))

    def __rsub__(self, other):
        return poly1d(polysub(poly1d(_arr(other, self._coeffs.device)), self))

    def __pow__(self, val):
        if not _np.isscalar(val) or int(val) != val or val < 0:
            raise ValueError("Power to non-negative integers only.")
        res = poly1d(_ca.ones((1,), dtype=self._coeffs.dtype,
                                device=self._coeffs.device))
        for _ in range(int(val)):
            res = res * self
        return res

    def __truediv__(self, other):
        if self._scalar(other):
            return poly1d(self._coeffs / other)
        # polynomial division: NumPy's polydiv on the host (a short recurrence)
        other = poly1d(_arr(other, self._coeffs.device))
        q, rem = _np.polydiv(self._coeffs.get(), other._coeffs.get())
        dev = self._coeffs.device
        return (poly1d(_ca.asarray(q, device=dev)),
                poly1d(_ca.asarray(rem, device=dev)))

    __div__ = __truediv__

    def __rtruediv__(self, other):
        if self._scalar(other):
            return poly1d(other / self._coeffs)
        return poly1d(_arr(other, self._coeffs.device)) / self

    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs.shape != other._coeffs.shape:
            return False
        return bool((self._coeffs == other._coeffs).all())

    def __ne__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        return not self.__eq__(other)

    def __getitem__(self, val):
        ind = self.order - operator.index(val)
        if val > self.order or val < 0:
            return self._coeffs.dtype.type(0)
        return self._coeffs[ind]

    def __setitem__(self, key, val):
        key = operator.index(key)
        if key < 0:
            raise ValueError("Does not support negative powers.")
        ind = self.order - key
        c = self._coeffs
        if key > self.order:
            c = _pad_front(c, key - self.order)
            ind = 0
        else:
            c = c.copy()
        c[ind] = val
        self._coeffs = c

    def __iter__(self):
        return iter(self._coeffs)

    def integ(self, m=1, k=0):
        """integ(m=1, k=0)

        The m-th antiderivative, with integration constants k (poly1d.integ).
        """
        return poly1d(_polyint(self._coeffs, m, k))

    def deriv(self, m=1):
        """deriv(m=1)

        The m-th derivative (poly1d.deriv).
        """
        return poly1d(_polyder(self._coeffs, m))
