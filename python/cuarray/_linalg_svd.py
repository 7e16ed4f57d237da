"""cuarray.linalg's SVD and what is built on it: svd, svdvals, lstsq, pinv,
matrix_rank, cond, tensorinv, tensorsolve. python/cuarray/_linalg_factor.py says how
the factorizations run (cuSOLVER through ``_core._solver`` on a GPU, NumPy or the
host LAPACK on the cpu device), holds the helpers these use and re-exports them.
"""

import numpy as _np

from . import _linalg_factor as _f
from ._cpu_numpy import view as _np_view
from ._cpu_numpy import wrap as _wrap
from ._linalg_factor import (  # noqa: F401
    LinAlgError, SVDResult, _GESVD, _GESVDJ, _arr, _assert_2d, _assert_stacked_2d,
    _assert_stacked_square, _ca, _check, _colcopy, _ctype, _info, _is_cpu, _mT,
    _np_linalg, _on_empty, _pair, _prod, _real, _rowcopy, _solver, config, eigh,
    eigvalsh, errors_checked, inv, solve)

__all__ = ["svd", "svdvals", "lstsq", "pinv", "matrix_rank", "cond", "tensorinv",
           "tensorsolve"]


# ------------------------------------------------------------ SVD ----

def _svd_jacobi(a, full_matrices):
    """gesvdj on the tall one of a and its transpose: (U, S, Vh), or None
    when a matrix did not converge (checked unless config.check_errors is
    False)."""
    t = _ctype(a)
    m, n = a.shape[-2:]
    k = min(m, n)
    bshape = a.shape[:-2]
    cplx = t.kind == "c"
    s = _ca.empty(bshape + (k,), dtype=_real(t), device=a.device)
    info = _info(bshape, a.device)
    job = "A" if full_matrices else "S"
    if m <= n:
        # a^T (n x m) = U' S V'^H gives a = conj(V') S U'^T: U'^T, read
        # row-major, is the buffer u (Vh); a's U = conj(V') = the transpose
        # of the buffer v, conjugated.
        buf = _rowcopy(a, t)
        ucols = n if full_matrices else m
        u = _ca.empty(bshape + (ucols, n), dtype=t, device=a.device)
        v = _ca.empty(bshape + (m, m), dtype=t, device=a.device)
        _solver(_GESVDJ, buf, n, info, n, m, b=u, ldb=n, c=v, ldc=m, w=s, jobu=job)
        uu, vh = _mT(_ca.conj(v) if cplx else v), u
    else:
        # a (m x n) = U S V^H: U is the transpose of the buffer u; Vh = V^H
        # is the buffer v (V^T read row-major), conjugated.
        buf = _colcopy(a, t)
        ucols = m if full_matrices else n
        u = _ca.empty(bshape + (ucols, m), dtype=t, device=a.device)
        v = _ca.empty(bshape + (n, n), dtype=t, device=a.device)
        _solver(_GESVDJ, buf, m, info, m, n, b=u, ldb=m, c=v, ldc=n, w=s, jobu=job)
        uu, vh = _mT(u), (_ca.conj(v) if cplx else v)
    # not converged, or NaN where a Jacobi rotation divided by zero (one
    # readback; a NaN input fails in Xgesvd too, as in NumPy)
    if config.check_errors and bool((info > 0).any() | _ca.isnan(s).any() |
                                    _ca.isnan(uu).any() | _ca.isnan(vh).any()):
        return None
    return uu, s, vh


def _svd(a, full_matrices, compute_uv):
    if compute_uv and config.svd_driver == "gesvdj":
        r = _svd_jacobi(a, full_matrices)
        if r is not None:
            return r
    elif config.svd_driver not in ("gesvdj", "gesvd"):
        raise ValueError(f"linalg.config.svd_driver is {config.svd_driver!r}: "
                         "'gesvdj' or 'gesvd'")
    t = _ctype(a)
    m, n = a.shape[-2:]
    k = min(m, n)
    bshape = a.shape[:-2]
    s = _ca.empty(bshape + (k,), dtype=_real(t), device=a.device)
    info = _info(bshape, a.device)
    # gesvd factors a tall (r x c) column-major matrix: a itself when m > n, else
    # a's transposes (n x m), whose V is a's U and whose U is a's V.
    tall = m > n
    buf = _colcopy(a, t) if tall else _rowcopy(a, t)
    r, c = (m, n) if tall else (n, m)
    ucols = r if full_matrices else c
    u = _ca.empty(bshape + (ucols, r), dtype=t, device=a.device) if compute_uv else None
    vt = _ca.empty(bshape + (c, c), dtype=t, device=a.device) if compute_uv else None
    job = ("A" if full_matrices else "S") if compute_uv else "N"
    _solver(_GESVD, buf, r, info, r, c, b=u, ldb=r, c=vt, ldc=c, w=s, jobu=job,
            jobvt="A" if compute_uv else "N")
    _check(info, "SVD did not converge")
    if not compute_uv:
        return None, s, None
    return (_mT(u), s, _mT(vt)) if tall else (vt, s, u)


