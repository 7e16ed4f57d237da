"""Fuzz: fromstring and loadtxt input against NumPy.

Text drawn from numbers (ints, floats, exponents, nan, inf, hex, signs), separators,
spaces, newlines, comments and stray characters, read with random dtypes, sep,
count, delimiter, comments, skiprows, usecols, max_rows, ndmin and unpack. The
result, or the exception type, must be NumPy's (NumPy's deprecation warnings are
errors here, so a short read is the same DeprecationWarning from both); a dtype
cuarray does not hold is TypeError. Budget: tests/fuzz_budget.py.
"""

import io
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cuarray as ca
from fuzz_budget import assert_numpy_typed, exc_type, fuzz, same_array, supported

_clean = st.one_of(st.integers(-300, 300).map(str), st.integers(-2**70, 2**70).map(str),
                   st.floats(allow_nan=True, allow_infinity=True).map(repr),
                   st.sampled_from(["nan", "-inf", "+inf", "1e5", "1E-3", ".5", "5.", "-0"]))
_odd = st.sampled_from(["0x1A", "1_0", "1,5", "1j", "1+2j", "True", "", "-", "e", "1e", "٣",
                        "1.5.5", "--1", "NaN", "INF", "0b1"])
# mostly numbers NumPy reads, one in eight odd
_number = st.integers(0, 7).flatmap(lambda k: _odd if k == 0 else _clean)
_sep_chars = st.sampled_from([" ", " ", ",", ", ", "\t", ";", "\n", "  ", "|"])
_stray = st.sampled_from(["#", "# c\n", "x", "\n", "\r\n", " ", ",,", '"', "'", "\x00"])


@st.composite
def _text(draw, sep):
    """Numbers joined by `sep` (the separator the reader is given), now and then
    another separator or a stray character between two of them."""
    parts = []
    for _ in range(draw(st.integers(0, 12))):
        parts.append(draw(_number))
        k = draw(st.integers(0, 9))
        parts.append(sep if k > 1 else draw(_sep_chars) if k else draw(_stray))
    return "".join(parts[:-1])


@st.composite
def _table(draw):
    """Lines of a text table: mostly regular rows, sometimes ragged or odd."""
    ncol = draw(st.integers(1, 4))
    delim = draw(st.sampled_from([None, ",", ";", "\t"]))
    lines = []
    cell = _number if draw(st.integers(0, 2)) == 0 else _clean  # a table of clean numbers
    for _ in range(draw(st.integers(0, 6))):
        k = ncol if draw(st.integers(0, 6)) else draw(st.integers(0, 5))
        cells = [draw(cell) for _ in range(k)]
        line = (delim or " ").join(cells)
        if draw(st.integers(0, 12)) == 0:
            line += draw(_stray)
        lines.append(line)
    return "\n".join(lines), delim, ncol


_dtypes = st.sampled_from([float, float, int, np.float32, np.int64, np.uint8, np.int8, bool,
                           complex, np.float16, "U3", object, "i4,f8", "S2", "M8[s]"])


def _compare(np_f, ca_f, what, dtype, defined=None):
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        warnings.simplefilter("ignore", UserWarning)  # loadtxt's "input contained no data"
        want, want_exc = exc_type(np_f)
        got, got_exc = exc_type(ca_f)
    if want_exc is not None:
        assert_numpy_typed(got_exc, want_exc, what)
        return
    if not supported(dtype):  # also where NumPy unpacks a structured dtype's fields
        assert got_exc is TypeError, f"{what}: NumPy read {dtype}, cuarray {got_exc}"
        return
    if not supported(want.dtype):
        assert got_exc is TypeError, f"{what}: NumPy made {want.dtype}, cuarray {got_exc}"
        return
    assert got_exc is None, f"{what}: NumPy returned, cuarray raised {got_exc}"
    if isinstance(got, tuple):  # loadtxt(unpack=True): NumPy's arr.T, one array per row
        got = ca.stack(got) if got else ca.empty((0,) + want.shape[1:], dtype=want.dtype)
    if defined is not None and defined < want.size:
        # NumPy leaves the elements past a short read uninitialized
        assert got.shape == want.shape and got.dtype == want.dtype, what
        got, want = got[:defined], want[:defined]
    same_array(got, want, what)


_seps = st.sampled_from([" ", ",", ", ", "\n", ";", "x", "", "  "])


@fuzz(200)
@given(case=_seps.flatmap(lambda sep: st.tuples(st.just(sep), _text(sep or " "))),
       dtype=_dtypes, count=st.sampled_from([-1, -1, 0, 1, 3, 50, -5]),
       as_bytes=st.booleans())
def test_fuzz_fromstring(case, dtype, count, as_bytes):
    sep, text = case
    s = text.encode("utf-8") if as_bytes else text
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        full, _ = exc_type(np.fromstring, s, dtype=dtype, sep=sep)
    _compare(lambda: np.fromstring(s, dtype=dtype, count=count, sep=sep),
             lambda: ca.fromstring(s, dtype=dtype, count=count, sep=sep, device="cpu"),
             f"fromstring({s!r}, dtype={dtype}, count={count}, sep={sep!r})", dtype,
             defined=None if full is None else full.size)


@fuzz(200)
@given(table=_table(), dtype=_dtypes,
       kw=st.fixed_dictionaries({}, optional=dict(
           comments=st.sampled_from(["#", None, ["#", "x"], "//"]),
           skiprows=st.sampled_from([0, 1, 3, -1]),
           usecols=st.sampled_from([None, 0, (0, 1), (-1,), (5,), [1, 0], 1.5]),
           max_rows=st.sampled_from([None, 0, 1, 2, -1]),
           ndmin=st.sampled_from([0, 1, 2, 3]),
           unpack=st.booleans(),
           quotechar=st.sampled_from([None, '"']))),
       source=st.sampled_from(["file", "lines"]))
def test_fuzz_loadtxt(table, dtype, kw, source):
    text, delim, _ = table

    def src():
        return io.StringIO(text) if source == "file" else text.splitlines()
    _compare(lambda: np.loadtxt(src(), dtype=dtype, delimiter=delim, **kw),
             lambda: ca.loadtxt(src(), dtype=dtype, delimiter=delim, device="cpu", **kw),
             f"loadtxt({text!r}, dtype={dtype}, delimiter={delim!r}, **{kw})", dtype)


def test_fromstring_without_sep_is_numpys_value_error():
    # found by the fuzz: sep was a required keyword here (TypeError)
    with pytest.raises(ValueError, match="binary mode"):
        ca.fromstring("1 2", device="cpu")
