"""Math functions that are compositions: fix, modf, frexp and divmod (NumPy's
functions of two results, over ops.def rows), packbits and unpackbits.

modf is trunc, a subtraction and copysign (they fuse on a GPU); frexp runs the
two internal table ops _frexp_mant and _frexp_exp; divmod is floor_divide and
remainder. packbits reads groups of 8 truth values as one uint64 and gathers
their bits with one multiplication (element-wise, no reduction); unpackbits
shifts each byte by 7..0 and masks. All follow NumPy's dtypes and errors. On the
cpu device packbits and unpackbits are NumPy's own on zero-copy views.
"""

import operator as _operator
import sys as _sys

import numpy as _np
from numpy.lib.array_utils import normalize_axis_index as _norm_axis

from . import _core, _host_threads

_ca = _sys.modules[__package__]

__all__ = ["fix", "modf", "frexp", "divmod", "packbits", "unpackbits"]


def _arr(x, device=None):
    return x if isinstance(x, _ca.ndarray) else _ca.asarray(x, device=device)


def _outs(nout_name, out1, out2, out):
    if out is not None:
        if out1 is not None or out2 is not None:
            raise TypeError("cannot specify 'out' as both a positional and keyword "
                            "argument")
        if not isinstance(out, tuple) or len(out) != 2:
            raise ValueError(f"The 'out' tuple must have exactly 2 entries: one per "
                             f"ufunc output ({nout_name})")
        out1, out2 = out
    return out1, out2


def _no_loop(name):
    return TypeError(f"ufunc '{name}' not supported for the input types, and the inputs "
                     "could not be safely coerced to any supported types according to "
                     "the casting rule ''safe''")


def _into(r, out):
    if out is None:
        return r
    _ca.copyto(out, r, casting="same_kind")
    return out


def fix(x, out=None):
    """fix(x, out=None)

    Round towards zero (numpy.fix): the same values and dtypes as trunc (integers
    and bool stay as they are; complex raises TypeError).
    """
    return _ca.trunc(_arr(x), out=out)


def _float_loop(name, dt):
    # NumPy's e, f, d loops: the first one the input casts to safely
    for c in "efd":
        if _np.can_cast(dt, c):
            return _np.dtype(c)
    raise _no_loop(name)


def modf(x, out1=None, out2=None, /, out=None):
    """modf(x, out1=None, out2=None, /, out=None)

    The fractional and integral parts, both with x's sign (numpy.modf):
    modf(-2.5) == (-0.5, -2.0), modf(inf) == (0.0, inf). Integers compute in the
    first float dtype they cast to safely (int8 -> float16, int32 -> float64).
    """
    x = _arr(x)
    out1, out2 = _outs("modf", out1, out2, out)
    x = x.astype(_float_loop("modf", x.dtype), copy=False)
    whole = _ca.trunc(x)
    frac = _ca.copysign(_ca.where(_ca.isinf(x), 0.0, _ca.subtract(x, whole)), x)
    return _into(frac, out1), _into(whole, out2)


def frexp(x, out1=None, out2=None, /, out=None):
    """frexp(x, out1=None, out2=None, /, out=None)

    Mantissa and exponent, x == m * 2**e with 0.5 <= |m| < 1 (numpy.frexp); the
    exponent is int32, 0 for zero, inf and NaN.
    """
    x = _arr(x)
    out1, out2 = _outs("frexp", out1, out2, out)
    _float_loop("frexp", x.dtype)
    return _core._frexp_mant(x, out=out1), _core._frexp_exp(x, out=out2)


def divmod(x1, x2, out1=None, out2=None, /, out=None):  # noqa: A001  (NumPy's name)
    """divmod(x1, x2, out1=None, out2=None, /, out=None)

    (floor_divide(x1, x2), remainder(x1, x2)) in one call (numpy.divmod), with
    their dtypes and NumPy's sign rules.
    """
    out1, out2 = _outs("divmod", out1, out2, out)
    q = _ca.floor_divide(x1, x2)
    r = _ca.remainder(x1, x2)
    return _into(q, out1), _into(r, out2)


def _bitorder(bitorder):
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    return bitorder == "little"


# packbits: eight 0/1 bytes read as one little-endian uint64 word w; w * M puts
# byte k's bit at bit 56 + p_k (p_k = 7 - k for 'big', k for 'little') and every
# other partial product at a distinct lower (or overflowed) position, so no carry
# reaches the top byte: (w * M) >> 56 is the packed byte.
_PACK_BIG = 0x8040201008040201
_PACK_LITTLE = 0x0102040810204080