def _svd_hermitian(a, compute_uv):
    if not compute_uv:
        s = _ca.abs(eigvalsh(a))
        return _ca.sort(s, axis=-1, kind="stable")[..., ::-1]
    s, u = eigh(a)
    sgn = _ca.sign(s)
    s = _ca.abs(s)
    sidx = _ca.argsort(s, axis=-1, kind="stable")[..., ::-1]
    sgn = _ca.take_along_axis(sgn, sidx, axis=-1)
    s = _ca.take_along_axis(s, sidx, axis=-1)
    u = _ca.take_along_axis(u, sidx[..., None, :], axis=-1)
    vt = _mT(u * sgn[..., None, :]).conj()
    return SVDResult(u, s, vt)


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """svd(a, full_matrices=True, compute_uv=True, hermitian=False)

    Singular value decomposition a = U @ diag(S) @ Vh of a (..., M, N) stack,
    as an SVDResult (numpy.linalg.svd); S alone with compute_uv=False;
    singular values descending. hermitian=True takes a Hermitian a through
    eigh, as NumPy. On a GPU, per matrix, on a or its transpose, whichever is
    tall: with compute_uv cuSOLVER's Jacobi ?gesvdj (``config.svd_driver``),
    and Xgesvd (QR iteration) where it did not converge; S alone by Xgesvd;
    then a wait for the info flags unless ``config.check_errors`` is False.
    """
    a = _arr(a)
    _assert_stacked_2d(a)
    t = _ctype(a)
    if _is_cpu(a):
        r = _np_linalg(_np.linalg.svd, a, full_matrices=full_matrices,
                       compute_uv=compute_uv, hermitian=hermitian)
        return SVDResult(*_wrap(tuple(r), a.device)) if compute_uv else _wrap(r, a.device)
    if hermitian:
        _assert_stacked_square(a)
        return _svd_hermitian(a, compute_uv)
    if a.size == 0:
        r = _on_empty(_np.linalg.svd, _ca.empty(a.shape, dtype=t, device=a.device),
                      full_matrices=full_matrices, compute_uv=compute_uv)
        return SVDResult(*r) if compute_uv else r
    u, s, vt = _svd(a, full_matrices, compute_uv)
    return SVDResult(u, s, vt) if compute_uv else s


def svdvals(x, /):
    """svdvals(x, /)

    The singular values of a (..., M, N) stack, descending (the Array API's
    linalg.svdvals; numpy.linalg.svdvals): svd(x, compute_uv=False).
    """
    return svd(x, compute_uv=False)


# ------------------------------------------------------------ built on SVD ----

