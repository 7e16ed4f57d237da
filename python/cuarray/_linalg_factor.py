"""cuarray.linalg's factorizations and what is built on them: solve, inv, det,
slogdet, cholesky, qr, svd, svdvals, eigh, eigvalsh, eig, eigvals, lstsq, pinv,
matrix_rank, cond, tensorinv, tensorsolve, with NumPy's signatures, stacking
rules, dtypes and errors. The SVD and what is built on it (svd ... tensorsolve)
are in _linalg_svd.py, over the helpers here; this module re-exports them.

A GPU runs cuSOLVER (and cuBLAS's batched LU) through one C primitive,
``_core._solver`` (csrc/ops/linalg_solver.c, csrc/runtime/launch_solver.c), on the current
stream; everything else here is cuarray's own array functions. The cpu device
runs numpy.linalg on zero-copy views of the arrays and wraps its results, except
for matrices of HOST_LAPACK_MIN_N or more rows and columns (float32 and
complex64: HOST_LAPACK_MIN_N_SINGLE): numpy.linalg computes float32 in double
precision and rounds (2-3x the time) and copies every matrix into and out of
Fortran order, so the cpu device takes the GPU code path for them, its
``_core._solver`` calling the LAPACK NumPy itself loaded (csrc/ops/solver_host.c;
``config.cpu_lapack``).

Layouts. cuSOLVER is column-major. A C-ordered copy of a row-major stack of
(M, N) matrices is, read column-major, the stack of their transposes (N, M):
the factorizations that can work on the transpose do (LU, Cholesky, eigh, SVD
when M <= N) and the rest factor a transposed copy (QR, eig, SVD when M > N).
Results are then C-ordered arrays or views with the last two axes swapped.

Errors. NumPy raises LinAlgError for a singular matrix (solve, inv), one that
is not positive definite (cholesky) and a factorization that did not converge
(eigh, eig, svd). On a GPU that takes LAPACK's info flags, which cuarray reads
back after queuing the work: the call waits for the GPU. ``config.check_errors
= False`` (or the ``errors_checked(False)`` context manager) skips the check:
the calls then return without waiting and a failed matrix's result holds
whatever the factorization left (inf or nan for a singular solve or inv, as
CuPy).

Precision. float32 and complex64 inputs are factored in their own precision on
a GPU and, from HOST_LAPACK_MIN_N_SINGLE on, on the cpu device (NumPy computes
them in double and rounds the result).
"""

import contextlib as _contextlib
import sys as _sys
import threading as _threading
from collections import namedtuple as _namedtuple

import numpy as _np

from . import _core, _host_threads
from ._cpu_numpy import view as _np_view
from ._cpu_numpy import wrap as _wrap

_ca = _sys.modules[__package__]

__all__ = ["LinAlgError", "config", "errors_checked", "solve", "inv", "det", "slogdet",
           "cholesky", "qr", "svd", "svdvals", "eigh", "eigvalsh", "eig", "eigvals",
           "lstsq", "pinv", "matrix_rank", "cond", "tensorinv", "tensorsolve",
           "EigResult", "EighResult", "QRResult", "SlogdetResult", "SVDResult"]

# NumPy's own class: `except numpy.linalg.LinAlgError` catches cuarray's too.
LinAlgError = _np.linalg.LinAlgError

EigResult = _namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
EighResult = _namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
QRResult = _namedtuple("QRResult", ["Q", "R"])
SlogdetResult = _namedtuple("SlogdetResult", ["sign", "logabsdet"])
SVDResult = _namedtuple("SVDResult", ["U", "S", "Vh"])


