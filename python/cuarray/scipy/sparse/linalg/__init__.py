"""cuarray.scipy.sparse.linalg: SciPy's scipy.sparse.linalg on cuarray arrays and
sparse matrices (the names SciPy 1.17 and CuPy's cupyx.scipy.sparse.linalg share).

Iterative solvers (cg, cgs, bicgstab, gmres, minres, lsqr, lsmr), eigensolvers
(eigsh, svds, lobpcg), norm, matrix_power and expm_multiply are compositions of
products and dense cuarray operations that run on any device; on the cpu device
they hand the call to SciPy's own routine on zero-copy views (each module's
CPU_SCIPY flag).
The direct solvers (spsolve, spsolve_triangular, splu, spilu, factorized,
SuperLU) are SciPy's SuperLU and sparse solvers on the host with device arrays in
and out (small GPU systems: a dense solve on the device); see _dsolve.py.
"""

from ._interface import LinearOperator, aslinearoperator
from ._isolve import bicgstab, cg, cgs, gmres, minres
from ._lsq import lsmr, lsqr
from ._eigen import eigsh, lobpcg, svds
from ._norm import norm
from ._matfuncs import expm_multiply, matrix_power
from ._dsolve import SuperLU, factorized, spilu, splu, spsolve, spsolve_triangular

__all__ = ["LinearOperator", "SuperLU", "aslinearoperator", "bicgstab", "cg", "cgs",
           "eigsh", "expm_multiply", "factorized", "gmres", "lobpcg", "lsmr", "lsqr",
           "matrix_power", "minres", "norm", "spilu", "splu", "spsolve",
           "spsolve_triangular", "svds"]
