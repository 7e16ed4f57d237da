"""LU and triangular solves: lu_factor, lu, lu_solve, solve_triangular.

On a GPU (and on the cpu device with CPU_SCIPY off) these call cuarray.linalg's
solver primitive ``_core._solver``: LAPACK getrf (cuSOLVER Xgetrf per matrix,
any m x n) and getrs (Xgetrs per matrix, or cuBLAS's batched getrs for stacks of
square matrices up to ``cuarray.linalg.config.batched_max_n``). cuarray has no
trsm primitive, so solve_triangular runs getrs on the triangle with identity
pivots (getrs applies a unit-lower factor, here the identity, then the upper one):
the triangle's solve is exact, at about twice trsm's work. On the cpu device with
CPU_SCIPY on (the default), scipy.linalg's own routine runs on zero-copy views.
"""

import numpy as _np

import cuarray as _ca
from cuarray import _linalg_factor as _lf
from cuarray._cpu_numpy import view as _view
from cuarray._cpu_numpy import wrap as _wrap

__all__ = ["lu", "lu_factor", "lu_solve", "solve_triangular"]

CPU_SCIPY = True


def _scipy(a):
    return CPU_SCIPY and a.device.id < 0


def _validated(a, check_finite, device=None):
    a = a if isinstance(a, _ca.ndarray) else _ca.asarray(a, device=device)
    if check_finite and a.dtype.kind in "fc" and not bool(_ca.isfinite(a).all()):
        raise ValueError("array must not contain infs or NaNs")
    return a


def _types(*arrays):
    """scipy.linalg's LAPACK dtype: the arrays' result type with float32 (bool,
    8- and 16-bit integers and float16 compute in float32, wider integers in
    float64)."""
    t = _np.result_type(*(x.dtype for x in arrays), _np.float32)
    if t.kind not in "fc":
        raise TypeError(f"array type {t.name} is unsupported in linalg")
    return t


def _getrf(a, t, check_finite=True):
    """LAPACK getrf of the (..., M, N) stack a in dtype t: (lu as a (..., M, N)
    view of the column-major factors, 1-based int64 pivots, info).

    The GPU path does not carry NaN and inf through as LAPACK does (its factors
    of [[1, nan], [0, 1]] came back [[1, 0], [0, 1]] on an H100; cuSOLVER
    documents no non-finite input), so a GPU stack that check_finite did not vet
    and that holds one is factored by the cpu device's LAPACK and moved back:
    SciPy's answer, at a transfer's cost only for such input."""
    if not check_finite and a.device.id >= 0 and a.dtype.kind in "fc" \
            and not bool(_ca.isfinite(a).all()):
        lu, piv, info = _getrf(a.to_device("cpu"), t)
        return tuple(x.to_device(a.device) for x in (lu, piv, info))
    m, n = a.shape[-2:]
    bshape = a.shape[:-2]
    buf = _lf._colcopy(a, t)   # read column-major: a itself
    info = _lf._info(bshape, a.device)
    piv = _ca.empty(bshape + (min(m, n),), dtype=_np.int64, device=a.device)
    _lf._solver(_lf._GETRF, buf, max(m, 1), info, m, n, ipiv=piv)
    return _lf._mT(buf), piv, info


def _warn_singular(info):
    if _lf.config.check_errors and bool((info > 0).any()):
        import warnings
        from scipy.linalg import LinAlgWarning
        d = int(info[info > 0].min())
        warnings.warn(f"Diagonal number {d} is exactly zero. Singular matrix.",
                      LinAlgWarning, stacklevel=3)


def lu_factor(a, overwrite_a=False, check_finite=True):
    """lu_factor(a, overwrite_a=False, check_finite=True)

    The pivoted LU of a (..., M, N) stack: (lu, piv), L (unit diagonal) and U in
    one array, piv the 0-based int32 row interchanges (LAPACK getrf's). A
    singular matrix warns (LinAlgWarning), as SciPy. overwrite_a is accepted
    and ignored (a copy is factored).
    """
    a = _validated(a, check_finite)
    if a.ndim < 2:
        raise ValueError("expected at least a 2-D array")
    if _scipy(a):
        import scipy.linalg as sl
        r = sl.lu_factor(_view(a), check_finite=False)
        return tuple(_wrap(tuple(r), a.device))
    if a.size == 0:   # SciPy returns the empty input's dtype
        return a.copy(), _ca.empty(a.shape[:-2] + (min(a.shape[-2:]),), dtype=_np.int32,
                                   device=a.device)
    t = _types(a)
    lu, piv, info = _getrf(a, t, check_finite)
    _warn_singular(info)
    return lu, (piv - 1).astype(_np.int32)


