"""cuarray.linalg's factorizations against NumPy: solve, inv, det, slogdet,
cholesky, qr, svd, svdvals, eigh, eigvalsh, eig, eigvals, lstsq, pinv,
matrix_rank, cond, tensorinv, tensorsolve, LinAlgError.

Every test runs on the devices of the ``ldev`` fixture: "cpu" (the default
route: NumPy's linalg on zero-copy views, host LAPACK for float32 / complex64
matrices from HOST_LAPACK_MIN_N on), "cpu-host" (every matrix through the GPU
code path of python/cuarray/_linalg_factor.py with the cpu device's own
``_core._solver``, the host LAPACK NumPy loaded: csrc/ops/solver_host.c),
"cpu-lapack" (the same code path with SciPy's LAPACK standing in for cuSOLVER
over exactly the arguments cuSOLVER gets: tests/linalg_standin.py), and where a
GPU is present "cuda:0" (cuSOLVER and cuBLAS's batched LU).

Factorizations whose factors are unique only up to signs or phases (QR, SVD,
eigenvectors) are checked by reconstruction (Q R = A, U S Vh = A, A v = v w)
and orthogonality, their unique parts (R's magnitudes, singular values,
eigenvalues) against NumPy in float64. Inputs are well conditioned random
matrices unless a test is about the edge.
"""

import numpy as np
import pytest

import cuarray as ca
from cuarray import _linalg_factor
from conftest import requires_gpu

try:
    import linalg_standin
except ImportError:  # no SciPy: the stand-in runs where SciPy is installed
    linalg_standin = None

LDEVS = ["cpu", "cpu-host",
         pytest.param("cpu-lapack", marks=pytest.mark.skipif(
             linalg_standin is None, reason="SciPy's LAPACK is the stand-in")),
         pytest.param("cuda:0", marks=requires_gpu)]

FLOATS = [np.float32, np.float64, np.complex64, np.complex128]
# relative tolerance of reconstructions and comparisons, per dtype
TOL = {np.dtype(np.float32): 2e-4, np.dtype(np.float64): 1e-10,
       np.dtype(np.complex64): 3e-4, np.dtype(np.complex128): 1e-10}


@pytest.fixture(params=LDEVS)
def ldev(request):
    p = request.param
    if p == "cpu-lapack":
        old = _linalg_factor._set_solver_standin(linalg_standin.standin)
        try:
            yield "cpu"
        finally:
            _linalg_factor._set_solver_standin(old)
    elif p == "cpu-host":
        if ca._core._host_lapack_path() is None:
            # test_host_lapack_is_numpys_openblas fails where NumPy's wheel has one
            pytest.skip("this NumPy loaded no LAPACK with 64-bit integers")
        old = ca.linalg.config.cpu_lapack
        ca.linalg.config.cpu_lapack = "host"
        try:
            yield "cpu"
        finally:
            ca.linalg.config.cpu_lapack = old
    else:
        yield p


def rand(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def well(shape, dtype, seed=0):
    """Random square matrices with the diagonal pushed away from singularity."""
    n = shape[-1]
    return (rand(shape, dtype, seed) + 2 * np.sqrt(n) * np.eye(n)).astype(dtype)


def hpd(shape, dtype, seed=0):
    """Hermitian positive-definite stacks."""
    x = rand(shape, dtype, seed)
    n = shape[-1]
    return (x @ np.conj(np.swapaxes(x, -1, -2)) + n * np.eye(n)).astype(dtype)


def herm(shape, dtype, seed=0):
    x = rand(shape, dtype, seed)
    return ((x + np.conj(np.swapaxes(x, -1, -2))) / 2).astype(dtype)


def dev(x, d):
    return ca.asarray(x, device=d)


def host(x):
    return x.get() if isinstance(x, ca.ndarray) else np.asarray(x)


def close(got, want, dtype, scale=1.0):
    got = host(got).astype(np.complex128)
    want = np.asarray(want).astype(np.complex128)
    assert got.shape == want.shape
    tol = TOL[np.dtype(dtype)] * max(scale, 1.0)
    ref = max(np.abs(want).max() if want.size else 0.0, 1.0)
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * ref)


def wide(x):
    x = np.asarray(x)
    return x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)


def mH(x):
    return np.conj(np.swapaxes(x, -1, -2))


SQUARE_SHAPES = [(1, 1), (3, 3), (2, 4, 4), (40, 8, 8), (3, 2, 5, 5), (2, 40, 40),
                 (70, 70)]


# ------------------------------------------------------------ det, slogdet ----

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", SQUARE_SHAPES)
def test_det_slogdet(ldev, dtype, shape):
    # I + noise of spectral radius ~0.5: determinants stay in float32's range
    a = (well(shape, dtype) / (2 * np.sqrt(shape[-1]))).astype(dtype)
    want = np.linalg.det(wide(a))
    got = ca.linalg.det(dev(a, ldev))
    assert got.dtype == np.dtype(dtype)
    assert got.shape == shape[:-2]
    close(got, want, dtype, scale=shape[-1])
    sign, logdet = ca.linalg.slogdet(dev(a, ldev))
    ws, wl = np.linalg.slogdet(wide(a))
    assert sign.dtype == np.dtype(dtype)
    assert logdet.dtype == np.zeros(0, dtype).real.dtype
    close(sign, ws, dtype, scale=shape[-1])
    close(logdet, wl, dtype, scale=shape[-1] * 10)


