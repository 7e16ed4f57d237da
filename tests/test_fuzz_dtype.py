"""Fuzz: dtype arguments (random strings, NumPy's codes, byte orders, structured
dtypes, Python and NumPy type objects) to cuarray's creation functions and astype.

Where numpy.dtype(d) raises, cuarray raises the same type (TypeError for a string
NumPy does not understand); where NumPy's dtype is one cuarray's arrays hold, the
result is NumPy's, dtype and values; where it is not (object, strings, void,
a byte-swapped dtype), TypeError; datetime64 and timedelta64 are held. Budget: tests/fuzz_budget.py.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cuarray as ca
from fuzz_budget import assert_numpy_typed, exc_type, fuzz, same_array, supported

pytestmark = pytest.mark.filterwarnings("ignore")

CODES = sorted(set(np.typecodes["All"]) | {k for k in np.sctypeDict if isinstance(k, str)})
_code = st.sampled_from(CODES)
_order = st.sampled_from(["", "<", ">", "=", "|", "!", "@"])
_size = st.sampled_from(["", "1", "2", "4", "8", "16", "32", "0", "3", "-1", "99999999999"])
_string = st.one_of(
    st.builds(lambda o, c, n: o + c + n, _order, _code, _size),
    st.text(max_size=6),
    st.text(alphabet="<>|=bBhHiIlLqQfdgFDGeSUVOMm?[]0123456789,() ", max_size=8),
    st.sampled_from(["i4,f8", "(2,)i4", "2i4", "i4,", "[('a', 'i4')]", "M8[ns]", "m8[Y]",
                     "U0", "S0", "V0", "float", "double", "int", "bool", "complex",
                     "float128", "int128", "bfloat16", "float8", "str", "object",
                     "uint", "intp", "uintp", "long", "ulong", "half", "single",
                     "longlong", "Float64", "b1", "i8 ", " i8", "\x00"]))
_object = st.sampled_from([
    None, float, int, bool, complex, str, bytes, object, list, dict, 1, 1.5, np.float32,
    np.int8, np.bool_, np.str_, np.void, np.datetime64, np.generic, np.number,
    np.floating, np.integer, np.dtype("f4"), np.dtype(">f8"), np.dtype([("a", "i4")]),
    np.dtype("i4,f8"), np.dtype("(2,)f4"), [("a", "f4")], {"names": ["a"],
                                                           "formats": ["i4"]},
    ("i4", 2), ("f8", (2, 2)), (), ["f4"], np.float64(1.0), np.zeros(2, np.int16),
    type("X", (), {"dtype": np.dtype("f4")}), ca.float32, ca.int64])
_dtype = st.one_of(_string, _object)


def _check(np_f, ca_f, d, what):
    want_dt, dt_exc = exc_type(np.dtype, d)
    got, got_exc = exc_type(ca_f, d)
    if dt_exc is not None:
        assert_numpy_typed(got_exc, dt_exc, f"{what}: np.dtype({d!r})")
        return
    if d is not None and not supported(want_dt):  # refused before anything else
        assert got_exc is TypeError, f"{what}: {want_dt} gave {got_exc}"
        return
    want, want_exc = exc_type(np_f, d)
    if want_exc is not None:
        assert_numpy_typed(got_exc, want_exc, what)
        return
    assert got_exc is None, f"{what}: NumPy made {want.dtype}, cuarray raised {got_exc}"
    same_array(got, want, what)


@fuzz(250)
@given(d=_dtype)
def test_fuzz_dtype_creation(d):
    cpu = dict(device="cpu")
    _check(lambda d: np.zeros((2, 3), dtype=d), lambda d: ca.zeros((2, 3), dtype=d, **cpu),
           d, f"zeros(dtype={d!r})")
    _check(lambda d: np.asarray([1, 0, 2], dtype=d),
           lambda d: ca.asarray([1, 0, 2], dtype=d, **cpu), d, f"asarray(dtype={d!r})")
    _check(lambda d: np.arange(4, dtype=d), lambda d: ca.arange(4, dtype=d, **cpu),
           d, f"arange(dtype={d!r})")


@fuzz(200)
@given(d=_dtype, src=st.sampled_from([np.float64, np.int32, np.bool_, np.complex64]))
def test_fuzz_dtype_astype(d, src):
    x = np.array([0, 1, 3], dtype=src)
    a = ca.asarray(x, device="cpu")
    _check(x.astype, a.astype, d, f"{np.dtype(src)}.astype({d!r})")
    _check(lambda d: np.ones(2, dtype=d).view(np.uint8) if np.dtype(d).itemsize in (1, 2, 4, 8)
           else np.ones(2, dtype=d),
           lambda d: ca.ones(2, dtype=d, device="cpu").view(np.uint8)
           if np.dtype(d).itemsize in (1, 2, 4, 8) else ca.ones(2, dtype=d, device="cpu"),
           d, f"ones(dtype={d!r}).view(uint8)")