def _permutation(piv, m):
    """perm with a[perm] == L @ U from getrf's 1-based interchanges (..., K): the
    swaps applied in order on the host (a sequential recurrence)."""
    p = (piv - 1).get()
    perm = _np.broadcast_to(_np.arange(m), p.shape[:-1] + (m,)).copy()
    rows = _np.indices(p.shape[:-1]) if p.ndim > 1 else ()
    for i in range(p.shape[-1]):
        j = p[..., i]
        at_i, at_j = perm[(*rows, i)].copy(), perm[(*rows, j)].copy()
        perm[(*rows, i)], perm[(*rows, j)] = at_j, at_i
    return perm


def lu(a, permute_l=False, overwrite_a=False, check_finite=True, p_indices=False):
    """lu(a, permute_l=False, overwrite_a=False, check_finite=True, p_indices=False)

    a (..., M, N) as P @ L @ U with L (M, K) unit lower, U (K, N) upper, K =
    min(M, N). Returns (p, l, u); with permute_l (p @ l, u); with p_indices the
    permutation as row indices (a == l[p] @ u). P is in the real dtype of a's.
    The pivots go through the host once (their swaps compose sequentially).
    """
    a = _validated(a, check_finite)
    if a.ndim < 2:
        raise ValueError("The input array must be at least two-dimensional.")
    if _scipy(a):
        import scipy.linalg as sl
        r = sl.lu(_view(a), permute_l=permute_l, check_finite=False, p_indices=p_indices)
        return tuple(_wrap(tuple(r), a.device))
    t = _types(a)
    m, n = a.shape[-2:]
    k = min(m, n)
    if a.shape == (1, 1):   # SciPy's shortcut: P and L are ones in a's dtype
        one = _ca.ones((1, 1), dtype=t, device=a.device)
        u = a.astype(t)
        if permute_l:
            return one, u
        return (_ca.zeros(1, dtype=_np.int64, device=a.device) if p_indices else one,
                one, u)
    f, piv, _ = _getrf(a, t, check_finite)
    low = _ca.tril(f[..., :, :k], -1) + _ca.eye(m, k, dtype=t, device=a.device)
    up = _ca.triu(f[..., :k, :])
    perm = _permutation(piv, m)                         # a[perm] == low @ up
    invd = _ca.asarray(_np.argsort(perm, axis=-1), device=a.device)
    if permute_l:
        return _ca.take_along_axis(low, invd[..., :, None], axis=-2), up
    if p_indices:
        return invd.astype(_np.int32), low, up
    rt = _lf._real(t)
    permd = _ca.asarray(perm, device=a.device)
    p = (_ca.arange(m, device=a.device)[:, None] == permd[..., None, :]).astype(rt)
    return p, low, up


_TRANS = {0: 0, 1: 1, 2: 2, "N": 0, "T": 1, "C": 2}


def _getrs(buf, piv, x, n, k, trans, batched):
    """getrs on column-major factors buf with 1-based pivots piv, solving into
    the column-major right-hand sides x (..., K, N) in place."""
    info = _lf._info(buf.shape[:-2], buf.device)
    op = _lf._GETRS_BATCHED if batched else _lf._GETRS
    _lf._solver(op, buf, max(n, 1), info, n, n, k, b=x, ldb=max(n, 1), ipiv=piv,
                trans=trans)


def _rhs(b, n, name, ashape):
    """b as a (..., N, K) stack; whether it was a vector."""
    vec = b.ndim == 1
    bm = b[:, None] if vec else b
    if bm.ndim < 2 or bm.shape[-2] != n:
        raise ValueError(f"{name} {ashape} and b {b.shape} are incompatible")
    return bm, vec


