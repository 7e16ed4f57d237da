"""Construction functions: eye, identity, diags, spdiags, random, rand, kron,
kronsum, hstack, vstack, bmat, block_array, block_diag, tril, triu, find,
permute_dims, swapaxes (SciPy's signatures; `device=` places the result).

Each builds COO entries with cuarray primitives and converts to the asked
format; the array forms (eye_array, diags_array, random_array, block_array)
return sparray, the others spmatrix unless an input is a sparray (SciPy's rule).
"""

import numpy as np

import cuarray as _ca

from . import _sputils as su
from ._base import _CLASSES, issparse, sparray


def _cls(fmt, is_array):
    return _CLASSES[(fmt, is_array)]


def _coo(data, row, col, shape, is_array, fmt, canonical=False):
    """The COO of the entries in `fmt` (None: COO), of the array or matrix kind."""
    idx = su.get_index_dtype(maxval=max(shape) if shape else 0)
    A = _cls("coo", is_array)._from_parts(
        (data, row.astype(idx), col.astype(idx)), shape, canonical=canonical)
    return A if fmt in (None, "coo") else A.asformat(fmt)


def _sparse_in(A, device=None):
    """A sparse input (cuarray, SciPy or dense) as cuarray COO, and its kind."""
    from ._coo import coo_array, coo_matrix
    if issparse(A):
        return A.tocoo(), isinstance(A, sparray)
    sps_is_array = False
    mod = type(A).__module__ or ""
    if mod.startswith("scipy.sparse"):
        sps_is_array = isinstance(A, su.scipy_sparse().sparray)
    return (coo_array if sps_is_array else coo_matrix)(A, device=device), sps_is_array


# ---------------------------------------------------------------------------
# diagonals
# ---------------------------------------------------------------------------

def _eye(m, n, k, dtype, format, is_array, device):
    n = m if n is None else n
    m, n = su.check_shape((m, n))
    dtype = su.getdtype(dtype, default=float)
    length = max(0, min(m + min(k, 0), n - max(k, 0)))
    i = _ca.arange(length, dtype=np.int64, device=device)
    row, col = (i, i + k) if k >= 0 else (i - k, i)
    data = _ca.ones(length, dtype=dtype, device=device)
    A = _coo(data, row, col, (m, n), is_array, None, canonical=True)
    return A.asformat(format or "dia")


def eye(m, n=None, k=0, dtype=float, format=None, *, device=None):
    """eye(m, n=None, k=0, dtype=float, format=None): ones on the k-th diagonal
    (a sparse matrix; DIA unless `format` says otherwise)."""
    return _eye(m, n, k, dtype, format, False, device)


def eye_array(m, n=None, *, k=0, dtype=float, format=None, device=None):
    """eye_array(m, n=None, *, k=0, dtype=float, format=None): eye as a sparse array."""
    return _eye(m, n, k, dtype, format, True, device)


def identity(n, dtype="d", format=None, *, device=None):
    """identity(n, dtype='d', format=None): the n x n identity sparse matrix."""
    return _eye(n, n, 0, dtype, format, False, device)


def _diags(diagonals, offsets, shape, format, dtype, is_array, device):
    if su.isscalarlike(offsets) or (hasattr(offsets, "ndim") and offsets.ndim == 0):
        first = diagonals[0] if len(diagonals) else None
        if len(diagonals) == 0 or su.isscalarlike(first) or (
                hasattr(first, "ndim") and first.ndim == 0):
            diagonals = [diagonals]
        else:
            raise ValueError("Different number of diagonals and offsets.")
    offsets = [int(o) for o in np.atleast_1d(np.asarray(
        offsets.get() if isinstance(offsets, _ca.ndarray) else offsets))]
    if len(diagonals) != len(offsets):
        raise ValueError("Different number of diagonals and offsets.")
    diags = [_ca.atleast_1d(_ca.asarray(d, device=device)) for d in diagonals]
    if shape is None:
        m = len(diags[0]) + abs(offsets[0])
        shape = (m, m)
    m, n = su.check_shape(shape)
    if dtype is None or dtype is np._NoValue if hasattr(np, "_NoValue") else False:
        dtype = None
    dt = np.result_type(*[d.dtype for d in diags]) if dtype is None else np.dtype(dtype)
    dt = su.getdtype(dt)
    dev = diags[0].device
    rows, cols, vals = [], [], []
    for j, (d, k) in enumerate(zip(diags, offsets)):
        length = min(m + min(k, 0), n - max(k, 0))
        if length < 0:
            raise ValueError(f"Offset {k} (index {j}) out of bounds")
        if d.size != 1 and d.size < length:
            raise ValueError(f"Diagonal length (index {j}: {d.size} at offset {k}) "
                             f"does not agree with array size ({m}, {n}).")
        v = _ca.broadcast_to(d, (length,)) if d.size == 1 else d[:length]
        i = _ca.arange(length, dtype=np.int64, device=dev)
        rows.append(i if k >= 0 else i - k)
        cols.append(i + k if k >= 0 else i)
        vals.append(v.astype(dt))
    if len(set(offsets)) != len(offsets):
        raise ValueError("offset array contains duplicate values")
    A = _coo(_ca.concatenate(vals), _ca.concatenate(rows), _ca.concatenate(cols),
             (m, n), is_array, None)
    return A.asformat(format or "dia")