def test_det_permutation_signs(ldev):
    # pivoting must count: permutation matrices have det +-1
    p = np.eye(5)[[3, 0, 4, 1, 2]]
    q = np.stack([p, np.eye(5)[[1, 0, 2, 3, 4]], np.eye(5)])
    close(ca.linalg.det(dev(q, ldev)), np.linalg.det(q), np.float64)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_det_singular(ldev, dtype):
    a = np.ones((2, 4, 4), dtype)
    a[1] = well((4, 4), dtype)
    a[1, 2] = 0  # an exact zero pivot (a repeated row need not give one)
    got = host(ca.linalg.det(dev(a, ldev)))
    np.testing.assert_allclose(got, 0, atol=1e-10)
    sign, logdet = ca.linalg.slogdet(dev(a, ldev))
    np.testing.assert_array_equal(host(sign), 0)
    assert np.all(np.isneginf(host(logdet)))


def test_det_empty_and_ints(ldev):
    got = ca.linalg.det(dev(np.zeros((3, 0, 0)), ldev))
    np.testing.assert_array_equal(host(got), np.ones(3))
    got = ca.linalg.det(dev(np.array([[2, 1], [1, 3]], np.int32), ldev))
    assert got.dtype == np.float64
    close(got, 5.0, np.float64)
    got = ca.linalg.det(dev(np.eye(3, dtype=bool), ldev))
    assert got.dtype == np.float64


# ------------------------------------------------------------ solve ----

@pytest.fixture(params=[True, False], ids=["colmajor", "rowmajor"])
def solve_layout(request, monkeypatch):
    """solve through the LU of a itself and getrs op N (config.solve_colmajor,
    the default) or the LU of a's transposes and getrs op T."""
    monkeypatch.setattr(ca.linalg.config, "solve_colmajor", request.param)
    return request.param


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("ashape,bshape", [
    ((4, 4), (4,)), ((4, 4), (4, 3)), ((1, 1), (1, 1)), ((3, 5, 5), (3, 5, 2)),
    ((3, 5, 5), (5,)), ((2, 1, 4, 4), (3, 4, 1)), ((40, 6, 6), (40, 6, 2)),
    ((50, 50), (50, 7)), ((2, 40, 40), (40, 1))])
def test_solve(ldev, solve_layout, dtype, ashape, bshape):
    a = well(ashape, dtype)
    b = rand(bshape, dtype, 1)
    want = np.linalg.solve(wide(a), wide(b))
    got = ca.linalg.solve(dev(a, ldev), dev(b, ldev))
    assert got.dtype == np.dtype(dtype)
    close(got, want, dtype, scale=ashape[-1])


def test_solve_promotes(ldev):
    a = np.array([[3, 1], [1, 2]], np.int64)
    b = np.array([9, 8], np.int32)
    got = ca.linalg.solve(dev(a, ldev), dev(b, ldev))
    assert got.dtype == np.float64
    close(got, np.linalg.solve(a, b), np.float64)
    got = ca.linalg.solve(dev(a.astype(np.float32), ldev), dev(b.astype(np.complex64), ldev))
    assert got.dtype == np.complex64


def test_solve_empty(ldev):
    got = ca.linalg.solve(dev(np.zeros((0, 3, 3)), ldev), dev(np.zeros((0, 3, 2)), ldev))
    assert got.shape == (0, 3, 2)
    got = ca.linalg.solve(dev(np.eye(3), ldev), dev(np.zeros((3, 0)), ldev))
    assert got.shape == (3, 0)


@pytest.mark.parametrize("shape", [(3, 3), (30, 3, 3), (50, 50)])
def test_solve_singular_raises(ldev, solve_layout, shape):
    a = well(shape, np.float64)
    a[..., 1, :] = 0
    b = np.ones(shape[:-1])
    with pytest.raises(ca.linalg.LinAlgError, match="Singular matrix"):
        ca.linalg.solve(dev(a, ldev), dev(b[..., None], ldev))
    with pytest.raises(np.linalg.LinAlgError):
        ca.linalg.inv(dev(a, ldev))


@pytest.mark.parametrize("shape", [(3, 3), (30, 3, 3), (50, 50)])
def test_singular_check_can_be_skipped(ldev, shape):
    a = np.zeros(shape)
    if _linalg_factor._is_cpu(dev(a, ldev)):
        pytest.skip("numpy.linalg's route (the cpu device's for float64), which always "
                    "checks")
    with ca.linalg.errors_checked(False):
        r = ca.linalg.inv(dev(a, ldev))
        assert r.shape == shape
    assert ca.linalg.config.check_errors is True
    ca.linalg.config.check_errors = False
    try:
        ca.linalg.solve(dev(a, ldev), dev(np.ones(shape[:-1] + (1,)), ldev))
    finally:
        ca.linalg.config.check_errors = True


