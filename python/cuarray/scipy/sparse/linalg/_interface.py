"""LinearOperator and aslinearoperator: SciPy's scipy.sparse.linalg interface on
cuarray arrays.

An operator wraps anything that can multiply a vector: a dense cuarray matrix, a
cuarray sparse matrix, a user's matvec, or a sum/product/scaling/power/adjoint of
other operators. Vectors are cuarray arrays on any device; an operator does not
move data, so the vector's device is the one its products run on. NumPy arrays
are not operators here (TypeError, as CuPy's): turn them into cuarray arrays first.

``_host(A)`` turns an operator (or a matrix) into the SciPy object the cpu device's
hand-off to SciPy's own solvers uses: NumPy views of cpu-device arrays, SciPy
sparse matrices, and a SciPy LinearOperator whose products call this operator on
cpu-device views (no copies).
"""

import numpy as _np

import cuarray as _ca
from ...._devices import device_of as _device_of, on_cpu as _on_cpu

__all__ = ["LinearOperator", "aslinearoperator"]


_ISSPARSE = []


def _issparse(A):
    """Whether A is a cuarray sparse matrix (cuarray.scipy.sparse.issparse, looked
    up once)."""
    if not _ISSPARSE:
        from cuarray.scipy.sparse import issparse
        _ISSPARSE.append(issparse)
    return _ISSPARSE[0](A)


def _isscalar(x):
    return _np.isscalar(x) or (isinstance(x, _ca.ndarray) and x.ndim == 0)


def _conj_t(A):
    """A's conjugate transpose: a real A's transpose (a view), a complex sparse
    matrix's lazy .H (conjugated as its products read it), else a conjugated copy."""
    if A.dtype.kind != "c":
        return A.T
    if _issparse(A) and hasattr(A, "H"):
        return A.H
    return A.conj().T


def _coef(V, u):
    """conj(V) @ u (the coefficients of u along V's rows) without a conjugated
    copy of V: two vector conjugates for complex data, none for real."""
    return (V @ u.conj()).conj() if V.dtype.kind == "c" else V @ u


