"""Products and norms: kron, cross, vecdot, matvec, vecmat, trace and matrix_transpose at the
top level; norm, vector_norm, matrix_norm, multi_dot,
matrix_power and the Array API's linalg forms of outer, cross, vecdot, diagonal,
trace and matrix_transpose for cuarray.linalg.

Everything here is a composition of primitives: matmul (cuBLAS, one strided
batched GEMM per product on a GPU; NumPy's matmul on the cpu device),
transposes and reshapes (views wherever the strides allow), element-wise
functions and the reductions of kernels/reductions.def. The 2-norm is one
reduction pass (the `_norm2` row: sqrt(sum(|x|**2)) accumulated in float64).

einsum and einsum_path are in _einsum.py.
"""

import operator as _operator
import sys as _sys
import warnings as _warnings

import numpy as _np
from numpy.lib.array_utils import normalize_axis_index as _norm_axis
from numpy.lib.array_utils import normalize_axis_tuple as _norm_axes

from . import _core
from ._devices import device_of
from ._sort_threads import _datetime

# the package namespace, looked up at call time (element-wise functions live in
# _ufuncs, reductions in _core; linalg.svd/inv arrive with the factorizations)
_ca = _sys.modules[__package__]

__all__ = ["kron", "cross", "vecdot", "matvec", "vecmat", "trace", "matrix_transpose"]



def _arr(a, device=None):
    if isinstance(a, _ca.ndarray):
        return a
    return _ca.asarray(a, device=device)


def kron(a, b):
    """kron(a, b)

    The Kronecker product, as numpy.kron: blocks of a's elements times b, the
    shorter shape padded with leading ones. One broadcast multiply of
    reshaped views and a reshape of the (contiguous) result.
    """
    dev = device_of(a, b)
    a, b = _arr(a, dev), _arr(b, dev)
    if a.ndim == 0 or b.ndim == 0:
        return _ca.multiply(a, b)
    nd = max(a.ndim, b.ndim)
    sa = (1,) * (nd - a.ndim) + tuple(a.shape)
    sb = (1,) * (nd - b.ndim) + tuple(b.shape)
    # a as (a0, 1, a1, 1, ...), b as (1, b0, 1, b1, ...)
    av = _ca.reshape(a, tuple(v for d in sa for v in (d, 1)))
    bv = _ca.reshape(b, tuple(v for d in sb for v in (1, d)))
    r = _ca.multiply(av, bv)
    return _ca.reshape(r, tuple(x * y for x, y in zip(sa, sb)))