class _Config(_threading.local):
    """cuarray.linalg.config: settings of the GPU factorizations (per thread).

    check_errors (default True): after a factorization on a GPU, read LAPACK's
    info flags back (a wait for the GPU) and raise LinAlgError as NumPy does.
    False skips the wait and the check.

    batched_max_n (default 32): stacks of matrices up to this size go through
    the batched routines (cuBLAS getrfBatched / getriBatched / getrsBatched,
    cuSOLVER potrfBatched and XsyevBatched), bigger ones through one 64-bit
    API call per matrix.

    cholesky_lower_min_n (default 512): cholesky(upper=False) of matrices at
    least this big runs cuSOLVER's Xpotrf in its lower-triangle mode
    (CUBLAS_FILL_MODE_LOWER, about twice as fast as the upper mode at
    n = 4096) on a transposed copy and transposes the factor back; smaller
    ones run the upper mode on a plain copy, which needs no transposes.
    upper=True always runs the lower mode (no transposes). Set it above any
    n (e.g. 2**62) to switch the transposing path off.

    solve_colmajor (default True): solve factors a transposed copy of a (a
    itself, column-major) and runs getrs without a transpose (op N), as CuPy
    and PyTorch; False factors a plain copy (a's transposes) and runs getrs
    with op T.

    svd_driver (default "gesvdj"): svd with compute_uv=True (and lstsq, pinv)
    runs cuSOLVER's Jacobi SVD (?gesvdj, as PyTorch), falling back to the QR
    iteration (Xgesvd) for a stack in which a matrix did not converge or a
    result holds NaN (that takes the info check: with check_errors False no
    fallback happens);
    "gesvd" runs Xgesvd always. Singular values alone always take Xgesvd.
    On the cpu device's host LAPACK the Jacobi SVD is LAPACK's gesdd.

    cpu_lapack (default "auto"): the cpu device's route. "auto": numpy.linalg,
    except matrices of at least HOST_LAPACK_MIN_N rows and columns
    (HOST_LAPACK_MIN_N_SINGLE for float32 / complex64, which are then factored in
    their own precision) not in a large stack of small ones, which go to the
    host LAPACK NumPy loaded;
    "host": every matrix to host LAPACK (as a GPU's path: for tests); "numpy":
    numpy.linalg always. Without a host LAPACK with 64-bit integers in the
    process (NumPy's wheels have one), every route is numpy.linalg.
    """

    def __init__(self):
        self.check_errors = True
        self.batched_max_n = 32
        self.cholesky_lower_min_n = 512
        self.solve_colmajor = True
        self.svd_driver = "gesvdj"
        self.cpu_lapack = "auto"


config = _Config()


@_contextlib.contextmanager
def errors_checked(check=True):
    """with cuarray.linalg.errors_checked(False): ... skips the info-flag wait
    and check of GPU factorizations inside the block (this thread)."""
    old = config.check_errors
    config.check_errors = bool(check)
    try:
        yield
    finally:
        config.check_errors = old


# Operation numbers of csrc/runtime/launch.h (CA_SOLVER_*).
_GETRF, _GETRS, _POTRF, _GEQRF, _ORGQR, _SYEVD, _SYEV_BATCHED = 0, 1, 2, 3, 4, 5, 6
_GESVD, _GEEV, _POTRF_BATCHED, _GETRF_BATCHED, _GETRI_BATCHED = 7, 8, 9, 10, 11
_GETRS_BATCHED, _GESVDJ = 12, 13


# Test switch: a host stand-in for cuSOLVER (tests/linalg_standin.py, LAPACK's
# routines with _core._solver's arguments). While one is set the cpu device
# runs the GPU code path below, so its layouts are checked without a GPU.
_standin = None


def _set_solver_standin(fn):
    """Test hook: route the cpu device through the GPU path with `fn` standing
    in for _core._solver (None: back to NumPy). Returns the previous one."""
    global _standin
    old, _standin = _standin, fn
    return old


def _solver(op, a, lda, info, m, n, k=0, b=None, ldb=0, c=None, ldc=0, w=None,
            ipiv=None, lower=0, trans=0, vectors=0, jobu="N", jobvt="N"):
    call = _standin if _standin is not None and a.device.id < 0 else _core._solver
    call(op, a, lda, b, ldb, c, ldc, w, ipiv, info, m, n, k, lower, trans, vectors,
         jobu, jobvt)


# ------------------------------------------------------------ helpers ----

def _arr(a, device=None):
    if isinstance(a, _ca.ndarray):
        return a
    return _ca.asarray(a, device=device)


def _pair(a, b, fname):
    """Both operands as arrays on one device (the first array's)."""
    if not isinstance(a, _ca.ndarray) and isinstance(b, _ca.ndarray):
        a = _ca.asarray(a, device=b.device)
    a = _arr(a)
    b = _arr(b, a.device)
    if a.device != b.device:
        raise ValueError(f"{fname}: the operands are on different devices "
                         f"({a.device} and {b.device}); move one with "
                         "cuarray.asarray(x, device=...)")
    return a, b


