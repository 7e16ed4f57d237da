"""NumPy's own exceptions for cuarray's ufunc errors (issue 37).

Where NumPy finds no loop or refuses a cast it raises subclasses of TypeError from
numpy._core._exceptions (shown as numpy.UFuncTypeError; for some ufuncs a plain
TypeError). The C layer (csrc/ops/elementwise.c) asks here for the exception NumPy
would raise and falls back to its own TypeError with the same meaning when this
returns None (a ufunc NumPy lacks, a dtype NumPy does not know, a NumPy without
these private classes). Only error paths come here.
"""

import numpy as _np

try:
    from numpy._core import _exceptions as _ex
except ImportError:  # pragma: no cover - every NumPy 2 has them
    _ex = None


def _np_ufunc(name):
    u = getattr(_np, name, None)
    return u if isinstance(u, _np.ufunc) else None


def no_loop(name, dtypes, dtype=None):
    """NumPy's exception for the call on empty stand-ins of these input dtypes (with
    dtype= where the call named one), or None when NumPy raises no TypeError."""
    u = _np_ufunc(name)
    if u is None or len(dtypes) != u.nin:
        return None
    kw = {} if dtype is None else {"dtype": dtype}
    try:
        u(*(_np.empty(0, d) for d in dtypes), **kw)
    except TypeError as e:
        return e
    except Exception:
        return None
    return None


def cast_error(name, which, casting, from_, to, i):
    """NumPy's exception for an input ("input") or output cast that casting=
    refuses, or None."""
    u = _np_ufunc(name)
    if u is None or _ex is None:
        return None
    cls = _ex._UFuncInputCastingError if which == "input" else _ex._UFuncOutputCastingError
    try:
        return cls(u, casting, _np.dtype(from_), _np.dtype(to), i)
    except Exception:
        return None