# NumPy 2.5 ends the deprecation of 2-element vectors: they raise ValueError
_CROSS_3_ONLY = _np.lib.NumpyVersion(_np.__version__) >= "2.5.0.dev0"


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None)

    The cross product of (arrays of) 3-element vectors, as numpy.cross; 2-element
    vectors are taken as having a zero third component (deprecated by NumPy
    2.0, with its DeprecationWarning), and two of them give the z component
    alone. Element-wise functions on slices, then one stack.
    """
    if axis is not None:
        axisa = axisb = axisc = axis
    dev = device_of(a, b)
    a, b = _arr(a, dev), _arr(b, dev)
    if a.ndim < 1 or b.ndim < 1:
        raise ValueError("At least one array has zero dimension")
    axisa = _norm_axis(axisa, a.ndim, msg_prefix="axisa")
    axisb = _norm_axis(axisb, b.ndim, msg_prefix="axisb")
    a = _ca.moveaxis(a, axisa, -1)
    b = _ca.moveaxis(b, axisb, -1)
    na, nb = a.shape[-1], b.shape[-1]
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n"
                         "(dimension must be 2 or 3)")
    if (na == 2 or nb == 2) and _CROSS_3_ONLY:
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, "
                         f"but they are {na} and {nb} dimensional instead.")
    if na == 2 or nb == 2:
        _warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of "
                       "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
                       DeprecationWarning, stacklevel=2)
    a0, a1 = a[..., 0], a[..., 1]
    b0, b1 = b[..., 0], b[..., 1]
    mul, sub = _ca.multiply, _ca.subtract
    c2 = sub(mul(a0, b1), mul(a1, b0))
    if na == 2 and nb == 2:
        return c2
    if na == 3 and nb == 3:
        a2, b2 = a[..., 2], b[..., 2]
        c0 = sub(mul(a1, b2), mul(a2, b1))
        c1 = sub(mul(a2, b0), mul(a0, b2))
    elif na == 2:
        b2 = b[..., 2]
        c0 = mul(a1, b2)
        c1 = _ca.negative(mul(a0, b2))
    else:
        a2 = a[..., 2]
        c0 = _ca.negative(mul(a2, b1))
        c1 = mul(a2, b0)
    shape = _ca.broadcast_shapes(c0.shape, c1.shape, c2.shape)
    cp = _ca.stack([_ca.broadcast_to(c, shape) for c in (c0, c1, c2)], axis=-1)
    axisc = _norm_axis(axisc, cp.ndim, msg_prefix="axisc")
    return _ca.moveaxis(cp, -1, axisc)


def vecdot(x1, x2, /, out=None, *, axis=-1, dtype=None):
    """vecdot(x1, x2, /, out=None, *, axis=-1, dtype=None)

    The dot product of vectors along `axis`, conjugating x1 (numpy.vecdot): the
    other dimensions broadcast; the result has the operands' common dtype
    (bools: or of ands; integers wrap). One multiply and one sum.
    """
    if _datetime(x1) or _datetime(x2):  # NumPy's answer (its error) on the host copies
        from ._datetime_stats import host_function
        return host_function(_np.vecdot, x1, x2, out=out, axis=axis, dtype=dtype)
    dev = device_of(x1, x2)
    x1, x2 = _arr(x1, dev), _arr(x2, dev)
    if x1.ndim < 1 or x2.ndim < 1:
        raise ValueError("vecdot: a 0-d operand has no vector dimension")
    ax1 = _norm_axis(axis, x1.ndim)
    ax2 = _norm_axis(axis, x2.ndim)
    if x1.shape[ax1] != x2.shape[ax2]:
        raise ValueError(f"vecdot: the vector dimensions differ ({x1.shape[ax1]} and "
                         f"{x2.shape[ax2]})")
    dt = _np.result_type(x1.dtype, x2.dtype) if dtype is None else _np.dtype(dtype)
    a = _ca.moveaxis(x1, ax1, -1)
    b = _ca.moveaxis(x2, ax2, -1)
    if dt.kind == "c":
        a = _ca.conj(a)
    p = _ca.multiply(a, b)
    if p.dtype != dt:
        p = p.astype(dt)
    return _ca.sum(p, axis=-1, dtype=dt, out=out)


def _vector_product(name, x1, x2, out, dtype):
    """matvec/vecmat's checks and operands on one device: both at least 1-d."""
    if _datetime(x1) or _datetime(x2):  # NumPy's answer (its error) on the host copies
        from ._datetime_stats import host_function
        return None, None, host_function(getattr(_np, name), x1, x2, out=out, dtype=dtype)
    dev = device_of(x1, x2)
    x1, x2 = _arr(x1, dev), _arr(x2, dev)
    if x1.ndim < 1 or x2.ndim < 1 or (x1.ndim if name == "matvec" else x2.ndim) < 2:
        raise ValueError(f"{name}: an operand has fewer dimensions than its core "
                         "signature needs")
    if dtype is not None:
        x1, x2 = x1.astype(dtype, copy=False), x2.astype(dtype, copy=False)
    return x1, x2, None


def _into(r, out):
    if out is None:
        return r
    out[...] = r
    return out


def matvec(x1, x2, /, out=None, *, dtype=None):
    """matvec(x1, x2, /, out=None, *, dtype=None)

    Matrix-vector products over the last dimensions (numpy.matvec, signature
    (m,n),(n)->(m)): the stacks broadcast. One matmul of x1 with x2 as a column.
    """
    x1, x2, done = _vector_product("matvec", x1, x2, out, dtype)
    if done is not None:
        return done
    return _into(_ca.matmul(x1, x2[..., None])[..., 0], out)


