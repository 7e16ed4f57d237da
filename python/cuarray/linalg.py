"""cuarray.linalg: NumPy's numpy.linalg (cuBLAS and cuSOLVER on a GPU; on the
cpu device NumPy, and the LAPACK NumPy loaded for matrices from n = 64 or 128).

The products themselves live in the main namespace too (``cuarray.matmul``,
``dot``, ``vdot``, ``inner``, ``outer``, ``tensordot``, ``einsum`` and the ``@``
operator); this module adds the Array API's ``linalg.matmul``, ``tensordot``,
``outer``, ``cross``, ``vecdot``, ``diagonal``, ``trace``, ``matrix_transpose``,
the norms (``norm``, ``vector_norm``, ``matrix_norm``), ``multi_dot``,
``matrix_power`` and the TF32 switch.

TF32. float32 products run in full float32 arithmetic by default, as NumPy's do.
On GPUs with tensor cores (Ampere and later) TF32 makes large float32 products
several times faster at about 1e-3 relative precision of the inputs. Turn it on
with ``set_allow_tf32(True)`` or by starting Python with ``CUARRAY_ALLOW_TF32=1``.
float16 products always accumulate in float32.

Factorizations (solve, inv, det, slogdet, cholesky, qr, svd, svdvals, eigh,
eigvalsh, eig, eigvals, lstsq, pinv, matrix_rank, cond, tensorinv, tensorsolve):
python/cuarray/_linalg_factor.py, over cuSOLVER on a GPU. Singular and
non-positive-definite matrices raise LinAlgError (NumPy's class) after a wait
for the GPU's info flags; ``config.check_errors = False`` or
``with errors_checked(False):`` skips the wait and the check.
"""

from ._core import tensordot  # noqa: F401
from ._outargs import matmul  # noqa: F401  (the main namespace's)
from ._core import _get_allow_tf32, _set_allow_tf32
# factorizations (cuSOLVER)
from ._linalg_factor import (  # noqa: F401
    EigResult, EighResult, LinAlgError, QRResult, SlogdetResult, SVDResult, cholesky,
    cond, config, det, eig, eigh, eigvals, eigvalsh, errors_checked, inv, lstsq,
    matrix_rank, pinv, qr, slogdet, solve, svd, svdvals, tensorinv, tensorsolve)
from ._linalg_factor import __all__ as _factor_all

# norms, chains and the Array API's product functions (python/cuarray/_linalg_products.py)
from ._linalg_products import (  # noqa: F401
    norm, vector_norm, matrix_norm, multi_dot, matrix_power,
    linalg_outer as outer, linalg_cross as cross, linalg_vecdot as vecdot,
    linalg_diagonal as diagonal, linalg_trace as trace,
    linalg_matrix_transpose as matrix_transpose,
)

__all__ = ["matmul", "tensordot", "set_allow_tf32", "get_allow_tf32",
           "norm", "vector_norm", "matrix_norm", "multi_dot", "matrix_power", "outer",
           "cross", "vecdot", "diagonal", "trace", "matrix_transpose"]


def set_allow_tf32(allow=True):
    """Allow (or forbid) TF32 tensor cores for float32 matrix products.

    Returns the previous setting. The default is False unless the environment
    variable ``CUARRAY_ALLOW_TF32=1`` was set when cuarray was imported. The
    setting is process-wide and takes effect on the next product.
    """
    return _set_allow_tf32(bool(allow))


def get_allow_tf32():
    """Whether float32 matrix products may use TF32 tensor cores."""
    return _get_allow_tf32()


__all__ += _factor_all
