"""cuarray.scipy.sparse.linalg against scipy.sparse.linalg on both devices.

Every test that takes `route` runs twice on the cpu device: through SciPy's own
routine on views ('scipy', the default there) and through the compositions a GPU
runs ('composition', every CPU_SCIPY flag off); a GPU runs the compositions.
Operators come as dense cuarray matrices, cuarray CSR matrices and user
LinearOperators.
"""

import warnings

import numpy as np
import pytest
import scipy
import scipy.sparse as sp
import scipy.sparse.linalg as ssl

import cuarray as ca
import cuarray.scipy.sparse as cs
import cuarray.scipy.sparse.linalg as csl
from cuarray.scipy.sparse import _sputils
from cuarray.scipy.sparse.linalg import (_dsolve, _eigen, _isolve, _lsq, _matfuncs,
                                         _norm, LinearOperator, aslinearoperator)

from conftest import ROUTES, random_array, scipy_route

# SciPy's own float32 lsmr (the reference) overflows a cast in its condition estimate
pytestmark = pytest.mark.filterwarnings(
    "ignore:overflow encountered in cast:RuntimeWarning")

FLOATS = [np.float32, np.float64, np.complex64, np.complex128]
KINDS = ["dense", "csr", "linop"]


@pytest.fixture(params=ROUTES)
def route(request, monkeypatch, device):
    return scipy_route(request, monkeypatch, device, _isolve, _lsq, _eigen, _norm, _matfuncs, _dsolve, _sputils)


# SciPy 1.18 changed three things these tests compare: LinearOperator's shape
# message, minres's dtype for float32 (kept, where 1.17 gave float64; cuarray's
# composition keeps it on every version) and norm along an axis of an spmatrix
# for a general ord (an (m, 1) matrix, where 1.17 and the other ords give (m,)).
SCIPY_1_18 = tuple(int(p) for p in scipy.__version__.split(".")[:2]) >= (1, 18)


def solver_dtype(name, route, xs, *operands):
    """The dtype cuarray's solver gives where SciPy's gave xs."""
    if name == "minres" and route == "composition" and not SCIPY_1_18:
        return np.result_type(*operands, np.float32)
    return xs.dtype


def words_of_1_17(msg):
    """SciPy 1.18's LinearOperator shape messages in 1.17's words, cuarray's."""
    if not SCIPY_1_18:
        return msg
    if msg.startswith("Dimension mismatch: `"):    # "...`x` must have a shape ending in"
        return "dimension mismatch"
    if msg.startswith("Dimension mismatch: "):     # matmat's, with the two shapes
        return "d" + msg[1:]
    return msg.replace("Expected at least 2-d", "expected 2-d")


def tol(dtype):
    return 2e-3 if np.dtype(dtype).char in "fF" else 1e-8


def rand(shape, dtype, seed=0):
    return random_array(shape, dtype, np.random.default_rng(seed))


def spd(n, dtype, seed=0):
    """A sparse Hermitian positive definite matrix (SciPy CSR)."""
    R = sp.random(n, n, density=0.1, random_state=seed, format="csr")
    if np.dtype(dtype).kind == "c":
        R = R + 1j * sp.random(n, n, density=0.1, random_state=seed + 1, format="csr")
    A = R @ R.conj().T + n * 0.3 * sp.eye(n)
    return A.astype(dtype).tocsr()


def nonsym(n, dtype, seed=0):
    R = sp.random(n, n, density=0.15, random_state=seed, format="csr")
    if np.dtype(dtype).kind == "c":
        R = R + 1j * sp.random(n, n, density=0.1, random_state=seed + 1, format="csr")
    return (R + 4 * sp.eye(n)).astype(dtype).tocsr()


def operand(S, kind, device):
    """The SciPy matrix S as a cuarray operand of the given kind."""
    if kind == "csr":
        return cs.csr_matrix(S, device=device)
    D = ca.asarray(S.toarray(), device=device)
    if kind == "dense":
        return D
    return LinearOperator(S.shape, matvec=lambda v: D @ v,
                          rmatvec=lambda v: D.conj().T @ v, dtype=S.dtype)


def dev(a, device):
    return ca.asarray(a, device=device)


# --------------------------------------------------------------------------
# LinearOperator and aslinearoperator
# --------------------------------------------------------------------------
def test_linear_operator_products(device):
    A = rand((5, 3), np.complex128)
    B = rand((5, 3), np.complex128, 1)
    C = rand((3, 4), np.float64, 2)
    x, y, X = rand(3, np.complex128, 3), rand(5, np.complex128, 4), rand((3, 2),
                                                                        np.float64, 5)
    opA, opB = aslinearoperator(dev(A, device)), aslinearoperator(dev(B, device))
    opC = aslinearoperator(dev(C, device))
    xd, yd, Xd = dev(x, device), dev(y, device), dev(X, device)
    close = np.testing.assert_allclose
    close(opA.matvec(xd).get(), A @ x)
    close(opA.rmatvec(yd).get(), A.conj().T @ y)
    close(opA.matmat(Xd).get(), A @ X)
    close(opA.rmatmat(dev(rand((5, 2), np.float64), device)).get(),
          A.conj().T @ rand((5, 2), np.float64))
    close((opA + opB).matvec(xd).get(), (A + B) @ x)
    close((opA - opB).matvec(xd).get(), (A - B) @ x)
    close((2j * opA).matvec(xd).get(), 2j * A @ x)
    close((opA / 2).matvec(xd).get(), A @ x / 2)
    close((opA * opC).matmat(dev(rand((4, 2), np.float64), device)).get(),
          A @ C @ rand((4, 2), np.float64))
    close(opA.T.matvec(yd).get(), A.T @ y)
    close(opA.H.matvec(yd).get(), A.conj().T @ y)
    close((opA.H * opA).matvec(xd).get(), A.conj().T @ A @ x)
    close((opA.H @ opA @ xd).get(), A.conj().T @ A @ x)
    sq = aslinearoperator(dev(A[:3], device))
    close((sq ** 3).matvec(xd).get(), np.linalg.matrix_power(A[:3], 3) @ x)
    close((-sq).matvec(xd).get(), -A[:3] @ x)
    close(opA(xd).get(), A @ x)
    close(opA.dot(xd.reshape(3, 1)).get(), (A @ x).reshape(5, 1))
    assert opA.matvec(xd.reshape(3, 1)).shape == (5, 1)
    close((yd @ opA).get(), y @ A)


