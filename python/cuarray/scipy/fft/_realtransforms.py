"""scipy.fft's DCT and DST (types 1-4), their inverses and n-dimensional forms,
as real FFTs of reordered or extended lines (cuarray.fft: cuFFT on a GPU).

Every transform runs along the last axis of a real working copy (float32 for
float16/float32 input, float64 otherwise; a complex input's real and imaginary
parts are one batch of two); the algorithms, for a line x of length N:

- DCT-II (Makhoul, 1980): v = (x0, x2, x4, ..., x5, x3, x1), V = rfft(v); with
  z_k = 2 exp(-i pi k / 2N) V_k, y_k = Re z_k for k <= N/2 and y_{N-k} = -Im z_k.
- DCT-III (Makhoul's inverse): V_n = exp(i pi n / 2N) (x_n - i x_{N-n}) (x_N = 0)
  for n <= N/2 is Hermitian, v = irfft(V, N) unscaled; y_{2k} = v_k and
  y_{2k+1} = v_{N-1-k}.
- DCT-I: the even extension (x0, ..., x_{N-1}, x_{N-2}, ..., x1) of length 2(N-1):
  y = Re rfft of it (N >= 2).
- DST-I: the odd extension (0, x, 0, -reversed x) of length 2(N+1): y_k =
  -Im rfft of it at k + 1.
- DCT-IV, N even: one complex FFT of N/2 points of (x_2n + i x_{N-1-2n}) twisted
  (_dct4_half). N odd: y_k = 2 Re(exp(-i pi (2k+1) / 4N) FFT_2N(x_n exp(-i pi n /
  2N))_k), one complex FFT of the twisted line zero-padded to 2N.
- DST-II/III/IV from the DCTs: DST-II(x) = reversed DCT-II((-1)^n x_n),
  DST-III(x)_k = (-1)^k DCT-III(reversed x)_k, and the same for type IV.

Normalization: "backward" none, "forward" 1/L, "ortho" 1/sqrt(L), with L = 2(N-1)
(DCT-I), 2(N+1) (DST-I) or 2N, folded into the twiddles or one multiply;
``orthogonalize`` (default: norm == "ortho") scales the first/last input or
output elements by sqrt(2) as SciPy does, on those elements only. The inverses
are the inverse types with the norm's direction swapped. On the cpu device with
CPU_SCIPY on (see _basic.py), scipy.fft's own transform runs on a view.
"""

import functools
import math

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

import cuarray as _ca
from ... import fft as _cafft
from . import _basic

_INVERSE_TYPE = {1: 1, 2: 3, 3: 2, 4: 4}
_SQRT2 = math.sqrt(2.0)


# ---- the line transforms (last axis, real working dtype, unnormalized times c) --

def _twiddle(m, slope, start, c, like):
    """c exp(-i (slope k + start)) for k < m, on like's device in its complex
    precision: computed there in double (cos/sin of exact phases, rounded once)
    and kept in a small cache, so a repeated transform costs no host work."""
    single = like.dtype in (np.float32, np.complex64)
    return _twiddle_cached(m, slope, start, c, single, str(like.device))


@functools.lru_cache(maxsize=8)
def _twiddle_cached(m, slope, start, c, single, device):
    ph = _ca.add(_ca.multiply(_ca.arange(m, dtype="float64", device=device), slope),
                 start)
    w = _ca.subtract(_ca.cos(ph), _ca.multiply(_ca.sin(ph), 1j))
    w = _ca.multiply(w, c)
    return w.astype("complex64") if single else w


def _scale_at(y, index, factor):
    """y[..., index] *= factor, in place on that column only."""
    y[..., index] = _ca.multiply(y[..., index], factor)