def lstsq(a, b, rcond=None):
    """lstsq(a, b, rcond=None)

    The least-squares solution of a @ x = b for a (M, N) and b (M,) or (M, K)
    (numpy.linalg.lstsq): (x, residuals, rank, s). Singular values at most
    rcond * s.max() count as zero (rcond=None: float64's eps * max(M, N), as
    NumPy; negative: machine precision). On a GPU through svd (cuSOLVER
    gesvdj or Xgesvd), giving the minimum-norm solution as LAPACK's gelsd; rank is a 0-d
    array, and deciding whether residuals are returned (NumPy: only for rank N
    and M > N) reads it back, a wait.
    """
    a, b = _pair(a, b, "lstsq")
    # (the cpu device: numpy.linalg's gelsd always, faster than the SVD route)
    if _is_cpu(a, _f.LSTSQ_HOST_MIN_N):
        x, res, rank, s = _np.linalg.lstsq(_np_view(a), _np_view(b), rcond=rcond)
        return (_wrap(x, a.device), _wrap(res, a.device), rank, _wrap(s, a.device))
    vec = b.ndim == 1
    bm = b[:, None] if vec else b
    _assert_2d(a)
    _assert_2d(bm)
    m, n = a.shape
    if m != bm.shape[0]:
        raise LinAlgError("Incompatible dimensions")
    t = _ctype(a, b)
    rt = _real(t)
    k = bm.shape[1]
    if rcond is None:
        rcond = _np.finfo(_np.float64).eps * max(n, m)
    elif rcond < 0:
        rcond = _np.finfo(rt).eps
    if a.size == 0 or bm.size == 0:
        x = _ca.zeros((n, k), dtype=t, device=a.device)
        s = _ca.empty((min(m, n),), dtype=rt, device=a.device)
        rank = _ca.zeros((), dtype=_np.int32, device=a.device)
        if n == 0 and m > 0:
            res = (_ca.abs(bm.astype(t)) ** 2).sum(axis=0).astype(rt)
        else:
            res = _ca.empty((0,), dtype=rt, device=a.device)
        return (x[:, 0] if vec else x), res, rank, s
    u, s, vh = _svd(a.astype(t), False, True)
    cutoff = s[..., :1] * rcond
    large = s > cutoff
    sinv = _ca.where(large, 1 / _ca.where(large, s, 1), 0).astype(rt)
    bt = bm.astype(t)
    x = _mT(vh).conj() @ (sinv[:, None] * (_mT(u).conj() @ bt))
    rank = large.sum().astype(_np.int32)
    if m > n and int(rank) == n:
        r = bt - a.astype(t) @ x
        res = (_ca.abs(r) ** 2).sum(axis=0).astype(rt)
    else:
        res = _ca.empty((0,), dtype=rt, device=a.device)
    return (x[:, 0] if vec else x), res, rank, s


def pinv(a, rcond=None, hermitian=False, *, rtol=_np._NoValue):
    """pinv(a, rcond=None, hermitian=False, *, rtol=<no value>)

    The Moore-Penrose pseudo-inverse of a (..., M, N) stack
    (numpy.linalg.pinv): through svd, singular values at most rcond times the
    largest set to zero (rcond=None and rtol not given: 1e-15; rtol=None:
    max(M, N) * eps). Never waits (unless hermitian=True's svd does).
    """
    a = _arr(a)
    if _is_cpu(a):
        kw = {} if rtol is _np._NoValue else {"rtol": rtol}
        return _wrap(_np.linalg.pinv(_np_view(a), rcond=rcond, hermitian=hermitian, **kw),
                     a.device)
    if rcond is None:
        if rtol is _np._NoValue:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(a.shape[-2:]) * _np.finfo(_ctype(a)).eps
        else:
            rcond = rtol
    elif rtol is not _np._NoValue:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    _assert_stacked_2d(a)
    t = _ctype(a)
    m, n = a.shape[-2:]
    if a.size == 0:
        return _ca.empty(a.shape[:-2] + (n, m), dtype=t, device=a.device)
    rc = _arr(rcond, a.device)
    u, s, vt = svd(a.conj(), full_matrices=False, hermitian=hermitian)
    cutoff = rc[..., None] * s.max(axis=-1, keepdims=True)
    large = s > cutoff
    s = _ca.where(large, 1 / _ca.where(large, s, 1), 0).astype(s.dtype)
    return _mT(vt) @ (s[..., None] * _mT(u))


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """matrix_rank(A, tol=None, hermitian=False, *, rtol=None)

    The rank of a (..., M, N) stack by SVD (numpy.linalg.matrix_rank): the
    number of singular values above tol (default S.max() * rtol, rtol default
    max(M, N) * eps). An array (0-d for one matrix) on the array's device: no
    wait. Below 2-D: 1 unless every element is 0 (a Python int, as NumPy).
    """
    if rtol is not None and tol is not None:
        raise ValueError("`tol` and `rtol` can't be both set.")
    A = _arr(A)
    if _is_cpu(A):
        return _wrap(_np.linalg.matrix_rank(_np_view(A), tol=tol, hermitian=hermitian,
                                            rtol=rtol), A.device)
    if A.ndim < 2:
        return int(not bool((A == 0).all()))
    S = svd(A, compute_uv=False, hermitian=hermitian)
    if tol is None:
        if rtol is None:
            rtol = max(A.shape[-2:]) * _np.finfo(S.dtype).eps
            rtol = _ca.asarray(rtol, device=A.device)
        else:
            rtol = _arr(rtol, A.device)[..., None]
        if S.shape[-1] == 0:
            smax = _ca.zeros(S.shape[:-1] + (1,), dtype=S.dtype, device=A.device)
        else:
            smax = _ca.maximum(S.max(axis=-1, keepdims=True), 0)
        tol = smax * rtol
    else:
        tol = _arr(tol, A.device)[..., None]
    return (S > tol).sum(axis=-1)