def test_linear_operator_from_callables(device):
    M = rand((4, 4), np.float32)
    D = dev(M, device)
    op = LinearOperator((4, 4), matvec=lambda v: D @ v)
    assert op.dtype == np.float32          # found from a product, as SciPy does
    x = dev(rand(4, np.float32), device)
    np.testing.assert_allclose(op.matvec(x).get(), M @ x.get(), rtol=1e-5)
    np.testing.assert_allclose(op.matmat(dev(np.eye(4, dtype=np.float32), device))
                               .get(), M, rtol=1e-5)
    with pytest.raises(NotImplementedError):
        op.rmatvec(x)
    assert repr(op) == "<4x4 _CustomLinearOperator with dtype=float32>"
    sop = ssl.LinearOperator((4, 4), matvec=lambda v: M @ v)
    assert repr(sop) == repr(op)

    class Twice(LinearOperator):
        def __init__(self):
            super().__init__(np.float64, (3, 3))

        def _matvec(self, v):
            return 2 * v

    t = Twice()
    np.testing.assert_array_equal(t.matmat(dev(np.eye(3), device)).get(),
                                  2 * np.eye(3))
    assert t.shape == (3, 3) and t.dtype == np.float64


def test_linear_operator_errors(device):
    op = aslinearoperator(dev(np.ones((3, 2)), device))
    sop = ssl.aslinearoperator(np.ones((3, 2)))
    for bad in (np.ones(3), np.ones((3, 1)), np.ones((2, 2, 1))):
        for f in ("matvec", "matmat"):
            with pytest.raises(ValueError) as e:
                getattr(op, f)(dev(bad, device))
            if SCIPY_1_18 and f == "matmat" and bad.ndim == 3:
                continue   # 1.18's matmat takes stacks of matrices (not cuarray's yet)
            with pytest.raises(ValueError) as es:
                getattr(sop, f)(bad)
            assert str(e.value) == words_of_1_17(str(es.value))
    with pytest.raises(ValueError, match="invalid shape"):
        LinearOperator((3,), matvec=lambda v: v)
    with pytest.raises(ValueError, match="Scalar operands"):
        op @ 2
    with pytest.raises(ValueError, match="both operands"):
        csl._interface._SumLinearOperator(op, 1)
    with pytest.raises(ValueError, match="shape mismatch"):
        op + aslinearoperator(dev(np.ones((2, 3)), device))
    with pytest.raises(ValueError, match="square LinearOperator"):
        op ** 2
    with pytest.raises(ValueError, match="divide"):
        op / op
    with pytest.raises(TypeError, match="NumPy"):
        op.matvec(np.ones(2))


def test_aslinearoperator(device):
    A = rand((4, 4), np.float64)
    S = sp.random(4, 4, density=0.5, random_state=0, format="csr")
    assert aslinearoperator(dev(A, device)).dtype == np.float64
    row = aslinearoperator(dev(A[0], device))
    assert row.shape == (1, 4) == ssl.aslinearoperator(A[0]).shape
    op = aslinearoperator(cs.csr_matrix(S, device=device))
    x = rand(4, np.float64)
    np.testing.assert_allclose(op.matvec(dev(x, device)).get(), S @ x)
    np.testing.assert_allclose(op.rmatvec(dev(x, device)).get(), S.T @ x)
    lin = LinearOperator((4, 4), matvec=lambda v: v, dtype=np.float32)
    assert aslinearoperator(lin) is lin

    class Duck:
        shape = (4, 4)
        dtype = np.dtype(np.float32)

        def matvec(self, v):
            return 3 * v

    d = aslinearoperator(Duck())
    assert d.dtype == np.float32
    np.testing.assert_array_equal(d.matvec(dev(x, device)).get(), 3 * x)
    with pytest.raises(ValueError, match="ndim <= 2"):
        aslinearoperator(dev(np.ones((2, 2, 2)), device))
    for bad in (np.ones((2, 2)), "x", 3):
        with pytest.raises(TypeError, match="type not understood"):
            aslinearoperator(bad)


# --------------------------------------------------------------------------
# Krylov solvers
# --------------------------------------------------------------------------
SOLVERS = {"cg": spd, "cgs": nonsym, "bicgstab": nonsym, "gmres": nonsym,
           "minres": spd}


