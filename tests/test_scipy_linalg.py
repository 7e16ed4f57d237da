"""cuarray.scipy.linalg against scipy.linalg on both devices.

Tests that take `route` run twice on the cpu device: through SciPy's own routine
on views ('scipy', the default there) and through the getrf/getrs and Padé
compositions a GPU runs ('composition', the CPU_SCIPY flags off).
"""

import warnings

import numpy as np
import pytest
import scipy
import scipy.linalg as sl

import cuarray as ca
import cuarray.scipy.linalg as cl
from cuarray.scipy.linalg import _decomp_lu, _matfuncs

from conftest import ROUTES, random_array, scipy_route

SCIPY_BEFORE_118 = tuple(int(v) for v in scipy.__version__.split(".")[:2]) < (1, 18)

FLOATS = [np.float32, np.float64, np.complex64, np.complex128]
LU_DTYPES = FLOATS + [np.int64, np.float16, np.bool_]


@pytest.fixture(params=ROUTES)
def route(request, monkeypatch, device):
    return scipy_route(request, monkeypatch, device, _decomp_lu, _matfuncs)


def rand(shape, dtype, seed=0):
    return random_array(shape, dtype, np.random.default_rng(seed))


def tol(dtype):
    return 2e-4 if np.dtype(dtype).char in "efF" else 1e-10


def host(x):
    return x.get() if isinstance(x, ca.ndarray) else np.asarray(x)


def check(got, want, rtol=1e-10, atol=0.0):
    """got (cuarray arrays, a tuple of them, or Python scalars) equals SciPy's
    want in shape, dtype and value."""
    if isinstance(want, (tuple, list)):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            check(g, w, rtol, atol)
        return
    g, w = host(got), np.asarray(want)
    assert g.shape == w.shape, (g.shape, w.shape)
    assert g.dtype == w.dtype, (g.dtype, w.dtype)
    np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)


def dev(a, device):
    return ca.asarray(a, device=device)


# --------------------------------------------------------------------------
# special matrices
# --------------------------------------------------------------------------
COEF_DTYPES = [np.float32, np.float64, np.complex128, np.int8, np.int64, np.uint8]


@pytest.mark.parametrize("dtype", COEF_DTYPES)
@pytest.mark.parametrize("shape", [(1,), (5,), (2, 4), (2, 3, 3)])
def test_toeplitz_circulant_fiedler(device, dtype, shape):
    c = rand(shape, dtype)
    r = rand(shape[-1:], dtype, 1)
    check(cl.toeplitz(dev(c, device)), sl.toeplitz(c))
    check(cl.toeplitz(dev(c, device), dev(r, device)), sl.toeplitz(c, r))
    check(cl.circulant(dev(c, device)), sl.circulant(c))
    check(cl.fiedler(dev(c, device)), sl.fiedler(c))


@pytest.mark.parametrize("dtype", COEF_DTYPES)
def test_hankel(device, dtype):
    c, r = rand(5, dtype), rand(3, dtype, 1)
    check(cl.hankel(dev(c, device)), sl.hankel(c))
    check(cl.hankel(dev(c, device), dev(r, device)), sl.hankel(c, r))
    c2 = rand((2, 3), dtype)
    with pytest.warns(FutureWarning):
        want = sl.hankel(c2)
    with pytest.warns(FutureWarning):
        check(cl.hankel(dev(c2, device)), want)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.int64])
@pytest.mark.parametrize("shape", [(2,), (3,), (6,), (9,), (2, 5)])
def test_companions(device, dtype, shape):
    a = rand(shape, dtype)
    a[..., 0] = np.where(a[..., 0] == 0, 3, a[..., 0])
    check(cl.companion(dev(a, device)), sl.companion(a), rtol=tol(dtype))
    check(cl.fiedler_companion(dev(a, device)), sl.fiedler_companion(a), rtol=tol(dtype))