def _is_cpu(a, least=0):
    """numpy.linalg's route: the cpu device, unless the stand-in is on or a's
    matrices are ones the cpu device factors in host LAPACK (_host_lapack;
    `least`: a function's own smallest n for it, above the usual ones)."""
    return a.device.id < 0 and _standin is None and not _host_lapack(a, least)


# From this many rows and columns the cpu device factors matrices in host LAPACK
# (its own precision for float32 / complex64): measured on this project's 2-core
# machine, numpy.linalg is 1.1-1.6x slower for float32 at n = 64 and 1.5-4x from
# 128 on; for float64 1.0-1.3x slower from 128 on (its copies into and out of
# Fortran order, and solve / inv through gesv), and ahead below that (det,
# cholesky). Smaller matrices stay with numpy.linalg: there the GPU code path's
# array operations cost more than the factorization saves.
HOST_LAPACK_MIN_N_SINGLE = 64
HOST_LAPACK_MIN_N = 128
SLOGDET_HOST_MIN_N = 256
LSTSQ_HOST_MIN_N = float("inf")
_SINGLE = (_np.dtype(_np.float32), _np.dtype(_np.complex64))
_host_lapack_found = None


def _host_lapack(a, least=0):
    """Whether the cpu device's a goes to host LAPACK (config.cpu_lapack)."""
    global _host_lapack_found
    mode = config.cpu_lapack
    if mode == "auto":
        if not _host_lapack_pays(a, least):
            return False
    elif mode == "numpy":
        return False
    elif mode != "host":
        raise ValueError(f"cuarray.linalg.config.cpu_lapack must be 'auto', 'host' or "
                         f"'numpy', not {mode!r}")
    if _host_lapack_found is None:
        _host_lapack_found = _core._host_lapack_path() is not None
    # A NaN or inf goes to numpy.linalg, whose answer (LinAlgError for eig and a
    # non-converged SVD, NaN results elsewhere) cuarray's is: LAPACK itself would
    # print "illegal value" to stderr and return garbage for some routines.
    return _host_lapack_found and (a.dtype.kind not in "fc"
                                   or bool(_core.all(_core.isfinite(a))))


def _host_lapack_pays(a, least):
    if a.ndim < 2:
        return False
    least = max(least, HOST_LAPACK_MIN_N_SINGLE if a.dtype in _SINGLE else HOST_LAPACK_MIN_N)
    # a large stack of small matrices: numpy.linalg on two threads (_np_linalg)
    return min(a.shape[-2:]) >= least and not _splits(a.shape, a.size)


# A stack of small matrices on the cpu device is factored in two halves of its
# first axis, on two host threads (_host_threads.both: NumPy's linalg gufuncs
# release the GIL): each matrix gets the same LAPACK call as in one numpy.linalg
# call, so the results are NumPy's bits, only twice as fast. Matrices up to
# STACK_SPLIT_MAX_N (OpenBLAS runs those on one thread; larger ones it threads
# itself), stacks of STACK_SPLIT_MIN elements or more (the hand-off costs about
# 0.1 ms).
STACK_SPLIT_MIN = 1 << 15
STACK_SPLIT_MAX_N = 128


def _splits(shape, size):
    return (len(shape) >= 3 and shape[0] >= 2 and size >= STACK_SPLIT_MIN
            and max(shape[-2:]) <= STACK_SPLIT_MAX_N and _host_threads.ENABLED)


def _np_linalg(fn, a, **kw):
    """fn (a numpy.linalg routine) on a zero-copy view of a: one call, or the two
    halves of a large stack of small matrices on two threads, joined."""
    h = _np_view(a)
    if not _splits(h.shape, h.size):
        return fn(h, **kw)
    k = h.shape[0] // 2
    first, second = _host_threads.both(lambda part: fn(part, **kw), (h[:k],), (h[k:],))
    if not isinstance(first, tuple):
        return _np.concatenate((first, second))
    # eig: a half of real eigenvalues beside a complex one joins as complex, as
    # NumPy's one call returns them
    joined = [_np.concatenate((p, q)) for p, q in zip(first, second)]
    return type(first)(*joined) if hasattr(first, "_fields") else tuple(joined)