@pytest.mark.parametrize("dtype", FLOATS)
def test_solve_nonsymmetric_many_rhs(ldev, solve_layout, dtype):
    # a far from symmetric (a solve with a^T would be caught) and pivoting
    # needed (small diagonal); bigger than the batched routines' sizes
    a = rand((2, 96, 96), dtype, 4) + 0.5 * np.triu(np.ones((96, 96)), 1)
    a[..., np.arange(96), np.arange(96)] *= 1e-3  # condition numbers < 1e3
    a = a.astype(dtype)
    b = rand((2, 96, 16), dtype, 6)
    got = ca.linalg.solve(dev(a, ldev), dev(b, ldev))
    want = np.linalg.solve(wide(a), wide(b))
    assert got.dtype == np.dtype(dtype) and got.shape == want.shape
    close(got, want, dtype, scale=96 * 30)
    close(wide(a) @ wide(host(got)), b, dtype, scale=96)


def test_solve_bad_shapes(ldev):
    with pytest.raises(np.linalg.LinAlgError):
        ca.linalg.solve(dev(np.ones((3, 4)), ldev), dev(np.ones(3), ldev))
    with pytest.raises(np.linalg.LinAlgError):
        ca.linalg.solve(dev(np.ones(3), ldev), dev(np.ones(3), ldev))
    with pytest.raises(ValueError):
        ca.linalg.solve(dev(np.eye(3), ldev), dev(np.ones(4), ldev))


def test_float16_refused(ldev):
    with pytest.raises(TypeError, match="float16"):
        ca.linalg.inv(dev(np.eye(2, dtype=np.float16), ldev))


# ------------------------------------------------------------ inv ----

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", SQUARE_SHAPES + [(0, 0), (4, 0, 0), (300, 16, 16)])
def test_inv(ldev, dtype, shape):
    a = well(shape, dtype)
    got = ca.linalg.inv(dev(a, ldev))
    assert got.dtype == np.dtype(dtype)
    assert got.shape == shape
    if a.size:
        close(got, np.linalg.inv(wide(a)), dtype, scale=shape[-1])
        eye = np.broadcast_to(np.eye(shape[-1]), shape)
        close(wide(a) @ wide(host(got)), eye, dtype, scale=shape[-1])


def test_inv_leaves_input(ldev):
    a = well((5, 5), np.float64)
    x = dev(a, ldev)
    ca.linalg.inv(x)
    ca.linalg.det(x)
    np.testing.assert_array_equal(host(x), a)
    # a Fortran-ordered input (its transpose is C-contiguous) is not overwritten
    f = dev(np.asfortranarray(a), ldev)
    ca.linalg.cholesky(dev(hpd((5, 5), np.float64), ldev))
    ca.linalg.inv(f)
    np.testing.assert_array_equal(host(f), a)


# ------------------------------------------------------------ cholesky ----

@pytest.fixture(params=[1, 2 ** 62], ids=["lower-mode", "upper-mode"])
def chol_path(request, monkeypatch):
    """cholesky(upper=False) through cuSOLVER's lower-triangle mode plus
    transposes (config.cholesky_lower_min_n = 1) or its upper mode (the
    threshold above any n)."""
    monkeypatch.setattr(ca.linalg.config, "cholesky_lower_min_n", request.param)
    return request.param


def check_cholesky(got, a, dtype, upper):
    shape = a.shape
    assert got.dtype == np.dtype(dtype)
    assert got.shape == shape
    assert got.flags.c_contiguous
    want = np.linalg.cholesky(wide(a), upper=upper)
    close(got, want, dtype, scale=shape[-1])
    g = wide(host(got))
    if upper:
        np.testing.assert_array_equal(np.tril(g, -1), 0)
    else:
        np.testing.assert_array_equal(np.triu(g, 1), 0)
    rec = mH(g) @ g if upper else g @ mH(g)
    close(rec, a, dtype, scale=shape[-1])


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", SQUARE_SHAPES + [(0, 0), (300, 4, 4)])
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky(ldev, chol_path, dtype, shape, upper):
    a = hpd(shape, dtype)
    got = ca.linalg.cholesky(dev(a, ldev), upper=upper)
    check_cholesky(got, a, dtype, upper)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(511, 511), (512, 512), (2, 520, 520)])
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_around_lower_mode_threshold(ldev, dtype, shape, upper):
    # the default config.cholesky_lower_min_n (512): 511 takes the upper mode,
    # 512 and 520 the lower mode with its transposes
    assert ca.linalg.config.cholesky_lower_min_n == 512
    a = hpd(shape, dtype, seed=3)
    got = ca.linalg.cholesky(dev(a, ldev), upper=upper)
    check_cholesky(got, a, dtype, upper)


def test_cholesky_lower_mode_routing(chol_path):
    if linalg_standin is None:
        pytest.skip("SciPy's LAPACK is the stand-in")
    old = _linalg_factor._set_solver_standin(linalg_standin.standin)
    try:
        del linalg_standin.calls[:]
        del linalg_standin.lowers[:]
        a = hpd((3, 40, 40), np.float64)
        got = ca.linalg.cholesky(dev(a, "cpu"))
        check_cholesky(got, a, np.float64, False)
        assert linalg_standin.calls == ["POTRF"]
        assert linalg_standin.lowers == ([1] if chol_path == 1 else [0])
    finally:
        _linalg_factor._set_solver_standin(old)