@pytest.mark.parametrize("name", list(SOLVERS))
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("kind", KINDS)
def test_solver_matches_scipy(name, dtype, kind, device, route):
    if name == "minres" and np.dtype(dtype).kind == "c":
        pytest.skip("SciPy's minres is for real symmetric A")
    n = 40
    S = SOLVERS[name](n, dtype)
    b = rand(n, dtype, 7)
    rtol = 1e-4 if np.dtype(dtype).char in "fF" else 1e-9
    x, info = getattr(csl, name)(operand(S, kind, device), dev(b, device), rtol=rtol)
    xs, infos = getattr(ssl, name)(S, b, rtol=rtol)
    assert info == infos == 0
    assert isinstance(x, ca.ndarray) and str(x.device) == device
    assert x.dtype == solver_dtype(name, route, xs, S.dtype, b.dtype)
    assert x.shape == xs.shape
    scale = np.abs(xs).max()
    np.testing.assert_allclose(x.get(), xs, atol=50 * rtol * scale)
    assert np.linalg.norm(S @ x.get() - b) <= 2 * rtol * np.linalg.norm(b) + 1e-6


@pytest.mark.parametrize("name", list(SOLVERS))
def test_solver_maxiter_callback_x0(name, device, route):
    n = 60
    S = SOLVERS[name](n, np.float64, 3)
    b = rand(n, np.float64, 4)
    A, bd = operand(S, "csr", device), dev(b, device)
    ours, theirs = [], []
    kw = {"callback_type": "x"} if name == "gmres" else {}
    if name == "gmres":
        kw["restart"] = 3
    x, info = getattr(csl, name)(A, bd, rtol=1e-12, maxiter=2,
                                 callback=lambda xk: ours.append(xk.get().copy()),
                                 **kw)
    xs, infos = getattr(ssl, name)(S, b, rtol=1e-12, maxiter=2,
                                   callback=lambda xk: theirs.append(xk.copy()), **kw)
    assert info == infos == 2
    assert len(ours) == len(theirs)
    assert all(isinstance(o, np.ndarray) for o in ours)
    np.testing.assert_allclose(x.get(), xs, rtol=1e-6, atol=1e-9)
    for o, t in zip(ours, theirs):
        np.testing.assert_allclose(o, t, rtol=1e-6, atol=1e-9)
    # x0 at the solution: converged at once
    exact = np.linalg.solve(S.toarray(), b)
    x0 = dev(exact, device)
    x, info = getattr(csl, name)(A, bd, x0=x0)
    assert info == 0
    np.testing.assert_allclose(x.get(), exact, rtol=1e-6)
    np.testing.assert_array_equal(x0.get(), exact)     # x0 is not written


@pytest.mark.parametrize("name", list(SOLVERS))
def test_solver_preconditioner(name, device, route):
    n = 50
    S = SOLVERS[name](n, np.float64, 5)
    b = rand(n, np.float64, 6)
    Minv = sp.diags(1 / S.diagonal()).tocsr()
    for M in (cs.csr_matrix(Minv, device=device), ca.asarray(Minv.toarray(),
                                                             device=device)):
        x, info = getattr(csl, name)(operand(S, "csr", device), dev(b, device),
                                     M=M, rtol=1e-10)
        xs, infos = getattr(ssl, name)(S, b, M=Minv, rtol=1e-10)
        assert info == infos == 0
        np.testing.assert_allclose(x.get(), xs, rtol=1e-6, atol=1e-8)
    x, info = getattr(csl, name)(operand(S, "csr", device), dev(b, device),
                                 x0="Mb", M=cs.csr_matrix(Minv, device=device))
    assert info == 0


@pytest.mark.parametrize("name", list(SOLVERS))
def test_solver_dtypes_and_zero_rhs(name, device, route):
    S = SOLVERS[name](20, np.float64, 2)
    for adt, bdt in ((np.float32, np.float32), (np.float32, np.float64),
                     (np.int64, np.int32), (np.float32, np.complex64),
                     (np.complex64, np.float64)):
        if name == "minres" and "c" in (np.dtype(adt).kind, np.dtype(bdt).kind):
            continue
        A = (S.toarray() * 4).round().astype(adt) + 20 * np.eye(20, dtype=adt)
        b = (np.arange(20) % 5 + 1).astype(bdt)
        x, info = getattr(csl, name)(dev(A, device), dev(b, device))
        xs, _ = getattr(ssl, name)(A, b)
        assert x.dtype == solver_dtype(name, route, xs, adt, bdt), (adt, bdt)
    x, info = getattr(csl, name)(operand(S, "dense", device), ca.zeros(20,
                                                                      device=device))
    assert info == 0 and not x.get().any()


@pytest.mark.parametrize("name", list(SOLVERS))
def test_solver_bad_input(name, device, route):
    S = SOLVERS[name](6, np.float64)
    A, b = operand(S, "dense", device), ca.ones(6, device=device)
    cases = [((ca.ones((6, 5), device=device), b), {}),
             ((A, ca.ones(5, device=device)), {}),
             ((A, b), {"x0": ca.ones(5, device=device)}),
             ((A, b), {"M": ca.ones((5, 5), device=device)})]
    if name != "minres":
        cases.append(((A, b), {"atol": -1.0}))
    for args, kw in cases:
        with pytest.raises(ValueError) as e:
            getattr(csl, name)(*args, **kw)
        host = [a.get() for a in args]
        with pytest.raises(ValueError) as es:
            getattr(ssl, name)(*host, **{k: v.get() if hasattr(v, "get") else v
                                         for k, v in kw.items()})
        assert str(e.value) == str(es.value)