class LinearOperator:
    """LinearOperator(shape, matvec, rmatvec=None, matmat=None, dtype=None,
    rmatmat=None)

    A matrix known by its products, as SciPy's: construct one from callables, or
    subclass and define ``_matvec`` or ``_matmat`` (and ``_rmatvec``/``_adjoint``
    for the adjoint). Operators add, multiply, scale, raise to integer powers and
    transpose lazily; ``A @ x`` and ``A.dot(x)`` take 1-D or 2-D cuarray arrays.
    """

    ndim = 2

    def __new__(cls, *args, **kwargs):
        if cls is LinearOperator:
            # Called with callables: SciPy's factory behaviour.
            return super().__new__(_CustomLinearOperator)
        obj = super().__new__(cls)
        if (type(obj)._matvec is LinearOperator._matvec
                and type(obj)._matmat is LinearOperator._matmat):
            import warnings
            warnings.warn("LinearOperator subclass should implement at least one "
                          "of _matvec and _matmat.", RuntimeWarning, stacklevel=2)
        return obj

    def __init__(self, dtype, shape):
        shape = tuple(shape)
        if not (len(shape) == 2 and all(_np.ndim(s) == 0 and int(s) == s
                                        and s >= 0 for s in shape)):
            raise ValueError(f"invalid shape {shape!r} (must be 2-d)")
        self.dtype = None if dtype is None else _np.dtype(dtype)
        self.shape = (int(shape[0]), int(shape[1]))

    def _init_dtype(self):
        # SciPy's rule: the dtype of a product with an int8 vector.
        if self.dtype is None:
            self.dtype = _probe(self).dtype

    # -- the products; subclasses define _matvec or _matmat -----------------
    def _matmat(self, X):
        return _ca.stack([self.matvec(X[:, j]) for j in range(X.shape[1])], axis=1)

    def _matvec(self, x):
        return self.matmat(x.reshape(-1, 1))

    def _rmatvec(self, x):
        if type(self)._adjoint is LinearOperator._adjoint:
            raise NotImplementedError
        return self.H.matvec(x)

    def _rmatmat(self, X):
        if type(self)._adjoint is LinearOperator._adjoint:
            return _ca.stack([self.rmatvec(X[:, j]) for j in range(X.shape[1])],
                             axis=1)
        return self.H.matmat(X)

    def _vec(self, x, inner, n_in, n_out, what):
        x = _as_vector(x)
        if x.shape != (n_in,) and x.shape != (n_in, 1):
            raise ValueError("dimension mismatch")
        y = _ca.asarray(inner(x))
        if y.size != n_out:
            raise ValueError(f"invalid shape returned by user-defined {what}()")
        return y.reshape(n_out) if x.ndim == 1 else y.reshape(n_out, 1)

    def _mat(self, X, inner, n_in):
        X = _as_vector(X)
        if X.ndim != 2:
            raise ValueError(f"expected 2-d ndarray or matrix, not {X.ndim}-d")
        if X.shape[0] != n_in:
            raise ValueError(f"dimension mismatch: {self.shape}, {X.shape}")
        return inner(X)

    def matvec(self, x):
        """y = A @ x for x of shape (N,) or (N, 1); y has shape (M,) or (M, 1)."""
        return self._vec(x, self._matvec, self.shape[1], self.shape[0], "matvec")

    def rmatvec(self, x):
        """y = A^H @ x for x of shape (M,) or (M, 1)."""
        return self._vec(x, self._rmatvec, self.shape[0], self.shape[1], "rmatvec")

    def matmat(self, X):
        """Y = A @ X for a 2-D X of N rows."""
        return self._mat(X, self._matmat, self.shape[1])

    def rmatmat(self, X):
        """Y = A^H @ X for a 2-D X of M rows."""
        return self._mat(X, self._rmatmat, self.shape[0])

    def __call__(self, x):
        return self @ x

    def dot(self, x):
        """A @ x for an array, the product operator for an operator, the scaled
        operator for a scalar."""
        if isinstance(x, LinearOperator):
            return _ProductLinearOperator(self, x)
        if _isscalar(x):
            return _ScaledLinearOperator(self, x)
        x = _as_vector(x)
        if x.ndim == 1 or (x.ndim == 2 and x.shape[1] == 1):
            return self.matvec(x)
        if x.ndim == 2:
            return self.matmat(x)
        raise ValueError(f"expected 1-d or 2-d array or matrix, got {x!r}")

    def _rdot(self, x):
        if isinstance(x, LinearOperator):
            return _ProductLinearOperator(x, self)
        if _isscalar(x):
            return _ScaledLinearOperator(self, x)
        # x @ A = (A^T @ x^T)^T
        return self.T.dot(_as_vector(x).T).T

    __mul__ = dot

    def __rmul__(self, x):
        return self._rdot(x)

    def __matmul__(self, other):
        return self.dot(_matmul_operand(other))

    def __rmatmul__(self, other):
        return self._rdot(_matmul_operand(other))

    def __truediv__(self, other):
        if not _np.isscalar(other):
            raise ValueError("Can only divide a linear operator by a scalar.")
        return _ScaledLinearOperator(self, 1.0 / other)

    def __pow__(self, p):
        return _PowerLinearOperator(self, p) if _np.isscalar(p) else NotImplemented

    def __add__(self, x):
        if isinstance(x, LinearOperator):
            return _SumLinearOperator(self, x)
        return NotImplemented

    def __neg__(self):
        return _ScaledLinearOperator(self, -1)

    def __sub__(self, x):
        return self.__add__(-x)

    def __repr__(self):
        dt = "unspecified dtype" if self.dtype is None else f"dtype={self.dtype}"
        return f"<{self.shape[0]}x{self.shape[1]} {type(self).__name__} with {dt}>"

    def adjoint(self):
        """The Hermitian adjoint A^H (lazy)."""
        return self._adjoint()

    def transpose(self):
        """The transpose A^T (lazy)."""
        return self._transpose()

    H = property(adjoint)
    T = property(transpose)

    def _adjoint(self):
        return _AdjointLinearOperator(self)

    def _transpose(self):
        return _TransposedLinearOperator(self)


