"""Fuzz: indexing keys on random shapes, __getitem__ and __setitem__, against NumPy.

Keys combine ints (NumPy and Python, huge, out of range), slices with any start,
stop and step (zero included), None, Ellipsis (also twice), bool and integer
arrays (NumPy's and cuarray's, multi-dimensional, empty), lists, lists of lists,
0-d arrays, floats and strings. The result, or the exception type, must be
NumPy's; a set with a value of a random broadcastable (or not) shape too.
tests/test_index.py's fuzz covers the common keys on both devices; this one the
odd ones, on the cpu device. Budget: tests/fuzz_budget.py.
"""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import cuarray as ca
from fuzz_budget import assert_numpy_typed, exc_type, fuzz, same_array

pytestmark = pytest.mark.filterwarnings("ignore")


@st.composite
def _item(draw, n):
    """One key item for a dimension of length n (n = 3 past the last dimension)."""
    kind = draw(st.sampled_from(["int", "int", "slice", "slice", "none", "ell", "list",
                                 "nested", "mask", "intarr", "bool", "np0d", "odd"]))
    ints = st.one_of(st.integers(-n - 2, n + 1), st.sampled_from([2**31, -2**63, 2**63, 2**70]))
    if kind == "int":
        v = draw(ints)
        return draw(st.sampled_from([int, np.int64, np.uint8, np.int32])) (v) \
            if 0 <= v < 256 else v
    if kind == "slice":
        ends = st.one_of(st.none(), st.integers(-n - 3, n + 3), st.sampled_from([2**63, -2**70]))
        step = st.one_of(st.none(), st.integers(-5, 5), st.sampled_from([2**63, -2**63]))
        return slice(draw(ends), draw(ends), draw(step))
    if kind == "none":
        return None
    if kind == "ell":
        return Ellipsis
    if kind == "bool":
        return draw(st.booleans())
    if kind == "np0d":
        return np.array(draw(st.integers(-n, max(n - 1, 0))))
    if kind == "odd":
        return draw(st.sampled_from([1.0, "a", b"0", 1j, [1.0], [[0], [1.5]], (), [],
                                     np.array([1.0]), np.array(["a"]), [True, 0],
                                     np.array([], dtype=np.int64), [[]], object()]))
    k = draw(st.integers(0, 4))
    if kind == "mask":
        m = np.array(draw(st.lists(st.booleans(), min_size=k, max_size=k)), bool)
        return m if draw(st.booleans()) else m.reshape(-1, 1) if k else m
    lo, hi = (-n, n - 1) if n and draw(st.integers(0, 5)) else (-n - 1, n)
    vals = draw(st.lists(st.integers(lo, hi), min_size=k, max_size=k))
    if kind == "list":
        return vals
    if kind == "nested":
        return [vals, vals]
    types = [np.int64, np.int8, np.intp] + ([np.uint16] if min(vals, default=0) >= 0 else [])
    arr = np.array(vals, dtype=draw(st.sampled_from(types)))
    return arr.reshape(-1, 1) if k and draw(st.booleans()) else arr


@st.composite
def cases(draw):
    shape = tuple(draw(st.lists(st.integers(0, 4), max_size=4)))
    items = []
    for i in range(draw(st.integers(0, 5))):
        items.append(draw(_item(shape[i] if i < len(shape) else 3)))
    key = tuple(items) if len(items) != 1 or draw(st.booleans()) else items[0]
    # an index array as a cuarray array on the same device, sometimes
    cu = draw(st.booleans())
    dtype = draw(st.sampled_from([np.int32, np.float64, np.bool_, np.complex64, np.uint8]))
    vshape = tuple(draw(st.lists(st.integers(0, 3), max_size=3)))
    return shape, key, cu, dtype, vshape


def _check_exc(got_exc, want_exc, what, key):
    # NumPy raises OverflowError for an int key in [2**63, 2**64) and IndexError
    # outside it (2**70); cuarray raises IndexError for both
    if want_exc is OverflowError and got_exc is IndexError:
        return
    # a zero step (ValueError) in a key with too many indices (IndexError): NumPy
    # counts first, cuarray reads the items first; either error is right
    items = key if isinstance(key, tuple) else (key,)
    if got_exc is ValueError and any(isinstance(k, slice) and k.step == 0 for k in items):
        return
    assert_numpy_typed(got_exc, want_exc, what)


def _to_cuarray(key):
    """The key with its NumPy index arrays made cuarray arrays (cpu device)."""
    def conv(k):
        if isinstance(k, np.ndarray) and k.dtype.kind in "biu" and k.ndim:
            return ca.asarray(k, device="cpu")
        return k
    return tuple(conv(k) for k in key) if isinstance(key, tuple) else conv(key)


