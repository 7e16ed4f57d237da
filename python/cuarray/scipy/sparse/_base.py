"""The base of every sparse format: sparray / spmatrix, SciPy's hand-off on the
cpu device, and the operations every format shares (through CSR, as SciPy).

A matrix holds cuarray arrays on one device. On the cpu device (CPU_SCIPY on)
a method decorated with @_scipy_first runs SciPy's own method on a zero-copy
SciPy view of the matrix (`_sp()`) and wraps its result back zero-copy; on a
GPU (or the cpu device with CPU_SCIPY off, as the tests run it) the method's
body runs: a composition of cuarray primitives, cuSPARSE for the products.
"""

import functools
import operator
import warnings

import numpy as np

import cuarray as _ca

from . import _sputils as su


class SparseWarning(Warning):
    """A warning about sparse matrices (SciPy's scipy.sparse.SparseWarning)."""


class SparseEfficiencyWarning(SparseWarning):
    """An operation that is slow on sparse matrices (SciPy's warning)."""


# (format, is_array) -> class, filled by the format modules.
_CLASSES = {}


def _register(cls):
    _CLASSES[(cls._format, issubclass(cls, sparray))] = cls
    return cls


def issparse(x):
    """issparse(x): whether `x` is a cuarray sparse array or matrix."""
    return isinstance(x, _spbase)


def isspmatrix(x):
    """isspmatrix(x): whether `x` is a sparse matrix (spmatrix, not sparray)."""
    return isinstance(x, spmatrix)


# ---------------------------------------------------------------------------
# The cpu device's hand-off to SciPy
# ---------------------------------------------------------------------------

def _unwrap(x):
    """An argument for SciPy: a sparse matrix's SciPy view, an array's NumPy view."""
    if isinstance(x, _spbase):
        return x._sp()
    if isinstance(x, _ca.ndarray):
        return np.asarray(x)
    if isinstance(x, (tuple, list)) and any(isinstance(v, (_spbase, _ca.ndarray))
                                            for v in x):
        return type(x)(_unwrap(v) for v in x)
    return x


def _wrap(r, device="cpu"):
    """A SciPy result as cuarray objects (zero-copy on the cpu device)."""
    sps = su.scipy_sparse()
    if sps.issparse(r):
        return from_scipy(r, device)
    if isinstance(r, np.matrix):
        return _ca.asarray(np.asarray(r), device=device)
    if isinstance(r, (np.ndarray, np.generic)):
        return _ca.asarray(r, device=device)
    if isinstance(r, tuple):
        return tuple(_wrap(v, device) for v in r)
    return r


def _scipy_first(fn):
    """Run SciPy's method of the same name on the cpu device (CPU_SCIPY on)."""
    name = fn.__name__

    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        if su.is_host(self.device):
            args = [_unwrap(a) for a in args]
            kwargs = {k: _unwrap(v) for k, v in kwargs.items()}
            r = getattr(self._sp(), name)(*args, **kwargs)
            return NotImplemented if r is NotImplemented else _wrap(r)
        return fn(self, *args, **kwargs)
    return method


def from_scipy(obj, device=None):
    """A cuarray sparse matrix from a SciPy one, one copy per buffer (none on the
    cpu device); the same format and kind (array or matrix) where cuarray has it,
    else CSR."""
    sps = su.scipy_sparse()
    if obj.ndim != 2:
        # SciPy's 1-D sparse arrays: cuarray's sparse forms are 2-D, so dense
        return _ca.asarray(obj.toarray(), device=device)
    is_array = isinstance(obj, sps.sparray)
    fmt = obj.format if (obj.format, is_array) in _CLASSES else "csr"
    if fmt != obj.format:
        obj = obj.tocsr()
    cls = _CLASSES[(fmt, is_array)]

    def put(a):
        return _ca.asarray(np.ascontiguousarray(a), device=device)
    if fmt in ("csr", "csc"):
        arrays = (put(obj.data), put(obj.indices), put(obj.indptr))
        # what SciPy already knows (its properties would scan the indices)
        extra = {"sorted": bool(obj.__dict__.get("_has_sorted_indices", False)),
                 "canonical": bool(obj.__dict__.get("_has_canonical_format", False))}
    elif fmt == "coo":
        arrays = (put(obj.data), put(obj.row), put(obj.col))
        extra = {"canonical": bool(obj.has_canonical_format)}
    else:
        arrays = (put(obj.data), put(obj.offsets))
        extra = {}
    return cls._from_parts(arrays, obj.shape, **extra)


