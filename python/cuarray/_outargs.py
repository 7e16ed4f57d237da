"""NumPy's out=, dtype= and casting= rules around C primitives that are looser:

- dot's out= must be exactly what NumPy's dot would make (its dtype, its number
  of dimensions, C-contiguous and writeable: ValueError "output array is not
  acceptable ..."; then its shape: "output array has wrong dimensions");
- concatenate's and stack's out=: its shape (NumPy's messages), then casting=
  from every input to out's dtype (the C core checks casting= against the
  promoted dtype only), and casting= must be a string;
- matmul's ufunc keywords beside out= and dtype=: casting=, axes=, axis=,
  order=, subok=.

Each wrapper costs one Python call over the C function when those arguments are
left out (0.03-0.11 us on the 2-core host: benchmarks in the branch's report);
the checks here run only where they are given. The same checks in the C calls
would make the wrappers unnecessary (and cover ndarray.dot's out=).
"""

import operator as _operator

import numpy as _np
from numpy.lib.array_utils import normalize_axis_index as _norm_axis

from . import _core
from ._sort_threads import _datetime
from ._ufunc_errors import cast_error

_ndarray = _core.ndarray

__all__ = ["dot", "concatenate", "stack", "matmul"]


def write_out(res, out, shape_error=None, tuple_ok=False):
    """`res` written into `out` (returned), or `res` itself when out is None: the
    out= of compositions (ufunc methods, take, einsum), which compute a result and
    copy it in. `tuple_ok` accepts the ufuncs' one-element tuple; `shape_error` is
    the reference function's message for a shape mismatch."""
    if out is None:
        return res
    if tuple_ok and isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry")
        out = out[0]
    if not isinstance(out, _ndarray):
        raise TypeError("out must be a cuarray.ndarray")
    if tuple(out.shape) != tuple(res.shape):
        raise ValueError(shape_error or f"output parameter has the wrong shape: "
                         f"expected {tuple(res.shape)}, got {tuple(out.shape)}")
    out[...] = res
    return out


def _cast_error(src, dst, casting):
    return TypeError(f"Cannot cast array data from {src!r} to {dst!r} according to "
                     f"the rule {casting!r}")


def _check_casting(casting):
    if not isinstance(casting, str):
        raise TypeError(f"casting must be str, not {type(casting).__name__}")
    if casting not in ("no", "equiv", "safe", "same_kind", "unsafe"):
        raise ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', "
                         f"'unsafe' (got {casting!r})")


# ---- dot ---------------------------------------------------------------------

_BLAS = frozenset("fdFD")  # NumPy's dot goes through BLAS for these (even 0-d)
_NOT_ACCEPTABLE = ("output array is not acceptable (must have the right datatype, "
                   "number of dimensions, and be a C-Array)")


def dot(a, b, out=None):
    """dot(a, b, out=None)

    NumPy's dot: a product for 0-d operands, the inner product of vectors, the
    matrix product of matrices, and for N-D operands the sum over the last axis
    of a and the second-to-last of b. Returns an array (0-d for vectors). out=
    must have the result's dtype and shape and be C-contiguous, as NumPy's.
    """
    if out is None and type(a) is _core.ndarray and type(b) is _core.ndarray:
        return _core.dot(a, b)
    if _datetime(a) or _datetime(b):  # NumPy's answer (its refusal) on the host
        from ._datetime_stats import dot as dt_dot
        return dt_dot(a, b, out=out)
    if out is None:
        return _core.dot(a, b)
    _dot_check_out(a, b, out)
    return _core.dot(a, b, out)


def _operand(x):
    """x's dtype and shape as NumPy's dot sees them (it converts scalars to arrays
    first), or None for what the C call rejects."""
    if isinstance(x, _ndarray):
        return x.dtype, x.shape
    if isinstance(x, (bool, int, float, complex, _np.generic)):
        return _np.asarray(x).dtype, ()
    return None