def vecmat(x1, x2, /, out=None, *, dtype=None):
    """vecmat(x1, x2, /, out=None, *, dtype=None)

    Vector-matrix products over the last dimensions, conjugating the vector
    (numpy.vecmat, signature (n),(n,m)->(m)): one matmul of conj(x1) as a row.
    """
    x1, x2, done = _vector_product("vecmat", x1, x2, out, dtype)
    if done is not None:
        return done
    if x1.dtype.kind == "c":
        x1 = _ca.conj(x1)
    return _into(_ca.matmul(x1[..., None, :], x2)[..., 0, :], out)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None)

    The sum along a diagonal (numpy.trace): the diagonal of axis1 and axis2 at
    `offset` summed with sum's dtype rules (integers in int64 unless dtype=).
    """
    d = _ca.diagonal(_arr(a), offset, axis1, axis2)
    return _ca.sum(d, axis=-1, dtype=dtype, out=out)


def matrix_transpose(x, /):
    """matrix_transpose(x, /)

    x with its last two axes swapped (a view), as numpy.matrix_transpose.
    """
    x = _arr(x)
    if x.ndim < 2:
        raise ValueError("Input array must be at least 2-dimensional, but it is "
                         f"{x.ndim}")
    return _ca.swapaxes(x, -1, -2)


# =============================================================================
# linalg: the Array API's forms
# =============================================================================

def linalg_outer(x1, x2, /):
    """outer(x1, x2, /)

    The outer product of two 1-d arrays (numpy.linalg.outer; cuarray.outer
    flattens its operands instead).
    """
    dev = device_of(x1, x2)
    x1, x2 = _arr(x1, dev), _arr(x2, dev)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError("Input arrays must be one-dimensional, but they are "
                         f"x1.ndim={x1.ndim} and x2.ndim={x2.ndim}.")
    return _ca.outer(x1, x2)


def linalg_cross(x1, x2, /, *, axis=-1):
    """cross(x1, x2, /, *, axis=-1)

    The cross product of (arrays of) 3-element vectors along `axis`
    (numpy.linalg.cross: 3-element vectors only).
    """
    dev = device_of(x1, x2)
    x1, x2 = _arr(x1, dev), _arr(x2, dev)
    if x1.ndim < 1 or x2.ndim < 1:
        raise ValueError("At least one array has zero dimension")
    n1 = x1.shape[_norm_axis(axis, x1.ndim)]
    n2 = x2.shape[_norm_axis(axis, x2.ndim)]
    if n1 != 3 or n2 != 3:
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, "
                         f"but they are {n1} and {n2} dimensional instead.")
    return cross(x1, x2, axis=axis)


def linalg_vecdot(x1, x2, /, *, axis=-1):
    """vecdot(x1, x2, /, *, axis=-1)

    The dot product of vectors along `axis`, conjugating x1 (numpy.linalg.vecdot).
    """
    return vecdot(x1, x2, axis=axis)


def linalg_diagonal(x, /, *, offset=0):
    """diagonal(x, /, *, offset=0)

    The diagonals of the matrices of x (its last two axes), as
    numpy.linalg.diagonal.
    """
    return _ca.diagonal(_arr(x), offset, -2, -1)


def linalg_trace(x, /, *, offset=0, dtype=None):
    """trace(x, /, *, offset=0, dtype=None)

    The traces of the matrices of x (its last two axes), as numpy.linalg.trace.
    """
    return trace(x, offset, -2, -1, dtype=dtype)


def linalg_matrix_transpose(x, /):
    """matrix_transpose(x, /)

    x with its last two axes swapped (a view), as numpy.linalg.matrix_transpose.
    """
    return matrix_transpose(x)


# =============================================================================
# linalg: norms
# =============================================================================

_REAL = {"F": _np.dtype(_np.float32), "D": _np.dtype(_np.float64)}


def _inexact(x):
    """x as NumPy's norm computes it: bool and integers as float64."""
    return x if x.dtype.kind in "fc" else x.astype(_np.float64)


def _svd(x, what):
    svd = getattr(_ca.linalg, "svd", None)
    if svd is None:
        raise NotImplementedError(f"norm(ord={what!r}) needs cuarray.linalg.svd, which "
                                  "this build does not have")
    return svd(x, compute_uv=False)