def test_gmres_callback_types(device, route):
    S = nonsym(30, np.float64, 8)
    b = rand(30, np.float64, 9)
    A = operand(S, "csr", device)
    for ctype in ("pr_norm", "legacy", "x"):
        ours, theirs = [], []
        x, info = csl.gmres(A, dev(b, device), restart=5, maxiter=4,
                            callback=ours.append, callback_type=ctype, rtol=1e-14)
        xs, infos = ssl.gmres(S, b, restart=5, maxiter=4, callback=theirs.append,
                              callback_type=ctype, rtol=1e-14)
        assert info == infos and len(ours) == len(theirs)
        if ctype != "x":
            np.testing.assert_allclose(ours, theirs, rtol=1e-6)
    with pytest.warns(DeprecationWarning, match="callback_type"):
        csl.gmres(A, dev(b, device), callback=lambda r: None)
    with pytest.raises(ValueError, match="Unknown callback_type"):
        csl.gmres(A, dev(b, device), callback_type="y")


def test_minres_shift_and_check(device, route):
    S = spd(30, np.float64, 4)
    b = rand(30, np.float64, 5)
    x, info = csl.minres(operand(S, "csr", device), dev(b, device), shift=1.5,
                         rtol=1e-10)
    xs, _ = ssl.minres(S, b, shift=1.5, rtol=1e-10)
    np.testing.assert_allclose(x.get(), xs, rtol=1e-6, atol=1e-9)
    x, info = csl.minres(operand(S, "csr", device), dev(b, device), check=True)
    assert info == 0
    N = nonsym(30, np.float64)
    with pytest.raises(ValueError, match="non-symmetric"):
        csl.minres(operand(N, "csr", device), dev(b, device), check=True)


# --------------------------------------------------------------------------
# lsqr, lsmr
# --------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("kw", [{}, {"damp": 0.7}, {"x0": True}, {"iter_lim": 3}])
@pytest.mark.parametrize("name", ["lsqr", "lsmr"])
def test_least_squares(name, kw, kind, dtype, device, route):
    S = sp.random(50, 20, density=0.3, random_state=1, format="csr").astype(dtype)
    b = rand(50, dtype, 2)
    kw = dict(kw)
    if name == "lsmr" and "iter_lim" in kw:
        kw["maxiter"] = kw.pop("iter_lim")
    kd, ks = dict(kw), dict(kw)
    if kw.get("x0"):
        x0 = rand(20, dtype, 3)
        kd["x0"], ks["x0"] = dev(x0, device), x0
    r = getattr(csl, name)(operand(S, kind, device), dev(b, device), **kd)
    rs = getattr(ssl, name)(S, b, **ks)
    assert len(r) == len(rs)
    single = np.dtype(dtype).char in "fF"
    assert r[1] == rs[1]                       # istop
    assert abs(r[2] - rs[2]) <= (2 if single else 0)     # itn
    assert r[0].dtype == rs[0].dtype
    # x is as good as the stopping tests (atol, btol 1e-6): rounding moves it that
    # much relative to its size
    t = 1e-3 if single else 1e-5
    np.testing.assert_allclose(r[0].get(), rs[0], rtol=t, atol=t * abs(rs[0]).max())
    # residual and solution norms are stable; the estimates of |A|, cond(A) and
    # |A^H r| accumulate rounding over the steps (even SciPy's own differ between
    # a dense and a sparse A), so they are compared loosely
    stable = (3, 4, 8) if name == "lsqr" else (3, 7)
    anorm, acond, arnorm = (5, 6, 7) if name == "lsqr" else (5, 6, 4)
    np.testing.assert_allclose([r[i] for i in stable], [rs[i] for i in stable],
                               rtol=t)
    np.testing.assert_allclose([r[anorm], r[acond]], [rs[anorm], rs[acond]],
                               rtol=0.5)
    assert abs(r[arnorm] - rs[arnorm]) <= 1e-3 * rs[anorm] * rs[3]


def test_lsqr_calc_var(device, route):
    S = sp.random(40, 10, density=0.4, random_state=4, format="csr")
    b = rand(40, np.float64, 5)
    r = csl.lsqr(operand(S, "csr", device), dev(b, device), calc_var=True)
    rs = ssl.lsqr(S, b, calc_var=True)
    np.testing.assert_allclose(r[9].get(), rs[9], rtol=1e-5)


# --------------------------------------------------------------------------
# eigsh, svds, lobpcg
# --------------------------------------------------------------------------
def sym_spectrum(n, dtype, seed=0):
    """A dense Hermitian matrix with a well separated spectrum."""
    rng = np.random.default_rng(seed)
    Q, _ = np.linalg.qr(rand((n, n), dtype, seed))
    d = np.linspace(-10, 12, n) + rng.uniform(0, 0.05, n)
    return ((Q * d) @ Q.conj().T).astype(dtype)


