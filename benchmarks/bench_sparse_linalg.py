"""Sparse linear algebra: cg on the 2-D Poisson matrix (the 5-point Laplacian of a
square grid), cuarray.scipy.sparse.linalg beside cupyx.scipy.sparse.linalg on a GPU
and beside scipy.sparse.linalg on the cpu device (the "numpy" column is SciPy's;
PyTorch has no cg).

Issue 38's row: cg to rtol 1e-6 from x0 = 0 with b = ones on a 4096 x 4096 grid
(16.8M unknowns, 84M nonzeros; a 256 x 256 grid in cpu mode), seconds per solve,
target the best of the others. A second row runs exactly 100 iterations (rtol 0,
maxiter 100): the cost of one iteration (one SpMV, two dot products, three
vector updates and the host's read of the residual), without the iteration count.
The floor of an iteration is one read of the matrix plus about 10 vector passes.
"""

import inspect

import numpy as np

from harness import Case, Skip, size

GRID = size(4096, 256)
FIXED_ITERS = 100


def _poisson(grid):
    """The host CSR Laplacian (kron sum of two 1-D second differences), cached."""
    if grid not in _poisson.memo:
        import scipy.sparse as sp
        t = sp.diags_array([-np.ones(grid - 1), 2 * np.ones(grid), -np.ones(grid - 1)],
                           offsets=[-1, 0, 1], format="csr")
        _poisson.memo[grid] = sp.kronsum(t, t, format="csr").astype(np.float64)
    return _poisson.memo[grid]


_poisson.memo = {}


def _operands(mod):
    """(A, b, cg) for a library, on its default device."""
    h = _poisson(GRID)
    name = mod.__name__
    if name == "numpy":
        import scipy.sparse.linalg as ssl
        return h, np.ones(h.shape[0]), ssl.cg
    if name == "cuarray":
        from cuarray.scipy import sparse
        from cuarray.scipy.sparse import linalg
        return sparse.csr_matrix(h), mod.ones(h.shape[0]), linalg.cg
    if name == "cupy":
        import cupyx.scipy.sparse as cps
        import cupyx.scipy.sparse.linalg as cpl
        return cps.csr_matrix(h), mod.ones(h.shape[0]), cpl.cg
    raise Skip(f"{name} has no cg")


def _solve(rtol, maxiter=None):
    def setup(mod):
        A, b, cg = _operands(mod)
        # CuPy's cg names the relative tolerance tol (older) or rtol (newer)
        key = "rtol" if "rtol" in inspect.signature(cg).parameters else "tol"
        kw = {key: rtol, "maxiter": maxiter}
        if rtol == 0 and "atol" in inspect.signature(cg).parameters:
            kw["atol"] = 0.0

        def run():
            x, info = cg(A, b, **kw)
            if maxiter is None and info != 0:
                raise RuntimeError(f"cg did not converge (info {info})")
            return x
        return run
    return setup


def _case(name, rtol, maxiter, repeats):
    setup = {lib: _solve(rtol, maxiter) for lib in ("cuarray", "numpy", "cupy")}
    return Case(name, setup, mode="wall", unit="s", target=">= best",
                floor="1 matrix read + ~10 vector passes per iteration",
                repeats=repeats)


CASES = [
    _case(f"cg to 1e-6, 2-D Poisson {GRID}^2", 1e-6, None, 3),
    _case(f"cg {FIXED_ITERS} iterations, 2-D Poisson {GRID}^2", 0.0, FIXED_ITERS, 5),
]