def test_companion_errors(device):
    for f in (sl.companion, cl.companion):
        a = np.array([0.0, 1.0, 2.0])
        arg = a if f is sl.companion else dev(a, device)
        with pytest.raises(ValueError):
            f(arg)
        with pytest.raises(ValueError):
            f(arg[:1])
    with pytest.raises(ValueError, match="Leading coefficient"):
        cl.fiedler_companion(dev([0.0, 1.0, 2.0], device))
    got = cl.fiedler_companion(dev([2.0], device))   # SciPy 1.18's (0, 0); 1.17: (0,)
    assert (got.shape, got.dtype) == ((0, 0), np.float64)
    if not SCIPY_BEFORE_118:
        check(got, sl.fiedler_companion(np.array([2.0])))
    # an empty a: SciPy 1.18's (0, 0) (1.17 and earlier: (0,)), whatever the batch
    for shape in [(0,), (2, 0)]:
        got = cl.fiedler(dev(np.zeros(shape), device))
        assert (got.shape, got.dtype) == ((0, 0), np.float64)
        if not SCIPY_BEFORE_118:
            check(got, sl.fiedler(np.zeros(shape)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.complex64])
def test_leslie(device, dtype):
    f, s = rand((2, 4), dtype), rand((2, 3), dtype, 1)
    check(cl.leslie(dev(f, device), dev(s, device)), sl.leslie(f, s))
    check(cl.leslie(dev(f[0], device), dev(s[0], device)), sl.leslie(f[0], s[0]))
    with pytest.raises(ValueError):
        cl.leslie(dev(f, device), dev(f, device))


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("n", [1, 3, 5, 8])
@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.complex128])
def test_convolution_matrix(device, mode, n, dtype):
    a = rand((2, 5), dtype)
    check(cl.convolution_matrix(dev(a, device), n, mode), sl.convolution_matrix(a, n, mode))
    check(cl.convolution_matrix(dev(a[0], device), n, mode),
          sl.convolution_matrix(a[0], n, mode))


def test_convolution_matrix_errors(device):
    a = dev(np.ones(3), device)
    for bad, args in [(ValueError, (a, 0)), (ValueError, (a, 3, "x")),
                      (ValueError, (dev(np.ones(0), device), 3))]:
        with pytest.raises(bad):
            cl.convolution_matrix(*args)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.complex64])
def test_khatri_rao(device, dtype):
    a, b = rand((3, 4), dtype), rand((2, 4), dtype, 1)
    # products rounded in the dtype (a GPU's complex64 multiply may fuse)
    rtol = tol(dtype)
    check(cl.khatri_rao(dev(a, device), dev(b, device)), sl.khatri_rao(a, b), rtol)
    a3, b3 = rand((2, 3, 4), dtype), rand((2, 5, 4), dtype, 1)
    check(cl.khatri_rao(dev(a3, device), dev(b3, device)), sl.khatri_rao(a3, b3), rtol)
    with pytest.raises(ValueError):
        cl.khatri_rao(dev(a, device), dev(rand((2, 3), dtype), device))


def test_block_diag(device):
    a, b, c = rand((2, 3), np.float32), rand(4, np.int16), rand((1, 1), np.complex64)
    check(cl.block_diag(dev(a, device), dev(b, device), dev(c, device)),
          sl.block_diag(a, b, c))
    check(cl.block_diag(dev(a, device), 3.0), sl.block_diag(a, 3.0))
    check(cl.block_diag(dev(np.zeros((0, 2)), device), dev(a, device)),
          sl.block_diag(np.zeros((0, 2)), a))
    check(cl.block_diag(), sl.block_diag())
    s3 = rand((2, 2, 2), np.float64)
    check(cl.block_diag(dev(s3, device), dev(a, device)), sl.block_diag(s3, a))


@pytest.mark.parametrize("lo, up", [(0, 0), (1, 0), (0, 2), (3, 1), (4, 4)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.complex128, np.bool_])
def test_bandwidth(device, lo, up, dtype):
    a = np.triu(np.tril(rand((5, 5), dtype) + np.ones((5, 5), dtype), up), -lo)
    assert cl.bandwidth(dev(a, device)) == sl.bandwidth(a)
    r = np.triu(np.ones((3, 6), dtype), -1)
    assert cl.bandwidth(dev(r, device)) == sl.bandwidth(r)
    st = np.stack([a, np.eye(5, dtype=dtype)])
    lo_s, up_s = cl.bandwidth(dev(st, device))
    want = sl.bandwidth(st)
    np.testing.assert_array_equal(host(lo_s), want[0])
    np.testing.assert_array_equal(host(up_s), want[1])
    with pytest.raises(ValueError):
        cl.bandwidth(dev(np.ones(3), device))


