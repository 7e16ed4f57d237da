"""The cpu device's host LAPACK (csrc/ops/host_lapack.c, csrc/ops/solver_host.c): which
matrices take it, where it comes from, its argument checks, and its guards.

Its results are checked by every test of test_linalg_factor.py, which runs on
the "cpu-host" ldev as well (every op and dtype through host LAPACK); here are
the parts those do not reach.
"""

import glob
import os
import threading

import numpy as np
import pytest

import cuarray as ca
from cuarray import _core, _linalg_factor

HOST = _core._host_lapack_path()


@pytest.fixture(autouse=True)
def on_the_cpu_device():
    """Every array here is the cpu device's (the default device is a GPU's where
    one is present)."""
    with ca.Device("cpu"):
        yield
needs_host_lapack = pytest.mark.skipif(
    HOST is None, reason="this NumPy loaded no LAPACK with 64-bit integers")


def numpy_wheel_openblas():
    """The ILP64 OpenBLAS a NumPy wheel ships beside itself, or None."""
    libs = os.path.join(os.path.dirname(os.path.dirname(np.__file__)), "numpy.libs")
    found = glob.glob(os.path.join(libs, "libscipy_openblas64_*.so"))
    return found[0] if found else None


def test_host_lapack_is_numpys_openblas():
    wheel = numpy_wheel_openblas()
    if wheel is None:
        pytest.skip("NumPy is not a PyPI wheel with scipy-openblas64 here")
    # found among the loaded libraries (not loaded anew): NumPy's own file
    assert HOST is not None
    assert os.path.realpath(HOST) == os.path.realpath(wheel)


def route(shape, dtype, mode="auto"):
    """'numpy' or 'host': the cpu device's route for such an array."""
    old = ca.linalg.config.cpu_lapack
    ca.linalg.config.cpu_lapack = mode
    try:
        a = ca.asarray(np.ones(shape, dtype=dtype))
        return "numpy" if _linalg_factor._is_cpu(a) else "host"
    finally:
        ca.linalg.config.cpu_lapack = old


@needs_host_lapack
@pytest.mark.parametrize("shape,dtype,want", [
    ((63, 63), np.float32, "numpy"),
    ((64, 64), np.float32, "host"),
    ((64, 100), np.complex64, "host"),
    ((100, 63), np.float32, "numpy"),  # the smaller side decides
    ((64, 64), np.float64, "numpy"),
    ((127, 127), np.complex128, "numpy"),
    ((128, 128), np.float64, "host"),
    ((128, 128), np.int64, "host"),  # computed in float64
    ((3, 130, 130), np.float32, "host"),
    ((3, 128, 128), np.float32, "numpy"),  # 3 * 2^14 elements: split
    ((4, 64, 64), np.float32, "host"),  # 2^14 elements: not split
    ((8, 64, 64), np.float32, "numpy"),  # 2^15: numpy.linalg on two threads
    ((256,), np.float32, "numpy"),
])
def test_auto_route(shape, dtype, want):
    assert route(shape, dtype) == want


@needs_host_lapack
def test_route_modes():
    assert route((2, 2), np.float64, "host") == "host"
    assert route((512, 512), np.float32, "numpy") == "numpy"
    with pytest.raises(ValueError, match="cpu_lapack"):
        route((64, 64), np.float32, "magma")


@needs_host_lapack
def test_per_function_thresholds():
    a = ca.asarray(np.ones((128, 128), np.float32))
    assert not _linalg_factor._is_cpu(a)
    assert _linalg_factor._is_cpu(a, _linalg_factor.SLOGDET_HOST_MIN_N)
    assert _linalg_factor._is_cpu(a, _linalg_factor.LSTSQ_HOST_MIN_N)


@needs_host_lapack
@pytest.mark.parametrize("dtype", [np.float32, np.complex64, np.float64])
def test_single_precision_is_computed_in_single(dtype):
    # float32 goes to sgetrf (NumPy: dgetrf, rounded): the bits may differ from
    # NumPy's, the accuracy is float32's
    n = 200
    rng = np.random.default_rng(5)
    a = rng.standard_normal((n, n)).astype(dtype) + n * np.eye(n, dtype=dtype)
    got = ca.linalg.inv(ca.asarray(a)).get()
    assert got.dtype == np.dtype(dtype)
    want = np.linalg.inv(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64))
    eps = np.finfo(dtype).eps
    assert np.abs(got - want).max() <= 50 * eps * np.abs(want).max()