def _vector_norm(x, ord, axis, keepdims):
    """The vector norms of numpy.linalg.norm over `axis` (an int, a tuple of ints
    or None for all), for an x that is already an array."""
    if ord is None or (not isinstance(ord, str) and ord == 2):
        # one pass: sqrt(sum(|x|**2)) in float64 (bool and integers included)
        return _core._norm2(x, axis=axis, keepdims=keepdims)
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    x = _inexact(x)
    if ord == _np.inf:
        return _ca.max(_ca.abs(x), axis=axis, keepdims=keepdims)
    if ord == -_np.inf:
        return _ca.min(_ca.abs(x), axis=axis, keepdims=keepdims)
    if ord == 0:
        dt = _REAL.get(x.dtype.char, x.dtype)
        return _ca.sum(_ca.not_equal(x, 0), axis=axis, dtype=dt, keepdims=keepdims)
    if ord == 1:
        return _ca.sum(_ca.abs(x), axis=axis, keepdims=keepdims)
    try:
        p = float(ord)
    except TypeError:
        raise ValueError(f"Invalid norm order '{ord}' for vectors") from None
    absx = _ca.abs(x)
    s = _ca.sum(_ca.power(absx, p), axis=axis, keepdims=keepdims)
    return _ca.power(s, 1.0 / p)


def _matrix_norm(x, ord, row, col, keepdims):
    nd = x.ndim
    row = _norm_axis(row, nd)
    col = _norm_axis(col, nd)
    if row == col:
        raise ValueError("Duplicate axes given.")
    if ord is None or (isinstance(ord, str) and ord in ("fro", "f")):
        return _core._norm2(x, axis=(row, col), keepdims=keepdims)
    if isinstance(ord, str) and ord != "nuc":
        raise ValueError("Invalid norm order for matrices.")
    x = _inexact(x)
    if ord == "nuc" or ord == 2 or ord == -2:
        y = _ca.moveaxis(x, (row, col), (-2, -1))
        s = _svd(y, ord)
        red = _ca.sum if ord == "nuc" else _ca.max if ord == 2 else _ca.min
        ret = red(s, axis=-1)
    elif ord in (1, -1):
        red = _ca.max if ord == 1 else _ca.min
        ret = red(_ca.sum(_ca.abs(x), axis=row), axis=col - (col > row))
    elif ord in (_np.inf, -_np.inf):
        red = _ca.max if ord == _np.inf else _ca.min
        ret = red(_ca.sum(_ca.abs(x), axis=col), axis=row - (row > col))
    else:
        raise ValueError("Invalid norm order for matrices.")
    if keepdims:
        shape = list(x.shape)
        shape[row] = shape[col] = 1
        ret = _ca.reshape(ret, tuple(shape))
    return ret


def norm(x, ord=None, axis=None, keepdims=False):
    """norm(x, ord=None, axis=None, keepdims=False)

    Matrix or vector norm, as numpy.linalg.norm. Vectors (one axis, or a 1-d x
    with axis=None): ord None/2 sqrt(sum(|x|**2)), inf max|x|, -inf min|x|, 0
    the count of nonzeros, 1 sum|x|, other p (sum|x|**p)**(1/p). Matrices (two
    axes, or a 2-d x): None/'fro' the Frobenius norm, 'nuc' the sum of the
    singular values, 2 / -2 the largest / smallest singular value (these three
    through cuarray.linalg.svd), 1 / -1 the max / min column sum of |x|, inf /
    -inf the max / min row sum. axis=None with ord=None is the 2-norm of the
    flattened x for any ndim. Bool and integers compute in float64; results
    are real, 0-d arrays for full reductions (no synchronize).

    The 2-norm and the Frobenius norm are one reduction pass (sum of squares
    accumulated in float64, then the square root), so unlike NumPy's float32
    dot product they do not overflow for float32 inputs whose norm is finite.
    """
    x = _arr(x)
    nd = x.ndim
    if axis is None:
        fro = nd == 2 and isinstance(ord, str) and ord in ("f", "fro")
        if ord is None or fro or (nd == 1 and not isinstance(ord, str) and ord == 2):
            return _core._norm2(x, axis=None, keepdims=keepdims)
        axis = tuple(range(nd))
    elif not isinstance(axis, tuple):
        try:
            axis = int(axis)
        except Exception as e:
            raise TypeError("'axis' must be None, an integer or a tuple of integers") \
                from e
        axis = (axis,)
    if len(axis) == 1:
        return _vector_norm(x, ord, axis, keepdims)
    if len(axis) == 2:
        return _matrix_norm(x, ord, axis[0], axis[1], keepdims)
    raise ValueError("Improper number of dimensions to norm.")


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """vector_norm(x, /, *, axis=None, keepdims=False, ord=2)

    The vector norm over `axis` (an int, a tuple of ints, or None for every
    element), as numpy.linalg.vector_norm; the orders are norm's vector ones.
    """
    x = _arr(x)
    if axis is not None and not isinstance(axis, tuple):
        axis = (_operator.index(axis),)
    if axis is not None:
        axis = _norm_axes(axis, x.ndim)
    return _vector_norm(x, ord, axis, keepdims)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """matrix_norm(x, /, *, keepdims=False, ord='fro')

    The matrix norm of the last two axes, as numpy.linalg.matrix_norm; the
    orders are norm's matrix ones.
    """
    x = _arr(x)
    if x.ndim < 2:
        raise ValueError(f"matrix_norm: x must be at least 2-dimensional, but it is "
                         f"{x.ndim}")
    return _matrix_norm(x, ord, -2, -1, keepdims)


