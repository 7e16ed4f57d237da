"""SciPy's sparse helpers: index dtypes, dtype checks, shapes, and the cpu
device's hand-off to SciPy.

The cpu device runs SciPy itself on zero-copy NumPy views of a matrix's
buffers (numpy.asarray of a cpu array is a view, cuarray.asarray of a NumPy
array on the cpu device wraps it): CPU_SCIPY. Tests turn it off to run the
compositions the GPU runs on the cpu device.
"""

import operator

import numpy as np

import cuarray as _ca

CPU_SCIPY = True

# SciPy's supported dtypes, less those cuarray has not (longdouble & co.).
SUPPORTED = tuple(np.dtype(t) for t in (
    np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32,
    np.int64, np.uint64, np.float32, np.float64, np.complex64, np.complex128))

_INT32_MAX = np.iinfo(np.int32).max


def scipy_sparse():
    """scipy.sparse, or ImportError naming SciPy (the cpu device and .get() need it)."""
    try:
        import scipy.sparse
    except ImportError as e:
        raise ImportError(
            "cuarray.scipy.sparse needs SciPy on the cpu device and for .get() "
            "(pip install scipy)") from e
    return scipy.sparse


def is_host(device):
    """Whether work on `device` goes to SciPy (the cpu device, CPU_SCIPY on)."""
    return CPU_SCIPY and str(device) == "cpu"


def getdtype(dtype, a=None, default=None):
    """A supported dtype from `dtype`, else `a`'s, else `default` (SciPy's rule)."""
    if dtype is None:
        try:
            new = np.dtype(a.dtype)
        except AttributeError as e:
            if default is None:
                raise TypeError("could not interpret data type") from e
            new = np.dtype(default)
    else:
        new = np.dtype(dtype)
    if new not in SUPPORTED:
        names = ", ".join(t.name for t in SUPPORTED)
        raise ValueError(f"scipy.sparse does not support dtype {new}. The only "
                         f"supported types are: {names}.")
    return new


def upcast(*dtypes):
    """The first supported dtype every argument casts to (SciPy's upcast)."""
    r = np.result_type(*dtypes)
    for t in SUPPORTED:
        if np.can_cast(r, t):
            return t
    raise TypeError(f"no supported conversion for types: {dtypes!r}")


def sum_dtype(dtype):
    """numpy.sum's result dtype for `dtype` (small ints widen)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "u" and np.can_cast(dtype, np.uint):
        return np.dtype(np.uint)
    if np.can_cast(dtype, np.int_):
        return np.dtype(np.int_)
    return dtype


def get_index_dtype(arrays=(), maxval=None, check_contents=False):
    """get_index_dtype(arrays=(), maxval=None, check_contents=False)

    int32 where every array's values and `maxval` fit it, else int64 (SciPy's
    rule: an int64 array needs int64 unless check_contents finds its values
    small). Arrays may be cuarray or NumPy arrays.
    """
    if maxval is not None and np.int64(maxval) > _INT32_MAX:
        return np.int64
    if isinstance(arrays, (np.ndarray, _ca.ndarray)):
        arrays = (arrays,)
    for arr in arrays:
        dt = np.dtype(arr.dtype) if hasattr(arr, "dtype") else np.asarray(arr).dtype
        if np.can_cast(dt, np.int32):
            continue
        if check_contents and dt.kind in "iu":
            if arr.size == 0:
                continue
            lo, hi = int(arr.min()), int(arr.max())
            if lo >= np.iinfo(np.int32).min and hi <= _INT32_MAX:
                continue
        return np.int64
    return np.int32


def safely_cast_index_arrays(A, idx_dtype=np.int32, msg=""):
    """safely_cast_index_arrays(A, idx_dtype=np.int32, msg="")

    A's index arrays cast to `idx_dtype` ((indices, indptr) for CSR/CSC, coords
    for COO, offsets for DIA); ValueError when a value does not fit. Arrays that
    need no cast are returned as they are.
    """
    if not msg:
        msg = f"dtype {np.dtype(idx_dtype)}"
    top = np.iinfo(idx_dtype).max
    big = max(A.shape) > top
    if A.format in ("csr", "csc"):
        if A.nnz > top:
            raise ValueError(f"indptr values too large for {msg}")
        if big and A.nnz and int(A.indices.max()) > top:
            raise ValueError(f"indices values too large for {msg}")
        return (A.indices.astype(idx_dtype, copy=False),
                A.indptr.astype(idx_dtype, copy=False))
    if A.format == "coo":
        if big and A.nnz and any(int(c.max()) > top for c in A.coords):
            raise ValueError(f"coords values too large for {msg}")
        return tuple(c.astype(idx_dtype, copy=False) for c in A.coords)
    if A.format == "dia":
        if big and A.offsets.size and int(abs(A.offsets).max()) > top:
            raise ValueError(f"offsets values too large for {msg}")
        return A.offsets.astype(idx_dtype, copy=False)
    raise TypeError(f"Format {A.format} is not associated with index arrays.")


def check_shape(shape):
    """A 2-tuple of non-negative ints from `shape` (SciPy's errors)."""
    try:
        new = tuple(operator.index(d) for d in shape)
    except TypeError:
        raise TypeError("invalid shape: expected a tuple of integers") from None
    if len(new) != 2:
        raise ValueError(f"shape must have length in (2,). Got new_shape={new}")
    if any(d < 0 for d in new):
        raise ValueError("'shape' elements cannot be negative")
    return new


def isscalarlike(x):
    """A Python/NumPy scalar or a 0-d array."""
    return np.isscalar(x) or (hasattr(x, "ndim") and hasattr(x, "shape")
                              and x.ndim == 0 and not hasattr(x, "format"))


def isdense(x):
    return isinstance(x, (np.ndarray, _ca.ndarray))


def device_of(*arrays):
    """The device of the cuarray arrays among `arrays` (all must share one)."""
    dev = None
    for a in arrays:
        if isinstance(a, _ca.ndarray):
            if dev is None:
                dev = a.device
            elif str(a.device) != str(dev):
                raise ValueError(f"arrays on different devices: {dev} and {a.device}")
    return dev


def asindex(a, device, dtype=None):
    """`a` as a 1-D integer cuarray array on `device` (int32/int64)."""
    a = _ca.asarray(a, device=device) if not isinstance(a, _ca.ndarray) else a
    if a.dtype.kind not in "iu":
        if a.size == 0:
            return a.astype(dtype or np.int32)
        raise ValueError("index arrays must have an integer dtype")
    if dtype is not None:
        return a.astype(dtype, copy=False)
    return a