@needs_host_lapack
@pytest.mark.parametrize("fill", [np.nan, np.inf])
@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
def test_non_finite_takes_numpys_route(capfd, fill, dtype):
    a = np.eye(130, dtype=dtype)
    a[7, 3] = fill
    x = ca.asarray(a)
    assert _linalg_factor._is_cpu(x)
    with pytest.raises(ca.linalg.LinAlgError, match="infs or NaNs"):
        ca.linalg.eig(x)
    with pytest.raises(ca.linalg.LinAlgError, match="infs or NaNs"):
        ca.linalg.eigvals(x)
    try:  # NumPy's own outcome: a result or LinAlgError
        want = np.linalg.inv(a)
    except np.linalg.LinAlgError:
        with pytest.raises(ca.linalg.LinAlgError, match="Singular"):
            ca.linalg.inv(x)
    else:
        np.testing.assert_array_equal(ca.linalg.inv(x).get(), want)
    # LAPACK reached with a NaN prints "illegal value" lines: none here
    assert "illegal value" not in capfd.readouterr().err


def solver_args(n=4, dtype=np.float64, batch=1):
    a = ca.asarray(np.eye(n, dtype=dtype)[None].repeat(batch, 0) * 2)
    info = ca.zeros((batch,), dtype=np.int32)
    return a, info


@needs_host_lapack
def test_solver_on_cpu_checks_its_arrays():
    potrf = _linalg_factor._POTRF
    a, info = solver_args()
    _core._solver(potrf, a, 4, None, 0, None, 0, None, None, info, 4, 4, 0, 0, 0, 0,
                  "N", "N")
    np.testing.assert_allclose(np.tril(a.get()[0]), np.sqrt(2) * np.eye(4))
    assert info.get()[0] == 0
    with pytest.raises(ValueError, match="blocks"):  # 5 x 5 reads past the block
        _core._solver(potrf, a, 5, None, 0, None, 0, None, None, info, 5, 5, 0, 0, 0, 0,
                      "N", "N")
    with pytest.raises(ValueError, match="leading dimension"):
        _core._solver(potrf, a, 3, None, 0, None, 0, None, None, info, 4, 4, 0, 0, 0, 0,
                      "N", "N")
    with pytest.raises(TypeError, match="dtype"):  # pivots of the wrong type
        piv = ca.zeros((1, 4), dtype=np.int32)
        _core._solver(_linalg_factor._GETRF, a, 4, None, 0, None, 0, None, piv, info, 4,
                      4, 0, 0, 0, 0, "N", "N")
    with pytest.raises(ValueError, match="unknown operation"):
        _core._solver(99, a, 4, None, 0, None, 0, None, None, info, 4, 4, 0, 0, 0, 0,
                      "N", "N")
    with pytest.raises(ValueError, match="None"):  # GEQRF without tau
        _core._solver(_linalg_factor._GEQRF, a, 4, None, 0, None, 0, None, None, info, 4,
                      4, 0, 0, 0, 0, "N", "N")


@needs_host_lapack
def test_info_flags_per_matrix():
    a = np.stack([np.eye(70) * 3, np.zeros((70, 70)), np.eye(70)])
    old = ca.linalg.config.cpu_lapack
    ca.linalg.config.cpu_lapack = "host"
    try:
        with pytest.raises(ca.linalg.LinAlgError, match="Singular"):
            ca.linalg.inv(ca.asarray(a))
        with ca.linalg.errors_checked(False):
            r = ca.linalg.inv(ca.asarray(a)).get()  # no raise, a result per matrix
        np.testing.assert_allclose(r[0], np.eye(70) / 3)
        np.testing.assert_allclose(r[2], np.eye(70))
    finally:
        ca.linalg.config.cpu_lapack = old


@needs_host_lapack
def test_threads_share_host_lapack():
    rng = np.random.default_rng(2)
    mats = [rng.standard_normal((96, 96)).astype(np.float32) + 20 * np.eye(96, dtype=np.float32)
            for _ in range(4)]
    out = [None] * 4

    def work(i):
        out[i] = ca.linalg.solve(ca.asarray(mats[i]), ca.asarray(np.ones(96, np.float32))).get()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for m, x in zip(mats, out):
        np.testing.assert_allclose(m.astype(np.float64) @ x, np.ones(96), rtol=0, atol=1e-4)