# =============================================================================
# linalg: multi_dot, matrix_power
# =============================================================================

def _linalg_error():
    return getattr(_ca.linalg, "LinAlgError", _np.linalg.LinAlgError)


def _chain_order(shapes):
    """The cheapest parenthesisation of a chain of matrices (dynamic programming
    over sub-chains): split[i][j] is where chain i..j splits."""
    n = len(shapes)
    p = [shapes[0][0]] + [s[1] for s in shapes]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            best = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if best is None or c < best:
                    best, split[i][j] = c, k
            cost[i][j] = best
    return split


def _chain(arrays, split, i, j, out=None):
    if i == j:
        return arrays[i]
    k = split[i][j]
    left = _chain(arrays, split, i, k)
    return _ca.dot(left, _chain(arrays, split, k + 1, j), out=out)


def multi_dot(arrays, *, out=None):
    """multi_dot(arrays, *, out=None)

    The product of a chain of matrices in the order that costs the fewest
    multiplications (numpy.linalg.multi_dot): the first array may be 1-d (a row
    vector), the last 1-d (a column vector); the others must be 2-d.
    """
    n = len(arrays)
    if n < 2:
        raise ValueError("Expecting at least two arrays.")
    dev = device_of(*arrays)
    arrays = [_arr(a, dev) for a in arrays]
    if n == 2:
        return _ca.dot(arrays[0], arrays[1], out=out)
    first, last = arrays[0].ndim, arrays[-1].ndim
    if first == 1:
        arrays[0] = _ca.reshape(arrays[0], (1, -1))
    if last == 1:
        arrays[-1] = _ca.reshape(arrays[-1], (-1, 1))
    for a in arrays:
        if a.ndim != 2:
            raise _linalg_error()(f"{a.ndim}-dimensional array given. Array must be "
                                  "two-dimensional")
    if first == 1 and last == 1:
        r = _chain(arrays, _chain_order([a.shape for a in arrays]), 0, n - 1)
        r = r[0, 0]
        if out is not None:
            out[...] = r
            return out
        return r
    res_out = out if (first != 1 and last != 1) else None
    r = _chain(arrays, _chain_order([a.shape for a in arrays]), 0, n - 1, out=res_out)
    if first == 1 or last == 1:
        r = _ca.ravel(r)
        if out is not None:
            out[...] = r
            return out
    return r


def matrix_power(a, n):
    """matrix_power(a, n)

    a (a square matrix, or a stack of them in the last two axes) to the integer
    power n by repeated squaring (numpy.linalg.matrix_power): n == 0 gives
    identities, n < 0 the power of cuarray.linalg.inv(a).
    """
    a = _arr(a)
    if a.ndim < 2:
        raise _linalg_error()(f"{a.ndim}-dimensional array given. Array must be at "
                              "least two-dimensional")
    if a.shape[-1] != a.shape[-2]:
        raise _linalg_error()("Last 2 dimensions of the array must be square")
    try:
        n = _operator.index(n)
    except TypeError as e:
        raise TypeError("exponent must be an integer") from e
    if n == 0:
        eye = _ca.eye(a.shape[-1], dtype=a.dtype, device=a.device)
        return _ca.ascontiguousarray(_ca.broadcast_to(eye, a.shape))
    if n < 0:
        inv = getattr(_ca.linalg, "inv", None)
        if inv is None:
            raise NotImplementedError("matrix_power with n < 0 needs "
                                      "cuarray.linalg.inv, which this build does not "
                                      "have")
        a = inv(a)
        n = -n
    if n == 1:
        return a
    result, z = None, None
    while n > 0:
        z = a if z is None else _ca.matmul(z, z)
        n, bit = divmod(n, 2)
        if bit:
            result = z if result is None else _ca.matmul(result, z)
    return result