def _dct2(x, c, orth):
    n = x.shape[-1]
    # Makhoul's order: the even-indexed points, then the odd-indexed reversed
    v = _ca.concatenate((x[..., 0::2], x[..., 1::2][..., ::-1]), axis=-1)
    z = _ca.multiply(_cafft.rfft(v), _twiddle(n // 2 + 1, np.pi / (2 * n), 0.0,
                                              2 * c, x))
    tail = _ca.negative(z.imag[..., 1:(n - 1) // 2 + 1][..., ::-1])
    y = _ca.concatenate((z.real, tail), axis=-1)
    if orth:
        _scale_at(y, 0, 1 / _SQRT2)
    return y


def _dct3(x, c, orth):
    n = x.shape[-1]
    h = n // 2
    a = x[..., :h + 1]
    b = x[..., n - 1:n - h - 1:-1] if h else x[..., :0]
    zero = _ca.zeros(x.shape[:-1] + (1,), dtype=x.dtype, device=x.device)
    b = _ca.concatenate((zero, b), axis=-1)          # x_{N-n}, with x_N = 0
    V = _ca.multiply(_ca.subtract(a, _ca.multiply(b, 1j)),
                     _twiddle(h + 1, -np.pi / (2 * n), 0.0, c, x))
    if orth:
        _scale_at(V, 0, _SQRT2)
    v = _cafft.irfft(V, n, norm="forward")
    # undo Makhoul's order: y_2k = v_k, y_2k+1 = v_{N-1-k}
    y = _ca.empty(v.shape, dtype=v.dtype, device=v.device)
    y[..., 0::2] = v[..., :(n + 1) // 2]
    y[..., 1::2] = v[..., ::-1][..., :h]
    return y


def _dct1(x, c, orth):
    n = x.shape[-1]
    v = _ca.concatenate((x, x[..., n - 2:0:-1]), axis=-1)
    if c != 1:
        v = _ca.multiply(v, c)
    if orth:
        _scale_at(v, 0, _SQRT2)
        _scale_at(v, n - 1, _SQRT2)
    y = _ca.ascontiguousarray(_cafft.rfft(v).real)
    if orth:
        _scale_at(y, 0, 1 / _SQRT2)
        _scale_at(y, n - 1, 1 / _SQRT2)
    return y


def _dst1(x, c, orth):
    n = x.shape[-1]
    zero = _ca.zeros(x.shape[:-1] + (1,), dtype=x.dtype, device=x.device)
    v = _ca.concatenate((zero, x, zero, _ca.negative(x[..., ::-1])), axis=-1)
    y = _cafft.rfft(v).imag[..., 1:n + 1]
    return _ca.multiply(y, -c)


def _dct4(x, c, orth):
    n = x.shape[-1]
    if n % 2 == 0:
        return _dct4_half(x, c)
    z = _ca.multiply(x, _twiddle(n, np.pi / (2 * n), 0.0, 1.0, x))
    Z = _cafft.fft(z, 2 * n)[..., :n]
    w = _twiddle(n, np.pi / (2 * n), np.pi / (4 * n), 2 * c, x)
    return _ca.multiply(Z, w).real


def _dct4_half(x, c):
    """DCT-IV of an even length N by one complex FFT of N/2 points: t_n =
    (x_2n + i x_{N-1-2n}) exp(-i pi (4n+1) / 4N), u = FFT(t) exp(-i pi k / N);
    y_2k = 2 Re u_k and y_{N-1-2k} = -2 Im u_k."""
    n = x.shape[-1]
    m = n // 2
    t = _ca.add(x[..., 0::2], _ca.multiply(x[..., ::-2], 1j))
    t = _ca.multiply(t, _twiddle(m, np.pi / n, np.pi / (4 * n), 1.0, x))
    u = _ca.multiply(_cafft.fft(t), _twiddle(m, np.pi / n, 0.0, 2 * c, x))
    y = _ca.empty(x.shape, dtype=x.dtype, device=x.device)
    y[..., 0::2] = u.real
    y[..., ::-2] = _ca.negative(u.imag)
    return y


def _alternate(y):
    """(-1)^n y_n along the last axis (a new array)."""
    y = _ca.array(y, copy=True)
    y[..., 1::2] = _ca.negative(y[..., 1::2])
    return y


def _dst2(x, c, orth):
    y = _dct2(_alternate(x), c, False)[..., ::-1]
    if orth:
        _scale_at(y, -1, 1 / _SQRT2)
    return y


def _dst3(x, c, orth):
    return _alternate(_dct3(x[..., ::-1], c, orth))


def _dst4(x, c, orth):
    return _alternate(_dct4(x[..., ::-1], c, orth))


_LINES = {("dct", 1): _dct1, ("dct", 2): _dct2, ("dct", 3): _dct3, ("dct", 4): _dct4,
          ("dst", 1): _dst1, ("dst", 2): _dst2, ("dst", 3): _dst3, ("dst", 4): _dst4}


# ---- one axis ---------------------------------------------------------------------

def _scale(kind, type_, n, norm):
    if (kind, type_) == ("dct", 1) and n < 2:
        raise RuntimeError("zero-length FFT requested")   # SciPy's (pocketfft's) error
    if norm in (None, "backward"):
        return 1.0
    size = 2 * (n - 1) if (kind, type_) == ("dct", 1) else \
        2 * (n + 1) if (kind, type_) == ("dst", 1) else 2 * n
    return 1.0 / size if norm == "forward" else 1.0 / math.sqrt(size)


def _resize_last(x, n):
    m = x.shape[-1]
    if n == m:
        return x
    if n < m:
        return x[..., :n]
    pad = _ca.zeros(x.shape[:-1] + (n - m,), dtype=x.dtype, device=x.device)
    return _ca.concatenate((x, pad), axis=-1)


def _working(x):
    if x.dtype.kind == "c":
        return x
    return x.astype("float32" if x.dtype in (np.float16, np.float32) else "float64")


def _line(x, kind, type_, n, axis, norm, orth):
    """The transform of the working-dtype array x along axis (length n)."""
    x = _resize_last(_ca.moveaxis(x, axis, -1), n)
    line = _LINES[kind, type_]
    c = _scale(kind, type_, n, norm)
    if x.dtype.kind == "c":
        parts = line(_ca.stack((x.real, x.imag)), c, orth)
        y = _ca.add(parts[0], _ca.multiply(parts[1], 1j))
    else:
        y = line(x, c, orth)
    return _ca.moveaxis(y, -1, axis)


def _check_type(kind, type_):
    if type_ not in (1, 2, 3, 4):
        raise ValueError(f"invalid {kind.upper()} type")


def _count(n):
    if n < 1:
        raise ValueError(f"invalid number of data points ({n}) specified")
    return n


# ---- several axes -----------------------------------------------------------------

def nd_shape_and_axes(x, s, axes):
    """SciPy's rules for s and axes: all axes by default, the last len(s) when
    only s is given; unique axes, one length per axis, -1 for the input's length."""
    if s is not None and not hasattr(s, "__len__"):
        s = (s,)
    if axes is not None and not hasattr(axes, "__len__"):
        axes = (axes,)
    if axes is None:
        axes = range(x.ndim) if s is None else range(x.ndim - len(s), x.ndim)
    axes = [normalize_axis_index(a, x.ndim) for a in axes]
    if len(set(axes)) != len(axes):
        raise ValueError("all axes must be unique")
    if s is None:
        s = [x.shape[a] for a in axes]
    elif len(s) != len(axes):
        raise ValueError("when given, axes and shape arguments have to be of the "
                         "same length")
    else:
        s = [x.shape[a] if int(n) == -1 else int(n) for n, a in zip(s, axes)]
    if any(n < 1 for n in s):
        raise ValueError(f"invalid number of data points ({s}) specified")
    return s, axes


def _run(name, x, type_, size, ax, norm, workers, orth):
    """One public transform: SciPy's on the cpu device (CPU_SCIPY), else the
    line transform along each axis in turn (the n-d forms are separable)."""
    if _basic.on_scipy(x):
        return _basic.scipy_call(name, x, type_, size, ax, norm, workers=workers,
                                 orthogonalize=orth)
    kind = name.lstrip("i")[:3]
    _check_type(kind, type_)
    _basic.check_norm(norm)
    _basic.check_workers(workers)
    if name.endswith("n"):
        sizes, axes = nd_shape_and_axes(x, size, ax)
        if not axes:
            return x                     # SciPy's: nothing to transform
    else:
        _basic.check_array(x, line=True)
        axes = [normalize_axis_index(ax, x.ndim)]
        sizes = [_count(x.shape[axes[0]] if size is None else size)]
    if orth is None:
        orth = norm == "ortho"
    if name.startswith("i"):
        type_, norm = _INVERSE_TYPE[type_], _basic._swap(norm)
    y = _working(x)
    for n, a in zip(sizes, axes):
        y = _line(y, kind, type_, n, a, norm, orth)
    return y


# ---- the public functions (SciPy's signatures) ------------------------------------

def _make_1d(name, doc):
    def transform(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None,
                  orthogonalize=None):
        return _run(name, x, type, n, axis, norm, workers, orthogonalize)
    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = f"scipy.fft.{name}: {doc}."
    return transform


def _make_nd(name, doc):
    def transform(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None,
                  orthogonalize=None):
        return _run(name, x, type, s, axes, norm, workers, orthogonalize)
    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = f"scipy.fft.{name}: {doc}."
    return transform


dct = _make_1d("dct", "the DCT of type 1-4 along axis (real FFTs; module notes)")
idct = _make_1d("idct", "the inverse DCT (the inverse type, the norm swapped)")
dst = _make_1d("dst", "the DST of type 1-4 along axis (real FFTs; module notes)")
idst = _make_1d("idst", "the inverse DST (the inverse type, the norm swapped)")


def dctn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *,
         orthogonalize=None):
    """scipy.fft.dctn: dct along each of axes (SciPy's dctn alone takes
    orthogonalize by keyword only)."""
    return _run("dctn", x, type, s, axes, norm, workers, orthogonalize)


idctn = _make_nd("idctn", "idct along each of axes")
dstn = _make_nd("dstn", "dst along each of axes")
idstn = _make_nd("idstn", "idst along each of axes")
