"""cuarray.cuda.thrust: CuPy's Thrust module name, answered by cuarray's sorts.

CuPy calls Thrust for sort, argsort and lexsort (cupy.cuda.thrust, internal:
raw pointers and shapes). cuarray does not link Thrust: its sorts are CUB radix
sorts on order-preserving keys (kernels/gpu/sort*.cu), with the same results as
NumPy's stable sort. ``available`` is False (no Thrust here); the functions take
arrays and give what CuPy's Thrust calls give, through cuarray's sorts.
"""

__all__ = ["available", "sort", "argsort", "lexsort"]

available = False


def sort(x, axis=-1):
    """A sorted copy of x along `axis` (NaNs last, as NumPy)."""
    import cuarray
    return cuarray.sort(x, axis=axis)


def argsort(x, axis=-1):
    """The indices that sort x along `axis` (stable)."""
    import cuarray
    return cuarray.argsort(x, axis=axis)


def lexsort(keys):
    """The indices that sort by the last key, then the one before, ... (NumPy's
    lexsort; `keys` a 2-D array or a sequence of 1-D arrays)."""
    import cuarray
    return cuarray.lexsort(keys)