def _solve_with(buf, piv, bm, vec, t, trans):
    """x of op(A) x = b from column-major factors buf (..., N, N) and pivots."""
    n = buf.shape[-1]
    bshape = _np.broadcast_shapes(buf.shape[:-2], bm.shape[:-2])
    k = bm.shape[-1]
    if bm.size == 0 or n == 0 or _lf._prod(bshape) == 0:
        x = _ca.zeros(bshape + (n, k), dtype=t, device=bm.device)
        return x[..., 0] if vec else x
    batched = _lf._batched(n, _lf._prod(bshape))
    if buf.shape[:-2] != bshape:   # getrs wants one factor per right-hand side
        buf = _ca.broadcast_to(buf, bshape + (n, n)).astype(t, order="C", copy=True)
    piv = _ca.broadcast_to(piv, bshape + (n,)).astype(
        _np.int32 if batched else _np.int64, order="C", copy=True)
    x = _lf._colcopy(_ca.broadcast_to(bm, bshape + (n, k)), t)
    _getrs(buf, piv, x, n, k, trans, batched)
    x = _lf._mT(x)
    return x[..., 0] if vec else x


def lu_solve(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
    """lu_solve((lu, piv), b, trans=0, overwrite_b=False, check_finite=True)

    x of a @ x = b (trans 0), a.T @ x = b (1) or a^H @ x = b
    (2) from lu_factor's (lu, piv). b is (N,) or (..., N, K), stacks
    broadcasting with lu's. A singular factor gives inf/nan, as LAPACK's getrs.
    """
    lu_, piv = lu_and_piv
    lu_ = _validated(lu_, check_finite)
    b = _validated(b, check_finite, lu_.device)
    if isinstance(trans, str) or trans not in (0, 1, 2):   # SciPy's getrs takes ints
        raise ValueError(f"lu_solve: trans must be 0, 1 or 2, not {trans!r}")
    if lu_.ndim < 2 or lu_.shape[-1] != lu_.shape[-2]:
        raise ValueError(f"expected square lu, got shape {lu_.shape}")
    n = lu_.shape[-1]
    if _scipy(lu_):
        import scipy.linalg as sl
        r = sl.lu_solve((_view(lu_), _view(_ca.asarray(piv, device=lu_.device))),
                        _view(b), trans=trans, check_finite=False)
        return _wrap(r, lu_.device)
    bm, vec = _rhs(b, n, "Shapes of lu", lu_.shape)
    t = _types(lu_, b)
    buf = _lf._colcopy(lu_, t)
    piv = _ca.asarray(piv, device=lu_.device).astype(_np.int64) + 1
    return _solve_with(buf, piv, bm, vec, t, _TRANS[trans])


def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False,
                     overwrite_b=False, check_finite=True):
    """solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False,
    overwrite_b=False, check_finite=True)

    x of op(a) @ x = b for a triangular (..., N, N) a (only its `lower` or upper
    triangle read; unit_diagonal: its diagonal taken as ones). b is (N,) or
    (..., N, K). A zero on the diagonal raises LinAlgError (a read of the
    diagonal, skipped when cuarray.linalg.config.check_errors is False).
    """
    a = _validated(a, check_finite)
    b = _validated(b, check_finite, a.device)
    if trans not in _TRANS:
        raise ValueError(f"trans must be 0, 1, 2, 'N', 'T' or 'C', not {trans!r}")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("expected square matrix")
    n = a.shape[-1]
    bm, vec = _rhs(b, n, "shapes of a", a.shape)
    if _scipy(a):
        import scipy.linalg as sl
        r = sl.solve_triangular(_view(a), _view(b), trans=trans, lower=lower,
                                unit_diagonal=unit_diagonal, check_finite=False)
        return _wrap(r, a.device)
    t = _types(a, b)
    tri = _ca.tril(a) if lower else _ca.triu(a)
    if unit_diagonal:
        eye = _ca.eye(n, dtype=bool, device=a.device)
        tri = _ca.where(eye, 1, tri)
    elif _lf.config.check_errors and n:
        zero = (_ca.diagonal(a, axis1=-2, axis2=-1) == 0).reshape(-1, n).any(axis=0)
        if bool(zero.any()):
            d = int(_ca.argmax(zero))
            raise _lf.LinAlgError(f"singular matrix: resolution failed at diagonal {d}")
    # The effective matrix M = op(a): upper goes to getrs as is (op N); lower as
    # M^T, upper, with op T. The C-ordered copy of M is M^T column-major.
    tr = _TRANS[trans]
    m = tri if tr == 0 else (_ca.conj(_lf._mT(tri)) if tr == 2 else _lf._mT(tri))
    m_lower = lower == (tr == 0)
    buf = _lf._rowcopy(m, t) if m_lower else _lf._colcopy(m, t)
    piv = _ca.arange(1, n + 1, dtype=_np.int64, device=a.device)
    return _solve_with(buf, piv, bm, vec, t, 1 if m_lower else 0)
