"""NumPy's dispatch protocols on cuarray.ndarray (NEP 13 and NEP 18).

- ``__array_ufunc__``: ``np.add(x, 1)`` with a cuarray ``x`` runs ``cuarray.add``
  (the ufunc of the same name), and ``np.add.reduce(x)``, ``.accumulate``,
  ``.reduceat``, ``.outer``, ``.at`` its methods; the result is a cuarray array.
  NumPy arrays among the operands raise TypeError (cuarray never copies to the
  device silently), as cuarray's own functions do.
- ``__array_function__``: ``np.sum``, ``np.concatenate``, ``np.linalg.norm``,
  ``np.fft.fft``, ... run cuarray's function of the same name, found by module
  path (numpy.X -> cuarray.X, numpy.linalg.X -> cuarray.linalg.X, numpy.fft.X ->
  cuarray.fft.X, ...). A NumPy function cuarray lacks raises TypeError naming it.
  Where NumPy arrays take part too, NumPy's own implementation runs: it converts
  cuarray arrays through ``__array__``, which is zero-copy for host-accessible
  memory (the cpu device, managed and pinned memory) and a TypeError saying to
  use ``.get()`` for device memory.

Lookups are cached per NumPy object, so a dispatched call costs a dict lookup
and a Python call over cuarray's function (for a ufunc's ``__call__``, a C
lookup and the call: ndarray.__array_ufunc__ is csrc/ops/ufunc.c's, over _UFUNCS).
"""

import numpy as _np

from . import _core

_ndarray = _core.ndarray
_UFUNCS = {}
_FUNCS = {}


def _cuarray_module(modname):
    import cuarray

    parts = modname.split(".")
    if parts[0] != "numpy":
        return None
    mod = cuarray
    for p in parts[1:]:
        if p.startswith("_"):
            break  # numpy._core..., numpy.lib._*_impl: the public name is top level
        mod = getattr(mod, p, None)
        if mod is None:
            return None
    return mod


def _scipy_special_ufunc(ufunc):
    """cuarray.scipy.special's twin of one of SciPy's special ufuncs (erf, and
    SciPy's exp2/cbrt/i0, which are not NumPy's), or None. SciPy is imported
    already if the ufunc is its own."""
    import sys

    sp = sys.modules.get("scipy.special")
    if sp is None or getattr(sp, ufunc.__name__, None) is not ufunc:
        return None
    from .scipy import special

    return getattr(special, ufunc.__name__, None)


def _resolve_ufunc(ufunc):
    import cuarray

    f = _scipy_special_ufunc(ufunc) or getattr(cuarray, ufunc.__name__, None)
    if f is None or not callable(f):
        raise TypeError(f"numpy.{ufunc.__name__} is not implemented by cuarray (no "
                        f"cuarray.{ufunc.__name__}); copy the array to the host with "
                        f".get() to use NumPy's")
    _UFUNCS[ufunc] = f
    return f


def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
    """NEP 13. ndarray.__array_ufunc__ is C (csrc/ops/ufunc.c): ``__call__`` of a ufunc
    already in _UFUNCS runs there; everything else comes here."""
    f = _UFUNCS.get(ufunc)
    if f is None:
        f = _resolve_ufunc(ufunc)
    if method == "__call__":
        return f(*inputs, **kwargs)
    m = getattr(f, method, None)
    if m is None:
        raise TypeError(f"numpy.{ufunc.__name__}.{method} is not implemented by cuarray "
                        f"(cuarray.{ufunc.__name__} is not a ufunc)")
    return m(*inputs, **kwargs)


def _resolve_function(func):
    name = getattr(func, "__name__", None)
    modname = getattr(func, "__module__", None) or "numpy"
    mod = _cuarray_module(modname)
    impl = getattr(mod, name, None) if mod is not None and name else None
    if impl is None or impl is func or not callable(impl):
        raise TypeError(f"{modname}.{name} is not implemented by cuarray (no "
                        f"{modname.replace('numpy', 'cuarray', 1)}.{name}); copy the "
                        f"array to the host with .get() to use NumPy's")
    _FUNCS[func] = impl
    return impl


# NumPy's creation functions that dispatch only through like= (NEP 35): the result
# belongs on the like= array's device, not the default one
_LIKE_NAMES = ("array", "asarray", "asanyarray", "ascontiguousarray", "empty", "zeros",
               "ones", "full", "arange", "eye", "identity")
_LIKE_CREATION = frozenset(getattr(_np, n) for n in _LIKE_NAMES)


_LIKE_SEEN = {}


def _is_like_creation(func):
    # by identity, and by name for NumPy versions whose like= path hands over
    # another wrapper of the same function (remembered per function)
    r = _LIKE_SEEN.get(func)
    if r is None:
        r = _LIKE_SEEN[func] = func in _LIKE_CREATION or (
            getattr(func, "__name__", None) in _LIKE_NAMES
            and (getattr(func, "__module__", None) or "").startswith("numpy"))
    return r


def __array_function__(self, func, types, args, kwargs):
    impl = _FUNCS.get(func)
    if impl is None:
        impl = _resolve_function(func)
    if kwargs.get("device") is None and _is_like_creation(func):
        # NumPy 2.5 passes device=None explicitly
        kwargs = dict(kwargs, device=self.device)
    for t in types:
        if t is not _ndarray and not issubclass(t, _ndarray):
            if issubclass(t, _np.ndarray):
                # NumPy arrays too: NumPy's implementation, which converts ours
                # through __array__ (zero-copy on the host, TypeError for device
                # memory: never a silent transfer)
                return func._implementation(*args, **kwargs)
            return NotImplemented
    return impl(*args, **kwargs)


def _install():
    _core._array_ufunc_setup(_UFUNCS, __array_ufunc__)
    _ndarray.__array_function__ = __array_function__


_install()
