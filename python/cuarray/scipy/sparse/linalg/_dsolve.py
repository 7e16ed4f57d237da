"""Direct sparse solvers: spsolve, spsolve_triangular, splu, spilu, factorized and
SuperLU, with SciPy 1.17's signatures, warnings and exceptions.

Where they run (no cuSOLVER/cuDSS sparse factorization is bound yet):
- the cpu device: SciPy's own routines on the SciPy form of the matrix and views
  of the vectors;
- a GPU (and the cpu device with CPU_SCIPY off), n <= DENSE_MAX (spsolve,
  spsolve_triangular): the matrix densified on the device and solved there by cuarray.linalg.solve (cuSOLVER's LU; for the
  triangular solve, the triangle of the dense matrix), as fast as it gets at that
  size and with no transfer;
- a GPU, larger n, and splu/spilu/factorized at any n: SciPy's SuperLU (and
  spsolve) on the host, on one copy of the matrix and of each right-hand side to
  the host, the results copied back to the matrix's device (what CuPy does for
  splu). SciPy is required for these paths.
"""

import warnings

import numpy as _np

import cuarray as _ca

from ._interface import _issparse

__all__ = ["spsolve", "spsolve_triangular", "splu", "spilu", "factorized",
           "SuperLU"]

DENSE_MAX = 2048
# The cpu device's hand-off to SciPy; off, the cpu device takes the GPU's paths
# (tests run them there).
CPU_SCIPY = True


def _on_device(dev, n):
    """Whether a solve of size n on dev is the dense one on the device."""
    return n <= DENSE_MAX and not (CPU_SCIPY and dev == "cpu")


def _sparse():
    import cuarray.scipy.sparse as cs
    return cs


def _to_device(r, device):
    """A SciPy/NumPy result as a cuarray object on device (sparse stays sparse)."""
    import scipy.sparse as sp
    return _from_scipy(r, device) if sp.issparse(r) else _ca.asarray(r, device=device)


def _from_scipy(r, device):
    from cuarray.scipy.sparse._base import from_scipy
    return from_scipy(r, device)


def _host_of(x):
    """The SciPy/NumPy form of a cuarray operand (a copy off a GPU, a view on the
    cpu device)."""
    if _issparse(x):
        return x.get()
    if isinstance(x, _ca.ndarray):
        return x.get()
    return _np.asarray(x)


def _rhs(b, dev):
    """b as a cuarray array; host data (NumPy, lists) goes to A's device, not the
    default one, and a cuarray array stays where it is (a mismatch raises later)."""
    return b if isinstance(b, _ca.ndarray) else _ca.asarray(b, device=dev)


def _device_of(A):
    return getattr(A, "device", None) or _ca.zeros(0).device


def _square_csr(A, who):
    """A as a cuarray CSR/CSC matrix, converting (with SciPy's warning) where it
    is not one."""
    cs = _sparse()
    if not (_issparse(A) and A.format in ("csr", "csc")):
        warnings.warn(f"{who} requires A be CSC or CSR matrix format",
                      cs.SparseEfficiencyWarning, stacklevel=3)
        A = cs.csc_array(A)
    return A


def _dense_solve(Ad, b, dtype):
    """solve on the device; a singular matrix gives SciPy's warning and NaNs."""
    try:
        return _ca.linalg.solve(Ad.astype(dtype), b.astype(dtype))
    except _np.linalg.LinAlgError:
        from scipy.sparse.linalg import MatrixRankWarning
        warnings.warn("Matrix is exactly singular", MatrixRankWarning, stacklevel=3)
        return _ca.full(b.shape, _np.nan, dtype=dtype, device=b.device)


def spsolve(A, b, permc_spec=None, use_umfpack=True):
    """spsolve(A, b, permc_spec=None, use_umfpack=True)

    x with ``A @ x = b`` for a square sparse A and a dense or sparse b (x dense
    or sparse accordingly; 1-D for a vector b). A singular A warns
    MatrixRankWarning and gives NaNs, as SciPy's.
    """
    A = _square_csr(A, "spsolve")
    dev = _device_of(A)
    M, N = A.shape
    b_sparse = _issparse(b)
    if not b_sparse:
        b = _rhs(b, dev)
    if M != N:
        raise ValueError(f"matrix must be square (has shape {(M, N)})")
    if M != b.shape[0]:
        raise ValueError(f"matrix - rhs dimension mismatch ({A.shape} - "
                         f"{b.shape[0]})")
    if not b_sparse and _on_device(dev, N):
        dtype = _np.promote_types(_np.promote_types(A.dtype, _np.float32)
                                  if A.dtype.kind in "fc" else _np.float64, b.dtype)
        vec = b.ndim == 2 and b.shape[1] == 1
        x = _dense_solve(A.toarray(), b, dtype)
        return x.ravel() if vec else x
    import scipy.sparse.linalg as ssl
    return _to_device(ssl.spsolve(_host_of(A), _host_of(b), permc_spec,
                                  use_umfpack), dev)