def _probe(op):
    """op's product with an int8 zero vector on the device its products run on:
    the default device's, else the cpu device's (an operator over cpu arrays on a
    GPU machine); that device is remembered as op's."""
    devices = [_ca.zeros(0).device]
    if devices[0] != "cpu":
        devices.append("cpu")
    for k, dev in enumerate(devices):
        try:
            y = op.matvec(_ca.zeros(op.shape[-1], _np.int8, device=dev))
        except Exception:
            if k == len(devices) - 1:
                raise
            continue
        op._device = dev
        return y


def _op_device(op):
    """Where an operator's products run: its matrix's device, an operand's, the
    device its dtype was probed on, or (probing now) the one its product works on."""
    if isinstance(op, MatrixLinearOperator):
        return getattr(op.A, "device", None) or _ca.zeros(0).device
    for a in getattr(op, "args", ()):
        if isinstance(a, LinearOperator):
            return _op_device(a)
    if getattr(op, "_device", None) is None:
        _probe(op)
    return op._device


def _matmul_operand(x):
    """x, the other operand of an @ product: a scalar is refused, as in SciPy."""
    if _np.isscalar(x):
        raise ValueError("Scalar operands are not allowed, use '*' instead")
    return x


def _as_vector(x):
    if isinstance(x, _ca.ndarray) or _issparse(x):
        return x
    if isinstance(x, _np.ndarray):
        raise TypeError("LinearOperator products take cuarray arrays, not NumPy "
                        "arrays: convert with cuarray.asarray first")
    return _ca.asarray(x)


class _CustomLinearOperator(LinearOperator):
    """An operator from the user's callables."""

    def __init__(self, shape, matvec, rmatvec=None, matmat=None, dtype=None,
                 rmatmat=None):
        super().__init__(dtype, shape)
        self.args = ()
        self.__matvec_impl = matvec
        self.__rmatvec_impl = rmatvec
        self.__matmat_impl = matmat
        self.__rmatmat_impl = rmatmat
        self._init_dtype()

    def _matvec(self, x):
        return self.__matvec_impl(x)

    def _matmat(self, X):
        if self.__matmat_impl is not None:
            return self.__matmat_impl(X)
        return super()._matmat(X)

    def _rmatvec(self, x):
        if self.__rmatvec_impl is None:
            raise NotImplementedError("rmatvec is not defined")
        return self.__rmatvec_impl(x)

    def _rmatmat(self, X):
        if self.__rmatmat_impl is not None:
            return self.__rmatmat_impl(X)
        return super()._rmatmat(X)

    def _adjoint(self):
        return _CustomLinearOperator(
            (self.shape[1], self.shape[0]), matvec=self.__rmatvec_impl,
            rmatvec=self.__matvec_impl, matmat=self.__rmatmat_impl,
            rmatmat=self.__matmat_impl, dtype=self.dtype)


class _OperatorOfA(LinearOperator):
    """An operator derived from A, of A's transposed shape."""

    def __init__(self, A):
        super().__init__(A.dtype, (A.shape[1], A.shape[0]))
        self.A = A
        self.args = (A,)


class _AdjointLinearOperator(_OperatorOfA):
    def _matvec(self, x):
        return self.A._rmatvec(x)

    def _rmatvec(self, x):
        return self.A._matvec(x)

    def _matmat(self, X):
        return self.A._rmatmat(X)

    def _rmatmat(self, X):
        return self.A._matmat(X)


class _TransposedLinearOperator(_OperatorOfA):
    # A^T x = conj(A^H conj(x)): the transpose from the adjoint's products.
    def _matvec(self, x):
        return _ca.conj(self.A._rmatvec(_ca.conj(x)))

    def _rmatvec(self, x):
        return _ca.conj(self.A._matvec(_ca.conj(x)))

    def _matmat(self, X):
        return _ca.conj(self.A._rmatmat(_ca.conj(X)))

    def _rmatmat(self, X):
        return _ca.conj(self.A._matmat(_ca.conj(X)))