def _linalg_types(*arrays):
    """(computation dtype, result dtype) by NumPy's _commonType: integers and
    bool compute in float64; float16 is refused."""
    is_complex = False
    single = True
    for a in arrays:
        t = _np.dtype(a.dtype)
        if t.kind in "biu":
            single = False
            continue
        if t == _np.float16 or t.kind not in "fc":
            raise TypeError(f"array type {t.name} is unsupported in linalg")
        if t.kind == "c":
            is_complex = True
        if t not in (_np.float32, _np.complex64):
            single = False
    if is_complex:
        return _np.dtype(_np.complex64 if single else _np.complex128), None
    return _np.dtype(_np.float32 if single else _np.float64), None


def _ctype(*arrays):
    return _linalg_types(*arrays)[0]


def _real(t):
    return _np.dtype(_np.float32 if t in (_np.float32, _np.complex64) else _np.float64)


def _assert_stacked_2d(a):
    if a.ndim < 2:
        raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be at least "
                          "two-dimensional")


def _assert_stacked_square(a):
    _assert_stacked_2d(a)
    m, n = a.shape[-2:]
    if m != n:
        raise LinAlgError("Last 2 dimensions of the array must be square")


def _square_arr(a):
    """a as an ndarray of stacked square matrices (else LinAlgError) and its
    compute dtype."""
    a = _arr(a)
    _assert_stacked_square(a)
    return a, _ctype(a)


def _assert_2d(a):
    if a.ndim != 2:
        raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be "
                          "two-dimensional")


def _prod(shape):
    p = 1
    for s in shape:
        p *= s
    return p


def _rowcopy(a, t):
    """A C-ordered copy in dtype t: read column-major, the stack of a's
    transposes."""
    return a.astype(t, order="C", copy=True)


def _colcopy(a, t):
    """A C-ordered copy of a's transposes in dtype t: read column-major, a."""
    return a.swapaxes(-1, -2).astype(t, order="C", copy=True)


def _info(batch_shape, device):
    return _ca.zeros(batch_shape, dtype=_np.int32, device=device)


def _check(info, message):
    if config.check_errors and bool((info > 0).any()):
        raise LinAlgError(message)


def _batched(n, batch):
    return batch > 1 and n <= config.batched_max_n


def _on_empty(fn, a, *args, **kwargs):
    """Empty stacks: NumPy's answer for the same shapes, on a's device."""
    host = _np.zeros(a.shape, dtype=a.dtype)
    r = fn(host, *args, **kwargs)
    return _wrap(r, a.device)


def _mT(x):
    return x.swapaxes(-1, -2)


# ------------------------------------------------------------ LU ----

def _lu(a, t, colmajor=False):
    """getrf of a's C-ordered copy, i.e. of the transposes (colmajor: of the
    copy of the transposes, i.e. of a itself): (lu, pivots, info, batched).
    The pivots are 1-based (LAPACK's)."""
    n = a.shape[-1]
    bshape = a.shape[:-2]
    batch = _prod(bshape)
    lu = _colcopy(a, t) if colmajor else _rowcopy(a, t)
    info = _info(bshape, a.device)
    batched = _batched(n, batch)
    piv = _ca.empty(bshape + (n,), dtype=_np.int32 if batched else _np.int64,
                    device=a.device)
    _solver(_GETRF_BATCHED if batched else _GETRF, lu, n, info, n, n, ipiv=piv)
    return lu, piv, info, batched


def _lu_diag_sign(lu, piv, n, t):
    d = _ca.diagonal(lu, axis1=-2, axis2=-1)
    moved = (piv != _ca.arange(1, n + 1, dtype=piv.dtype, device=piv.device)).sum(axis=-1)
    sign = (1 - 2 * (moved % 2)).astype(t)
    return d, sign


def det(a):
    """det(a)

    The determinant of a (..., M, M) stack (numpy.linalg.det). On a GPU: an LU
    factorization, cuBLAS getrfBatched for stacks of matrices up to
    ``config.batched_max_n``, else cuSOLVER's Xgetrf per matrix; then the
    product of U's diagonal with the pivots' sign. Never waits.
    """
    a, t = _square_arr(a)
    if _is_cpu(a):
        return _wrap(_np_linalg(_np.linalg.det, a), a.device)
    n = a.shape[-1]
    if a.size == 0:
        return _ca.ones(a.shape[:-2], dtype=t, device=a.device)
    lu, piv, _, _ = _lu(a, t)
    d, sign = _lu_diag_sign(lu, piv, n, t)
    return d.prod(axis=-1) * sign