def spsolve_triangular(A, b, lower=True, overwrite_A=False, overwrite_b=False,
                       unit_diagonal=False):
    """spsolve_triangular(A, b, lower=True, overwrite_A=False, overwrite_b=False,
    unit_diagonal=False)

    x with ``A @ x = b`` for a lower (or upper) triangular sparse A, reading only
    that triangle; a zero diagonal entry raises LinAlgError (unless
    ``unit_diagonal``).
    """
    cs = _sparse()
    if not (_issparse(A) and A.format in ("csr", "csc")):
        warnings.warn("CSC or CSR matrix format is required. Converting to CSC "
                      "matrix.", cs.SparseEfficiencyWarning, stacklevel=2)
        A = cs.csc_array(A)
    dev = _device_of(A)
    M, N = A.shape
    if M != N:
        raise ValueError(f"A must be a square matrix but its shape is {A.shape}.")
    b = _rhs(b, dev)
    if not _on_device(dev, N):
        import scipy.sparse.linalg as ssl
        return _ca.asarray(ssl.spsolve_triangular(
            _host_of(A), _host_of(b), lower, overwrite_A, overwrite_b,
            unit_diagonal), device=dev)
    return _dense_triangular(A, b, lower, unit_diagonal)


def _dense_triangular(A, b, lower, unit_diagonal):
    """The GPU's small case: the triangle of the dense matrix, solved on the device."""
    M, N = A.shape
    T = A.toarray()
    T = _ca.tril(T) if lower else _ca.triu(T)
    if unit_diagonal:
        i = _ca.arange(N, device=T.device)
        T[i, i] = 1
    elif bool((_ca.diagonal(T) == 0).any()):
        raise _np.linalg.LinAlgError("A is singular: zero entry on diagonal.")
    if b.ndim not in (1, 2):
        raise ValueError(f"b must have 1 or 2 dims but its shape is {b.shape}.")
    if M != b.shape[0]:
        raise ValueError("The size of the dimensions of A must be equal to the size "
                         "of the first dimension of b but the shape of A is "
                         f"{A.shape} and the shape of b is {b.shape}.")
    dtype = _np.promote_types(_np.promote_types(A.dtype, _np.float32), b.dtype)
    return _ca.linalg.solve(T.astype(dtype), b.astype(dtype))


class SuperLU:
    """SuperLU: the LU factorization SciPy's splu/spilu return, held on the host,
    solving device right-hand sides (each copied to the host and back, the result
    on the matrix's device). ``shape``, ``nnz``, ``perm_r``, ``perm_c`` as SciPy's;
    ``L`` and ``U`` as cuarray CSC matrices on that device."""

    def __init__(self, lu, device):
        self._lu = lu
        self.device = device
        self.shape = lu.shape
        self.nnz = lu.nnz
        self.perm_r = _ca.asarray(lu.perm_r, device=device)
        self.perm_c = _ca.asarray(lu.perm_c, device=device)

    @property
    def L(self):
        return _from_scipy(self._lu.L, self.device)

    @property
    def U(self):
        return _from_scipy(self._lu.U, self.device)

    def solve(self, rhs, trans="N"):
        """x with ``A x = rhs`` ('N'), ``A^T x = rhs`` ('T') or ``A^H x = rhs``
        ('H'); rhs 1-D or 2-D."""
        if trans not in ("N", "T", "H"):
            raise ValueError("trans must be N, T, or H")
        return _ca.asarray(self._lu.solve(_host_of(rhs), trans=trans),
                           device=self.device)


def _factor(name, A, kwargs):
    import scipy.sparse.linalg as ssl
    cs = _sparse()
    if not (_issparse(A) and A.format == "csc"):
        warnings.warn(f"{name} converted its input to CSC format",
                      cs.SparseEfficiencyWarning, stacklevel=3)
        A = cs.csc_array(A) if not _issparse(A) else A.tocsc()
    if A.shape[0] != A.shape[1]:
        raise ValueError("can only factor square matrices")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cs.SparseEfficiencyWarning)
        lu = getattr(ssl, name)(_host_of(A), **kwargs)
    return SuperLU(lu, _device_of(A))


def splu(A, permc_spec=None, diag_pivot_thresh=None, relax=None, panel_size=None,
         options=None):
    """splu(A, permc_spec=None, diag_pivot_thresh=None, relax=None, panel_size=None,
    options=None)

    The sparse LU factorization of a square A (SciPy's SuperLU on the host): a
    SuperLU whose ``solve`` takes and returns device arrays.
    """
    return _factor("splu", A, dict(permc_spec=permc_spec,
                                   diag_pivot_thresh=diag_pivot_thresh, relax=relax,
                                   panel_size=panel_size, options=options or {}))


def spilu(A, drop_tol=None, fill_factor=None, drop_rule=None, permc_spec=None,
          diag_pivot_thresh=None, relax=None, panel_size=None, options=None):
    """spilu(A, drop_tol=None, fill_factor=None, drop_rule=None, permc_spec=None,
    diag_pivot_thresh=None, relax=None, panel_size=None, options=None)

    The incomplete LU factorization (SciPy's SuperLU ILU on the host), a SuperLU
    for use as a preconditioner (``LinearOperator(A.shape, ilu.solve)``).
    """
    return _factor("spilu", A, dict(
        drop_tol=drop_tol, fill_factor=fill_factor, drop_rule=drop_rule,
        permc_spec=permc_spec, diag_pivot_thresh=diag_pivot_thresh, relax=relax,
        panel_size=panel_size, options=options))


def factorized(A):
    """factorized(A)

    A function ``solve(b)`` solving ``A x = b`` by a reused sparse LU of A (splu:
    SciPy's SuperLU on the host; device arrays in and out).
    """
    return splu(A).solve
