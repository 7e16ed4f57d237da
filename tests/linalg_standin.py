"""LAPACK (SciPy's) standing in for cuSOLVER, for the layout tests of
cuarray.linalg on machines without a GPU.

``standin(op, a, lda, b, ldb, c, ldc, w, ipiv, info, m, n, k, lower, trans,
vectors, jobu, jobvt)`` takes exactly what ``cuarray._core._solver`` takes
(csrc/ops/linalg_solver.c) and does what cuSOLVER does with it, on cpu-device
arrays: it reads each C-contiguous stack of blocks column-major with the given
leading dimension and writes the results back in place, LAPACK's way (1-based
pivots, the untouched triangle left as it was, geev's real pairs, ...). With
it installed (``cuarray._linalg_factor._set_solver_standin``), the cpu device
runs the GPU code path of python/cuarray/_linalg_factor.py, so the transposes,
copies, triangles and conjugations it relies on are checked here.
"""

import numpy as np
import scipy.linalg.lapack as L

OPS = dict(GETRF=0, GETRS=1, POTRF=2, GEQRF=3, ORGQR=4, SYEVD=5, SYEV_BATCHED=6,
           GESVD=7, GEEV=8, POTRF_BATCHED=9, GETRF_BATCHED=10, GETRI_BATCHED=11,
           GETRS_BATCHED=12, GESVDJ=13)
NAMES = {v: k for k, v in OPS.items()}

PREFIX = {np.dtype(np.float32): "s", np.dtype(np.float64): "d",
          np.dtype(np.complex64): "c", np.dtype(np.complex128): "z"}

# test switches: GESVDJ reports non-convergence (info k + 1) as cuSOLVER
# would, or leaves a NaN in V with info 0
gesvdj_fails = False
gesvdj_nan = False

# every op the stand-in ran, for tests that check the routing, and its
# `lower` argument
calls = []
lowers = []


def _fn(t, name):
    return getattr(L, PREFIX[np.dtype(t)] + name)


def _flat(x):
    v = np.asarray(x)
    assert v.flags.c_contiguous and v.flags.writeable
    return v.reshape(-1)


def _mat(flat, i, stride, ld, rows, cols):
    """Block i of a stack, read column-major (ld x cols), its rows x cols top."""
    blk = flat[i * stride:i * stride + ld * cols]
    assert blk.size == ld * cols, "block out of bounds"
    return blk.reshape(cols, ld).T[:rows, :cols]


def standin(op, a, lda, b, ldb, c, ldc, w, ipiv, info, m, n, k, lower, trans, vectors,
            jobu, jobvt):
    calls.append(NAMES[op])
    lowers.append(lower)
    inf = _flat(info)
    batch = inf.size
    if batch == 0 or m == 0 or n == 0:
        return
    t = np.asarray(a).dtype
    fa = _flat(a)
    sa = fa.size // batch
    for i in range(batch):
        A = _mat(fa, i, sa, lda, m, n)
        inf[i] = _one(op, t, A, i, batch, b, ldb, c, ldc, w, ipiv, m, n, k, lower, trans,
                      vectors, jobu, jobvt)


def _stack(x, batch):
    f = _flat(x)
    return f, f.size // batch