def slogdet(a):
    """slogdet(a)

    Sign (or phase, for complex) and natural log of the absolute value of the
    determinant of a (..., M, M) stack, as a SlogdetResult(sign, logabsdet)
    (numpy.linalg.slogdet). A singular matrix gives sign 0 and logabsdet -inf.
    The same LU as det; never waits.
    """
    a, t = _square_arr(a)
    # (its dozen array operations after the LU: host LAPACK pays from n = 256)
    if _is_cpu(a, SLOGDET_HOST_MIN_N):
        r = _np_linalg(_np.linalg.slogdet, a)
        return SlogdetResult(*_wrap(tuple(r), a.device))
    n = a.shape[-1]
    rt = _real(t)
    if a.size == 0:
        return SlogdetResult(_ca.ones(a.shape[:-2], dtype=t, device=a.device),
                             _ca.zeros(a.shape[:-2], dtype=rt, device=a.device))
    lu, piv, _, _ = _lu(a, t)
    d, sign = _lu_diag_sign(lu, piv, n, t)
    ad = _ca.abs(d)
    zero = (ad == 0).any(axis=-1)
    if t.kind == "c":
        phase = _ca.where(ad == 0, 1, d / _ca.where(ad == 0, 1, ad)).prod(axis=-1)
    else:
        phase = _ca.sign(d).prod(axis=-1)
    sign = _ca.where(zero, 0, phase * sign).astype(t)
    logdet = _ca.log(ad).sum(axis=-1).astype(rt)
    logdet = _ca.where(zero, -_np.inf, logdet).astype(rt)
    return SlogdetResult(sign, logdet)


def solve(a, b):
    """solve(a, b)

    The solution x of a @ x = b (numpy.linalg.solve): a is (..., M, M); b is
    (M,) (one vector, for every matrix of a) or (..., M, K), batch dimensions
    broadcasting. On a GPU: LU (cuBLAS getrfBatched + getrsBatched for stacks
    of matrices up to ``config.batched_max_n``, else cuSOLVER Xgetrf + Xgetrs
    per matrix), then a wait for the info flags: LinAlgError("Singular
    matrix") unless ``config.check_errors`` is False.
    """
    a, b = _pair(a, b, "solve")
    _assert_stacked_square(a)
    t = _ctype(a, b)
    if _is_cpu(a):
        return _wrap(_np.linalg.solve(_np_view(a), _np_view(b)), a.device)
    n = a.shape[-1]
    vec = b.ndim == 1
    bm = b[:, None] if vec else b
    if bm.ndim < 2 or bm.shape[-2] != n:
        raise ValueError(f"solve: b has shape {b.shape}, which does not match a's "
                         f"{a.shape} (expected (M,) or (..., M, K) with M = {n})")
    bshape = _np.broadcast_shapes(a.shape[:-2], bm.shape[:-2])
    k = bm.shape[-1]
    a = _ca.broadcast_to(a, bshape + (n, n))
    bm = _ca.broadcast_to(bm, bshape + (n, k))
    if a.size == 0 or bm.size == 0:
        x = _ca.zeros(bshape + (n, k), dtype=t, device=a.device)
        return x[..., 0] if vec else x
    # LU of a itself (column-major) and getrs without a transpose, as CuPy and
    # PyTorch: cuSOLVER's getrs is slower with op T (config.solve_colmajor).
    colmajor = config.solve_colmajor
    lu, piv, info, batched = _lu(a, t, colmajor)
    x = _colcopy(bm, t)  # (..., K, M): B column-major
    # (getrs reports only bad arguments: its own flags, getrf's kept; with
    # lu holding the transposes, op T solves with a itself)
    _solver(_GETRS_BATCHED if batched else _GETRS, lu, n, _info(bshape, a.device), n, n,
            k, b=x, ldb=n, ipiv=piv, trans=0 if colmajor else 1)
    _check(info, "Singular matrix")
    x = _mT(x)
    return x[..., 0] if vec else x