@pytest.mark.parametrize("n", [0, 1, 2, 5, 16])
def test_constructors(device, n):
    with ca.Device(device):
        check(cl.dft(n), sl.dft(n), atol=1e-12)
        for scale in ("sqrtn", "n"):
            if n:
                check(cl.dft(n, scale), sl.dft(n, scale), atol=1e-12)
        check(cl.hilbert(n), sl.hilbert(n))
        if n:
            check(cl.helmert(n), sl.helmert(n), atol=1e-15)
            check(cl.helmert(n, full=True), sl.helmert(n, full=True), atol=1e-15)
        if n and n & (n - 1) == 0:
            check(cl.hadamard(n), sl.hadamard(n))
            check(cl.hadamard(n, np.float32), sl.hadamard(n, np.float32))
            assert cl.hadamard(n).device == device


def test_constructor_errors():
    for n in (0, 3, 6):
        with pytest.raises(ValueError):
            cl.hadamard(n)
    with pytest.raises(ValueError):
        cl.dft(3, "x")


# --------------------------------------------------------------------------
# LU
# --------------------------------------------------------------------------
def lu_tol(dtype):
    # by the dtype LAPACK computes in: bool, float16 and 8/16-bit integers in float32
    t = np.result_type(dtype, np.float32)
    return 2e-3 if t in (np.float32, np.complex64) else 1e-9


def lu_input(shape, dtype, seed=0):
    a = rand(shape, dtype, seed)
    if np.dtype(dtype).kind in "fc":
        a = a / 10
    return a


@pytest.mark.parametrize("dtype", LU_DTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (5, 5), (3, 6), (6, 3), (3, 4, 4), (2, 40, 40),
                                   (0, 0), (0, 3), (2, 0, 0)])
def test_lu_factor_and_lu(device, route, dtype, shape):
    a = lu_input(shape, dtype)
    rt = lu_tol(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sl.LinAlgWarning)   # bool / int8 may be singular
        want = sl.lu_factor(a)
        got = cl.lu_factor(dev(a, device))
    check(got, tuple(want), rtol=rt, atol=rt)
    check(cl.lu(dev(a, device)), sl.lu(a), rtol=rt, atol=rt)
    check(cl.lu(dev(a, device), permute_l=True), sl.lu(a, permute_l=True), rtol=rt, atol=rt)
    check(cl.lu(dev(a, device), p_indices=True), sl.lu(a, p_indices=True), rtol=rt, atol=rt)


def test_lu_singular_warns(device, route):
    a = np.array([[1.0, 2.0], [2.0, 4.0]])
    with pytest.warns(sl.LinAlgWarning, match="Diagonal number 2 is exactly zero"):
        want = sl.lu_factor(a)
    with pytest.warns(sl.LinAlgWarning, match="Diagonal number 2 is exactly zero"):
        got = cl.lu_factor(dev(a, device))
    check(got, tuple(want))


def test_lu_errors(device, route):
    for bad in (np.ones(3), np.array([[1.0, np.nan], [0.0, 1.0]])):
        with pytest.raises(ValueError):
            cl.lu(dev(bad, device))
    with pytest.raises(ValueError):
        cl.lu_factor(dev([[1.0, np.inf], [0.0, 1.0]], device))
    # check_finite=False: NaN passes through
    nan = np.array([[1.0, np.nan], [0.0, 1.0]])
    r = cl.lu_factor(dev(nan, device), check_finite=False)
    check(r, tuple(sl.lu_factor(nan, check_finite=False)))
    check(cl.lu(dev(nan, device), check_finite=False), sl.lu(nan, check_finite=False))


