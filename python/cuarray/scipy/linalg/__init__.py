"""cuarray.scipy.linalg: SciPy's scipy.linalg on cuarray arrays (the names SciPy
1.17 and CuPy's cupyx.scipy.linalg share).

Special matrices (toeplitz, circulant, hankel, companion, ..., block_diag,
bandwidth) are compositions of cuarray operations on any device. lu_factor, lu,
lu_solve and solve_triangular run LAPACK's getrf / getrs through cuarray.linalg's
solver primitive (cuSOLVER on a GPU); expm is scaling and squaring with a Padé
approximant. On the cpu device the factorizations and expm hand the call to
scipy.linalg on zero-copy views (each module's CPU_SCIPY flag).
"""

from ._special_matrices import (bandwidth, block_diag, circulant, companion,
                                convolution_matrix, dft, fiedler, fiedler_companion,
                                hadamard, hankel, helmert, hilbert, khatri_rao, leslie,
                                toeplitz)
from ._decomp_lu import lu, lu_factor, lu_solve, solve_triangular
from ._matfuncs import expm

__all__ = ["bandwidth", "block_diag", "circulant", "companion", "convolution_matrix",
           "dft", "expm", "fiedler", "fiedler_companion", "hadamard", "hankel",
           "helmert", "hilbert", "khatri_rao", "leslie", "lu", "lu_factor", "lu_solve",
           "solve_triangular", "toeplitz"]