def inv(a):
    """inv(a)

    The inverse of a (..., M, M) stack (numpy.linalg.inv). On a GPU: LU, then
    cuBLAS getriBatched for stacks of matrices up to ``config.batched_max_n``,
    else cuSOLVER Xgetrf + Xgetrs against the identity per matrix; then a wait
    for the info flags: LinAlgError("Singular matrix") unless
    ``config.check_errors`` is False.
    """
    a, t = _square_arr(a)
    if _is_cpu(a):
        return _wrap(_np_linalg(_np.linalg.inv, a), a.device)
    n = a.shape[-1]
    if a.size == 0:
        return _ca.empty(a.shape, dtype=t, device=a.device)
    lu, piv, info, batched = _lu(a, t)
    # The inverse of the transposes read column-major is a's inverse read
    # row-major: no transposes on either side.
    if batched:
        out = _ca.empty(a.shape, dtype=t, device=a.device)
        _solver(_GETRI_BATCHED, lu, n, _info(a.shape[:-2], a.device), n, n, b=out,
                ldb=n, ipiv=piv)
    else:
        eye = _ca.eye(n, dtype=t, device=a.device)
        out = _ca.broadcast_to(eye, a.shape).astype(t, order="C", copy=True)
        _solver(_GETRS, lu, n, _info(a.shape[:-2], a.device), n, n, n, b=out, ldb=n,
                ipiv=piv, trans=0)
    _check(info, "Singular matrix")
    return out


# ------------------------------------------------------------ Cholesky ----

def cholesky(a, /, *, upper=False):
    """cholesky(a, /, *, upper=False)

    The Cholesky factor of a Hermitian positive-definite (..., M, M) stack
    (numpy.linalg.cholesky): lower L with a = L @ L.conj().T, or with
    upper=True upper U = L.conj().T. Only the triangle of the factor is read.
    On a GPU: cuSOLVER potrfBatched for stacks of matrices up to
    ``config.batched_max_n``, else Xpotrf per matrix (of its lower triangle,
    cuSOLVER's faster one, from ``config.cholesky_lower_min_n`` on: the factor
    is then transposed into L); then a wait for the info flags:
    LinAlgError("Matrix is not positive definite") unless
    ``config.check_errors`` is False.
    """
    a, t = _square_arr(a)
    if _is_cpu(a):
        return _wrap(_np_linalg(_np.linalg.cholesky, a, upper=upper), a.device)
    n = a.shape[-1]
    if a.size == 0:
        return _ca.empty(a.shape, dtype=t, device=a.device)
    bshape = a.shape[:-2]
    batch = _prod(bshape)
    info = _info(bshape, a.device)
    batched = _batched(n, batch)
    # (host LAPACK, the cpu device's: the upper mode, twice the lower mode's
    # speed with its transposes at n = 1024)
    host = a.device.id < 0 and _standin is None
    if upper or batched or n < config.cholesky_lower_min_n or host:
        buf = _rowcopy(a, t)  # read column-major: a^T = conj(a)
        # potrf's upper factor of conj(a) (from a's lower triangle), read
        # row-major, is a's lower factor; its lower factor (from a's upper
        # triangle), read row-major, a's upper factor.
        _solver(_POTRF_BATCHED if batched else _POTRF, buf, n, info, n, n,
                lower=1 if upper else 0)
        _check(info, "Matrix is not positive definite")
        return _ca.triu(buf) if upper else _ca.tril(buf)
    # Large n, upper=False: potrf LOWER of a itself (column-major: the copy
    # of its transposes; it reads a's lower triangle, as NumPy), a = L L^H;
    # read row-major, buf's upper triangle is L^T.
    buf = _colcopy(a, t)
    _solver(_POTRF, buf, n, info, n, n, lower=1)
    _check(info, "Matrix is not positive definite")
    return _ca.ascontiguousarray(_mT(_ca.triu(buf)))


# ------------------------------------------------------------ QR ----

