"""Matrix functions: matrix_power of a sparse matrix (SciPy 1.17's: repeated
squaring with the sparse products, SpGEMM on a GPU; any device) and
expm_multiply (the action of the exponential; compositions of A's products)."""

import cmath
import math
import operator
import warnings

import numpy as _np

import cuarray as _ca

from ._interface import (LinearOperator, _back, _host, _on_cpu, _op_device,
                         aslinearoperator)

__all__ = ["matrix_power", "expm_multiply"]


def matrix_power(A, power):
    """matrix_power(A, power)

    A raised to a non-negative integer power, a sparse matrix of A's format family
    (``power`` 0: the identity, in SciPy's array form, as SciPy's). Non-square A
    raises TypeError, a negative power ValueError.
    """
    M, N = A.shape
    if M != N:
        raise TypeError("sparse matrix is not square")
    try:
        power = operator.index(power)
    except TypeError:
        if not (hasattr(power, "__int__") and int(power) == power):
            raise ValueError("exponent must be an integer") from None
        power = int(power)
    if power < 0:
        raise ValueError("exponent must be >= 0")
    if power == 0:
        from cuarray.scipy.sparse import eye_array
        return eye_array(M, dtype=A.dtype, device=getattr(A, "device", None))
    return _power(A, power)


def _power(A, p):
    if p == 1:
        return A.copy()
    half = _power(A, p // 2)
    return A @ half @ half if p % 2 else half @ half


# ---------------------------------------------------------------------------
# expm_multiply: the action of exp(t A) on B (Al-Mohy and Higham 2011)
# ---------------------------------------------------------------------------
# theta_m of the truncated Taylor series in double precision (their Table 3.1):
# for t*|A|_1 <= s*theta_m, s steps of degree m meet the unit roundoff.
_THETA = {1: 2.29e-16, 2: 2.58e-8, 3: 1.39e-5, 4: 3.40e-4, 5: 2.40e-3, 6: 9.07e-3,
          7: 2.38e-2, 8: 5.00e-2, 9: 8.96e-2, 10: 1.44e-1, 11: 2.14e-1, 12: 3.00e-1,
          13: 4.00e-1, 14: 5.14e-1, 15: 6.41e-1, 16: 7.81e-1, 17: 9.31e-1, 18: 1.09,
          19: 1.26, 20: 1.44, 21: 1.62, 22: 1.82, 23: 2.01, 24: 2.22, 25: 2.43,
          26: 2.64, 27: 2.86, 28: 3.08, 29: 3.31, 30: 3.54, 35: 4.7, 40: 6.0,
          45: 7.2, 50: 8.5, 55: 9.9}
_TOL = 2.0 ** -53

CPU_SCIPY = True


def _degree_and_steps(norm1):
    """(m, s) of least cost m*s with norm1 <= s * theta_m (the bound by |A|_1
    alone, which never underestimates the series' needs)."""
    if norm1 == 0:
        return 0, 1
    best = None
    for m, theta in _THETA.items():
        s = max(math.ceil(norm1 / theta), 1)
        if best is None or m * s < best[0] * best[1]:
            best = (m, s)
    return best


def _trace_and_norm(A, traceA):
    """trace(A) and |A - mu I|_1 (mu = trace/n): exact from the entries of a
    matrix; for an operator, Hutchinson's trace (SciPy's warning when traceA is
    not given) and Hager's 1-norm estimate."""
    n = A.shape[0]
    if isinstance(A, LinearOperator):
        if traceA is None:
            warnings.warn("Trace of LinearOperator not available, it will be "
                          "estimated. Provide `traceA` to ensure performance.",
                          stacklevel=4)
            traceA = _hutchinson(A, _op_device(A))
        mu = traceA / n
        if A.dtype is not None and A.dtype.kind != "c":
            mu = complex(mu).real
        return mu, _hager(A, mu, _op_device(A))
    d = A.diagonal()
    mu = (d.sum().item() if traceA is None else traceA) / n
    if A.dtype.kind != "c":
        mu = complex(mu).real
    col = abs(A).sum(axis=0)
    col = (col.toarray() if hasattr(col, "toarray") else _ca.asarray(col)).ravel()
    return mu, (col - abs(d) + abs(d - mu)).max().item()


def _hutchinson(A, device, m=5):
    rng = _np.random.default_rng(0)
    Z = _ca.asarray(rng.choice([-1.0, 1.0], size=(A.shape[0], m)), device=device)
    return (_ca.sum(Z * A.matmat(Z)) / m).item()


def _hager(A, mu, device, steps=5):
    """Hager's estimate of |A - mu I|_1 (a lower bound, usually exact)."""
    n = A.shape[0]
    x = _ca.full(n, 1.0 / n, device=device)
    est = 0.0
    for _ in range(steps):
        y = A.matvec(x) - mu * x
        est = _ca.sum(abs(y)).item()
        xi = _ca.where(y.real >= 0, 1.0, -1.0)
        z = A.rmatvec(xi) - _np.conj(mu) * xi
        j = int(_ca.argmax(abs(z)).item())
        if abs(z[j]).item() <= _ca.vdot(x, z).real.item():
            break
        x = _ca.zeros(n, device=device)
        x[j] = 1.0
    return est


def _product(A, B):
    return A.matvec(B) if B.ndim == 1 else A.matmat(B)


def _taylor(A, B, t, mu, m, s):
    """exp(t A) B by s steps of the degree-m Taylor series of exp(t (A - mu I)/s),
    each scaled by exp(t mu / s); a step ends early once its terms fall below the
    roundoff (one host read of two norms per term)."""
    F = B
    eta = cmath.exp(t * mu / s) if isinstance(mu, complex) else math.exp(t * mu / s)
    for _ in range(s):
        c1 = abs(B).max().item() if B.size else 0.0
        for j in range(m):
            B = (t / (s * (j + 1))) * (_product(A, B) - mu * B)
            F = F + B
            c2, fn = _ca.stack([abs(B).max(), abs(F).max()]).get().tolist()
            if c1 + c2 <= _TOL * fn:
                break
            c1 = c2
        F = eta * F
        B = F
    return F


def _expm_checks(A, B):
    if len(A.shape) != 2 or A.shape[0] != A.shape[1]:
        raise ValueError("expected A to be like a square matrix")
    if A.shape[1] != B.shape[0]:
        raise ValueError(f"shapes of matrices A {A.shape} and B {B.shape} are "
                         "incompatible")
    if B.ndim not in (1, 2):
        raise ValueError("expected B to be like a matrix or a vector")


def expm_multiply(A, B, start=None, stop=None, num=None, endpoint=None,
                  traceA=None):
    """expm_multiply(A, B, start=None, stop=None, num=None, endpoint=None,
    traceA=None)

    exp(A) @ B without forming exp(A), or exp(t A) @ B at the points of
    ``numpy.linspace(start, stop, num, endpoint)`` stacked on a new first axis.
    Truncated Taylor steps (Al-Mohy and Higham) of A's products; the degree and
    step count from the exact 1-norm of a matrix (an operator's by Hager's
    estimate). On the cpu device (CPU_SCIPY) SciPy's expm_multiply runs.
    """
    B = _ca.asarray(B)
    if CPU_SCIPY and _on_cpu(B):
        import scipy.sparse.linalg as ssl
        return _back(ssl.expm_multiply(_host(A), _host(B), start, stop, num,
                                       endpoint, traceA))
    _expm_checks(A, B)
    dtype = _np.result_type(A.dtype, B.dtype, float)
    B = B.astype(dtype)
    mu, norm1 = _trace_and_norm(A, traceA)
    op = aslinearoperator(A)
    if all(v is None for v in (start, stop, num, endpoint)):
        m, s = _degree_and_steps(norm1)
        return _taylor(op, B, 1.0, mu, m, s)
    kw = {k: v for k, v in (("num", num), ("endpoint", endpoint)) if v is not None}
    samples, h = _np.linspace(start, stop, retstep=True, **kw)
    if len(samples) < 2:
        raise ValueError("at least two time points are required")
    m0, s0 = _degree_and_steps(abs(samples[0]) * norm1)
    m, s = _degree_and_steps(abs(h) * norm1)
    X = [_taylor(op, B, float(samples[0]), mu, m0, s0)]
    for _ in samples[1:]:
        X.append(_taylor(op, X[-1], float(h), mu, m, s))
    return _ca.stack(X)
