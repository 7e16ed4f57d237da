"""SciPy's special matrices (scipy.linalg._special_matrices) over cuarray arrays.

Each is a composition of cuarray's own operations (index arithmetic, gathers,
broadcasting), so it runs on any device: a matrix from an array lands on that
array's device, one from an integer on the current device. Batches follow SciPy
1.17: leading dimensions of the coefficient arrays are stacks.
"""

import math
import warnings

import numpy as _np

import cuarray as _ca

__all__ = ["bandwidth", "block_diag", "circulant", "companion", "convolution_matrix",
           "dft", "fiedler", "fiedler_companion", "hadamard", "hankel", "helmert",
           "hilbert", "khatri_rao", "leslie", "toeplitz"]


def _arr(a, device=None):
    return a if isinstance(a, _ca.ndarray) else _ca.asarray(a, device=device)


def _gather(v, idx):
    """v[..., idx] for an index array idx of any shape (v's batch kept)."""
    return _ca.take(v, idx, axis=-1)


def _index_grid(m, n, device):
    i = _ca.arange(m, device=device)[:, None]
    j = _ca.arange(n, device=device)[None, :]
    return i, j


def toeplitz(c, r=None):
    """toeplitz(c, r=None)

    The Toeplitz matrix of first column c and first row r (r[0] ignored; r None:
    conj(c)). Leading dimensions of c and r are batches (SciPy 1.17)."""
    c = _ca.atleast_1d(_arr(c))
    r = c.conj() if r is None else _ca.atleast_1d(_arr(r, c.device))
    m, n = c.shape[-1], r.shape[-1]
    t = _ca.result_type(c, r)
    batch = _np.broadcast_shapes(c.shape[:-1], r.shape[:-1])
    # the values r[:0:-1] ++ c, read at (i - j) + n - 1
    vals = _ca.concatenate([_ca.broadcast_to(r[..., :0:-1], batch + (n - 1,)).astype(t),
                            _ca.broadcast_to(c, batch + (m,)).astype(t)], axis=-1)
    i, j = _index_grid(m, n, c.device)
    return _gather(vals, i - j + (n - 1))


def circulant(c):
    """circulant(c)

    The circulant matrix whose first column is c: C[i, j] = c[(i - j) % n].
    Leading dimensions of c are batches."""
    c = _ca.atleast_1d(_arr(c))
    n = c.shape[-1]
    i, j = _index_grid(n, n, c.device)
    return _gather(c, (i - j) % max(n, 1))


def hankel(c, r=None):
    """hankel(c, r=None)

    The Hankel matrix of first column c and last row r (r[0] ignored; r None:
    zeros). N-d inputs are raveled with SciPy 1.17's FutureWarning."""
    c = _arr(c)
    if c.ndim == 0:
        raise IndexError("too many indices for array: array is 0-dimensional, but 1 "
                         "were indexed")
    if c.ndim > 1 or (r is not None and _ca.ndim(r) > 1):
        warnings.warn("Beginning in SciPy 1.19, multidimensional input will be treated "
                      "as a batch, not `ravel`ed. To preserve the existing behavior and "
                      "silence this warning, `ravel` arguments before passing them to "
                      "`hankel`.", FutureWarning, stacklevel=2)
    c = c.ravel()
    r = _ca.zeros_like(c) if r is None else _ca.atleast_1d(_arr(r, c.device)).ravel()
    m, n = c.shape[0], r.shape[0]
    vals = _ca.concatenate([c, r[1:].astype(_ca.result_type(c, r))])
    i, j = _index_grid(m, n, c.device)
    return vals[i + j]


def _first_nonzero(a, message):
    if a.shape[-1] < 2:
        raise ValueError("The length of `a` along the last axis must be at least 2.")
    if bool((a[..., 0] == 0).any()):
        raise ValueError(message)


def companion(a):
    """companion(a)

    The companion matrix of the polynomial a (highest power first): first row
    -a[1:] / a[0], ones below the diagonal. Leading dimensions are batches."""
    a = _ca.atleast_1d(_arr(a))
    _first_nonzero(a, "The first coefficient(s) of `a` (i.e. elements of `a[..., 0]`) "
                      "must not be zero.")
    row = -a[..., 1:] / a[..., :1]
    n = a.shape[-1] - 1
    out = _ca.zeros(a.shape[:-1] + (n, n), dtype=row.dtype, device=a.device)
    out[..., 0, :] = row
    k = _ca.arange(n - 1, device=a.device)
    out[..., k + 1, k] = 1
    return out


