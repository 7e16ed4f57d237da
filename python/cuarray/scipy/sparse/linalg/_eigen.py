"""Eigenvalues and singular values of large operators: eigsh (thick-restart
Lanczos), svds (eigsh of A^H A or A A^H) and lobpcg, with SciPy 1.17's signatures.

eigsh keeps its ncv Lanczos vectors on the device with full re-orthogonalization
(two classical Gram-Schmidt passes, one matrix-vector product each), reads a
step's alpha and beta in one transfer, and solves the small tridiagonal/arrowhead
problem on the host; a restart keeps the most wanted half of the Ritz vectors
(Wu and Simon). Which: 'LM', 'SM', 'LA', 'SA', 'BE'. Shift-invert (sigma) and
generalized problems (M) run on the cpu device only (SciPy's ARPACK); on a GPU
they raise NotImplementedError, as CuPy's. On the cpu device (CPU_SCIPY) all three
functions call SciPy's on zero-copy views.
"""

import warnings

import numpy as _np

import cuarray as _ca

from ._interface import (LinearOperator, _back, _coef, _conj_t, _host, _issparse,
                         _op_device, aslinearoperator)

__all__ = ["eigsh", "svds", "lobpcg"]

CPU_SCIPY = True
_WHICH = ("LM", "SM", "LA", "SA", "BE")


def _device(A, *vectors):
    """Where an operator's products run: a given vector's device, else the
    operator's (_op_device)."""
    for v in vectors:
        if isinstance(v, _ca.ndarray):
            return v.device
    return _op_device(A)


def _real_dtype(dtype):
    dtype = _np.dtype(dtype) if dtype is not None else _np.dtype(_np.float64)
    if dtype.char not in "fdFD":
        dtype = _np.dtype(_np.float64)
    return dtype


def _rank(theta, which):
    """Indices of theta from most to least wanted."""
    if which == "LM":
        return _np.argsort(-abs(theta), kind="stable")
    if which == "SM":
        return _np.argsort(abs(theta), kind="stable")
    if which == "LA":
        return _np.argsort(-theta, kind="stable")
    if which == "SA":
        return _np.argsort(theta, kind="stable")
    order = _np.argsort(theta, kind="stable")        # BE: alternate the two ends
    lo, hi, out = 0, len(order) - 1, []
    while lo <= hi:
        out.append(order[hi])
        hi -= 1
        if lo <= hi:
            out.append(order[lo])
            lo += 1
    return _np.array(out)


def _random_unit(n, dtype, device, rng, V=None):
    """A random unit vector (orthogonal to the rows of V when given)."""
    v = rng.uniform(-1.0, 1.0, n)
    if dtype.kind == "c":
        v = v + 1j * rng.uniform(-1.0, 1.0, n)
    v = _ca.asarray(v.astype(dtype), device=device)
    for _ in range(2 if V is not None else 0):
        v = v - _coef(V, v) @ V
    return v / _ca.linalg.norm(v)


def _lanczos(A, V, T, start, stop, rng):
    """Lanczos steps start..stop-1 with full re-orthogonalization; T (host, real)
    gets alpha on the diagonal and beta beside it; returns the last beta (the
    residual's, outside T). An invariant subspace continues from a random vector."""
    beta, n = 0.0, V.shape[1]
    for j in range(start, stop):
        u = A.matvec(V[j])
        basis = V[:j + 1]
        h = _coef(basis, u)
        u = u - h @ basis
        h2 = _coef(basis, u)
        u = u - h2 @ basis
        alpha, beta = (_ca.stack([(h[j] + h2[j]).real, _ca.linalg.norm(u)])
                       .get().tolist())
        T[j, j] = alpha
        if beta <= _np.finfo(V.dtype).eps * max(abs(alpha), 1.0) and j + 1 < n:
            V[j + 1] = _random_unit(n, V.dtype, V.device, rng, V[:j + 1])
            beta = 0.0
        else:
            V[j + 1] = u / (beta if beta else 1.0)
        if j + 1 < stop:
            T[j, j + 1] = T[j + 1, j] = beta
    return beta


