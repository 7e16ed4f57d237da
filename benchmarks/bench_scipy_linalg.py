"""Dense SciPy linear algebra: cuarray.scipy.linalg beside scipy.linalg (the "numpy"
column, host LAPACK), cupyx.scipy.linalg and PyTorch (torch.linalg.lu_factor,
solve_triangular, matrix_exp) on the same data, seconds per call (wall time: the
LU's singularity check reads its info flags, which waits for the GPU anyway).

Issue 41's rows: lu_factor of a 4096^2 float64 matrix (cuSOLVER Xgetrf; floor:
2/3 n^3 flops at the GPU's float64 rate), solve_triangular of a 4096^2 upper
triangle with 64 right-hand sides (cuarray has no trsm: getrs with identity
pivots, two triangular sweeps where trsm needs one; floor: one read of the
triangle), expm of a 512^2 float64 matrix (about 6 + s matmuls and one LU solve).
cpu mode: 1024^2, 1024^2 with 64, 256^2.
"""

import numpy as np

from harness import Case, Skip, size

N_LU = size(4096, 1024)
N_TRI = size(4096, 1024)
K_TRI = 64
N_EXPM = size(512, 256)


def _host(n, k=None, kind="general"):
    """The host operands of a case, cached: a well-conditioned matrix (and b)."""
    key = (n, k, kind)
    if key not in _host.memo:
        rng = np.random.default_rng(0)
        a = rng.standard_normal((n, n))
        if kind == "triangular":
            a = np.triu(a) + n ** 0.5 * np.eye(n)
        elif kind == "expm":
            a = a / n ** 0.5          # 1-norm near sqrt(n): a few squarings
        b = None if k is None else rng.standard_normal((n, k))
        _host.memo[key] = (a, b)
    return _host.memo[key]


_host.memo = {}


def _lib_fns(mod):
    """(to_device, lu_factor, solve_triangular(upper), expm) of a library."""
    name = mod.__name__
    if name == "numpy":
        import scipy.linalg as sl
        return (lambda x: x, sl.lu_factor, sl.solve_triangular, sl.expm)
    if name == "cuarray":
        import cuarray.scipy.linalg as cl
        return (mod.asarray, cl.lu_factor, cl.solve_triangular, cl.expm)
    if name == "cupy":
        import cupyx.scipy.linalg as cxl
        return (mod.asarray, cxl.lu_factor, cxl.solve_triangular, cxl.expm)
    if name == "torch":
        tl = mod.linalg

        def tri(a, b):
            return tl.solve_triangular(a, b, upper=True)
        return (lambda x: mod.as_tensor(x, device="cuda"), tl.lu_factor, tri,
                tl.matrix_exp)
    raise Skip(f"{name} has no such routine")


def _setup(which, n, k=None, kind="general"):
    def setup(mod):
        to_dev, lu_factor, solve_tri, expm = _lib_fns(mod)
        a, b = _host(n, k, kind)
        da = to_dev(a)
        if which == "lu_factor":
            return lambda: lu_factor(da)
        if which == "solve_triangular":
            db = to_dev(b)
            return lambda: solve_tri(da, db)
        return lambda: expm(da)
    return setup


def _case(name, which, n, k=None, kind="general", floor=None, repeats=5):
    setup = {lib: _setup(which, n, k, kind) for lib in ("cuarray", "numpy", "cupy", "torch")}
    return Case(name, setup, mode="wall", unit="s", target=">= best", floor=floor,
                repeats=repeats)


CASES = [
    _case(f"lu_factor {N_LU}^2 float64", "lu_factor", N_LU,
          floor="2/3 n^3 flops at the float64 rate"),
    _case(f"solve_triangular {N_TRI}^2, {K_TRI} rhs float64", "solve_triangular", N_TRI,
          K_TRI, "triangular", floor="one read of the triangle"),
    _case(f"expm {N_EXPM}^2 float64", "expm", N_EXPM, kind="expm",
          floor="~6 + s matmuls and one LU solve"),
]
