"""cuarray.scipy.sparse: SciPy's sparse arrays and matrices on cuarray arrays.

The formats (CSR, CSC, COO, DIA) in SciPy's array forms (csr_array, ...;
sparray) and matrix forms (csr_matrix, ...; spmatrix) hold cuarray arrays on
one device. On a GPU the products are cuSPARSE's (SpMV, SpMM, SpGEMM) and
everything else is a composition of cuarray primitives; on the cpu device
SciPy itself runs on zero-copy views (SciPy is then required). `.get()` gives
the SciPy object, and every constructor takes SciPy's.

The 1-D sparse arrays of SciPy's array forms do not exist here: an integer
index or an axis reduction whose SciPy result is a 1-D sparse array returns a
dense 1-D cuarray array instead.
"""

from ._sputils import get_index_dtype, safely_cast_index_arrays
from ._base import (SparseEfficiencyWarning, SparseWarning, issparse, isspmatrix,
                    sparray, spmatrix)
from ._compressed import (csc_array, csc_matrix, csr_array, csr_matrix,
                          isspmatrix_csc, isspmatrix_csr)
from ._coo import coo_array, coo_matrix, isspmatrix_coo
from ._dia import dia_array, dia_matrix, isspmatrix_dia
from ._construct import (block_array, block_diag, bmat, diags, diags_array, eye,
                         eye_array, find, hstack, identity, kron, kronsum,
                         permute_dims, rand, random, random_array, spdiags, swapaxes,
                         tril, triu, vstack)
from ._io import load_npz, save_npz

__all__ = [
    "SparseEfficiencyWarning", "SparseWarning", "block_array", "block_diag", "bmat",
    "coo_array", "coo_matrix", "csc_array", "csc_matrix", "csr_array", "csr_matrix",
    "dia_array", "dia_matrix", "diags", "diags_array", "eye", "eye_array", "find",
    "get_index_dtype", "hstack", "identity", "issparse", "isspmatrix",
    "isspmatrix_coo", "isspmatrix_csc", "isspmatrix_csr", "isspmatrix_dia", "kron",
    "kronsum", "load_npz", "permute_dims", "rand", "random", "random_array",
    "safely_cast_index_arrays", "save_npz", "sparray", "spdiags", "spmatrix",
    "swapaxes", "tril", "triu", "vstack",
]

_SUBMODULES = ("linalg", "csgraph")


def __getattr__(name):
    if name not in _SUBMODULES:
        raise AttributeError(
            f"module 'cuarray.scipy.sparse' has no attribute {name!r}")
    import importlib
    return importlib.import_module(__name__ + "." + name)