def _eigsh_checks(A, k, M, sigma, which, mode, ncv, n):
    if A.shape[0] != A.shape[1]:
        raise ValueError(f"expected square matrix (shape={A.shape})")
    if which not in _WHICH:
        raise ValueError(f"which must be one of {' '.join(_WHICH)}")
    if _np.dtype(A.dtype).kind == "c" and which == "BE":
        raise ValueError("which='BE' cannot be used with complex matrix A")
    if k <= 0:
        raise ValueError("k must be greater than 0.")
    if ncv is not None and (ncv > n or ncv <= k) and k < n:
        raise ValueError(f"ncv must be k<ncv<=n, ncv={ncv}")


def _eigsh_dense(A, M, return_eigenvectors):
    """k >= n: SciPy's fallback to a dense eigh, with its warning and refusals."""
    warnings.warn("k >= N for N * N square matrix. Attempting to use "
                  "scipy.linalg.eigh instead.", RuntimeWarning, stacklevel=3)
    if _issparse(A):
        raise TypeError("Cannot use scipy.linalg.eigh for sparse A with k >= N. "
                        "Use scipy.linalg.eigh(A.toarray()) or reduce k.")
    if isinstance(A, LinearOperator):
        raise TypeError("Cannot use scipy.linalg.eigh for LinearOperator A with "
                        "k >= N.")
    if M is not None:
        raise NotImplementedError("the generalized dense fallback (M) is the "
                                  "cpu device's only")
    A = A if A.dtype.char in "fdFD" else A.astype(_np.float64)
    w, v = _ca.linalg.eigh(A)
    return (w, v) if return_eigenvectors else w


def eigsh(A, k=6, M=None, sigma=None, which="LM", v0=None, ncv=None, maxiter=None,
          tol=0, return_eigenvectors=True, Minv=None, OPinv=None, mode="normal",
          rng=None):
    """eigsh(A, k=6, M=None, sigma=None, which='LM', v0=None, ncv=None,
    maxiter=None, tol=0, return_eigenvectors=True, Minv=None, OPinv=None,
    mode='normal', rng=None)

    k eigenvalues (ascending) and eigenvectors of a real symmetric or complex
    Hermitian A by thick-restart Lanczos; ``(w, v)`` or w. Converged when every
    wanted Ritz pair's residual is at most ``tol * max(|theta|, eps**(2/3))``
    (tol 0: machine precision); else ArpackNoConvergence after maxiter restarts.
    """
    op = aslinearoperator(A)
    n = op.shape[0]
    _eigsh_checks(op, k, M, sigma, which, mode, ncv, n)
    dev = _device(op, v0)
    if CPU_SCIPY and dev == "cpu":
        import scipy.sparse.linalg as ssl
        Ah = _host(A if isinstance(A, _ca.ndarray) else op)
        r = ssl.eigsh(Ah, k, M=_host(M), sigma=sigma, which=which, v0=_host(v0),
                      ncv=ncv, maxiter=maxiter, tol=tol,
                      return_eigenvectors=return_eigenvectors, Minv=_host(Minv),
                      OPinv=_host(OPinv), mode=mode, rng=rng)
        return _back(r)
    if k >= n:
        return _eigsh_dense(A, M, return_eigenvectors)
    if sigma is not None or M is not None or Minv is not None or OPinv is not None:
        raise NotImplementedError("eigsh with sigma, M, Minv or OPinv runs on the "
                                  "cpu device only (SciPy's ARPACK)")
    dtype = _real_dtype(op.dtype)
    ncv = min(n, max(2 * k + 1, 20)) if ncv is None else ncv
    maxiter = 10 * n if maxiter is None else maxiter
    gen = _np.random.default_rng(rng)
    V = _ca.empty((ncv + 1, n), dtype=dtype, device=dev)
    if v0 is None:
        V[0] = _random_unit(n, dtype, dev, gen)
    else:
        v0 = _ca.asarray(v0).astype(dtype)
        V[0] = v0 / _ca.linalg.norm(v0)
    theta, S, wanted = _thick_restart(op, V, k, ncv, which, maxiter, tol, gen)
    order = _arpack_order(theta[wanted], which, dtype.kind == "c",
                          return_eigenvectors)
    w = _ca.asarray(theta[wanted][order].astype(dtype.char.lower()), device=dev)
    if not return_eigenvectors:
        return w
    C = _ca.asarray(S[:, wanted[order]].astype(dtype), device=dev)
    return w, V[:ncv].T @ C