@pytest.mark.parametrize("trans", [0, 1, 2])
@pytest.mark.parametrize("dtype", FLOATS)
def test_lu_solve(device, route, trans, dtype):
    a = lu_input((6, 6), dtype) + 3 * np.eye(6, dtype=dtype)
    lu_piv = sl.lu_factor(a)
    dlu = (dev(lu_piv[0], device), dev(lu_piv[1], device))
    rt = lu_tol(dtype)
    for b in (rand(6, dtype, 1), rand((6, 3), dtype, 2), rand((6, 3), np.float64, 2),
              rand((2, 6, 3), dtype, 3), np.zeros((6, 0), dtype)):
        check(cl.lu_solve(dlu, dev(b, device), trans=trans),
              sl.lu_solve(lu_piv, b, trans=trans), rtol=rt, atol=rt)


def test_lu_solve_stacks(device, route):
    a = lu_input((3, 5, 5), np.float64) + 3 * np.eye(5)
    lu, piv = sl.lu_factor(a)
    b = rand((3, 5, 2), np.float64)
    got = cl.lu_solve((dev(lu, device), dev(piv, device)), dev(b, device))
    check(got, sl.lu_solve((lu, piv), b))
    # the factor from cuarray's own lu_factor
    check(cl.lu_solve(cl.lu_factor(dev(a, device)), dev(b, device)),
          sl.lu_solve((lu, piv), b))


@pytest.mark.filterwarnings("ignore::scipy.linalg.LinAlgWarning")
def test_lu_solve_errors(device, route):
    lu_piv = tuple(dev(x, device) for x in sl.lu_factor(np.eye(4) * 2))
    with pytest.raises(ValueError):
        cl.lu_solve(lu_piv, dev(np.ones(3), device))
    with pytest.raises(ValueError):
        cl.lu_solve(lu_piv, dev(np.ones((2, 4)), device))
    with pytest.raises(ValueError):   # SciPy's lu_solve takes only 0, 1, 2
        sl.lu_solve(sl.lu_factor(np.eye(4)), np.ones(4), trans="T")
    for trans in (3, "T"):   # (3: SciPy raises f2py's error, not a ValueError)
        with pytest.raises(ValueError):
            cl.lu_solve(lu_piv, dev(np.ones(4), device), trans=trans)
    rect = tuple(dev(x, device) for x in sl.lu_factor(np.ones((3, 4))))
    with pytest.raises(ValueError):
        cl.lu_solve(rect, dev(np.ones(3), device))