def fiedler(a):
    """fiedler(a)

    The symmetric Fiedler matrix F[i, j] = |a[i] - a[j]| (leading dimensions are
    batches; an empty a gives an empty (0, 0) float64 array, as SciPy 1.18's: 1.17
    and earlier gave shape (0,))."""
    a = _ca.atleast_1d(_arr(a))
    if a.size == 0:
        return _ca.empty((0, 0), dtype=_np.float64, device=a.device)
    if a.shape == (1,):   # SciPy's special case: float64 whatever a's dtype
        return _ca.zeros((1, 1), dtype=_np.float64, device=a.device)
    if a.dtype == _np.bool_:
        raise TypeError("numpy boolean subtract, the `-` operator, is not supported")
    return _ca.abs(a[..., :, None] - a[..., None, :])


def fiedler_companion(a):
    """fiedler_companion(a)

    Fiedler's pentadiagonal companion matrix of the polynomial a (highest power
    first, a[0] != 0), whose eigenvalues are a's roots. Leading dimensions are
    batches; fewer than two coefficients give an empty array: (0, 0) for one
    coefficient as in SciPy 1.18 (1.17: (0,)), (0,) for none."""
    a = _ca.atleast_1d(_arr(a))
    if a.shape[-1] < 2:
        shape = (0, 0) if a.shape[-1] == 1 else (0,)
        return _ca.empty(shape, dtype=_np.float64, device=a.device)
    if bool((a[..., 0] == 0).any()):
        raise ValueError("Leading coefficient is zero.")
    a = a / a[..., :1]
    n = a.shape[-1] - 1
    rows, cols, src = _fiedler_pattern(n)
    # the values -a[1], ..., -a[n] and a 1 (index n), placed by one scatter
    vals = _ca.concatenate([-a[..., 1:], _ca.ones_like(a[..., :1])], axis=-1)
    c = _ca.zeros(a.shape[:-1] + (n, n), dtype=a.dtype, device=a.device)
    dev = a.device
    c[..., _ca.asarray(rows, device=dev), _ca.asarray(cols, device=dev)] = _gather(
        vals, _ca.asarray(src, device=dev))
    return c


def _fiedler_pattern(n):
    """(rows, cols, value index) of Fiedler's companion form (2003): -a[1] at
    (0, 0); each even row r holds -a[r+1] left of the diagonal (r >= 2), -a[r+2]
    right of it and a 1 two places right; odd rows a 1 (at (1, 0), (r, r-2))."""
    rows, cols, src = [0], [0], [0]
    for r in range(0, n, 2):
        for col, k in ((r - 1, r), (r + 1, r + 1), (r + 2, n)):
            if 0 <= col < n and (col != r - 1 or r >= 2):
                rows.append(r), cols.append(col), src.append(k)
    for r in range(1, n, 2):
        rows.append(r), cols.append(0 if r == 1 else r - 2), src.append(n)
    return _np.array(rows), _np.array(cols), _np.array(src)


def leslie(f, s):
    """leslie(f, s)

    The Leslie matrix: fecundities f in the first row, survival rates s (one
    fewer) below the diagonal. Leading dimensions are batches."""
    f = _ca.atleast_1d(_arr(f))
    s = _ca.atleast_1d(_arr(s, f.device))
    if f.shape[-1] != s.shape[-1] + 1:
        raise ValueError("Incorrect lengths for f and s. The length of s along the last "
                         "axis must be one less than the length of f.")
    n = f.shape[-1]
    batch = _np.broadcast_shapes(f.shape[:-1], s.shape[:-1])
    out = _ca.zeros(batch + (n, n), dtype=_ca.result_type(f, s), device=f.device)
    out[..., 0, :] = f
    k = _ca.arange(n - 1, device=f.device)
    out[..., k + 1, k] = s
    return out


def convolution_matrix(a, n, mode="full"):
    """convolution_matrix(a, n, mode='full')

    The matrix A with A @ v == numpy.convolve(a, v, mode) for v of length n.
    Leading dimensions of a are batches."""
    a = _arr(a)
    if n <= 0:
        raise ValueError("n must be a positive integer.")
    if a.ndim == 0 or a.shape[-1] == 0:
        raise ValueError("len(a) must be at least 1.")
    if mode not in ("full", "valid", "same"):
        raise ValueError("'mode' argument must be one of ('full', 'valid', 'same')")
    m = a.shape[-1]
    # the full matrix's rows kept: numpy.convolve's output window
    if mode == "full":
        start, rows = 0, m + n - 1
    elif mode == "same":
        rows = max(m, n)
        start = (m + n - 1 - rows) // 2
    else:
        start, rows = min(m, n) - 1, max(m, n) - min(m, n) + 1
    i, j = _index_grid(rows, n, a.device)
    k = i + start - j
    padded = _ca.concatenate([a, _ca.zeros_like(a[..., :1])], axis=-1)
    return _gather(padded, _ca.where((k >= 0) & (k < m), k, m))