def test_cholesky_reads_one_triangle(ldev, chol_path):
    a = hpd((4, 4), np.float64)
    junk = a + np.triu(np.full((4, 4), 7.0), 1)  # garbage above the diagonal
    close(ca.linalg.cholesky(dev(junk, ldev)), np.linalg.cholesky(a), np.float64)
    junk = a + np.tril(np.full((4, 4), 7.0), -1)
    close(ca.linalg.cholesky(dev(junk, ldev), upper=True),
          np.linalg.cholesky(a, upper=True), np.float64)


@pytest.mark.parametrize("shape", [(3, 3), (30, 3, 3), (40, 40)])
def test_cholesky_not_pd_raises(ldev, chol_path, shape):
    a = hpd(shape, np.float64)
    a[..., 0, 0] = -1
    with pytest.raises(ca.linalg.LinAlgError, match="not positive definite"):
        ca.linalg.cholesky(dev(a, ldev))


@pytest.mark.parametrize("shape", [(511, 511), (520, 520), (2, 520, 520)])
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_not_pd_late_raises(ldev, shape, upper):
    # the failing minor is the last one (around the lower-mode threshold)
    a = hpd(shape, np.float32, seed=1)
    a[..., -1, -1] = -1e4
    with pytest.raises(ca.linalg.LinAlgError, match="not positive definite"):
        ca.linalg.cholesky(dev(a, ldev), upper=upper)
    if not _linalg_factor._is_cpu(dev(a, ldev)):
        # the GPU path (float32 this big: the cpu device's too): no raise
        # without the check (numpy.linalg's route raises)
        with ca.linalg.errors_checked(False):
            ca.linalg.cholesky(dev(a, ldev), upper=upper)


# ------------------------------------------------------------ qr ----

QR_SHAPES = [(1, 1), (5, 3), (3, 5), (4, 4), (2, 6, 4), (3, 4, 6), (40, 25), (25, 40),
             (2, 3, 7, 2)]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", QR_SHAPES)
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr(ldev, dtype, shape, mode):
    a = rand(shape, dtype)
    q, r = ca.linalg.qr(dev(a, ldev), mode=mode)
    wq, wr = np.linalg.qr(wide(a), mode=mode)
    assert q.shape == wq.shape and r.shape == wr.shape
    assert q.dtype == np.dtype(dtype) and r.dtype == np.dtype(dtype)
    assert r.flags.c_contiguous
    q, r = wide(host(q)), wide(host(r))
    close(q @ r, a, dtype, scale=shape[-1])
    k = q.shape[-1]
    close(mH(q) @ q, np.broadcast_to(np.eye(k), q.shape[:-2] + (k, k)), dtype,
          scale=shape[-1])
    np.testing.assert_array_equal(np.tril(r, -1), 0)
    close(np.abs(r), np.abs(wr), dtype, scale=shape[-1])


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)])
def test_qr_r_and_raw(ldev, dtype, shape):
    a = rand(shape, dtype)
    r = ca.linalg.qr(dev(a, ldev), mode="r")
    close(np.abs(host(r)), np.abs(np.linalg.qr(wide(a), mode="r")), dtype)
    h, tau = ca.linalg.qr(dev(a, ldev), mode="raw")
    wh, wtau = np.linalg.qr(a, mode="raw")
    assert h.shape == wh.shape and tau.shape == wtau.shape
    assert h.dtype == np.dtype(dtype) and tau.dtype == np.dtype(dtype)
    # raw's R part is mode='r''s R
    k = min(shape[-2:])
    rr = np.triu(np.swapaxes(host(h), -1, -2)[..., :k, :])
    close(rr, host(r), dtype)


def test_qr_modes_and_empty(ldev):
    with pytest.raises(ValueError):
        ca.linalg.qr(dev(np.eye(2), ldev), mode="bogus")
    q, r = ca.linalg.qr(dev(np.zeros((0, 3)), ldev))
    assert q.shape == (0, 0) and r.shape == (0, 3)
    q, r = ca.linalg.qr(dev(np.zeros((3, 0)), ldev), mode="complete")
    wq, wr = np.linalg.qr(np.zeros((3, 0)), mode="complete")
    assert q.shape == wq.shape and r.shape == wr.shape


# ------------------------------------------------------------ svd ----

SVD_SHAPES = [(1, 1), (5, 3), (3, 5), (4, 4), (2, 6, 4), (3, 4, 6), (30, 20), (20, 30),
              (12, 3, 3)]


@pytest.fixture(params=["gesvdj", "gesvd"])
def svd_driver(request, monkeypatch):
    """svd with vectors through cuSOLVER's Jacobi gesvdj (the default) or
    Xgesvd (config.svd_driver)."""
    monkeypatch.setattr(ca.linalg.config, "svd_driver", request.param)
    return request.param