def qr(a, mode="reduced"):
    """qr(a, mode='reduced')

    QR factorization of a (..., M, N) stack (numpy.linalg.qr), K = min(M, N):
    'reduced' QRResult(Q (..., M, K), R (..., K, N)); 'complete' Q (..., M, M),
    R (..., M, N); 'r' R alone; 'raw' (h (..., N, M), tau (..., K)), LAPACK's
    reflectors as NumPy returns them. On a GPU: cuSOLVER Xgeqrf, then ?orgqr /
    ?ungqr for Q, one call per matrix. Never waits.
    """
    if mode not in ("reduced", "complete", "r", "raw"):
        if mode in ("f", "full", "e", "economic"):
            raise ValueError(f"The '{mode}' mode of qr was removed in NumPy 2.0: use "
                             "'reduced', 'complete', 'r' or 'raw'")
        raise ValueError(f"Unrecognized mode '{mode}'")
    a = _arr(a)
    _assert_stacked_2d(a)
    t = _ctype(a)
    if _is_cpu(a):
        r = _np_linalg(_np.linalg.qr, a, mode=mode)
        if mode == "r":
            return _wrap(r, a.device)
        w = _wrap(tuple(r), a.device)
        return w if mode == "raw" else QRResult(*w)
    m, n = a.shape[-2:]
    if a.size == 0:
        r = _on_empty(_np.linalg.qr, _ca.empty(a.shape, dtype=t, device=a.device),
                      mode=mode)
        return r if mode in ("r", "raw") else QRResult(*r)
    k = min(m, n)
    bshape = a.shape[:-2]
    h = _colcopy(a, t)  # (..., N, M): a column-major
    tau = _ca.empty(bshape + (k,), dtype=t, device=a.device)
    info = _info(bshape, a.device)
    _solver(_GEQRF, h, m, info, m, n, w=tau)
    if mode == "raw":
        return h, tau
    # R = triu of h's transposes (their top k rows): h's lower triangle (of its
    # first k columns), transposed. tril reads h row by row and the copy is a
    # tiled transpose (triu of the transposed view read h column by column).
    hk = h if (mode == "complete" and m > n) else h[..., :, :k]
    rr = _ca.ascontiguousarray(_mT(_ca.tril(hk)))
    if mode == "r":
        return rr
    if mode == "complete" and m > n:
        q = _ca.zeros(bshape + (m, m), dtype=t, device=a.device)
        q[..., :n, :] = h
        qn = m
    else:
        q = _ca.ascontiguousarray(h[..., :k, :]) if n > k else h
        qn = k
    _solver(_ORGQR, q, m, info, m, qn, k, w=tau)
    return QRResult(_mT(q), rr)


# ------------------------------------------------------------ eigh ----

def _uplo(UPLO):
    if UPLO not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    return UPLO


def _eigh(a, UPLO, vectors):
    t = _ctype(a)
    n = a.shape[-1]
    bshape = a.shape[:-2]
    batch = _prod(bshape)
    buf = _rowcopy(a, t)  # read column-major: conj(a); its upper triangle is a's lower
    w = _ca.empty(bshape + (n,), dtype=_real(t), device=a.device)
    info = _info(bshape, a.device)
    op = _SYEV_BATCHED if _batched(n, batch) else _SYEVD
    _solver(op, buf, n, info, n, n, w=w, lower=0 if UPLO == "L" else 1,
            vectors=1 if vectors else 0)
    _check(info, "Eigenvalues did not converge")
    if not vectors:
        return w, None
    v = _mT(buf)  # eigenvectors of conj(a): conjugate them for a's
    return w, (v.conj() if t.kind == "c" else v)


def eigh(a, UPLO="L"):
    """eigh(a, UPLO='L')

    Eigenvalues (ascending, real) and eigenvectors (columns) of a Hermitian
    (..., M, M) stack, reading its lower (UPLO='L') or upper triangle, as an
    EighResult (numpy.linalg.eigh). On a GPU: cuSOLVER XsyevBatched for stacks
    of matrices up to ``config.batched_max_n``, else Xsyevd (divide and
    conquer) per matrix; then a wait for the info flags unless
    ``config.check_errors`` is False.
    """
    _uplo(UPLO)
    a, t = _square_arr(a)
    if _is_cpu(a):
        return EighResult(*_wrap(tuple(_np_linalg(_np.linalg.eigh, a, UPLO=UPLO)),
                                 a.device))
    if a.size == 0:
        return EighResult(*_on_empty(_np.linalg.eigh, _ca.empty(a.shape, dtype=t,
                                                                device=a.device)))
    return EighResult(*_eigh(a, UPLO, True))