def _get_dtype(operators, dtypes=()):
    dtypes = list(dtypes) + [op.dtype for op in operators
                             if op is not None and op.dtype is not None]
    return _np.result_type(*dtypes) if dtypes else None


class _SumLinearOperator(LinearOperator):
    def __init__(self, A, B):
        if not isinstance(A, LinearOperator) or not isinstance(B, LinearOperator):
            raise ValueError("both operands have to be a LinearOperator")
        if A.shape != B.shape:
            raise ValueError(f"cannot add {A} and {B}: shape mismatch")
        self.args = (A, B)
        super().__init__(_get_dtype([A, B]), A.shape)

    def _matvec(self, x):
        return self.args[0].matvec(x) + self.args[1].matvec(x)

    def _rmatvec(self, x):
        return self.args[0].rmatvec(x) + self.args[1].rmatvec(x)

    def _matmat(self, X):
        return self.args[0].matmat(X) + self.args[1].matmat(X)

    def _rmatmat(self, X):
        return self.args[0].rmatmat(X) + self.args[1].rmatmat(X)

    def _adjoint(self):
        return self.args[0].H + self.args[1].H


class _ProductLinearOperator(LinearOperator):
    def __init__(self, A, B):
        if not isinstance(A, LinearOperator) or not isinstance(B, LinearOperator):
            raise ValueError("both operands have to be a LinearOperator")
        if A.shape[1] != B.shape[0]:
            raise ValueError(f"cannot multiply {A} and {B}: shape mismatch")
        super().__init__(_get_dtype([A, B]), (A.shape[0], B.shape[1]))
        self.args = (A, B)

    def _matvec(self, x):
        return self.args[0].matvec(self.args[1].matvec(x))

    def _rmatvec(self, x):
        return self.args[1].rmatvec(self.args[0].rmatvec(x))

    def _matmat(self, X):
        return self.args[0].matmat(self.args[1].matmat(X))

    def _rmatmat(self, X):
        return self.args[1].rmatmat(self.args[0].rmatmat(X))

    def _adjoint(self):
        return self.args[1].H * self.args[0].H


class _ScaledLinearOperator(LinearOperator):
    def __init__(self, A, alpha):
        if not isinstance(A, LinearOperator):
            raise ValueError("LinearOperator expected as A")
        if not _isscalar(alpha):
            raise ValueError("scalar expected as alpha")
        if isinstance(A, _ScaledLinearOperator):
            A, alpha = A.args[0], A.args[1] * alpha
        super().__init__(_get_dtype([A], [type(alpha)]), A.shape)
        self.args = (A, alpha)

    def _matvec(self, x):
        return self.args[1] * self.args[0].matvec(x)

    def _rmatvec(self, x):
        return _np.conj(self.args[1]) * self.args[0].rmatvec(x)

    def _matmat(self, X):
        return self.args[1] * self.args[0].matmat(X)

    def _rmatmat(self, X):
        return _np.conj(self.args[1]) * self.args[0].rmatmat(X)

    def _adjoint(self):
        return self.args[0].H * _np.conj(self.args[1])


class _PowerLinearOperator(LinearOperator):
    def __init__(self, A, p):
        if not isinstance(A, LinearOperator):
            raise ValueError("LinearOperator expected as A")
        if A.shape[0] != A.shape[1]:
            raise ValueError(f"square LinearOperator expected, got {A!r}")
        if not (_np.ndim(p) == 0 and int(p) == p and p >= 0):
            raise ValueError("non-negative integer expected as p")
        super().__init__(_get_dtype([A]), A.shape)
        self.args = (A, int(p))

    def _power(self, fun, x):
        res = x.copy()
        for _ in range(self.args[1]):
            res = fun(res)
        return res

    def _matvec(self, x):
        return self._power(self.args[0].matvec, x)

    def _rmatvec(self, x):
        return self._power(self.args[0].rmatvec, x)

    def _matmat(self, X):
        return self._power(self.args[0].matmat, X)

    def _rmatmat(self, X):
        return self._power(self.args[0].rmatmat, X)

    def _adjoint(self):
        return self.args[0].H ** self.args[1]