# The cpu device runs NumPy's packbits/unpackbits (SIMD loops) on zero-copy views:
# the compositions below cost 3-25x NumPy there (2-core development machine, issue
# 15). A flat packbits of at least PACK_SPLIT_MIN elements packs its two halves (the
# first a whole number of bytes) on two host threads: 1.15x one call at 2^23, 1.4x at
# 2^24, slower below (the hand-off costs about 0.1 ms).
PACK_SPLIT_MIN = 1 << 23
CPU_NUMPY = True  # tests turn it off to run the compositions on the cpu device


def _cpu(a):
    """Whether a's call goes to NumPy (not for an empty input: NumPy's unpackbits
    pads one with uninitialised bytes, the composition with zeros)."""
    return CPU_NUMPY and a.device.id < 0 and a.size > 0


def _wrap(r, device):
    return _ca.asarray(r, device=device)


def _cpu_packbits(a, axis, bitorder):
    h = _np.asarray(a)
    if axis is None and h.size >= PACK_SPLIT_MIN and _host_threads.ENABLED:
        flat = h.reshape(-1)
        half = flat.size // 2 // 8 * 8
        first, second = _host_threads.both(_np.packbits, (flat[:half], None, bitorder),
                                           (flat[half:], None, bitorder))
        return _wrap(_np.concatenate((first, second)), a.device)
    return _wrap(_np.packbits(h, axis=axis, bitorder=bitorder), a.device)


def packbits(a, /, axis=None, bitorder="big"):
    """packbits(a, /, axis=None, bitorder='big')

    The truth values of an integer or bool array packed into uint8 bytes along an
    axis (the flattened array for None), zero-padded to a multiple of 8
    (numpy.packbits); bitorder='little' puts the first element in bit 0.
    """
    a = _arr(a)
    if a.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    little = _bitorder(bitorder)
    if _cpu(a):
        return _cpu_packbits(a, axis, bitorder)
    b = _ca.not_equal(a, 0) if a.dtype.kind != "b" else a
    if axis is None:
        b, axis = b.reshape(-1), 0
    axis = _norm_axis(axis, b.ndim)
    b = _ca.moveaxis(b, axis, -1)
    n = b.shape[-1]
    pad = -n % 8
    if pad:
        b = _ca.concatenate([b, _ca.zeros(b.shape[:-1] + (pad,), dtype=_np.bool_,
                                          device=b.device)], axis=-1)
    elif b.data.ptr % 8 or not b.flags.c_contiguous:
        b = b.copy()  # words must be whole, aligned and in order
    if b.size == 0:
        r = _ca.zeros(b.shape[:-1] + ((n + pad) // 8,), dtype=_np.uint8, device=b.device)
    else:
        w = b.view(_np.uint64)
        w = _ca.right_shift(_ca.multiply(w, _PACK_LITTLE if little else _PACK_BIG), 56)
        r = w.astype(_np.uint8)
    return _ca.ascontiguousarray(_ca.moveaxis(r, -1, axis))


def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """unpackbits(a, /, axis=None, count=None, bitorder='big')

    The bits of a uint8 array as uint8 0/1 values along an axis (the flattened
    array for None), count= keeping the first count bits (negative: dropping
    bits from the end; past the end: zero padding), as numpy.unpackbits.
    """
    a = _arr(a)
    if a.dtype != _np.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    little = _bitorder(bitorder)
    if _cpu(a):
        if count is not None:
            count = _operator.index(count)
        return _wrap(_np.unpackbits(_np.asarray(a), axis=axis, count=count,
                                    bitorder=bitorder), a.device)
    if axis is None:
        a, axis = a.reshape(-1), 0
    axis = _norm_axis(axis, a.ndim)
    a = _ca.moveaxis(a, axis, -1)
    nbits = a.shape[-1] * 8
    s = list(range(8)) if little else list(range(7, -1, -1))
    s = _ca.asarray(_np.array(s, dtype=_np.uint8), device=a.device)
    bits = _ca.bitwise_and(_ca.right_shift(a.reshape(a.shape + (1,)), s), 1)
    bits = bits.astype(_np.uint8, copy=False).reshape(a.shape[:-1] + (nbits,))
    if count is not None:
        count = _operator.index(count)
        if count < 0:
            if count < -nbits:
                raise ValueError("-count larger than number of elements")
            bits = bits[..., :nbits + count]
        elif count <= nbits:
            bits = bits[..., :count]
        else:
            bits = _ca.concatenate([bits, _ca.zeros(bits.shape[:-1] + (count - nbits,),
                                                    dtype=_np.uint8, device=a.device)],
                                   axis=-1)
    return _ca.ascontiguousarray(_ca.moveaxis(bits, -1, axis))