def check_svd(got, a, dtype, full):
    u, s, vh = got
    shape = a.shape
    wu, ws, wvh = np.linalg.svd(wide(a), full_matrices=full)
    assert u.shape == wu.shape and s.shape == ws.shape and vh.shape == wvh.shape
    assert u.dtype == np.dtype(dtype) and vh.dtype == np.dtype(dtype)
    assert s.dtype == np.zeros(0, dtype).real.dtype
    close(s, ws, dtype, scale=shape[-1])
    u, s, vh = wide(host(u)), wide(host(s)), wide(host(vh))
    assert (np.diff(s, axis=-1) <= 0).all()  # descending
    k = s.shape[-1]
    close((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], a, dtype, scale=shape[-1])
    close(mH(u) @ u, np.broadcast_to(np.eye(u.shape[-1]), u.shape[:-2] + (u.shape[-1],) * 2),
          dtype, scale=shape[-1])
    close(vh @ mH(vh),
          np.broadcast_to(np.eye(vh.shape[-2]), vh.shape[:-2] + (vh.shape[-2],) * 2),
          dtype, scale=shape[-1])


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", SVD_SHAPES + [(130, 70), (70, 130)])
@pytest.mark.parametrize("full", [True, False])
def test_svd_drivers(ldev, svd_driver, dtype, shape, full):
    a = rand(shape, dtype, seed=2)
    check_svd(ca.linalg.svd(dev(a, ldev), full_matrices=full), a, dtype, full)


@pytest.mark.parametrize("shape", [(40, 30), (30, 40), (2, 25, 25)])
@pytest.mark.parametrize("dtype", FLOATS)
def test_svd_rank_deficient(ldev, svd_driver, dtype, shape):
    # rank 3: repeated zero singular values, vectors still orthonormal
    x = rand(shape[:-1] + (3,), dtype, 1)
    y = rand(shape[:-2] + (3, shape[-1]), dtype, 2)
    a = (x @ y).astype(dtype)
    check_svd(ca.linalg.svd(dev(a, ldev), full_matrices=False), a, dtype, False)


def test_svd_jacobi_falls_back_to_gesvd():
    if linalg_standin is None:
        pytest.skip("SciPy's LAPACK is the stand-in")
    old = _linalg_factor._set_solver_standin(linalg_standin.standin)
    a = rand((2, 7, 5), np.float64)
    try:
        linalg_standin.gesvdj_fails = True
        for shape in [(2, 7, 5), (2, 5, 7)]:
            a = rand(shape, np.float64)
            del linalg_standin.calls[:]
            check_svd(ca.linalg.svd(dev(a, "cpu"), full_matrices=False), a, np.float64,
                      False)
            assert linalg_standin.calls == ["GESVDJ", "GESVD"]
            # without the info check: gesvdj's results, no fallback
            del linalg_standin.calls[:]
            with ca.linalg.errors_checked(False):
                ca.linalg.svd(dev(a, "cpu"))
            assert linalg_standin.calls == ["GESVDJ"]
        linalg_standin.gesvdj_fails = False
        linalg_standin.gesvdj_nan = True  # info 0 but a NaN: Xgesvd as well
        for shape in [(2, 7, 5), (2, 5, 7)]:
            a = rand(shape, np.float64)
            del linalg_standin.calls[:]
            check_svd(ca.linalg.svd(dev(a, "cpu")), a, np.float64, True)
            assert linalg_standin.calls == ["GESVDJ", "GESVD"]
        linalg_standin.gesvdj_nan = False
        del linalg_standin.calls[:]
        ca.linalg.svd(dev(a, "cpu"))
        ca.linalg.svd(dev(a, "cpu"), compute_uv=False)
        assert linalg_standin.calls == ["GESVDJ", "GESVD"]
    finally:
        linalg_standin.gesvdj_fails = linalg_standin.gesvdj_nan = False
        _linalg_factor._set_solver_standin(old)


def test_svd_driver_checked(ldev, monkeypatch):
    if _linalg_factor._is_cpu(dev(np.eye(3), ldev)):
        pytest.skip("numpy.linalg's route (the cpu device's for float64)")
    monkeypatch.setattr(ca.linalg.config, "svd_driver", "magma")
    with pytest.raises(ValueError, match="svd_driver"):
        ca.linalg.svd(dev(np.eye(3), ldev))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", SVD_SHAPES)
@pytest.mark.parametrize("full", [True, False])
def test_svd(ldev, dtype, shape, full):
    a = rand(shape, dtype)
    check_svd(ca.linalg.svd(dev(a, ldev), full_matrices=full), a, dtype, full)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)])
def test_svd_values(ldev, dtype, shape):
    a = rand(shape, dtype)
    want = np.linalg.svd(wide(a), compute_uv=False)
    s = ca.linalg.svd(dev(a, ldev), compute_uv=False)
    close(s, want, dtype)
    close(ca.linalg.svdvals(dev(a, ldev)), want, dtype)


@pytest.mark.parametrize("dtype", FLOATS)
def test_svd_hermitian(ldev, dtype):
    a = herm((3, 5, 5), dtype)
    u, s, vh = ca.linalg.svd(dev(a, ldev), hermitian=True)
    close(s, np.linalg.svd(wide(a), compute_uv=False), dtype)
    u, s, vh = wide(host(u)), wide(host(s)), wide(host(vh))
    close((u * s[..., None, :]) @ vh, a, dtype, scale=5)
    s2 = ca.linalg.svd(dev(a, ldev), compute_uv=False, hermitian=True)
    close(s2, np.linalg.svd(wide(a), compute_uv=False), dtype)