def diags_array(diagonals, /, *, offsets=0, shape=None, format=None, dtype=None,
                device=None):
    """diags_array(diagonals, /, *, offsets=0, shape=None, format=None, dtype=None)

    A sparse array from diagonals: diagonals[j] on offset offsets[j] (a scalar
    or length-1 diagonal is broadcast).
    """
    return _diags(diagonals, offsets, shape, format, dtype, True, device)


def diags(diagonals, offsets=0, shape=None, format=None, dtype=None, *, device=None):
    """diags(diagonals, offsets=0, shape=None, format=None, dtype=None): as
    diags_array, a sparse matrix."""
    return _diags(diagonals, offsets, shape, format, dtype, False, device)


def spdiags(data, diags, m=None, n=None, format=None, *, device=None):
    """spdiags(data, diags, m=None, n=None, format=None): the dia_matrix of
    (data, diags) (rows of `data` in DIA's column-aligned layout)."""
    from ._dia import dia_matrix
    if m is None and n is None:
        m = n = len(data[0])
    elif n is None:
        m, n = m
    return dia_matrix((data, diags), shape=(m, n), device=device).asformat(format)


# ---------------------------------------------------------------------------
# random
# ---------------------------------------------------------------------------

def _random(shape, density, format, dtype, rng, sampler, is_array, device):
    """SciPy's algorithm with NumPy's generator on the host (the same entries
    as scipy.sparse.random for the same seed), then one copy per buffer."""
    if density < 0 or density > 1:
        raise ValueError("density expected to be 0 <= density <= 1")
    m, n = su.check_shape(shape)
    dtype = su.getdtype(dtype, default=np.float64)
    total = m * n
    size = int(round(density * total))
    if not isinstance(rng, np.random.Generator) and not isinstance(
            rng, np.random.RandomState):
        rng = np.random.default_rng(rng)
    if sampler is None:
        if dtype.kind in "iu":
            info = np.iinfo(dtype)
            sampler = _int_sampler(rng, info, dtype)
        elif dtype.kind == "c":
            def sampler(size):
                return rng.uniform(size=size) + rng.uniform(size=size) * 1j
        else:
            sampler = rng.uniform
    flat = rng.choice(total, size=size, replace=False)
    col, row = np.divmod(flat, m)  # Fortran order, as SciPy's unravel_index
    vals = np.asarray(sampler(size=size)).astype(dtype, copy=False)
    A = _coo(_ca.asarray(vals, device=device), _ca.asarray(row, device=device),
             _ca.asarray(col, device=device), (m, n), is_array, None)
    return A.asformat(format)


def _int_sampler(rng, info, dtype):
    def sample(size):
        if isinstance(rng, np.random.Generator):
            return rng.integers(info.min, info.max, size, dtype=dtype)
        return rng.randint(info.min, info.max, size, dtype=dtype)
    return sample


def random_array(shape, *, density=0.01, format="coo", dtype=None, rng=None,
                 data_sampler=None, random_state=None, device=None):
    """random_array(shape, *, density=0.01, format='coo', dtype=None, rng=None,
    data_sampler=None): a sparse array with round(density * m * n) entries at
    distinct random places, values from data_sampler (default uniform [0, 1))."""
    rng = random_state if rng is None else rng
    return _random(shape, density, format, dtype, rng, data_sampler, True, device)