def _arpack_order(w, which, complex_, vectors):
    """The order SciPy's ARPACK returns (w is most wanted first): real A with
    vectors, and 'BE', ascending; otherwise most wanted first with vectors (the
    complex driver) and least wanted first without."""
    if (vectors and not complex_) or which == "BE":
        return _np.argsort(w, kind="stable")
    order = _np.arange(len(w))
    return order if vectors else order[::-1]


def _thick_restart(op, V, k, ncv, which, maxiter, tol, gen):
    """The restart loop: Ritz values, vectors' coefficients, the k wanted indices."""
    eps = _np.finfo(V.dtype).eps
    tol = tol if tol > 0 else eps
    keep = min(k + (ncv - k) // 2, ncv - 1)
    T = _np.zeros((ncv, ncv))
    start = 0
    for _ in range(max(maxiter, 1)):
        beta = _lanczos(op, V, T, start, ncv, gen)
        theta, S = _np.linalg.eigh(T)
        rank = _rank(theta, which)
        wanted = rank[:k]
        resid = abs(beta * S[-1, wanted])
        if _np.all(resid <= tol * _np.maximum(abs(theta[wanted]), eps ** (2 / 3))):
            return theta, S, wanted
        kept = rank[:keep]
        Sk = _ca.asarray(S[:, kept].T.astype(V.dtype), device=V.device)
        V[:keep] = Sk @ V[:ncv]
        V[keep] = V[ncv]
        T[:] = 0
        T[_np.arange(keep), _np.arange(keep)] = theta[kept]
        T[keep, :keep] = T[:keep, keep] = beta * S[-1, kept]
        start = keep
    _no_convergence(theta, S, wanted, V, ncv)


def _no_convergence(theta, S, wanted, V, ncv):
    msg = f"ARPACK error -1: No convergence ({ncv} Lanczos vectors)"
    try:
        from scipy.sparse.linalg import ArpackNoConvergence
    except ImportError:
        raise RuntimeError(msg) from None
    C = _ca.asarray(S[:, wanted].astype(V.dtype), device=V.device)
    raise ArpackNoConvergence(msg, theta[wanted], V[:ncv].T @ C)


_SVD_RETURN = (False, True, "u", "vh")


def _svds_checks(A, k, which, solver, return_singular_vectors):
    if which not in ("LM", "SM"):
        raise ValueError("`which` must be in {'SM', 'LM'}.")
    if solver not in ("arpack", "propack", "lobpcg"):
        raise ValueError("solver must be one of {'arpack', 'propack', 'lobpcg'}.")
    if not any(return_singular_vectors is r or (isinstance(r, str)
               and return_singular_vectors == r) for r in _SVD_RETURN):
        raise ValueError("`return_singular_vectors` must be in "
                         "{False, True, 'vh', 'u'}.")
    if not (isinstance(k, (int, _np.integer)) and 0 < k < min(A.shape)):
        raise ValueError("`k` must be an integer satisfying `0 < k < min(A.shape)`.")


def svds(A, k=6, ncv=None, tol=0, which="LM", v0=None, maxiter=None,
         return_singular_vectors=True, solver="arpack", rng=None, options=None, *,
         random_state=None):
    """svds(A, k=6, ncv=None, tol=0, which='LM', v0=None, maxiter=None,
    return_singular_vectors=True, solver='arpack', rng=None, options=None, *,
    random_state=None)

    k largest ('LM') or smallest ('SM') singular values (ascending) and vectors:
    ``(u, s, vh)``, ``s``, or with 'u'/'vh' the other one None. On a GPU every
    solver is eigsh of the smaller of A^H A and A A^H (the singular values from
    the norms of A's products with its eigenvectors, not square roots).
    """
    op = aslinearoperator(A)
    _svds_checks(op, k, which, solver, return_singular_vectors)
    dev = _device(op, v0)
    if CPU_SCIPY and dev == "cpu":
        import scipy.sparse.linalg as ssl
        seed = {} if random_state is None else {"random_state": random_state}
        r = ssl.svds(_host(A if isinstance(A, _ca.ndarray) else op), k, ncv, tol,
                     which, _host(v0), maxiter, return_singular_vectors, solver,
                     rng, options, **seed)
        return _back(r)
    m, n = op.shape
    gram = op.H @ op if m >= n else op @ op.H
    w, X = eigsh(gram, k, which="LA" if which == "LM" else "SA", v0=v0, ncv=ncv,
                 maxiter=maxiter, tol=tol, rng=rng if rng is not None
                 else random_state)
    Y = op.matmat(X) if m >= n else op.H.matmat(X)
    s = _ca.linalg.norm(Y, axis=0)
    order = _ca.argsort(s)
    s, X, Y = s[order], X[:, order], Y[:, order]
    Y = Y / _ca.where(s == 0, 1, s)
    u, v = (Y, X) if m >= n else (X, Y)
    if return_singular_vectors is False:
        return s
    vh = v.conj().T
    if return_singular_vectors == "u":
        return u, s, None
    if return_singular_vectors == "vh":
        return None, s, vh
    return u, s, vh


# ---------------------------------------------------------------------------
# LOBPCG (Knyazev): block iterations over span[X, W, P], Rayleigh-Ritz on the host
# ---------------------------------------------------------------------------
def _products(op, X):
    return op.matmat(X) if op is not None else X


def _rayleigh_ritz(SA, SB, S, k, largest):
    """The k extreme Ritz pairs of span(S): Gram matrices read to the host, the
    basis made B-orthonormal through gram B's eigendecomposition (dropping
    directions below its precision, which keeps a dependent P harmless)."""
    gA = (_conj_t(S) @ SA).get()
    gB = (_conj_t(S) @ SB).get()
    gA, gB = (gA + gA.conj().T) / 2, (gB + gB.conj().T) / 2
    d, Q = _np.linalg.eigh(gB)
    ok = d > d.max() * _np.finfo(S.dtype).eps * gB.shape[0] * 10
    Tm = Q[:, ok] / _np.sqrt(d[ok])
    lam, Z = _np.linalg.eigh(Tm.conj().T @ gA @ Tm)
    pick = _np.arange(len(lam) - 1, len(lam) - 1 - k, -1) if largest \
        else _np.arange(k)
    return lam[pick], Tm @ Z[:, pick]


def _lobpcg_setup(A, X, B, M, Y, tol, maxiter):
    opA = aslinearoperator(A)
    opB = None if B is None else aslinearoperator(B)
    opM = None if M is None else aslinearoperator(M)
    X = _ca.asarray(X)
    if X.ndim == 1:
        X = X.reshape(-1, 1)
    n, k = X.shape
    dtype = _np.result_type(_real_dtype(opA.dtype), X.dtype)
    X = X.astype(dtype if dtype.char in "fdFD" else _np.float64)
    tol = _np.sqrt(_np.finfo(X.dtype).eps) * n if tol is None else tol
    return opA, opB, opM, X, n, k, tol, 20 if maxiter is None else maxiter


def _lobpcg_dense(opA, opB, X, n, k, sizeY, Y, largest):
    """SciPy's fallback for a block too large for its problem: a dense eigh of
    the densified A (and B, through B's Cholesky factor), with SciPy's warning."""
    warnings.warn(f"The problem size {n} minus the constraints size {sizeY} is too "
                  f"small relative to the block size {k}. Using a dense eigensolver "
                  "instead of LOBPCG iterations.No output of the history of the "
                  "iterations.", UserWarning, stacklevel=3)
    k = min(k, n)
    if Y is not None:
        raise NotImplementedError("The dense eigensolver does not support "
                                  "constraints.")
    eye = _ca.eye(n, dtype=X.dtype, device=X.device)
    Ad = opA.matmat(eye)
    if opB is None:
        vals, vecs = _ca.linalg.eigh((Ad + Ad.conj().T) / 2)
    else:
        L = _ca.linalg.cholesky(opB.matmat(eye))
        Li = _ca.linalg.solve(L, eye)
        C = Li @ Ad @ Li.conj().T
        vals, W = _ca.linalg.eigh((C + C.conj().T) / 2)
        vecs = Li.conj().T @ W
    if largest:
        return vals[::-1][:k], vecs[:, ::-1][:, :k]
    return vals[:k], vecs[:, :k]


def _project(V, Y, BY):
    """V with its B-components along the constraints Y removed."""
    return V if Y is None else V - Y @ _ca.linalg.solve(_conj_t(Y) @ BY,
                                                       _conj_t(BY) @ V)


def lobpcg(A, X, B=None, M=None, Y=None, tol=None, maxiter=None, largest=True,
           verbosityLevel=0, retLambdaHistory=False, retResidualNormsHistory=False,
           restartControl=20):
    """lobpcg(A, X, B=None, M=None, Y=None, tol=None, maxiter=None, largest=True,
    verbosityLevel=0, retLambdaHistory=False, retResidualNormsHistory=False,
    restartControl=20)

    The k = X.shape[1] largest (or smallest) eigenpairs of ``A x = lambda B x``
    from the initial block X, preconditioner M, constraints Y: ``(lambda, X)``
    (largest first when ``largest``), with the histories appended when asked.
    Warns (UserWarning) when the residuals miss tol after maxiter iterations.
    """
    if CPU_SCIPY and _device(aslinearoperator(A), X) == "cpu":
        import scipy.sparse.linalg as ssl
        r = ssl.lobpcg(_host(A), _host(X), _host(B), _host(M), _host(Y), tol,
                       maxiter, largest, verbosityLevel, retLambdaHistory,
                       retResidualNormsHistory, restartControl)
        return tuple([_back(x) for x in h] if isinstance(h, list) else _back(h)
                     for h in r)
    opA, opB, opM, X, n, k, tol, maxiter = _lobpcg_setup(A, X, B, M, Y, tol,
                                                        maxiter)
    sizeY = 0 if Y is None else (_ca.asarray(Y).shape[1] if _ca.asarray(Y).ndim > 1
                                 else 1)
    if n - sizeY < 5 * k:
        return _lobpcg_dense(opA, opB, X, n, k, sizeY, Y, largest)
    BY = None if Y is None else _products(opB, _ca.asarray(Y))
    X = _project(X, Y, BY)
    lam, C = _rayleigh_ritz(_products(opA, X), _products(opB, X), X, k, largest)
    X = X @ _ca.asarray(C.astype(X.dtype), device=X.device)
    P = None
    lam_hist, res_hist, res = [], [], None
    for _ in range(maxiter + 1):
        AX, BX = opA.matmat(X), _products(opB, X)
        lam_d = _ca.asarray(lam.astype(X.dtype.char.lower()), device=X.device)
        R = AX - BX * lam_d
        res = _ca.linalg.norm(R, axis=0).get()
        lam_hist.append(lam_d)
        res_hist.append(_ca.asarray(res, device=X.device))
        if _np.all(res <= tol) or len(lam_hist) > maxiter:
            break
        W = _project(R if opM is None else opM.matmat(R), Y, BY)
        S = _ca.concatenate([X, W] + ([] if P is None else [P]), axis=1)
        lam, C = _rayleigh_ritz(opA.matmat(S), _products(opB, S), S, k, largest)
        Cd = _ca.asarray(C.astype(X.dtype), device=X.device)
        P = S[:, k:] @ Cd[k:]
        X = S @ Cd
    if not _np.all(res <= tol):
        warnings.warn(f"Exited at iteration {maxiter} with accuracies \n{res}\n"
                      f"not reaching the requested tolerance {tol}.", UserWarning,
                      stacklevel=2)
    out = (lam_d, X)
    if retLambdaHistory:
        out += (lam_hist,)
    if retResidualNormsHistory:
        out += (res_hist,)
    return out