def _one(op, t, A, i, batch, b, ldb, c, ldc, w, ipiv, m, n, k, lower, trans, vectors,
         jobu, jobvt):
    name = NAMES[op]
    if name in ("GETRF", "GETRF_BATCHED"):
        lu, piv, inf = _fn(t, "getrf")(A)
        A[...] = lu
        fp, sp = _stack(ipiv, batch)
        assert fp.dtype == (np.int32 if name == "GETRF_BATCHED" else np.int64)
        fp[i * sp:i * sp + piv.size] = piv + 1
        return inf
    if name in ("GETRS", "GETRS_BATCHED", "GETRI_BATCHED"):
        fp, sp = _stack(ipiv, batch)
        piv = fp[i * sp:i * sp + n].astype(np.int32) - 1
        fb, sb = _stack(b, batch)
        if name == "GETRI_BATCHED":
            B = _mat(fb, i, sb, ldb, n, n)
            inv, inf = _fn(t, "getri")(A, piv)
            B[...] = inv
            return inf
        B = _mat(fb, i, sb, ldb, n, k)
        x, inf = _fn(t, "getrs")(A, piv, B, trans=trans)
        B[...] = x
        return inf
    if name in ("POTRF", "POTRF_BATCHED"):
        r, inf = _fn(t, "potrf")(A, lower=lower, clean=0)
        if inf == 0:
            A[...] = r
        return inf
    if name == "GEQRF":
        qr, tau, _, inf = _fn(t, "geqrf")(A)
        A[...] = qr
        fw, sw = _stack(w, batch)
        fw[i * sw:i * sw + tau.size] = tau
        return inf
    if name == "ORGQR":
        fw, sw = _stack(w, batch)
        tau = fw[i * sw:i * sw + k]
        q, _, inf = _fn(t, "orgqr" if np.dtype(t).kind == "f" else "ungqr")(A, tau)
        A[...] = q
        return inf
    if name in ("SYEVD", "SYEV_BATCHED"):
        fn = _fn(t, "syevd" if np.dtype(t).kind == "f" else "heevd")
        ev, v, inf = fn(A, compute_v=vectors, lower=lower)
        fw, sw = _stack(w, batch)
        fw[i * sw:i * sw + n] = ev
        if vectors:
            A[...] = v
        return inf
    if name == "GESVD":
        return _gesvd(t, A, i, batch, b, ldb, c, ldc, w, m, n, jobu, jobvt)
    if name == "GESVDJ":
        return _gesvdj(t, A, i, batch, b, ldb, c, ldc, w, m, n, jobu)
    if name == "GEEV":
        return _geev(t, A, i, batch, b, ldb, w, n, vectors)
    raise AssertionError(f"unknown op {op}")


def _svd_into(t, A, i, batch, b, ldb, c, ldc, w, m, n, jobu, v_of):
    """LAPACK's SVD of A into block i of the outputs: S in w, U (m x k or m x m) in b
    and v_of(V^H) in c unless jobu is 'N'; A destroyed, as cuSOLVER does. Returns
    the info and the view of V's block (None without vectors)."""
    k = min(m, n)
    compute = jobu != "N"
    full = jobu == "A"
    u, s, vt, inf = _fn(t, "gesvd")(A, compute_uv=int(compute), full_matrices=int(full))
    fw, sw = _stack(w, batch)
    fw[i * sw:i * sw + k] = s
    V = None
    if compute:
        fb, sb = _stack(b, batch)
        _mat(fb, i, sb, ldb, m, m if full else k)[...] = u
        v = v_of(vt)
        fc, sc = _stack(c, batch)
        V = _mat(fc, i, sc, ldc, n, v.shape[1])
        V[...] = v
    A[...] = np.nan
    return inf, V


def _gesvd(t, A, i, batch, b, ldb, c, ldc, w, m, n, jobu, jobvt):
    """cuSOLVER's gesvd: m >= n; V^H (n x n) in c."""
    assert m >= n, "cuSOLVER's gesvd needs m >= n"
    assert (jobvt != "N") == (jobu != "N")
    return _svd_into(t, A, i, batch, b, ldb, c, ldc, w, m, n, jobu, lambda vt: vt)[0]


def _gesvdj(t, A, i, batch, b, ldb, c, ldc, w, m, n, jobu):
    """cuSOLVER's gesvdj: any m, n; U (m x k or m x m) in b, V itself (n x k or
    n x n, not V^H) in c; jobu 'S' econ, 'A' full, 'N' S alone."""
    inf, V = _svd_into(t, A, i, batch, b, ldb, c, ldc, w, m, n, jobu,
                       lambda vt: np.conj(vt).T)
    if gesvdj_nan and V is not None:
        V[:, :1] = np.nan
    if gesvdj_fails:
        return min(m, n) + 1
    return inf


def _geev(t, A, i, batch, b, ldb, w, n, vectors):
    fw, sw = _stack(w, batch)
    if np.dtype(t).kind == "f":
        wr, wi, _, vr, inf = _fn(t, "geev")(A, compute_vl=0, compute_vr=int(vectors))
        fw[i * sw:i * sw + n] = wr
        fw[i * sw + n:i * sw + 2 * n] = wi
    else:
        ww, _, vr, inf = _fn(t, "geev")(A, compute_vl=0, compute_vr=int(vectors))
        fw[i * sw:i * sw + n] = ww
    if vectors:
        fb, sb = _stack(b, batch)
        _mat(fb, i, sb, ldb, n, n)[...] = vr
    A[...] = np.nan
    return inf