def random(m, n, density=0.01, format="coo", dtype=None, rng=None, data_rvs=None,
           *, random_state=None, device=None):
    """random(m, n, density=0.01, format='coo', dtype=None, rng=None,
    data_rvs=None): as random_array, a sparse matrix."""
    rng = random_state if rng is None else rng
    return _random((m, n), density, format, dtype, rng, data_rvs, False, device)


def rand(m, n, density=0.01, format="coo", dtype=None, rng=None, *,
         random_state=None, device=None):
    """rand(m, n, density=0.01, format='coo', dtype=None, rng=None): a sparse
    matrix of uniform values."""
    rng = random_state if rng is None else rng
    return _random((m, n), density, format, dtype, rng, None, False, device)


# ---------------------------------------------------------------------------
# products and stacks
# ---------------------------------------------------------------------------

def kron(A, B, format=None):
    """kron(A, B, format=None): the Kronecker product (COO unless `format`)."""
    a, a_arr = _sparse_in(A)
    b, b_arr = _sparse_in(B, device=a.device)
    shape = (a.shape[0] * b.shape[0], a.shape[1] * b.shape[1])
    dtype = su.upcast(a.dtype, b.dtype)
    row = (a.row.astype(np.int64)[:, None] * b.shape[0] + b.row[None, :]).reshape(-1)
    col = (a.col.astype(np.int64)[:, None] * b.shape[1] + b.col[None, :]).reshape(-1)
    data = (a.data[:, None].astype(dtype) * b.data[None, :]).reshape(-1)
    return _coo(data, row, col, shape, a_arr or b_arr, format)


def kronsum(A, B, format=None):
    """kronsum(A, B, format=None): kron(I_n, A) + kron(B, I_m) for square A
    (m x m) and B (n x n)."""
    a, a_arr = _sparse_in(A)
    b, b_arr = _sparse_in(B, device=a.device)
    if a.shape[0] != a.shape[1]:
        raise ValueError("A is not square")
    if b.shape[0] != b.shape[1]:
        raise ValueError("B is not square")
    dtype = su.upcast(a.dtype, b.dtype)
    ia = _eye(b.shape[0], None, 0, dtype, "coo", a_arr or b_arr, a.device)
    ib = _eye(a.shape[0], None, 0, dtype, "coo", a_arr or b_arr, a.device)
    return (kron(ia, a) + kron(b, ib)).asformat(format)


def _block(blocks, format, dtype, is_array=None):
    """The COO (or `format`) of a 2-D grid of sparse blocks (None: zeros)."""
    grid = [list(r) for r in blocks] if not isinstance(blocks, np.ndarray) else \
        [list(r) for r in blocks]
    if not grid or any(not isinstance(r, list) for r in grid) or \
            len({len(r) for r in grid}) != 1 or len(grid[0]) == 0 and len(grid) > 1:
        raise ValueError("blocks must be 2-D")
    M, N = len(grid), len(grid[0])
    heights, widths = [None] * M, [None] * N
    cells, kinds, device = {}, [], None
    for i in range(M):
        for j in range(N):
            b = grid[i][j]
            if b is None:
                continue
            c, arr = _sparse_in(b, device)
            device = c.device
            kinds.append(arr)
            cells[i, j] = c
            for lst, k, d, what in ((heights, i, c.shape[0], "row"),
                                    (widths, j, c.shape[1], "column")):
                if lst[k] is None:
                    lst[k] = d
                elif lst[k] != d:
                    ax = 0 if what == "row" else 1
                    idx = f"blocks[{i},:]" if ax == 0 else f"blocks[:,{j}]"
                    raise ValueError(f"{idx} has incompatible {what} dimensions. Got "
                                     f"blocks[{i},{j}].shape[{ax}] == {d}, expected "
                                     f"{lst[k]}.")
    if any(h is None for h in heights) or any(w is None for w in widths):
        bad = heights.index(None) if None in heights else widths.index(None)
        what = "row" if None in heights else "column"
        raise ValueError(f"blocks[{bad},:] is all None" if what == "row"
                         else f"blocks[:,{bad}] is all None")
    r0 = np.concatenate([[0], np.cumsum(heights)]).tolist()
    c0 = np.concatenate([[0], np.cumsum(widths)]).tolist()
    if is_array is None:
        is_array = any(kinds)
    if not cells:
        raise ValueError("blocks must contain at least one array")
    dt = su.getdtype(dtype) if dtype is not None else su.upcast(
        *[c.dtype for c in cells.values()])
    rows = [c.row.astype(np.int64) + r0[i] for (i, j), c in cells.items()]
    cols = [c.col.astype(np.int64) + c0[j] for (i, j), c in cells.items()]
    data = [c.data.astype(dt) for c in cells.values()]
    return _coo(_ca.concatenate(data), _ca.concatenate(rows), _ca.concatenate(cols),
                (r0[-1], c0[-1]), is_array, format)