def sparse_input(arg1, device, convert, copy, dtype):
    """convert(A, copy) of a cuarray or SciPy sparse `arg1` (cast to `dtype`), or
    None for any other input (a constructor's first form)."""
    if not isinstance(arg1, _spbase):
        mod = type(arg1).__module__ or ""
        if not (mod.startswith("scipy.sparse") and su.scipy_sparse().issparse(arg1)):
            return None
        arg1 = from_scipy(arg1, device)
    A = convert(arg1, copy)
    return A if dtype is None else A.astype(dtype, copy=False)


def _as_dense(x, device):
    """A cuarray array on `device` from a dense operand (numpy only on the cpu)."""
    if isinstance(x, _ca.ndarray):
        if str(x.device) != str(device):
            raise ValueError(f"operands on different devices: {device} and {x.device}")
        return x
    if isinstance(x, np.ndarray) and str(device) != "cpu":
        raise TypeError("a NumPy array cannot meet a sparse matrix on a GPU: "
                        "move it with cuarray.asarray")
    return _ca.asarray(x, device=device)


# ---------------------------------------------------------------------------
# The base class
# ---------------------------------------------------------------------------

class _spbase:
    """The operations every format shares; a format defines its buffers,
    _from_parts, _sp_args, tocsr, tocoo and the conversions."""

    __array_priority__ = 10.1
    _format = None
    ndim = 2

    # -- construction and the SciPy view --------------------------------------

    @classmethod
    def _from_parts(cls, arrays, shape, **flags):
        """A matrix of `cls` on trusted buffers (no checks, no copies)."""
        self = object.__new__(cls)
        self._set_parts(arrays, tuple(int(d) for d in shape), **flags)
        return self

    def _like(self, fmt):
        """This kind's class (array or matrix) for format `fmt`."""
        return _CLASSES[(fmt, isinstance(self, sparray))]

    def _sp(self):
        """A zero-copy SciPy view of this matrix (cpu device), kept while the
        buffers stay the same objects (SciPy's constructor costs ~10 us)."""
        if not getattr(self, "has_canonical_format", True):
            # SciPy sorts and sums a non-canonical matrix's buffers in place (max,
            # tocsr, ...), which would corrupt these: it gets copies
            return self._sp_new(copy=True)
        key = tuple(id(a) for a in self._sp_buffers()) + self.shape
        cached = self.__dict__.get("_sp_cache")
        if cached is not None and cached[0] == key:
            return cached[1]
        r = self._sp_new()
        self._sp_cache = (key, r)
        return r

    def _sp_new(self, copy=False):
        return self._scipy_of(np.array if copy else np.asarray)

    def _scipy_of(self, host):
        """The SciPy object of this format and kind on host(buffer) for each buffer."""
        sps = su.scipy_sparse()
        name = self._format + ("_array" if isinstance(self, sparray) else "_matrix")
        views = tuple(host(a) for a in self._sp_buffers())
        r = getattr(sps, name)(self._sp_args(views), shape=self.shape, copy=False)
        self._sp_flags(r)
        return r

    def _sp_flags(self, r):
        """Copy what this matrix knows of its order onto the SciPy view."""

    def get(self, stream=None):
        """get(stream=None): a SciPy sparse object (of the same format and kind)
        holding copies of the buffers on the host."""
        return self._scipy_of(lambda a: a.get(stream=stream))

    # -- attributes -----------------------------------------------------------

    @property
    def format(self):
        return self._format

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self.data.dtype

    @property
    def device(self):
        return self.data.device

    @property
    def size(self):
        return self.nnz

    @property
    def nnz(self):
        return int(self.data.size)

    def getnnz(self, axis=None):
        if axis is not None:
            raise NotImplementedError("getnnz over an axis is not supported")
        return self.nnz

    def get_shape(self):
        return self._shape

    def getformat(self):
        return self._format

    def __len__(self):
        raise TypeError("sparse array length is ambiguous; use getnnz() or shape[0]")

    def __bool__(self):
        if self.shape == (1, 1):
            return self.nnz != 0 and bool(self.toarray()[0, 0])
        raise ValueError("The truth value of an array with more than one element is "
                         "ambiguous. Use a.any() or a.all().")

    __nonzero__ = __bool__

    def __repr__(self):
        kind = "array" if isinstance(self, sparray) else "matrix"
        return (f"<{type(self).__name__}: {self.dtype} sparse {kind} of shape "
                f"{self.shape} with {self.nnz} stored elements in "
                f"{self._format.upper()} format on {self.device}>")

    def __iter__(self):
        for r in range(self.shape[0]):
            yield self[r]

    # -- conversions ----------------------------------------------------------

    def asformat(self, format, copy=False):
        if format is None or format == self._format:
            return self.copy() if copy else self
        try:
            convert = getattr(self, "to" + format)
        except AttributeError:
            raise ValueError(f"Format {format} is unknown.") from None
        return convert(copy=copy)

    def tocsc(self, copy=False):
        return self.tocsr(copy=False).tocsc(copy=copy)

    def todia(self, copy=False):
        return self.tocoo(copy=False).todia(copy=copy)

    def todense(self, order=None, out=None):
        """todense(order=None, out=None): a dense 2-D cuarray array (CuPy's form;
        SciPy's matrix forms return numpy.matrix)."""
        return self.toarray(order=order, out=out)

    def toarray(self, order=None, out=None):
        return self.tocoo(copy=False).toarray(order=order, out=out)

    def astype(self, dtype, casting="unsafe", copy=True):
        dtype = su.getdtype(dtype)
        if dtype == self.dtype and not copy:
            return self
        return self._with_data(self.data.astype(dtype, casting=casting), copy=True)

    def copy(self):
        return self._with_data(self.data.copy(), copy=True)

    def conjugate(self, copy=True):
        if self.dtype.kind == "c":
            return self._with_data(self.data.conj(), copy=copy)
        return self.copy() if copy else self

    conj = conjugate

    @property
    def real(self):
        return self._with_data(self.data.real.copy(), copy=True)

    @property
    def imag(self):
        return self._with_data(self.data.imag.copy(), copy=True)

    def _real(self):
        return self.real

    def _imag(self):
        return self.imag

    @property
    def T(self):
        return self.transpose()

    @property
    def H(self):
        return self.conjugate(copy=False).transpose()

    @property
    def mT(self):
        return self.transpose()

    def getH(self):
        return self.H

    def transpose(self, axes=None, copy=False):
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' "
                             "parameter because swapping dimensions is the only "
                             "logical permutation.")
        return self.tocsr(copy=False).transpose(copy=copy)

    # -- element-wise ---------------------------------------------------------

    def _mul_scalar(self, other):
        dtype = su.upcast(self.dtype, np.result_type(other))
        data = (self.data * other).astype(dtype, copy=False)
        return self._with_data(data, copy=True)

    def __neg__(self):
        if self.dtype == np.bool_:
            raise NotImplementedError("negating a boolean sparse array is not "
                                      "supported")
        return self._with_data(-self.data, copy=True)

    def __pos__(self):
        return self.copy()

    def __abs__(self):
        return self._with_data(abs(self.data), copy=True)

    def __round__(self, ndigits=0):
        return self._with_data(_ca.around(self.data, decimals=ndigits), copy=True)

    @_scipy_first
    def power(self, n, dtype=None):
        if not su.isscalarlike(n):
            raise NotImplementedError("input is not scalar")
        if not n:
            raise NotImplementedError("zero power is not supported as it would "
                                      "densify the matrix.\nUse `np.ones(A.shape, "
                                      "dtype=A.dtype)` for this case.")
        data = self.data if dtype is None else self.data.astype(dtype)
        return self._with_data(data ** n, copy=True)

    @_scipy_first
    def multiply(self, other):
        from . import _arith
        return _arith.multiply(self, other)

    @_scipy_first
    def maximum(self, other):
        from . import _arith
        return _arith.max_min(self, other, _ca.maximum)

    @_scipy_first
    def minimum(self, other):
        from . import _arith
        return _arith.max_min(self, other, _ca.minimum)

    def __add__(self, other):
        from . import _arith
        if su.is_host(self.device):
            return _wrap(self._sp() + _unwrap(other))
        return _arith.add(self, other, 1)

    def __radd__(self, other):
        return self.__add__(other)

    def __sub__(self, other):
        from . import _arith
        if su.is_host(self.device):
            return _wrap(self._sp() - _unwrap(other))
        return _arith.add(self, other, -1)

    def __rsub__(self, other):
        from . import _arith
        if su.is_host(self.device):
            return _wrap(_unwrap(other) - self._sp())
        return _arith.rsub(self, other)

    def __truediv__(self, other):
        from . import _arith
        if su.is_host(self.device):
            return _wrap(self._sp() / _unwrap(other))
        return _arith.divide(self, other)

    def __rtruediv__(self, other):
        return NotImplemented

    def _comparison(self, other, op):
        from . import _arith
        if su.is_host(self.device):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return _wrap(op(self._sp(), _unwrap(other)))
        return _arith.compare(self, other, op)

    __hash__ = None

    # -- products -------------------------------------------------------------

    def __matmul__(self, other):
        if su.isscalarlike(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self._matmul(other)

    def __rmatmul__(self, other):
        if su.isscalarlike(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self._rmatmul(other)

    def _matmul(self, other):
        from . import _products
        if su.is_host(self.device):
            return _wrap(self._sp() @ _unwrap(other))
        return _products.matmul(self, other)

    def _rmatmul(self, other):
        from . import _products
        if su.is_host(self.device):
            return _wrap(_unwrap(other) @ self._sp())
        return _products.rmatmul(self, other)

    def dot(self, other):
        if np.isscalar(other):
            return self * other
        return self @ other

    # -- reductions -----------------------------------------------------------

    @_scipy_first
    def sum(self, axis=None, dtype=None, out=None):
        from . import _reduce
        return _reduce.sum(self, axis, dtype, out)

    @_scipy_first
    def mean(self, axis=None, dtype=None, out=None):
        from . import _reduce
        return _reduce.mean(self, axis, dtype, out)

    @_scipy_first
    def max(self, axis=None, out=None, *, explicit=False):
        from . import _reduce
        return _reduce.max_min(self, axis, out, explicit, _ca.maximum)

    @_scipy_first
    def min(self, axis=None, out=None, *, explicit=False):
        from . import _reduce
        return _reduce.max_min(self, axis, out, explicit, _ca.minimum)

    @_scipy_first
    def count_nonzero(self, axis=None):
        from . import _reduce
        return _reduce.count_nonzero(self, axis)

    @_scipy_first
    def diagonal(self, k=0):
        return self.tocsr(copy=False).diagonal(k)

    def setdiag(self, values, k=0):
        """setdiag(values, k=0): set the k-th diagonal in place."""
        csr = self.tocsr(copy=False)._setdiag(values, k)
        self._set_parts(*self._from_csr(csr))

    def _from_csr(self, csr):
        """This format's parts and shape from a CSR matrix (for in-place ops)."""
        m = csr.asformat(self._format)
        return m._parts(), m.shape

    @_scipy_first
    def trace(self, offset=0):
        return self.diagonal(k=offset).sum()

    @_scipy_first
    def nonzero(self):
        coo = self.tocoo(copy=False)
        keep = coo.data != 0
        return coo.row[keep], coo.col[keep]

    # -- shape ----------------------------------------------------------------

    def reshape(self, *shape, order="C", copy=False):
        from . import _reduce
        if len(shape) == 1 and not isinstance(shape[0], int):
            shape = tuple(shape[0])
        return _reduce.reshape(self, shape, order, copy)

    def resize(self, *shape):
        """resize(*shape): change the shape in place, dropping the entries outside
        it and leaving new rows/columns empty (SciPy's resize)."""
        shape = su.check_shape(shape[0] if len(shape) == 1 else shape)
        coo = self.tocoo(copy=False)
        keep = (coo.row < shape[0]) & (coo.col < shape[1])
        idx = su.get_index_dtype(maxval=max(shape))
        small = coo._from_parts((coo.data[keep], coo.row[keep].astype(idx),
                                 coo.col[keep].astype(idx)), shape)
        self._set_parts(*self._from_csr(small.tocsr()))


def _comparison_method(op):
    def method(self, other):
        return self._comparison(other, op)
    method.__name__ = method.__qualname__ = f"__{op.__name__}__"
    return method


# __eq__ ... __ge__: _comparison with the operator of the name
for _op in (operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge):
    setattr(_spbase, f"__{_op.__name__}__", _comparison_method(_op))
del _op


class sparray:
    """The base of SciPy's sparse array forms (csr_array, ...): `*` is
    element-wise, sums reduce to 1-D."""

    def __mul__(self, other):
        return self.multiply(other)

    def __rmul__(self, other):
        return self.multiply(other)

    def __pow__(self, n):
        return self.power(n)


class spmatrix:
    """The base of SciPy's sparse matrix forms (csr_matrix, ...): `*` is the
    matrix product, `**` the matrix power, sums stay 2-D."""

    def __mul__(self, other):
        if su.isscalarlike(other):
            return self._mul_scalar(other)
        return self._matmul(other)

    def __rmul__(self, other):
        if su.isscalarlike(other):
            return self._mul_scalar(other)
        return self._rmatmul(other)

    def __pow__(self, n):
        M, N = self.shape
        if M != N:
            raise TypeError("sparse matrix is not square")
        if not isinstance(n, (int, np.integer)):
            raise ValueError("exponent must be an integer")
        if n < 0:
            raise ValueError("exponent must be >= 0")
        if n == 0:
            from ._construct import eye
            return eye(M, dtype=self.dtype, format="csr", device=self.device)
        result = self
        for _ in range(int(n) - 1):
            result = result @ self
        return result

    def getrow(self, i):
        return self.tocsr(copy=False)[[i], :]

    def getcol(self, j):
        return self.tocsc(copy=False)[:, [j]]

    def asfptype(self):
        for t in (np.float32, np.float64, np.complex64, np.complex128):
            if self.dtype <= np.dtype(t):
                return self.astype(t, copy=False)
        raise TypeError(f"cannot upcast [{self.dtype.name}] to a floating point format")