@pytest.mark.parametrize("which", ["LM", "SM", "LA", "SA", "BE"])
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("kind", KINDS)
def test_eigsh(which, dtype, kind, device, route):
    if which == "BE" and np.dtype(dtype).kind == "c":
        pytest.skip("BE is for real A (ValueError: tested below)")
    A = sym_spectrum(50, dtype)
    A = (A + A.conj().T) / 2
    S = sp.csr_matrix(A)
    w, v = csl.eigsh(operand(S, kind, device), k=4, which=which)
    ws, _ = ssl.eigsh(A, k=4, which=which)
    assert w.dtype == ws.dtype and v.dtype == A.dtype
    t = 1e-3 if np.dtype(dtype).char in "fF" else 1e-9
    np.testing.assert_allclose(np.sort(w.get()), np.sort(ws), atol=t * 12)
    # SciPy's order, but for its complex driver's 'SM' (no simple rule) and where
    # the complex driver's order follows its random start: complex64 (seen with
    # SciPy 1.17.1 for 'LM' and 'SA', about one run in ten) and every complex
    # dtype in SciPy 1.18 (its ARPACK rewrite): compared sorted there
    unordered = np.dtype(dtype).kind == "c" and (
        which == "SM" or np.dtype(dtype) == np.complex64 or SCIPY_1_18)
    if not unordered:
        np.testing.assert_allclose(w.get(), ws, atol=t * 12)
    V = v.get()
    np.testing.assert_allclose(A @ V, V * w.get(), atol=t * 100)
    w2 = csl.eigsh(operand(S, kind, device), k=4, which=which,
                   return_eigenvectors=False)
    ws2 = ssl.eigsh(A, k=4, which=which, return_eigenvectors=False)
    if unordered and (SCIPY_1_18 or np.dtype(dtype) == np.complex64):
        w2, ws2 = ca.sort(w2), np.sort(ws2)
    np.testing.assert_allclose(w2.get(), ws2, atol=t * 12)


def test_eigsh_v0_ncv_and_errors(device, route):
    A = sym_spectrum(30, np.float64, 3)
    A = (A + A.T) / 2
    D = dev(A, device)
    v0 = dev(np.ones(30), device)
    w = csl.eigsh(D, k=3, v0=v0, ncv=12, return_eigenvectors=False)
    np.testing.assert_allclose(w.get(), np.sort(ssl.eigsh(A, k=3, ncv=12,
                                                          return_eigenvectors=False)),
                               atol=1e-9)
    with pytest.raises(ValueError, match="k must be greater than 0"):
        csl.eigsh(D, k=0)
    with pytest.raises(ValueError, match="which must be one of"):
        csl.eigsh(D, which="XX")
    with pytest.raises(ValueError, match="expected square matrix"):
        csl.eigsh(dev(np.ones((3, 4)), device), k=1)
    with pytest.raises(ValueError, match="BE"):
        csl.eigsh(dev(A.astype(complex), device), k=2, which="BE")
    with pytest.raises(ValueError, match="ncv"):
        csl.eigsh(D, k=3, ncv=3)
    with pytest.warns(RuntimeWarning, match="k >= N"):
        w, v = csl.eigsh(D, k=30)
    np.testing.assert_allclose(w.get(), np.linalg.eigvalsh(A), atol=1e-9)
    with pytest.warns(RuntimeWarning), pytest.raises(TypeError, match="sparse A"):
        csl.eigsh(cs.csr_matrix(sp.csr_matrix(A), device=device), k=30)


def test_eigsh_shift_invert_cpu_only(device, route):
    A = sym_spectrum(30, np.float64, 1)
    A = (A + A.T) / 2
    if route == "scipy":
        w = csl.eigsh(dev(A, device), k=2, sigma=0.3, return_eigenvectors=False)
        np.testing.assert_allclose(np.sort(w.get()), np.sort(ssl.eigsh(
            A, k=2, sigma=0.3, return_eigenvectors=False)), atol=1e-9)
    else:
        with pytest.raises(NotImplementedError, match="sigma"):
            csl.eigsh(dev(A, device), k=2, sigma=0.3)


def test_eigsh_no_convergence(device, route):
    A = sym_spectrum(60, np.float64, 2)
    A = (A + A.T) / 2
    with pytest.raises(ssl.ArpackNoConvergence):
        csl.eigsh(dev(A, device), k=3, which="SM", maxiter=1, ncv=8)


@pytest.mark.parametrize("shape", [(40, 15), (15, 40)])
@pytest.mark.parametrize("which", ["LM", "SM"])
@pytest.mark.parametrize("dtype", FLOATS)
def test_svds(shape, which, dtype, device, route):
    S = sp.random(*shape, density=0.5, random_state=2, format="csr").astype(dtype)
    u, s, vh = csl.svds(operand(S, "csr", device), k=3, which=which)
    us, ss, vhs = ssl.svds(S, k=3, which=which)
    t = 1e-3 if np.dtype(dtype).char in "fF" else 1e-8
    assert s.dtype == ss.dtype and u.shape == us.shape and vh.shape == vhs.shape
    np.testing.assert_allclose(s.get(), ss, rtol=t, atol=t)
    np.testing.assert_allclose((u.get() * s.get()) @ vh.get(), (us * ss) @ vhs,
                               atol=10 * t * ss.max())
    np.testing.assert_allclose(csl.svds(operand(S, "dense", device), k=3, which=which,
                                        return_singular_vectors=False).get(), ss,
                               rtol=t, atol=t)


def test_svds_vector_choice_and_errors(device, route):
    S = sp.random(20, 10, density=0.5, random_state=3, format="csr")
    A = operand(S, "dense", device)
    u, s, vh = csl.svds(A, k=2, return_singular_vectors="u")
    assert vh is None and u.shape == (20, 2)
    u, s, vh = csl.svds(A, k=2, return_singular_vectors="vh")
    assert u is None and vh.shape == (2, 10)
    for bad in ({"k": 0}, {"k": 10}, {"which": "LA"}, {"solver": "x"},
                {"return_singular_vectors": "x"}):
        with pytest.raises(ValueError) as e:
            csl.svds(A, **bad)
        with pytest.raises(ValueError) as es:
            ssl.svds(S, **bad)
        # SciPy prints a set there: its order changes with the string hash seed
        assert str(e.value).split("{")[0] == str(es.value).split("{")[0]