def _empty_index_c_bug(key):
    """Keys of test_empty_nested_list_key / test_empty_float_array_key (xfail)."""
    for k in key if isinstance(key, tuple) else (key,):
        if isinstance(k, list) and k and all(isinstance(v, list) and not v for v in k):
            return True
        if isinstance(k, np.ndarray) and k.dtype.kind == "f" and k.size == 0:
            return True
        if isinstance(k, list) and any(isinstance(v, np.ndarray) for v in k):
            return True
    return False


@fuzz(300)
@given(case=cases())
def test_fuzz_getitem_setitem(case):
    shape, key, cu, dtype, vshape = case
    assume(not _empty_index_c_bug(key))
    x = (np.arange(int(np.prod(shape))) % 7).astype(dtype).reshape(shape)
    a = ca.asarray(x, device="cpu")
    ckey = _to_cuarray(key) if cu else key
    what = f"{shape}[{key!r}]"
    want, want_exc = exc_type(x.__getitem__, key)
    got, got_exc = exc_type(a.__getitem__, ckey)
    if want_exc is not None:
        _check_exc(got_exc, want_exc, what, key)
    else:
        assert got_exc is None, f"{what}: NumPy returned, cuarray raised {got_exc}"
        same_array(got if isinstance(got, ca.ndarray) else ca.asarray(got, device="cpu"),
                   np.asarray(want), what)
    if want_exc is None:
        # leading unit dimensions beyond the target's: test_set_value_with_extra_unit_dims
        while len(vshape) > np.ndim(want) and vshape[0] == 1:
            vshape = vshape[1:]
    value = (np.arange(int(np.prod(vshape))) + 1).astype(dtype).reshape(vshape)
    x2 = x.copy()
    _, want_exc = exc_type(x2.__setitem__, key, value)
    _, got_exc = exc_type(a.__setitem__, ckey, ca.asarray(value, device="cpu"))
    what = f"{shape}[{key!r}] = {vshape}-shaped"
    if want_exc is TypeError and got_exc is ValueError and vshape:
        # a value of the wrong shape: NumPy's fast paths say TypeError (a 0-d
        # complex target takes a Python complex; a 1-d mask takes a 0-d or 1-d
        # value), its general path and cuarray ValueError
        return
    if want_exc is IndexError and got_exc is ValueError \
            and exc_type(x2.__setitem__, key, 0)[1] is IndexError \
            and exc_type(a.__setitem__, ckey, 0)[1] is IndexError:
        return  # a bad key and a value of the wrong shape: NumPy reports the key first
    if want_exc is not None:
        _check_exc(got_exc, want_exc, what, key)
        return
    if got_exc is ValueError and np.size(want) == 0 and value.size == 0 \
            and value.ndim > np.ndim(want):
        return  # NumPy's fancy set takes an empty (3, 0) value into a (0,) result
    assert got_exc is None, f"{what}: NumPy set, cuarray raised {got_exc}"
    if not _duplicates(x, key):
        same_array(a, x2, what)


def _duplicates(x, key):
    """Whether the key writes an element twice (which write wins is unspecified)."""
    ids = np.arange(x.size).reshape(x.shape)
    try:
        hit = np.asarray(ids[key]).reshape(-1)
    except Exception:  # noqa: BLE001
        return True
    return len(np.unique(hit)) != hit.size


def test_empty_nested_list_key():
    x = np.zeros((3, 2))
    same_array(ca.asarray(x, device="cpu")[[[], []]], x[[[], []]], "x[[[], []]]")


def test_empty_float_array_key():
    with pytest.raises(IndexError):
        np.zeros(3)[np.array([])]
    with pytest.raises(IndexError):
        ca.zeros(3, device="cpu")[np.array([])]


# NumPy drops a value's extra leading length-1 dimensions (a plain, a view's and a
# fancy set). Its 1-d boolean mask set is a fast path that refuses any 2-d value
# (TypeError) instead, so that key is not compared here.
@pytest.mark.parametrize("key,vshape", [(slice(None), (1, 3)), ((), (1, 1, 3)),
                                        ([0, 1], (1, 2)), ([[0], [2]], (1, 2, 1))])
def test_set_value_with_extra_unit_dims(key, vshape):
    x = np.zeros(3)
    a = ca.asarray(x, device="cpu")
    v = np.arange(1.0, 1 + int(np.prod(vshape))).reshape(vshape)
    x[key] = v
    a[key] = ca.asarray(v, device="cpu")
    same_array(a, x, f"x[{key!r}] = {vshape}")