def _one_format(blocks):
    fmts = {b.format for b in blocks if issparse(b)}
    return fmts.pop() if len(fmts) == 1 else None


def hstack(blocks, format=None, dtype=None):
    """hstack(blocks, format=None, dtype=None): blocks side by side."""
    fmt = format or ("csc" if _one_format(blocks) == "csc" else None)
    return _block([list(blocks)], fmt, dtype)


def vstack(blocks, format=None, dtype=None):
    """vstack(blocks, format=None, dtype=None): blocks one above the other."""
    fmt = format or ("csr" if _one_format(blocks) == "csr" else None)
    return _block([[b] for b in blocks], fmt, dtype)


def bmat(blocks, format=None, dtype=None):
    """bmat(blocks, format=None, dtype=None): a sparse matrix from a 2-D grid of
    blocks (None for zero blocks); a sparse array if any block is one."""
    return _block(blocks, format, dtype)


def block_array(blocks, *, format=None, dtype=None):
    """block_array(blocks, *, format=None, dtype=None): bmat as a sparse array."""
    return _block(blocks, format, dtype, is_array=True)


def block_diag(mats, format=None, dtype=None):
    """block_diag(mats, format=None, dtype=None): the matrices on the diagonal."""
    coos = []
    device = None
    for a in mats:
        c, arr = _sparse_in(a, device)
        device = c.device
        coos.append((c, arr))
    if not coos:
        raise ValueError("blocks must contain at least one array")
    r0 = np.concatenate([[0], np.cumsum([c.shape[0] for c, _ in coos])]).tolist()
    c0 = np.concatenate([[0], np.cumsum([c.shape[1] for c, _ in coos])]).tolist()
    dt = su.getdtype(dtype) if dtype is not None else su.upcast(
        *[c.dtype for c, _ in coos])
    rows = [c.row.astype(np.int64) + r0[i] for i, (c, _) in enumerate(coos)]
    cols = [c.col.astype(np.int64) + c0[i] for i, (c, _) in enumerate(coos)]
    data = [c.data.astype(dt) for c, _ in coos]
    return _coo(_ca.concatenate(data), _ca.concatenate(rows), _ca.concatenate(cols),
                (r0[-1], c0[-1]), any(k for _, k in coos), format)


# ---------------------------------------------------------------------------
# extraction
# ---------------------------------------------------------------------------

def _tri(A, k, format, lower):
    a, is_array = _sparse_in(A)
    diff = a.col.astype(np.int64) - a.row
    keep = (diff <= k) if lower else (diff >= k)
    return _coo(a.data[keep], a.row[keep], a.col[keep], a.shape, is_array, format)


def tril(A, k=0, format=None):
    """tril(A, k=0, format=None): the entries on and below the k-th diagonal."""
    return _tri(A, k, format, True)


def triu(A, k=0, format=None):
    """triu(A, k=0, format=None): the entries on and above the k-th diagonal."""
    return _tri(A, k, format, False)


def find(A):
    """find(A): (row, col, data) of A's nonzero entries (duplicates summed)."""
    a, _ = _sparse_in(A)
    a = a.copy()
    a.sum_duplicates()
    nz = a.data != 0
    return a.row[nz], a.col[nz], a.data[nz]


def permute_dims(A, axes=None, copy=False):
    """permute_dims(A, axes=None, copy=False): A with its axes permuted (2-D:
    the transpose, or A itself for axes (0, 1))."""
    if axes is None or tuple(axes) == (1, 0):
        return A.transpose(copy=copy)
    if sorted(int(a) % 2 for a in axes) != [0, 1] or len(axes) != 2:
        raise ValueError(f"axes must be a permutation of (0, 1), got {axes}")
    return A.copy() if copy else A


def swapaxes(A, axis1, axis2):
    """swapaxes(A, axis1, axis2): A with two axes interchanged."""
    for ax in (axis1, axis2):
        if not -2 <= ax <= 1:
            raise ValueError(f"Invalid axis {ax} for N={A.ndim}")
    if axis1 % 2 == axis2 % 2:
        return A.copy()
    return A.transpose(copy=True)