@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_lobpcg(largest, dtype, device, route):
    n, k = 120, 3
    Q, _ = np.linalg.qr(rand((n, n), dtype, 1))
    d = np.arange(1, n + 1, dtype=float)
    A = ((Q * d) @ Q.conj().T).astype(dtype)
    A = (A + A.conj().T) / 2
    X = rand((n, k), dtype, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        lam, V = csl.lobpcg(dev(A, device), dev(X, device), largest=largest,
                            maxiter=200, tol=1e-4 if dtype == np.float32 else 1e-7)
        lams, _ = ssl.lobpcg(A, X, largest=largest, maxiter=200,
                             tol=1e-4 if dtype == np.float32 else 1e-7)
    want = d[::-1][:k] if largest else d[:k]
    np.testing.assert_allclose(lam.get(), want, rtol=1e-3)
    np.testing.assert_allclose(lam.get(), lams, rtol=1e-3)
    Vh = V.get()
    np.testing.assert_allclose(A @ Vh, Vh * lam.get(), atol=1e-2 * n)


def test_lobpcg_histories_and_warning(device, route):
    n = 80
    A = np.diag(np.arange(1, n + 1, dtype=float))
    X = rand((n, 2), np.float64, 4)
    with pytest.warns(UserWarning, match="not reaching the requested tolerance"):
        r = csl.lobpcg(dev(A, device), dev(X, device), maxiter=2,
                       retLambdaHistory=True, retResidualNormsHistory=True)
    assert len(r) == 4
    assert len(r[2]) == len(r[3]) and len(r[2]) >= 2
    assert r[2][0].shape == (2,) and r[3][0].shape == (2,)
    B = np.eye(n) * 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        lam, _ = csl.lobpcg(dev(A, device), dev(X, device), B=dev(B, device),
                            maxiter=300, tol=1e-8)
    np.testing.assert_allclose(lam.get(), [n / 2, (n - 1) / 2], rtol=1e-5)


def test_lobpcg_constraints_and_preconditioner(device, route):
    n = 100
    A = np.diag(np.arange(1, n + 1, dtype=float))
    X = rand((n, 2), np.float64, 6)
    Y = np.eye(n)[:, -3:]                   # exclude the three largest
    Minv = np.diag(1 / np.arange(1, n + 1, dtype=float))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        lam, V = csl.lobpcg(dev(A, device), dev(X, device), Y=dev(Y, device),
                            maxiter=300, tol=1e-8)
        lams, _ = ssl.lobpcg(A, X, Y=Y, maxiter=300, tol=1e-8)
        np.testing.assert_allclose(lam.get(), lams, rtol=1e-6)
        assert abs(Y.T @ V.get()).max() < 1e-6
        lam, _ = csl.lobpcg(dev(A, device), dev(X, device), M=dev(Minv, device),
                            largest=False, maxiter=50, tol=1e-8)
    np.testing.assert_allclose(lam.get(), [1.0, 2.0], rtol=1e-6)


@pytest.mark.parametrize("largest", [True, False])
def test_lobpcg_small_problem_dense(largest, device, route):
    n = 12
    A = sym_spectrum(n, np.float64, 7)
    A = (A + A.T) / 2
    B = np.diag(np.linspace(1, 2, n))
    X = rand((n, 3), np.float64, 8)
    for Bd, Bh in ((None, None), (dev(B, device), B)):
        with pytest.warns(UserWarning, match="dense eigensolver"):
            lam, V = csl.lobpcg(dev(A, device), dev(X, device), B=Bd,
                                largest=largest, retLambdaHistory=True)
        with pytest.warns(UserWarning):
            lams, Vs = ssl.lobpcg(A, X, B=Bh, largest=largest, retLambdaHistory=True)
        np.testing.assert_allclose(lam.get(), lams, rtol=1e-10, atol=1e-10)
        Bm = np.eye(n) if Bh is None else Bh
        np.testing.assert_allclose(A @ V.get(), Bm @ V.get() * lam.get(), atol=1e-9)
    with pytest.warns(UserWarning), pytest.raises(NotImplementedError):
        csl.lobpcg(dev(A, device), dev(X, device), Y=dev(np.eye(n)[:, :1], device))


# --------------------------------------------------------------------------
# norm, matrix_power
# --------------------------------------------------------------------------
NORMS = [(None, None), ("fro", None), (1, None), (-1, None), (np.inf, None),
         (-np.inf, None), (2, None), (None, 0), (None, 1), (1, 0), (0, 1),
         (np.inf, 1), (-np.inf, 0), (3, 1), (2, (0, 1)), (1, (1, 0)), (0.5, -1)]


@pytest.mark.parametrize("ord,axis", NORMS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.int64])
def test_norm(ord, axis, dtype, device, route):
    S = sp.random(20, 15, density=0.3, random_state=1, format="csr")
    S = (S * 10).astype(dtype) if dtype == np.int64 else S.astype(dtype)
    r = csl.norm(cs.csr_matrix(S, device=device), ord, axis)
    rs = ssl.norm(S, ord, axis)
    if SCIPY_1_18 and isinstance(axis, int) and np.ndim(rs) == 2:
        rs = np.asarray(rs).ravel()         # 1.18's (m, 1) for a general ord
    assert isinstance(r, ca.ndarray) and r.shape == np.shape(rs)
    np.testing.assert_allclose(r.get(), rs, rtol=1e-5)