def _dot_check_out(a, b, out):
    """NumPy's checks of dot's out (new_array_for_sum); bad operands and a
    non-array out are left for the C call to report."""
    pa, pb = _operand(a), _operand(b)
    if pa is None or pb is None or not isinstance(out, _ndarray):
        return
    (da, sa), (db, sb) = pa, pb
    dt = da if da == db else _np.promote_types(da, db)
    na, nb = len(sa), len(sb)
    if na == 0 or nb == 0:
        if dt.char not in _BLAS:
            return  # NumPy multiplies: a ufunc's out (same_kind, broadcast)
        shape = sb if na == 0 else sa
    else:
        if sa[-1] != sb[nb - 2 if nb > 1 else 0]:
            return  # not aligned: the C call raises NumPy's error
        shape = sa[:-1] + sb[:-2] + sb[-1:] if nb > 1 else sa[:-1]
    f = out.flags
    if out.ndim != len(shape) or out.dtype != dt or not f.c_contiguous or \
            not f.writeable:
        raise ValueError(_NOT_ACCEPTABLE)
    if out.shape != shape:
        raise ValueError("output array has wrong dimensions")


# ---- concatenate, stack --------------------------------------------------------

def concatenate(arrays, /, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """concatenate(arrays, /, axis=0, out=None, *, dtype=None, casting='same_kind')

    The arrays joined along an existing axis (axis=None: raveled first), in
    dtype= or their promoted dtype, each cast by NumPy's casting= rule; out= of
    the result's shape receives them (cast from each input by casting=).
    """
    if out is None and dtype is None and casting == "same_kind":
        return _core.concatenate(arrays, axis)  # (a keyword costs the C parser 0.15 us)
    return _join(_core.concatenate, _concat_shape, arrays, axis, out, dtype, casting)


def stack(arrays, /, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """stack(arrays, /, axis=0, out=None, *, dtype=None, casting='same_kind')

    Arrays of one shape joined along a new axis, with concatenate's dtype=,
    casting= and out= rules.
    """
    if out is None and dtype is None and casting == "same_kind":
        return _core.stack(arrays, axis)
    return _join(_core.stack, _stack_shape, arrays, axis, out, dtype, casting)


def _join(fn, shape_of, arrays, axis, out, dtype, casting):
    _check_casting(casting)
    if out is None:
        return fn(arrays, axis, dtype=dtype, casting=casting)
    if dtype is not None:
        raise TypeError("concatenate() only takes `out` or `dtype` as an argument, "
                        "but both were provided.")
    arrs = list(arrays) if isinstance(arrays, (list, tuple)) else None
    if isinstance(out, _ndarray) and arrs and \
            all(isinstance(x, _ndarray) for x in arrs):
        shape = shape_of(arrs, axis)
        if shape is not None:
            _check_join_out(out, shape, axis is None and fn is _core.concatenate)
            for x in arrs:
                if not _np.can_cast(x.dtype, out.dtype, casting):
                    raise _cast_error(x.dtype, out.dtype, casting)
            casting = "unsafe"  # checked against out's dtype
    return fn(arrays, axis, out, casting=casting)


def _check_join_out(out, shape, flat):
    if flat:
        if out.ndim != 1:
            raise ValueError("Output array must be 1D")
        if out.shape != shape:
            raise ValueError("Output array is the wrong size")
    if out.ndim != len(shape):
        raise ValueError("Output array has wrong dimensionality")
    if tuple(out.shape) != shape:
        raise ValueError("Output array is the wrong shape")


def _concat_shape(arrs, axis):
    """The joined shape, or None where the inputs are wrong (the C call says how)."""
    if axis is None:
        return (sum(x.size for x in arrs),)
    nd = arrs[0].ndim
    if nd == 0 or any(x.ndim != nd for x in arrs) or not isinstance(axis, int):
        return None
    try:
        ax = _norm_axis(axis, nd)
    except _np.exceptions.AxisError:
        return None
    shape = list(arrs[0].shape)
    for x in arrs[1:]:
        if any(x.shape[d] != shape[d] for d in range(nd) if d != ax):
            return None
        shape[ax] += x.shape[ax]
    return tuple(shape)


def _stack_shape(arrs, axis):
    s = tuple(arrs[0].shape)
    if any(tuple(x.shape) != s for x in arrs) or not isinstance(axis, int):
        return None
    try:
        ax = _norm_axis(axis, len(s) + 1)
    except _np.exceptions.AxisError:
        return None
    return s[:ax] + (len(arrs),) + s[ax:]


# ---- matmul ------------------------------------------------------------------

_MATMUL_SIG = "(n?,k),(k,m?)->(n?,m?)"
_MATMUL_KW = frozenset(("dtype", "casting", "axes", "axis", "order", "subok"))


def matmul(x1, x2, /, out=None, **kwargs):
    """matmul(x1, x2, /, out=None, *, casting='same_kind', order='K', dtype=None,
    subok=True, axes=None)

    Matrix product with NumPy's rules: 1-D operands are promoted to matrices and
    the added dimension removed from the result, batch dimensions broadcast.
    float16, float32, float64 and complex go through cuBLAS on a GPU (float16
    accumulating in float32; float32 without TF32 unless enabled, see
    cuarray.linalg.set_allow_tf32), bool and integers through cuarray's own
    kernel (wrapping like NumPy's). The cpu device uses NumPy's matmul. The ufunc
    keywords are NumPy's: casting= checks the inputs' casts to the loop's dtype
    and the loop's to out's; axes= names each operand's core axes.
    """
    if (type(x1) is not _core.ndarray or type(x2) is not _core.ndarray) and \
            (_datetime(x1) or _datetime(x2)):
        from ._datetime_stats import matmul as dt_matmul  # NumPy's refusal
        return dt_matmul(x1, x2, out=out, **kwargs)
    if not kwargs:
        return _core.matmul(x1, x2) if out is None else _core.matmul(x1, x2, out)
    return _matmul_kw(x1, x2, out, kwargs)


def _matmul_kw(x1, x2, out, kw):
    if isinstance(out, tuple) and len(out) == 1:
        out = out[0]  # (NumPy's __array_ufunc__ hands out= over as a tuple)
    bad = set(kw) - _MATMUL_KW
    if bad:
        raise TypeError(f"matmul() got an unexpected keyword argument {min(bad)!r}")
    if kw.get("axis") is not None:
        raise TypeError("matmul: axis can only be used with a single shared core "
                        "dimension, not with the 3 distinct ones implied by signature "
                        f"{_MATMUL_SIG}.")
    order = kw.get("order", "K")
    order = "K" if order is None else order
    if order not in ("C", "F", "A", "K"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    casting = kw.get("casting", "same_kind")
    _check_casting(casting)
    if not (isinstance(x1, _ndarray) and isinstance(x2, _ndarray)):
        return _core.matmul(x1, x2, out, dtype=kw.get("dtype"))  # C's errors
    axes = kw.get("axes")
    if axes is not None:
        return _matmul_axes(x1, x2, out, axes, kw.get("dtype"), casting, order)
    return _matmul_cast(x1, x2, out, kw.get("dtype"), casting, order)


def _matmul_cast(x1, x2, out, dtype, casting, order):
    """The product under NumPy's casting= rule: the inputs' casts to the loop's
    dtype and the loop's to out's are checked; casts the C core (same_kind) does
    not take are made here."""
    loop = _np.dtype(dtype) if dtype is not None else _np.result_type(x1.dtype, x2.dtype)
    xs = []
    for i, x in enumerate((x1, x2)):
        if not _np.can_cast(x.dtype, loop, casting):
            raise cast_error("matmul", "input", casting, x.dtype, loop, i) or TypeError(
                f"Cannot cast ufunc 'matmul' input {i} from {x.dtype!r} to {loop!r} "
                f"with casting rule {casting!r}")
        xs.append(x if _np.can_cast(x.dtype, loop, "same_kind") else x.astype(loop))
    if out is None:
        return _layout(_core.matmul(xs[0], xs[1], dtype=loop), order, (x1, x2))
    if not isinstance(out, _ndarray):
        return _core.matmul(xs[0], xs[1], out, dtype=loop)  # C's TypeError
    if not _np.can_cast(loop, out.dtype, casting):
        raise cast_error("matmul", "output", casting, loop, out.dtype, 0) or TypeError(
            f"Cannot cast ufunc 'matmul' output from {loop!r} to {out.dtype!r} with "
            f"casting rule {casting!r}")
    if _np.can_cast(loop, out.dtype, "same_kind"):
        return _core.matmul(xs[0], xs[1], out, dtype=loop)
    r = _core.matmul(xs[0], xs[1], dtype=loop)
    if r.shape != out.shape:  # the C call's shape error, with the same operands
        return _core.matmul(xs[0], xs[1], out, dtype=loop)
    out[...] = r
    return out


def _layout(r, order, inputs):
    """A ufunc result in order=: 'F', or 'A' with every input F (not C) ordered,
    gives Fortran order; 'C' and 'K' keep the C order matmul makes."""
    if order == "F" or (order == "A" and all(
            x.flags.f_contiguous and not x.flags.c_contiguous for x in inputs)):
        return _core.asfortranarray(r)
    return r


def _core_axes(item, ncore, i, ndim):
    """Operand i's core axes from its axes= item (normalized, checked)."""
    if isinstance(item, int) and not isinstance(item, bool):
        if ncore != 1:
            raise _np.exceptions.AxisError(
                f"matmul: operand {i} has {ncore} core dimensions, but the axes item "
                "is a single integer.")
        item = (item,)
    if not isinstance(item, tuple):
        raise TypeError(f"matmul: axes item {i} should be a tuple.")
    if len(item) != ncore:
        raise _np.exceptions.AxisError(
            f"matmul: operand {i} has {ncore} core dimensions, but {len(item)} "
            "dimensions are specified by axes tuple.")
    ax = tuple(_norm_axis(_operator.index(a), ndim) for a in item)
    if len(set(ax)) != len(ax):
        raise ValueError(f"axes item {i} has value {ax[0]} repeated")
    return ax


def _matmul_axes(x1, x2, out, axes, dtype, casting, order):
    """axes=[core axes of x1, of x2, of the result]: each operand's core axes moved
    last, the product, and its core axes moved where the result's item says."""
    if not isinstance(axes, list):
        raise TypeError("axes should be a list.")
    n1, n2 = min(x1.ndim, 2), min(x2.ndim, 2)
    nres = (n1 == 2) + (n2 == 2)
    if len(axes) != 3:  # the signature's output has core axes (n?, m?)
        raise ValueError("axes should be a list with an entry for all 3 inputs and "
                         "outputs; entries for outputs can only be omitted if none of "
                         "them has core axes.")
    a1 = _core_axes(axes[0], n1, 0, x1.ndim)
    a2 = _core_axes(axes[1], n2, 1, x2.ndim)
    last1, last2 = tuple(range(-n1, 0)), tuple(range(-n2, 0))
    y1 = _core.moveaxis(x1, a1, last1) if n1 else x1
    y2 = _core.moveaxis(x2, a2, last2) if n2 else x2
    k1, k2 = y1.shape[-1], y2.shape[-n2]
    if k1 != k2:  # the core dimensions before the batch ones, as NumPy checks
        raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension "
                         f"0, with gufunc signature {_MATMUL_SIG} (size {k2} is different"
                         f" from {k1})")
    if nres == 0:
        _core_axes(axes[2], 0, 2, 0)  # only () names no axes
        return _matmul_cast(y1, y2, out, dtype, casting, order)
    batch = _np.broadcast_shapes(y1.shape[:-n1] if n1 else (),
                                 y2.shape[:-n2] if n2 else ())
    ndim = len(batch) + nres
    ar = _core_axes(axes[2], nres, 2, ndim)
    lastr = tuple(range(-nres, 0))
    if out is not None and isinstance(out, _ndarray) and out.ndim == ndim:
        _matmul_cast(y1, y2, _core.moveaxis(out, ar, lastr), dtype, casting, order)
        return out
    r = _matmul_cast(y1, y2, out, dtype, casting, order)
    return _core.moveaxis(r, lastr, ar)