def _matrix_norm(x, p):
    """NumPy's matrix norms for cond's p (1, -1, inf, -inf, 'fro', 'nuc')."""
    ax = _ca.abs(x)
    if p == "fro":
        return _ca.sqrt((ax * ax).sum(axis=(-2, -1)))
    if p == "nuc":
        return svd(x, compute_uv=False).sum(axis=-1)
    if p in (1, -1):
        c = ax.sum(axis=-2)
        return c.max(axis=-1) if p == 1 else c.min(axis=-1)
    if p in (_np.inf, -_np.inf):
        r = ax.sum(axis=-1)
        return r.max(axis=-1) if p == _np.inf else r.min(axis=-1)
    raise ValueError("Invalid norm order for matrices.")


def cond(x, p=None):
    """cond(x, p=None)

    The condition number of a (..., M, N) stack (numpy.linalg.cond): by the
    singular values for p None, 2, -2; else norm(x, p) * norm(inv(x), p) for p
    in 1, -1, inf, -inf, 'fro', 'nuc' (square x), with inv's singular check
    off (a singular matrix gives inf, as NumPy). Never waits.
    """
    x = _arr(x)
    if _is_cpu(x):
        return _wrap(_np.linalg.cond(_np_view(x), p=p), x.device)
    _assert_stacked_2d(x)
    if x.shape[-2] == 0 or x.shape[-1] == 0:
        raise LinAlgError("cond is not defined on empty arrays")
    if p is None or p in (2, -2):
        s = svd(x, compute_uv=False)
        r = s[..., -1] / s[..., 0] if p == -2 else s[..., 0] / s[..., -1]
    else:
        _assert_stacked_square(x)
        rt = _real(_ctype(x))
        with errors_checked(False):
            invx = inv(x)
        r = (_matrix_norm(x, p) * _matrix_norm(invx, p)).astype(rt)
    # nan (a failed inverse, 0/0) means inf unless x itself holds nan
    nan_in_x = _ca.isnan(x).any(axis=(-2, -1))
    return _ca.where(_ca.isnan(r) & ~nan_in_x, _np.inf, r).astype(r.dtype)


def tensorinv(a, ind=2):
    """tensorinv(a, ind=2)

    The inverse of an N-d array for tensordot over its first `ind` axes
    (numpy.linalg.tensorinv): a reshape, inv, a reshape.
    """
    a = _arr(a)
    if _is_cpu(a):
        return _wrap(_np.linalg.tensorinv(_np_view(a), ind=ind), a.device)
    oldshape = a.shape
    if ind > 0:
        invshape = oldshape[ind:] + oldshape[:ind]
        prod = _prod(oldshape[ind:])
    else:
        raise ValueError("Invalid ind argument.")
    return inv(a.reshape(prod, -1)).reshape(*invshape)


def tensorsolve(a, b, axes=None):
    """tensorsolve(a, b, axes=None)

    The x of tensordot(a, x, axes=x.ndim) = b (numpy.linalg.tensorsolve): a
    reshape (after moving `axes` of a to the end), solve, a reshape.
    """
    a, b = _pair(a, b, "tensorsolve")
    if _is_cpu(a):
        return _wrap(_np.linalg.tensorsolve(_np_view(a), _np_view(b), axes=axes),
                     a.device)
    an = a.ndim
    if axes is not None:
        allaxes = list(range(an))
        for k in axes:
            allaxes.remove(k)
            allaxes.insert(an, k)
        a = a.transpose(allaxes)
    oldshape = a.shape[-(an - b.ndim):]
    prod = _prod(oldshape)
    if a.size != prod ** 2:
        raise LinAlgError("Input arrays must satisfy the requirement "
                          "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])")
    res = solve(a.reshape(prod, prod), b.ravel())
    return res.reshape(oldshape)