def test_norm_errors(device, route):
    S = sp.random(5, 5, density=0.5, random_state=1, format="csr")
    C = cs.csr_matrix(S, device=device)
    with pytest.raises(TypeError, match="input is not sparse"):
        csl.norm(dev(S.toarray(), device))
    for ord, axis, exc in ((3, None, ValueError), ("x", 0, ValueError),
                           (-2, None, NotImplementedError), (None, (0, 0), ValueError),
                           (None, 1.5, TypeError), (None, (0, 1, 2), ValueError),
                           (None, 3, ValueError)):
        with pytest.raises(exc):
            csl.norm(C, ord, axis)
        with pytest.raises(exc):
            ssl.norm(S, ord, axis)


@pytest.mark.parametrize("power", [0, 1, 2, 3, 6])
def test_matrix_power(power, device, route):
    S = sp.random(12, 12, density=0.3, random_state=2, format="csr")
    r = csl.matrix_power(cs.csr_matrix(S, device=device), power)
    rs = ssl.matrix_power(S, power)
    assert cs.issparse(r)
    np.testing.assert_allclose(r.toarray().get(), rs.toarray(), rtol=1e-10)
    with pytest.raises(ValueError, match=">= 0"):
        csl.matrix_power(cs.csr_matrix(S, device=device), -1)
    with pytest.raises(ValueError, match="integer"):
        csl.matrix_power(cs.csr_matrix(S, device=device), 1.5)
    with pytest.raises(TypeError, match="not square"):
        csl.matrix_power(cs.csr_matrix(S[:5], device=device), 2)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("interval", [None, dict(start=-1, stop=2, num=7),
                                      dict(start=0, stop=1, num=4, endpoint=False)])
@pytest.mark.parametrize("bshape", [(30,), (30, 3)])
def test_expm_multiply(bshape, interval, kind, dtype, device, route):
    S = (sp.random(30, 30, density=0.15, random_state=3, format="csr") * 2
         - sp.eye(30)).astype(dtype).tocsr()
    B = rand(bshape, np.float64, 4)
    kw = interval or {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)     # an operator's trace
        r = csl.expm_multiply(operand(S, kind, device), dev(B, device), **kw)
        rs = ssl.expm_multiply(S, B, **kw)
    assert r.shape == rs.shape and r.dtype == rs.dtype
    t = 1e-8 if dtype != np.float32 else 1e-5
    np.testing.assert_allclose(r.get(), rs, rtol=t, atol=t * abs(rs).max())
    # another shift (traceA) changes the steps, not the result
    r = csl.expm_multiply(operand(S, "csr", device), dev(B, device), traceA=0.0, **kw)
    np.testing.assert_allclose(r.get(), rs, rtol=t, atol=t * abs(rs).max())


def test_expm_multiply_errors(device, route):
    S = sp.random(6, 6, density=0.3, random_state=1, format="csr")
    C = cs.csr_matrix(S, device=device)
    for A, B, kw in ((cs.csr_matrix(S[:5], device=device), ca.ones(5, device=device),
                      {}),
                     (C, ca.ones(5, device=device), {}),
                     (C, ca.ones((6, 2, 2), device=device), {}),
                     (C, ca.ones(6, device=device), dict(start=0, stop=1, num=1))):
        with pytest.raises(ValueError) as e:
            csl.expm_multiply(A, B, **kw)
        with pytest.raises(ValueError) as es:
            ssl.expm_multiply(A.get(), B.get(), **kw)
        assert str(e.value) == str(es.value)
    if route == "composition":
        with pytest.warns(UserWarning, match="Trace of LinearOperator"):
            csl.expm_multiply(aslinearoperator(C), ca.ones(6, device=device))


# --------------------------------------------------------------------------
# Direct solvers
# --------------------------------------------------------------------------
@pytest.fixture(params=["dense", "host"])
def dsolve_path(request, monkeypatch):
    """spsolve's two non-SciPy-route paths: densified on the device, or SciPy's on
    a host copy (DENSE_MAX 0)."""
    if request.param == "host":
        monkeypatch.setattr(_dsolve, "DENSE_MAX", 0)
    return request.param


@pytest.mark.parametrize("dtype", FLOATS)
def test_spsolve(dtype, device, route, dsolve_path):
    S = nonsym(30, dtype, 3)
    C = cs.csr_matrix(S, device=device)
    for b in (rand(30, dtype, 1), rand((30, 1), dtype, 2), rand((30, 3), dtype, 3)):
        x = csl.spsolve(C, dev(b, device))
        xs = ssl.spsolve(S, b)
        assert x.shape == xs.shape and x.dtype == xs.dtype
        np.testing.assert_allclose(x.get(), xs, rtol=tol(dtype), atol=tol(dtype))
    B = sp.random(30, 4, density=0.3, random_state=5, format="csc").astype(dtype)
    x = csl.spsolve(C, cs.csc_matrix(B, device=device))
    assert cs.issparse(x)
    np.testing.assert_allclose(x.toarray().get(), ssl.spsolve(S, B).toarray(),
                               rtol=tol(dtype), atol=tol(dtype))