def test_svd_empty(ldev):
    u, s, vh = ca.linalg.svd(dev(np.zeros((0, 3)), ldev))
    wu, ws, wvh = np.linalg.svd(np.zeros((0, 3)))
    assert (u.shape, s.shape, vh.shape) == (wu.shape, ws.shape, wvh.shape)
    np.testing.assert_array_equal(host(vh), wvh)


# ------------------------------------------------------------ eigh ----

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", SQUARE_SHAPES)
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh(ldev, dtype, shape, uplo):
    a = rand(shape, dtype)  # not Hermitian: only the triangle UPLO names is read
    w, v = ca.linalg.eigh(dev(a, ldev), UPLO=uplo)
    ww = np.linalg.eigvalsh(wide(a), UPLO=uplo)
    assert w.dtype == np.zeros(0, dtype).real.dtype and v.dtype == np.dtype(dtype)
    close(w, ww, dtype, scale=shape[-1])
    tri = np.tril(wide(a)) if uplo == "L" else np.triu(wide(a))
    diag = np.real(np.diagonal(wide(a), axis1=-2, axis2=-1))
    h = tri + mH(tri)
    idx = np.arange(shape[-1])
    h[..., idx, idx] = diag
    w, v = wide(host(w)), wide(host(v))
    close(h @ v, v * w[..., None, :], dtype, scale=shape[-1] * 4)
    close(mH(v) @ v, np.broadcast_to(np.eye(shape[-1]), shape), dtype, scale=shape[-1])
    close(ca.linalg.eigvalsh(dev(a, ldev), UPLO=uplo), ww, dtype, scale=shape[-1])


def test_eigh_bad_uplo_and_empty(ldev):
    with pytest.raises(ValueError, match="UPLO"):
        ca.linalg.eigh(dev(np.eye(2), ldev), UPLO="X")
    w, v = ca.linalg.eigh(dev(np.zeros((2, 0, 0)), ldev))
    assert w.shape == (2, 0) and v.shape == (2, 0, 0)


# ------------------------------------------------------------ eig ----

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1, 1), (3, 3), (2, 5, 5), (20, 20)])
def test_eig(ldev, dtype, shape):
    a = rand(shape, dtype)
    w, v = ca.linalg.eig(dev(a, ldev))
    ww, wv = np.linalg.eig(a)
    assert w.dtype == ww.dtype and v.dtype == wv.dtype
    w, v = wide(host(w)), wide(host(v))
    close(wide(a) @ v, v * w[..., None, :], dtype, scale=shape[-1] * 4)
    close(np.linalg.norm(v, axis=-2), np.ones(w.shape), dtype)
    close(np.sort_complex(w.reshape(-1, shape[-1])),
          np.sort_complex(np.linalg.eigvals(wide(a)).reshape(-1, shape[-1])), dtype,
          scale=shape[-1] * 4)
    e = ca.linalg.eigvals(dev(a, ldev))
    assert e.dtype == np.linalg.eigvals(a).dtype


def test_eig_real_and_complex_results(ldev):
    rot = np.array([[0.0, -1.0], [1.0, 0.0]])
    w, v = ca.linalg.eig(dev(rot, ldev))
    assert w.dtype == np.complex128 and v.dtype == np.complex128
    close(rot @ host(v), host(v) * host(w)[None, :], np.float64)
    sym = herm((4, 4), np.float64)
    w, v = ca.linalg.eig(dev(sym, ldev))
    want = np.linalg.eig(sym)  # real results before NumPy 2.5, complex from 2.5 on
    assert w.dtype == want[0].dtype and v.dtype == want[1].dtype
    w32 = ca.linalg.eigvals(dev(rot.astype(np.float32), ldev))
    assert w32.dtype == np.complex64


# ------------------------------------------------------------ lstsq & co. ----

@pytest.mark.parametrize("dtype", [np.float64, np.complex128, np.float32])
@pytest.mark.parametrize("ashape,bshape", [((6, 3), (6,)), ((6, 3), (6, 2)), ((3, 6), (3,)),
                                           ((4, 4), (4, 2))])
def test_lstsq(ldev, svd_driver, dtype, ashape, bshape):
    a = rand(ashape, dtype)
    b = rand(bshape, dtype, 1)
    x, res, rank, s = ca.linalg.lstsq(dev(a, ldev), dev(b, ldev))
    wx, wres, wrank, ws = np.linalg.lstsq(wide(a), wide(b))
    close(x, wx, dtype, scale=10)
    assert host(res).shape == wres.shape
    close(res, wres, dtype, scale=10)
    assert int(rank) == wrank
    close(s, ws, dtype)


def test_lstsq_rank_deficient(ldev, svd_driver):
    a = rand((6, 4), np.float64)
    a[:, 3] = a[:, 0] + a[:, 1]
    b = rand((6,), np.float64, 2)
    x, res, rank, s = ca.linalg.lstsq(dev(a, ldev), dev(b, ldev))
    wx, wres, wrank, ws = np.linalg.lstsq(a, b)
    assert int(rank) == wrank == 3
    close(x, wx, np.float64, scale=100)
    assert host(res).shape == wres.shape == (0,)
    with pytest.raises(np.linalg.LinAlgError):
        ca.linalg.lstsq(dev(a, ldev), dev(np.ones(5), ldev))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)])