def test_lu_solve_singular(device, route):
    # SciPy's lu_solve does not check: LAPACK getrs divides by the zero pivot
    a = np.array([[1.0, 2.0], [2.0, 4.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sl.LinAlgWarning)
        lu_piv = sl.lu_factor(a)
    with np.errstate(all="ignore"):
        want = sl.lu_solve(lu_piv, np.ones(2))
        got = cl.lu_solve((dev(lu_piv[0], device), dev(lu_piv[1], device)),
                          dev(np.ones(2), device))
    assert not np.isfinite(want).all() and not np.isfinite(host(got)).all()


@pytest.mark.parametrize("trans", [0, 1, 2, "N", "T", "C"])
@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("unit", [False, True])
@pytest.mark.parametrize("dtype", FLOATS + [np.int64])
def test_solve_triangular(device, route, trans, lower, unit, dtype):
    a = lu_input((7, 7), dtype) + 4 * np.eye(7, dtype=dtype)
    rt = lu_tol(dtype)
    for b in (rand(7, dtype, 1), rand((7, 2), dtype, 2), rand((7, 3), np.float32, 2)):
        kw = dict(trans=trans, lower=lower, unit_diagonal=unit)
        check(cl.solve_triangular(dev(a, device), dev(b, device), **kw),
              sl.solve_triangular(a, b, **kw), rtol=rt, atol=rt)


@pytest.mark.parametrize("n", [0, 1, 40])
def test_solve_triangular_shapes(device, route, n):
    a = lu_input((2, n, n), np.float64) + 4 * np.eye(n)
    for b in (rand((2, n, 3), np.float64), rand((n, 3), np.float64), rand(n, np.float64)):
        check(cl.solve_triangular(dev(a, device), dev(b, device), lower=True),
              sl.solve_triangular(a, b, lower=True))
    check(cl.solve_triangular(dev(a[0], device), dev(rand((3, n, 2), np.float64), device)),
          sl.solve_triangular(a[0], rand((3, n, 2), np.float64)))


def test_solve_triangular_errors(device, route):
    a = dev(np.triu(np.ones((3, 3))), device)
    with pytest.raises(ValueError, match="square"):
        cl.solve_triangular(dev(np.ones((3, 4)), device), dev(np.ones(3), device))
    with pytest.raises(ValueError, match="incompatible"):
        cl.solve_triangular(a, dev(np.ones(4), device))
    with pytest.raises(ValueError):
        cl.solve_triangular(a, dev(np.ones(3), device), trans="X")
    sing = np.array([[1.0, 2.0], [0.0, 0.0]])
    with pytest.raises(np.linalg.LinAlgError, match="diagonal 1"):
        sl.solve_triangular(sing, np.ones(2))
    with pytest.raises(np.linalg.LinAlgError, match="diagonal 1"):
        cl.solve_triangular(dev(sing, device), dev(np.ones(2), device))
    # unit_diagonal never reads the diagonal
    check(cl.solve_triangular(dev(sing, device), dev(np.ones(2), device), unit_diagonal=True),
          sl.solve_triangular(sing, np.ones(2), unit_diagonal=True))


# --------------------------------------------------------------------------
# expm
# --------------------------------------------------------------------------
@pytest.mark.parametrize("scale", [1e-4, 0.05, 0.5, 1.0, 3.0, 20.0])
@pytest.mark.parametrize("dtype", FLOATS + [np.int64, np.float16])
def test_expm(device, route, scale, dtype):
    a = rand((6, 6), np.float64 if np.dtype(dtype).kind in "iu" else dtype) * scale / 10
    if np.dtype(dtype).kind in "iu":
        a = np.round(a).astype(dtype)
    want = sl.expm(a)
    rt = 1e-3 if np.dtype(dtype).char in "efF" else 1e-9
    check(cl.expm(dev(a, device)), want, rtol=rt, atol=rt * np.abs(want).max())


def test_expm_stacks_and_edges(device, route):
    # a stack whose matrices need different scalings
    a = np.stack([rand((5, 5), np.float64) * s for s in (1e-3, 0.1, 5.0)])
    want = sl.expm(a)
    check(cl.expm(dev(a, device)), want, rtol=1e-9, atol=1e-9 * np.abs(want).max())
    for x in (np.zeros((0, 0)), np.ones((1, 1)) * 2, np.zeros((3, 3)), np.float64(1.5),
              np.triu(np.ones((4, 4))), np.zeros((2, 0, 0))):
        check(cl.expm(dev(x, device)), sl.expm(x))
    for bad in (np.ones(3), np.ones((2, 3))):
        with pytest.raises(np.linalg.LinAlgError):
            sl.expm(bad)
        with pytest.raises(np.linalg.LinAlgError):
            cl.expm(dev(bad, device))


def test_expm_identities(device, route):
    # exp of a nilpotent matrix is its finite series; exp(-A) exp(A) = I
    n = np.diag(np.ones(4), 1)
    check(cl.expm(dev(n, device)), sl.expm(n), atol=1e-14)
    a = rand((8, 8), np.float64) / 5
    e = cl.expm(dev(a, device))
    f = cl.expm(dev(-a, device))
    np.testing.assert_allclose(host(e @ f), np.eye(8), atol=1e-10)


def shared_names(module):
    """The names ../shared/scipy-names.json (or shared/ in the checkout) lists for
    a SciPy module; None where the file is absent."""
    import json
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    for path in (root / "shared", root.parent / "shared"):
        if (path / "scipy-names.json").exists():
            return json.loads((path / "scipy-names.json").read_text())[module]
    return None


def test_namespace():
    listed = shared_names("scipy.linalg") or cl.__all__
    assert sorted(cl.__all__) == sorted(listed)
    for name in listed:
        assert callable(getattr(cl, name)), name
    import cuarray.scipy
    assert cuarray.scipy.linalg is cl
