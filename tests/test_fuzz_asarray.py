"""Fuzz: cuarray.asarray / cuarray.array of nested Python objects against NumPy.

Every input NumPy turns into an array of a dtype cuarray holds must give the same
dtype, shape and values; where NumPy raises, cuarray raises NumPy's exception type;
where NumPy's result is an object, string or void array, cuarray raises TypeError.
Budget: tests/fuzz_budget.py.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cuarray as ca
from conftest import ALL_DTYPES
from fuzz_budget import assert_numpy_typed, exc_type, fuzz, same_array, supported

pytestmark = pytest.mark.filterwarnings("ignore")  # NumPy's cast and deprecation warnings

_ints = st.one_of(st.integers(-300, 300), st.sampled_from(
    [2**31 - 1, 2**31, 2**32, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -2**63, -2**63 - 1,
     2**70, -2**70]))
_np_scalars = st.builds(lambda v, t: t(v), st.integers(0, 100),
                        st.sampled_from(ALL_DTYPES))
_scalars = st.one_of(
    _ints, st.floats(allow_nan=True, allow_infinity=True), st.booleans(),
    st.complex_numbers(allow_nan=True, allow_infinity=True), st.none(),
    st.text(max_size=2), st.binary(max_size=2), _np_scalars,
    st.builds(np.array, st.integers(-5, 5)),                      # 0-d arrays
    st.builds(lambda n: np.arange(n, dtype=np.float32), st.integers(0, 3)))


def _extend(children):
    return st.one_of(st.lists(children, max_size=4),
                     st.lists(children, max_size=4).map(tuple))


_nested = st.recursive(_scalars, _extend, max_leaves=16)


@st.composite
def _regular(draw):
    """A regular nest (equal lengths, one leaf kind), which NumPy accepts."""
    dims = tuple(draw(st.lists(st.integers(0, 3), max_size=3)))
    leaf = draw(st.sampled_from([_ints, st.floats(), st.booleans(), st.complex_numbers(),
                                 _np_scalars]))
    n = int(np.prod(dims))
    vals = np.empty(n, dtype=object)
    vals[:] = draw(st.lists(leaf, min_size=n, max_size=n))
    return vals.reshape(dims).tolist()


_dtypes = st.one_of(st.none(), st.sampled_from(ALL_DTYPES),
                    st.sampled_from(["f4", ">i4", "U2", "O", "M8", "c16", "?", "int", "V3",
                                     "S1", "xyz", "", "i8,i8"]))


def _compare(f, obj, **kw):
    want, want_exc = exc_type(getattr(np, f.__name__), obj, **kw)
    got, got_exc = exc_type(f, obj, device="cpu", **kw)
    what = f"{f.__name__}({obj!r}, {kw})"
    dt, dt_exc = exc_type(np.dtype, kw["dtype"])
    if dt_exc is None and kw["dtype"] is not None and not supported(dt):
        # cuarray refuses a dtype it cannot hold before it reads the data
        assert got_exc is TypeError, f"{what}: cuarray raised {got_exc}"
        return
    if want_exc is not None:
        assert_numpy_typed(got_exc, want_exc, what)
        return
    if not supported(want.dtype):
        assert got_exc is TypeError, f"{what}: NumPy made {want.dtype}, cuarray {got_exc}"
        return
    assert got_exc is None, f"{what}: NumPy returned {want.dtype}, cuarray raised {got_exc}"
    same_array(got, want, what)


@fuzz(200)
@given(obj=st.one_of(_nested, _regular()), dtype=_dtypes)
def test_fuzz_asarray_nested(obj, dtype):
    _compare(ca.asarray, obj, dtype=dtype)


@fuzz(120)
@given(obj=st.one_of(_nested, _regular()), dtype=_dtypes, ndmin=st.integers(0, 4),
       copy=st.sampled_from([True, None]), order=st.sampled_from(["C", "F", "K", "A"]))
def test_fuzz_array_options(obj, dtype, ndmin, copy, order):
    _compare(ca.array, obj, dtype=dtype, ndmin=ndmin, copy=copy, order=order)


def _nest_of_rows(a, kinds):
    """`a` as nested lists whose innermost rows are cuarray arrays, NumPy arrays or
    lists, the kind of each row drawn from `kinds`."""
    if a.ndim == 1:
        kind = next(kinds)
        return (ca.asarray(a, device="cpu") if kind == 0 else a if kind == 1
                else a.tolist())
    return [_nest_of_rows(r, kinds) for r in a]


@fuzz(100)
@given(obj=_regular(), dtype=st.sampled_from(ALL_DTYPES),
       kinds=st.lists(st.integers(0, 2), min_size=1, max_size=8))
def test_fuzz_asarray_of_cuarray_rows(obj, dtype, kinds):
    want, want_exc = exc_type(np.asarray, obj, dtype=dtype)
    if want_exc is not None or want.ndim == 0:
        return
    if want.shape[-1] == 0:
        kinds = [min(k, 1) for k in kinds]  # empty list rows: test_empty_list_row_beside_arrays
    got = ca.asarray(_nest_of_rows(want, iter(kinds * 64)), device="cpu")
    # NumPy's answer for the same nest with NumPy rows where cuarray's are
    want = np.asarray(_nest_of_rows(want, iter([k or 1 for k in kinds] * 64)))
    same_array(got, want, f"asarray(nest of rows {kinds} of {want!r})")


@pytest.mark.parametrize("obj", [[1, [2]], [[1, 2], [3]], [[[1]], [2]], [(1, 2), [3]]])
def test_ragged_is_value_error(obj):
    with pytest.raises(ValueError):
        np.asarray(obj)
    with pytest.raises(ValueError):
        ca.asarray(obj, device="cpu")


def test_empty_list_row_beside_arrays():
    e = np.array([], bool)
    want = np.asarray([e, []])
    got = ca.asarray([ca.asarray(e, device="cpu"), []], device="cpu")
    same_array(got, want, "asarray([bool[0], []])")


@pytest.mark.parametrize("call", [lambda m, x: m.asarray(x, copy="x"),
                                  lambda m, x: m.array(x, copy="no"),
                                  lambda m, x: x.__dlpack__(copy="x")])
def test_str_copy_argument(call):
    x = np.arange(3.0)
    with pytest.raises(ValueError):
        call(np, x)
    with pytest.raises(ValueError):
        call(ca, ca.asarray(x, device="cpu"))