def test_pinv(ldev, svd_driver, dtype, shape):
    a = rand(shape, dtype)
    got = ca.linalg.pinv(dev(a, ldev))
    assert got.dtype == np.dtype(dtype)
    close(got, np.linalg.pinv(wide(a)), dtype, scale=10)
    h = herm((4, 4), dtype)
    close(ca.linalg.pinv(dev(h, ldev), hermitian=True), np.linalg.pinv(wide(h)), dtype,
          scale=10)
    assert ca.linalg.pinv(dev(np.zeros((2, 0, 3)), ldev)).shape == (2, 3, 0)


def test_matrix_rank(ldev):
    a = rand((3, 6, 4), np.float64)
    a[1, :, 3] = a[1, :, 0]
    a[2] = 0
    got = ca.linalg.matrix_rank(dev(a, ldev))
    np.testing.assert_array_equal(host(got), np.linalg.matrix_rank(a))
    assert int(ca.linalg.matrix_rank(dev(np.eye(4), ldev))) == 4
    assert ca.linalg.matrix_rank(dev(np.ones(4), ldev)) == 1
    assert ca.linalg.matrix_rank(dev(np.zeros(4), ldev)) == 0
    h = herm((5, 5), np.float64)
    assert int(ca.linalg.matrix_rank(dev(h, ldev), hermitian=True)) == 5
    assert int(ca.linalg.matrix_rank(dev(np.eye(3) * 1e-3, ldev), tol=1e-2)) == 0


@pytest.mark.parametrize("p", [None, 2, -2, 1, -1, np.inf, -np.inf, "fro", "nuc"])
def test_cond(ldev, p):
    a = rand((2, 4, 4), np.float64)
    close(ca.linalg.cond(dev(a, ldev), p), np.linalg.cond(a, p), np.float64, scale=1e3)
    if p != "nuc":  # NumPy's nuclear norm of inv(singular) raises
        sing = np.ones((3, 3))
        sing[1] = 0
        got = host(ca.linalg.cond(dev(sing, ldev), p))
        want = np.linalg.cond(sing, p)
        assert np.isinf(want) == np.isinf(got) or got > 1e15
    with pytest.raises(np.linalg.LinAlgError):
        ca.linalg.cond(dev(np.zeros((0, 0)), ldev))


def test_tensorinv_tensorsolve(ldev):
    a = np.eye(4 * 6).reshape(4, 6, 8, 3) + 0.1 * rand((4, 6, 8, 3), np.float64)
    got = ca.linalg.tensorinv(dev(a, ldev), ind=2)
    want = np.linalg.tensorinv(a, ind=2)
    assert got.shape == want.shape
    close(got, want, np.float64, scale=10)
    b = rand((4, 6), np.float64, 1)
    got = ca.linalg.tensorsolve(dev(a, ldev), dev(b, ldev))
    want = np.linalg.tensorsolve(a, b)
    close(got, want, np.float64, scale=10)
    a3 = np.eye(24).reshape(6, 4, 2, 3, 4) + 0.1 * rand((6, 4, 2, 3, 4), np.float64)
    a3 = np.moveaxis(a3, 2, 0)
    b3 = rand((6, 4), np.float64, 2)
    want = np.linalg.tensorsolve(a3, b3, axes=(0,))
    got = ca.linalg.tensorsolve(dev(a3, ldev), dev(b3, ldev), axes=(0,))
    assert got.shape == want.shape
    close(got, want, np.float64, scale=10)
    with pytest.raises(ValueError):
        ca.linalg.tensorinv(dev(a, ldev), ind=0)


# ------------------------------------------------------------ errors, names ----

def test_linalgerror_is_numpys():
    assert ca.linalg.LinAlgError is np.linalg.LinAlgError
    assert issubclass(ca.linalg.LinAlgError, ValueError)


def test_dimension_errors(ldev):
    for fn in (ca.linalg.inv, ca.linalg.det, ca.linalg.cholesky, ca.linalg.eigh,
               ca.linalg.eig, ca.linalg.slogdet):
        with pytest.raises(np.linalg.LinAlgError, match="square"):
            fn(dev(np.ones((3, 4)), ldev))
        with pytest.raises(np.linalg.LinAlgError, match="two-dimensional"):
            fn(dev(np.ones(3), ldev))
    for fn in (ca.linalg.qr, ca.linalg.svd):
        with pytest.raises(np.linalg.LinAlgError, match="two-dimensional"):
            fn(dev(np.ones(3), ldev))


def test_namespace():
    for name in ("solve", "inv", "det", "slogdet", "cholesky", "qr", "svd", "svdvals",
                 "eigh", "eigvalsh", "eig", "eigvals", "lstsq", "pinv", "matrix_rank",
                 "cond", "tensorinv", "tensorsolve", "LinAlgError", "matmul"):
        assert name in ca.linalg.__all__
        assert callable(getattr(ca.linalg, name))
    assert issubclass(ca.cuda.CUSOLVERError, ca.cuda.CUDAError)


def test_cusolver_status_names():
    with pytest.raises(ca.cuda.CUSOLVERError, match="CUSOLVER_STATUS_INVALID_VALUE"):
        ca._core._raise_cuda_error(3, "cusolverDnXgetrf", "cusolver")
    with pytest.raises(MemoryError):
        ca._core._raise_cuda_error(2, "cusolverDnXgetrf", "cusolver")