class MatrixLinearOperator(LinearOperator):
    """A dense cuarray matrix or a cuarray sparse matrix as an operator."""

    def __init__(self, A):
        super().__init__(A.dtype, A.shape)
        self.A = A
        self.__adj = None
        self.args = (A,)

    def _matmat(self, X):
        return self.A @ X

    def _matvec(self, x):
        return self.A @ x

    def _adjoint(self):
        if self.__adj is None:
            self.__adj = MatrixLinearOperator(_conj_t(self.A))
        return self.__adj


class IdentityOperator(LinearOperator):
    """The identity of a shape (SciPy's: products return their operand)."""

    def __init__(self, shape, dtype=None):
        super().__init__(dtype, shape)

    def _matvec(self, x):
        return x

    def _rmatvec(self, x):
        return x

    def _matmat(self, X):
        return X

    def _rmatmat(self, X):
        return X

    def _adjoint(self):
        return self


def aslinearoperator(A):
    """aslinearoperator(A)

    A as a LinearOperator: a LinearOperator itself; a dense cuarray array (at most
    2-D; a 1-D one is a row); a cuarray sparse matrix; or any object with
    ``.shape`` and ``.matvec`` (and optionally ``.rmatvec``, ``.rmatmat`` and
    ``.dtype``). Anything else (NumPy arrays included) raises TypeError.
    """
    if isinstance(A, LinearOperator):
        return A
    if isinstance(A, _ca.ndarray):
        if A.ndim > 2:
            raise ValueError("array must have ndim <= 2")
        return MatrixLinearOperator(A.reshape(1, -1) if A.ndim < 2 else A)
    if _issparse(A):
        return MatrixLinearOperator(A)
    if hasattr(A, "shape") and hasattr(A, "matvec"):
        return LinearOperator(A.shape, A.matvec, rmatvec=getattr(A, "rmatvec", None),
                              rmatmat=getattr(A, "rmatmat", None),
                              dtype=getattr(A, "dtype", None))
    raise TypeError("type not understood")


# ---------------------------------------------------------------------------
# The cpu device's hand-off to SciPy: SciPy objects over zero-copy views.
# ---------------------------------------------------------------------------


def _host(A):
    """A SciPy-usable form of an operator, matrix or vector for the cpu device:
    NumPy views of cpu arrays, the SciPy form of a sparse matrix, a SciPy
    LinearOperator whose products call A on cpu-device views."""
    import scipy.sparse.linalg as ssl
    if A is None or isinstance(A, (str, _np.ndarray)) or _np.isscalar(A):
        return A
    if isinstance(A, _ca.ndarray):
        return _np.asarray(A)
    if _issparse(A):
        if getattr(A, "device", "cpu") != "cpu":
            # the hand-off is the cpu device's: no silent copy off a GPU
            raise ValueError(f"operands on different devices: cpu and {A.device}")
        return A.get()
    if isinstance(A, MatrixLinearOperator):
        return _host(A.A)
    if isinstance(A, IdentityOperator):
        from scipy.sparse.linalg._interface import IdentityOperator as _Id
        return _Id(A.shape, A.dtype)
    op = aslinearoperator(A)

    def call(f):
        return lambda v: _np.asarray(f(_ca.asarray(v, device="cpu")))

    return ssl.LinearOperator(op.shape, matvec=call(op.matvec),
                              rmatvec=call(op.rmatvec), matmat=call(op.matmat),
                              rmatmat=call(op.rmatmat), dtype=op.dtype)


def _back(r, device="cpu"):
    """SciPy's results (arrays, scalars, tuples of them) as cpu-device arrays; ints
    and floats stay Python numbers."""
    if isinstance(r, tuple):
        return tuple(_back(x, device) for x in r)
    if isinstance(r, _np.ndarray):
        return _ca.asarray(r, device=device)
    return r


def _wrap_callback(callback):
    """A SciPy callback that hands the user cpu-device arrays (views)."""
    if callback is None:
        return None
    return lambda xk, *a: callback(_back(xk) if isinstance(xk, _np.ndarray) else xk,
                                   *a)