def eigvalsh(a, UPLO="L"):
    """eigvalsh(a, UPLO='L')

    The eigenvalues (ascending, real) of a Hermitian (..., M, M) stack
    (numpy.linalg.eigvalsh): eigh without the eigenvectors.
    """
    _uplo(UPLO)
    a, t = _square_arr(a)
    if _is_cpu(a):
        return _wrap(_np_linalg(_np.linalg.eigvalsh, a, UPLO=UPLO), a.device)
    if a.size == 0:
        return _ca.empty(a.shape[:-1], dtype=_real(t), device=a.device)
    return _eigh(a, UPLO, False)[0]


# ------------------------------------------------------------ eig ----

def _eig(a, vectors):
    t = _ctype(a)
    n = a.shape[-1]
    bshape = a.shape[:-2]
    buf = _colcopy(a, t)  # a column-major
    cplx = t.kind == "c"
    w = _ca.empty(bshape + ((n,) if cplx else (2 * n,)), dtype=t, device=a.device)
    vr = _ca.empty(a.shape, dtype=t, device=a.device) if vectors else None
    info = _info(bshape, a.device)
    _solver(_GEEV, buf, n, info, n, n, b=vr, ldb=n if vectors else 1, w=w,
            vectors=1 if vectors else 0)
    _check(info, "Eigenvalues did not converge")
    v = _mT(vr) if vectors else None
    if cplx:
        return w, v
    wr, wi = w[..., :n], w[..., n:]
    # NumPy's rule before 2.5: real results when every eigenvalue is real (a
    # wait); NumPy 2.5's eig returns complex results always
    if not _EIG_ALWAYS_COMPLEX and not bool((wi != 0).any()):
        return wr, v
    ct = _np.dtype(_np.complex64 if t == _np.float32 else _np.complex128)
    wc = wr.astype(ct) + 1j * wi.astype(ct)
    if not vectors:
        return wc, None
    # LAPACK's real pairs: columns j, j+1 hold re and im of the eigenvector of
    # w[j] (wi[j] > 0); its conjugate belongs to w[j+1].
    pos = (wi > 0)[..., None, :]
    neg = (wi < 0)[..., None, :]
    nxt = _ca.roll(v, -1, axis=-1)
    prv = _ca.roll(v, 1, axis=-1)
    vc = _ca.where(pos, v + 1j * nxt, _ca.where(neg, prv - 1j * v, v)).astype(ct)
    return wc, vc


_EIG_ALWAYS_COMPLEX = _np.lib.NumpyVersion(_np.__version__) >= "2.5.0.dev0"


def eig(a):
    """eig(a)

    Eigenvalues and right eigenvectors (columns, unit norm) of a general
    (..., M, M) stack, as an EigResult (numpy.linalg.eig). As the installed
    NumPy: before 2.5 the results are real when a is real and every eigenvalue
    is real, else complex (deciding that waits for the GPU); from 2.5 they are
    always complex. On a GPU: cuSOLVER Xgeev per matrix (it
    runs partly on the host and waits for the GPU itself).
    """
    a, t = _square_arr(a)
    if _is_cpu(a):
        return EigResult(*_wrap(tuple(_np_linalg(_np.linalg.eig, a)), a.device))
    if a.size == 0:
        return EigResult(*_on_empty(_np.linalg.eig, _ca.empty(a.shape, dtype=t,
                                                              device=a.device)))
    return EigResult(*_eig(a, True))


def eigvals(a):
    """eigvals(a)

    The eigenvalues of a general (..., M, M) stack (numpy.linalg.eigvals):
    eig without the eigenvectors.
    """
    a, t = _square_arr(a)
    if _is_cpu(a):
        return _wrap(_np_linalg(_np.linalg.eigvals, a), a.device)
    if a.size == 0:
        return _on_empty(_np.linalg.eigvals, _ca.empty(a.shape, dtype=t, device=a.device))
    return _eig(a, False)[0]


# The SVD and what is built on it (python/cuarray/_linalg_svd.py), imported last:
# it uses the helpers above.
from ._linalg_svd import (  # noqa: E402,F401
    cond, lstsq, matrix_rank, pinv, svd, svdvals, tensorinv, tensorsolve)
