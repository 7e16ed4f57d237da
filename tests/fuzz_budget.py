"""The fuzz targets' budget (tests/test_fuzz_*.py), one place.

CI runs every target with a small fixed budget, derandomized, so a run is
reproducible and the whole set stays within about a minute on 2 cores. The long
run sets CUARRAY_FUZZ_EXAMPLES (examples per target) and explores new random
inputs each time (docs/RELIABILITY.md):

    CUARRAY_FUZZ_EXAMPLES=20000 PYTHONPATH=python python3 -m pytest tests/test_fuzz_*.py
"""

import os

import numpy as np
from hypothesis import HealthCheck, event, settings
from hypothesis.errors import InvalidArgument

from conftest import ALL_DTYPES

LONG = int(os.environ.get("CUARRAY_FUZZ_EXAMPLES", "0") or 0)


def fuzz(examples):
    """Hypothesis settings for one target: `examples` in CI, LONG in the long run."""
    return settings(max_examples=LONG or examples, deadline=None, derandomize=not LONG,
                    database=None, print_blob=True,
                    suppress_health_check=list(HealthCheck))


def exc_type(f, *args, **kwargs):
    """(result, None) if f(*args, **kwargs) returns, else (None, the exception's type)."""
    try:
        return f(*args, **kwargs), None
    except Exception as e:  # noqa: BLE001 - the type itself is what is compared
        return None, type(e)


def outcome(name):
    """Count an outcome in Hypothesis's statistics (pytest --hypothesis-show-statistics),
    to see how often a target gets past the checks; nothing outside a fuzz target."""
    try:
        event(name)
    except InvalidArgument:
        pass


def assert_numpy_typed(got_exc, want_exc, what):
    """cuarray's exception is NumPy's type (or a subclass of it: AxisError is both a
    ValueError and an IndexError, cuarray's errors subclass the builtins)."""
    outcome(f"raised {want_exc.__name__}")
    assert got_exc is not None, f"{what}: NumPy raised {want_exc.__name__}, cuarray returned"
    if issubclass(want_exc, UnicodeError):
        want_exc = ValueError  # NumPy's C code encodes a str (einsum's subscripts) first
    assert issubclass(got_exc, want_exc), \
        f"{what}: NumPy raised {want_exc.__name__}, cuarray {got_exc.__name__}"


# The exception types a bad input may raise: NumPy's own families. Anything else
# (SystemError, AttributeError, KeyError, a bare RuntimeError, ...) is a bug.
NUMPY_TYPED = (TypeError, ValueError, IndexError, BufferError, OverflowError,
               MemoryError, NotImplementedError)

# The dtypes cuarray's arrays hold (conftest.ALL_DTYPES), native byte order. Where
# NumPy's result has another (object, strings, void, long double, a
# byte-swapped dtype asked for by name), cuarray raises TypeError.
HELD = {np.dtype(t) for t in ALL_DTYPES}
try:  # ml_dtypes' bfloat16 and float8 (issue 39), where installed
    import ml_dtypes
    HELD |= {np.dtype(t) for t in (ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn,
                                   ml_dtypes.float8_e5m2)}
except ImportError:
    pass


def supported(dtype):
    dtype = np.dtype(dtype)
    # datetime64 / timedelta64 of every unit: cuarray._datetime's
    return (dtype in HELD or dtype.kind in "Mm") and dtype.isnative


def same_array(got, want, what):
    """cuarray array `got` equals NumPy array `want`: dtype, shape, values (NaN = NaN)."""
    outcome("compared with NumPy's result")
    want = np.asarray(want)
    assert got.dtype == want.dtype, f"{what}: dtype {got.dtype} != {want.dtype}"
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    np.testing.assert_array_equal(got.get(), want, err_msg=what, strict=True)