def test_routing_uses_the_batched_routines():
    if linalg_standin is None:
        pytest.skip("needs the SciPy stand-in")
    old = _linalg_factor._set_solver_standin(linalg_standin.standin)
    try:
        linalg_standin.calls.clear()
        ca.linalg.inv(dev(well((64, 8, 8), np.float32), "cpu"))
        ca.linalg.inv(dev(well((2, 64, 64), np.float32), "cpu"))
        ca.linalg.cholesky(dev(hpd((64, 8, 8), np.float32), "cpu"))
        ca.linalg.eigh(dev(herm((64, 8, 8), np.float32), "cpu"))
        ca.linalg.solve(dev(well((64, 8, 8), np.float32), "cpu"),
                        dev(np.ones((64, 8, 1), np.float32), "cpu"))
        assert linalg_standin.calls == ["GETRF_BATCHED", "GETRI_BATCHED", "GETRF",
                                        "GETRS", "POTRF_BATCHED", "SYEV_BATCHED",
                                        "GETRF_BATCHED", "GETRS_BATCHED"]
    finally:
        _linalg_factor._set_solver_standin(old)


# ------------------------------------------------------------ GPU only ----

@requires_gpu
def test_results_on_the_current_stream():
    a = well((2, 32, 32), np.float64)
    x = ca.asarray(a, device="cuda:0")
    ca.cuda.Stream.null.synchronize()  # x is written on the legacy stream
    s = ca.cuda.Stream(non_blocking=True)
    with s:
        r = ca.linalg.inv(x)
        q, rr = ca.linalg.qr(x)
        w = ca.linalg.eigvalsh(x)
        d = ca.linalg.det(x)
    s.synchronize()
    close(r, np.linalg.inv(a), np.float64, scale=32)
    close(host(q) @ host(rr), a, np.float64, scale=32)
    close(w, np.linalg.eigvalsh(a), np.float64, scale=32)
    close(d, np.linalg.det(a), np.float64, scale=32)


@requires_gpu
def test_cusolver_loads_on_first_use():
    import subprocess
    import sys
    code = ("import cuarray as ca, numpy as np\n"
            "assert ca._core._cusolver_path() is None\n"
            "x = ca.asarray(np.eye(3) * 2, device='cuda:0')\n"
            "assert ca._core._cusolver_path() is None\n"
            "d = float(ca.linalg.det(x))\n"
            "assert abs(d - 8) < 1e-12, d\n"
            "assert ca._core._cusolver_path() is not None\n")
    subprocess.run([sys.executable, "-c", code], check=True)


# ------------------------------------------------- cpu: stacks on two threads

@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64])
def test_cpu_stacks_split_between_threads_are_numpys_bits(dtype, monkeypatch):
    """A stack of small matrices in two halves on two host threads: every routine's
    results are NumPy's one call's, bit for bit, dtype and all (eig's real and
    complex halves join as NumPy's complex result), and errors are NumPy's."""
    from cuarray import _host_threads, _linalg_factor
    monkeypatch.setattr(_linalg_factor, "STACK_SPLIT_MIN", 64)
    monkeypatch.setattr(_host_threads, "ENABLED", True)
    rng = np.random.default_rng(40)
    a = rng.standard_normal((7, 3, 6, 6)).astype(dtype)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(a.shape).astype(dtype)
    spd = a @ np.conj(np.swapaxes(a, -1, -2)) + 6 * np.eye(6, dtype=dtype)
    sym = a + np.conj(np.swapaxes(a, -1, -2))
    # eig: the first half of the stack with real eigenvalues only, the rest mixed
    ev = a.copy()
    if np.dtype(dtype).kind == "f":
        ev[:3] = sym[:3].real
    wide = rng.standard_normal((9, 4, 7)).astype(dtype)
    cases = [("det", a, {}), ("slogdet", a, {}), ("inv", a, {}), ("cholesky", spd, {}),
             ("cholesky", spd, {"upper": True}), ("qr", wide, {}), ("qr", wide, {"mode": "r"}),
             ("eigh", sym, {}), ("eigvalsh", sym, {"UPLO": "U"}), ("eig", ev, {}),
             ("eigvals", ev, {}), ("svd", wide, {}), ("svd", wide, {"compute_uv": False}),
             ("svd", wide, {"full_matrices": False})]
    for name, x, kw in cases:
        want = getattr(np.linalg, name)(x, **kw)
        got = getattr(ca.linalg, name)(ca.asarray(x, device="cpu"), **kw)
        want = want if isinstance(want, tuple) else (want,)
        got = got if isinstance(got, tuple) else (got,)
        assert len(got) == len(want), name
        for g, w in zip(got, want):
            g = g.get()
            assert g.dtype == w.dtype and g.shape == w.shape, (name, kw)
            assert g.tobytes() == w.tobytes(), (name, kw)
    bad = a.copy()
    bad[5, 1] = 0  # one singular matrix, in the second half
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        ca.linalg.inv(ca.asarray(bad, device="cpu"))
    with pytest.raises(np.linalg.LinAlgError):
        ca.linalg.cholesky(ca.asarray(a, device="cpu"))
