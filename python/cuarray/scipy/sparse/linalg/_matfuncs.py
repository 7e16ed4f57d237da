"""matrix_power of a sparse matrix (SciPy 1.17's): repeated squaring with the
sparse products (SpGEMM on a GPU), so log2(power) squarings and at most as many
extra products; any device."""

import operator

__all__ = ["matrix_power"]


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
