"""cuarray.testing: numpy.testing's array assertions, taking cuarray and NumPy arrays.

Each assertion copies cuarray arguments to the host (``.get()``, which waits for
the work that produces them) and runs numpy.testing's own assertion on the
copies, so the messages, tolerances and NaN rules are NumPy's. Other arguments
(NumPy arrays, lists, scalars) pass through unchanged.
"""

import contextlib as _contextlib
import functools as _functools
import sys as _sys
import warnings as _warnings

import numpy.testing as _npt

_ca = _sys.modules[__package__]

__all__ = [
    "assert_allclose", "assert_array_equal", "assert_array_almost_equal",
    "assert_array_almost_equal_nulp", "assert_array_less", "assert_array_max_ulp",
    "assert_array_list_equal", "assert_equal", "assert_almost_equal", "assert_warns",
    "assert_raises",
]


def _host(x):
    if isinstance(x, _ca.ndarray):
        return x.get()
    return x


def _hosted(npfunc, nargs):
    """numpy.testing's ``npfunc`` with its first ``nargs`` arguments on the host."""

    @_functools.wraps(npfunc)
    def wrapper(*args, **kwargs):
        args = tuple(_host(a) if i < nargs else a for i, a in enumerate(args))
        return npfunc(*args, **kwargs)

    wrapper.__module__ = "cuarray.testing"
    wrapper.__doc__ = (f"{npfunc.__name__}, as numpy.testing.{npfunc.__name__}, with "
                       "cuarray arrays copied to the host first.\n\n"
                       + (npfunc.__doc__ or ""))
    return wrapper


assert_allclose = _hosted(_npt.assert_allclose, 2)
assert_array_equal = _hosted(_npt.assert_array_equal, 2)
assert_array_almost_equal = _hosted(_npt.assert_array_almost_equal, 2)
assert_array_almost_equal_nulp = _hosted(_npt.assert_array_almost_equal_nulp, 2)
assert_array_less = _hosted(_npt.assert_array_less, 2)
assert_array_max_ulp = _hosted(_npt.assert_array_max_ulp, 2)
assert_almost_equal = _hosted(_npt.assert_almost_equal, 2)
assert_equal = _hosted(_npt.assert_equal, 2)
assert_raises = _npt.assert_raises


@_contextlib.contextmanager
def _warns_context(warning_class, name):
    with _warnings.catch_warnings(record=True) as caught:
        _warnings.simplefilter("always")
        yield caught
    if not any(issubclass(w.category, warning_class) for w in caught):
        raise AssertionError(f"No warning raised when calling {name}")


def assert_warns(warning_class, *args, **kwargs):
    """assert_warns(warning_class, func=None, *args, **kwargs)

    Fail unless calling ``func(*args, **kwargs)`` (or running the body of the
    ``with`` block, when no function is given) issues a warning of
    ``warning_class``; the function's result is returned. NumPy's semantics
    (numpy.testing.assert_warns, deprecated there since NumPy 2.4, kept here
    for code written for CuPy's testing module).
    """
    if not args and not kwargs:
        return _warns_context(warning_class, "the with block")
    func, args = args[0], args[1:]
    with _warns_context(warning_class, getattr(func, "__name__", repr(func))):
        return func(*args, **kwargs)


def assert_array_list_equal(xlist, ylist, err_msg="", verbose=True):
    """assert_array_list_equal(xlist, ylist, err_msg='', verbose=True)

    The two sequences have the same length and their arrays are equal pairwise
    (CuPy's assertion; each pair as assert_array_equal).
    """
    if len(xlist) != len(ylist):
        raise AssertionError(
            f"List size is different: {len(xlist)} != {len(ylist)}")
    for i, (x, y) in enumerate(zip(xlist, ylist)):
        _npt.assert_array_equal(_host(x), _host(y), err_msg=err_msg
                                or f"the {i}-th arrays differ", verbose=verbose)