def khatri_rao(a, b):
    """khatri_rao(a, b)

    The column-wise Kronecker product of a (m, k) and b (p, k): (m * p, k).
    Leading dimensions are batches."""
    a = _arr(a)
    b = _arr(b, a.device)
    if a.ndim < 2 or b.ndim < 2:
        raise ValueError("The both arrays should be 2-dimensional.")
    if a.shape[-1] != b.shape[-1]:
        raise ValueError("The number of columns for both arrays should be equal.")
    c = a[..., :, None, :] * b[..., None, :, :]
    return c.reshape(c.shape[:-3] + (-1, c.shape[-1]))


def block_diag(*arrs):
    """block_diag(*arrs)

    The block-diagonal matrix of the given arrays (0-d and 1-d ones as rows).
    Arrays of more than two dimensions are batches, broadcast against each
    other. No arrays: a (1, 0) float64 array."""
    if not arrs:
        return _ca.empty((1, 0), dtype=_np.float64)
    dev = next((x.device for x in arrs if isinstance(x, _ca.ndarray)), None)
    arrs = [_ca.atleast_2d(_arr(x, dev)) for x in arrs]
    t = _ca.result_type(*arrs)
    batch = _np.broadcast_shapes(*(x.shape[:-2] for x in arrs))
    rows = sum(x.shape[-2] for x in arrs)
    cols = sum(x.shape[-1] for x in arrs)
    out = _ca.zeros(batch + (rows, cols), dtype=t, device=arrs[0].device)
    r = c = 0
    for x in arrs:
        p, q = x.shape[-2:]
        out[..., r:r + p, c:c + q] = x
        r, c = r + p, c + q
    return out


def bandwidth(a):
    """bandwidth(a)

    (lower, upper): the number of nonzero sub- and super-diagonals of a 2-d
    array (for a stack, arrays of them). One pass over the nonzeros' offsets."""
    a = _arr(a)
    if a.ndim < 2:
        raise ValueError("Input array must be a 2D NumPy array.")
    if a.dtype == _np.float16:
        raise TypeError("No matching signature found")
    m, n = a.shape[-2:]
    if m == 0 or n == 0:
        lower = upper = _ca.zeros(a.shape[:-2], dtype=_np.int64, device=a.device)
    else:
        i, j = _index_grid(m, n, a.device)
        nz = a != 0
        lower = _ca.where(nz, i - j, 0).max(axis=(-2, -1))
        upper = _ca.where(nz, j - i, 0).max(axis=(-2, -1))
    if a.ndim == 2:
        return int(lower), int(upper)
    return lower, upper


def dft(n, scale=None):
    """dft(n, scale=None)

    The n x n discrete Fourier transform matrix (complex128): m[j, k] =
    exp(-2 pi i j k / n), divided by sqrt(n) (scale 'sqrtn') or n ('n')."""
    if scale not in (None, "sqrtn", "n"):
        raise ValueError(f"scale must be None, 'sqrtn', or 'n'; {scale!r} is not valid.")
    i, j = _index_grid(n, n, None)
    # (j k) mod n keeps the angle exact for large n
    ang = ((i * j) % max(n, 1)).astype(_np.float64) * (-2 * math.pi / max(n, 1))
    m = _ca.cos(ang) + 1j * _ca.sin(ang)
    if scale == "sqrtn":
        m = m / math.sqrt(n)
    elif scale == "n":
        m = m / n
    return m.astype(_np.complex128)


def hadamard(n, dtype=int):
    """hadamard(n, dtype=int)

    Sylvester's n x n Hadamard matrix, n a power of 2."""
    lg2 = int(math.log2(n)) if n >= 1 else 0
    if n < 1 or 2 ** lg2 != n:
        raise ValueError("n must be an positive integer, and n must be a power of 2")
    # H[i, j] = (-1)^popcount(i & j)
    i, j = _index_grid(n, n, None)
    x = i & j
    par = _ca.zeros(x.shape, dtype=_np.int64)
    for _ in range(lg2):
        par = par ^ (x & 1)
        x = x >> 1
    return (1 - 2 * par).astype(dtype)


def helmert(n, full=False):
    """helmert(n, full=False)

    The Helmert matrix of order n (float64): its rows orthonormal, all but the
    first orthogonal to ones; full=False drops the first row."""
    i, j = _index_grid(n, n, None)
    k = _ca.arange(n, dtype=_np.float64)
    h = _ca.where(j < i, 1.0, 0.0) - _ca.where(j == i, k[:, None], 0.0)
    h[0] = 1.0
    d = k * (k + 1)
    d[0] = n
    h = h / _ca.sqrt(d)[:, None]
    return h if full else h[1:]


def hilbert(n):
    """hilbert(n)

    The n x n Hilbert matrix H[i, j] = 1 / (i + j + 1), float64."""
    i, j = _index_grid(n, n, None)
    return 1.0 / (i + j + 1).astype(_np.float64)