def test_spsolve_warnings_and_errors(device, route, dsolve_path):
    S = nonsym(10, np.float64)
    with pytest.warns(cs.SparseEfficiencyWarning):
        x = csl.spsolve(dev(S.toarray(), device), ca.ones(10, device=device))
    np.testing.assert_allclose(x.get(), ssl.spsolve(S, np.ones(10)), rtol=1e-10)
    C = cs.csr_matrix(S, device=device)
    with pytest.raises(ValueError, match="dimension mismatch"):
        csl.spsolve(C, ca.ones(9, device=device))
    with pytest.raises(ValueError, match="must be square"):
        csl.spsolve(cs.csr_matrix(S[:9], device=device), ca.ones(9, device=device))
    Z = sp.csr_matrix(np.array([[1.0, 2.0], [2.0, 4.0]]))
    with pytest.warns(ssl.MatrixRankWarning):
        x = csl.spsolve(cs.csr_matrix(Z, device=device), ca.ones(2, device=device))
    assert np.isnan(x.get()).all()


@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("unit", [False, True])
@pytest.mark.parametrize("dtype", FLOATS)
def test_spsolve_triangular(lower, unit, dtype, device, route, dsolve_path):
    S = nonsym(25, dtype, 4)
    T = (sp.tril(S) if lower else sp.triu(S)).tocsr()
    for b in (rand(25, dtype, 1), rand((25, 2), dtype, 2)):
        x = csl.spsolve_triangular(cs.csr_matrix(T, device=device), dev(b, device),
                                   lower=lower, unit_diagonal=unit)
        xs = ssl.spsolve_triangular(T, b, lower=lower, unit_diagonal=unit)
        assert x.dtype == xs.dtype and x.shape == xs.shape
        np.testing.assert_allclose(x.get(), xs, rtol=tol(dtype), atol=tol(dtype))


def test_spsolve_triangular_errors(device, route, dsolve_path):
    L = sp.csr_matrix(np.tril(np.ones((4, 4))) - np.diag([0, 1, 0, 0]))
    with pytest.raises(np.linalg.LinAlgError, match="zero entry on diagonal"):
        csl.spsolve_triangular(cs.csr_matrix(L, device=device), ca.ones(4,
                                                                       device=device))
    good = cs.csr_matrix(sp.csr_matrix(np.tril(np.ones((4, 4)))), device=device)
    with pytest.raises(ValueError, match="size of the dimensions"):
        csl.spsolve_triangular(good, ca.ones(3, device=device))
    with pytest.raises(ValueError, match="square matrix"):
        csl.spsolve_triangular(cs.csr_matrix(sp.csr_matrix(np.ones((3, 4))),
                                             device=device), ca.ones(3, device=device))


@pytest.mark.parametrize("dtype", FLOATS)
def test_splu_spilu_factorized(dtype, device):
    S = nonsym(30, dtype, 6).tocsc()
    C = cs.csc_matrix(S, device=device)
    b = rand(30, dtype, 1)
    lu, lus = csl.splu(C), ssl.splu(S)
    assert lu.shape == lus.shape and lu.nnz == lus.nnz
    np.testing.assert_array_equal(lu.perm_r.get(), lus.perm_r)
    np.testing.assert_array_equal(lu.perm_c.get(), lus.perm_c)
    for trans in ("N", "T", "H"):
        x = lu.solve(dev(b, device), trans=trans)
        assert str(x.device) == device
        np.testing.assert_allclose(x.get(), lus.solve(b, trans=trans),
                                   rtol=tol(dtype))
    np.testing.assert_allclose(lu.L.toarray().get(), lus.L.toarray())
    np.testing.assert_allclose(lu.U.toarray().get(), lus.U.toarray())
    with pytest.raises(ValueError):
        lu.solve(dev(b, device), trans="X")
    ilu = csl.spilu(C, drop_tol=1e-3)
    np.testing.assert_allclose(ilu.solve(dev(b, device)).get(),
                               ssl.spilu(S, drop_tol=1e-3).solve(b), rtol=tol(dtype))
    solve = csl.factorized(C)
    np.testing.assert_allclose(solve(dev(b, device)).get(), ssl.spsolve(S, b),
                               rtol=tol(dtype) * 10)


def test_splu_warnings_and_errors(device):
    S = nonsym(8, np.float64)
    with pytest.warns(cs.SparseEfficiencyWarning, match="splu converted"):
        csl.splu(cs.csr_matrix(S, device=device))
    with pytest.warns(cs.SparseEfficiencyWarning, match="spilu converted"):
        csl.spilu(cs.csr_matrix(S, device=device))
    with pytest.raises(ValueError, match="square"):
        csl.splu(cs.csc_matrix(S[:, :5], device=device))
    with pytest.raises(RuntimeError):           # SuperLU's "Factor is exactly singular"
        csl.splu(cs.csc_matrix(sp.csc_matrix((4, 4)), device=device))


NAMES = ["LinearOperator", "SuperLU", "aslinearoperator", "bicgstab", "cg", "cgs",
         "eigsh", "factorized", "gmres", "lobpcg", "lsmr", "lsqr", "matrix_power",
         "minres", "norm", "spilu", "splu", "spsolve", "spsolve_triangular", "svds"]


def test_names():
    """The names SciPy 1.17 and CuPy share (../shared/scipy-names.json), and
    expm_multiply."""
    assert sorted(csl.__all__) == sorted(NAMES + ["expm_multiply"])
    for n in csl.__all__:
        assert hasattr(csl, n) and hasattr(ssl, n), n
    assert cs.linalg is csl
