"""References for the bfloat16/float8 tests (test_bfloat16.py, test_float8.py) that
hold whichever ml_dtypes is installed.

cuarray casts as ml_dtypes 0.7 does (kernels/scalar.h): every value rounds once to
the small format, and a float -> int whose truncation is out of the target's range
(inf, NaN too) gives 0. ml_dtypes up to 0.6 differs: it rounds int32/int64/float64
sources through float32 (twice: 2**24 + 2**16 + 1 -> bfloat16 ties), converts to
int as the C compiler does (x86: out of range is INT_MIN, then truncated), sorts
bfloat16 with a comparison that scatters NaNs, and defines fewer promotions. The
models here compute cuarray's rule from NumPy's own float32 casts; where the
installed ml_dtypes follows the same rules (ML_DTYPES_ROUNDS_ONCE), each model is
checked against ml_dtypes' answer too."""

import warnings

import ml_dtypes
import numpy as np

BF16 = np.dtype(ml_dtypes.bfloat16)
MINI = [BF16, np.dtype(ml_dtypes.float8_e4m3fn), np.dtype(ml_dtypes.float8_e5m2)]


def _probe():
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        once = np.array([2**24 + 2**16 + 1], np.int32).astype(BF16).view(np.uint16)[0]
        to_int = np.array([128.0], BF16).astype(np.int8)[0]
    return int(once) == 0x4B81 and int(to_int) == 0


ML_DTYPES_ROUNDS_ONCE = _probe()


def bits(x):
    """An array's elements as unsigned integers of their size (bit comparisons)."""
    x = np.ascontiguousarray(x)
    if x.dtype.kind == "c":
        x = x.view(x.real.dtype)
    return x.view(f"u{x.dtype.itemsize}") if x.dtype.kind not in "biu" else x


def _int_to_float32_odd(v):
    """A Python int rounded to odd at float32's 24 bits (exact as a float32)."""
    a = abs(v)
    shift = max(a.bit_length() - 24, 0)
    m = (a >> shift) | (1 if a & ((1 << shift) - 1) else 0)
    return float(-(m << shift) if v < 0 else m << shift)


def float32_odd(h):
    """h (real part of complex) as float32 rounded to odd: rounding that on to any
    format of 22 bits or fewer rounds h's exact value once."""
    if h.dtype.kind == "c":
        h = h.real
    if h.dtype.kind in "biu":
        return np.array([_int_to_float32_odd(int(v)) for v in h.tolist()], np.float32)
    x = h.astype(np.float64)  # exact from every float type here
    with np.errstate(all="ignore"):
        f = x.astype(np.float32)
    inexact = np.isfinite(x) & (f.astype(np.float64) != x)
    toward0 = np.where(np.abs(f.astype(np.float64)) > np.abs(x),
                       np.nextafter(f, np.float32(0)), f)
    odd = (toward0.view(np.uint32) | np.uint32(1)).view(np.float32)
    return np.where(inexact, odd, f)


def _float_to_int(h, dst):
    """cuarray's (and ml_dtypes 0.7's) float -> int: truncation, 0 out of range."""
    info = np.iinfo(dst)
    x = h.astype(np.float64)
    # trunc(x) in range iff min - 1 < x < max + 1 (int64: min - 1 rounds to min,
    # and no double lies between them, so x == min is the one to add)
    lo = float(info.min) - 1.0 if info.min < 0 else -1.0
    hi = 2.0 ** (info.bits - 1) if info.min < 0 else 2.0 ** info.bits
    ok = ((x > lo) | (x == float(info.min))) & (x < hi)
    return np.where(ok, np.trunc(np.where(ok, x, 0.0)), 0.0).astype(dst)


def cast(h, dst):
    """h.astype(dst) as cuarray computes it (see the module's docstring)."""
    dst = np.dtype(dst)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = h.astype(dst)
        if dst in MINI and h.dtype not in MINI:
            want = float32_odd(h).astype(dst)
        elif h.dtype in MINI and dst.kind in "iu":
            want = _float_to_int(h, dst)
        else:
            return theirs
    if ML_DTYPES_ROUNDS_ONCE:
        np.testing.assert_array_equal(bits(want), bits(theirs))
    return want


def result_type(*dtypes):
    """np.result_type, or None where the installed ml_dtypes defines no promotion
    (NumPy raises; so does cuarray, whose table is NumPy's)."""
    try:
        return np.result_type(*dtypes)
    except TypeError:  # numpy.exceptions.DTypePromotionError is one
        return None
