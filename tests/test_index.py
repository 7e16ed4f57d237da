"""__getitem__ / __setitem__ against NumPy, on every dtype and both devices."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cuarray as ca
from conftest import ALL_DTYPES, random_array


def dev_array(x, device):
    """A cuarray copy of NumPy array x on `device` (never sharing x's memory)."""
    return ca.array(np.array(x, copy=True), device=device)


def check_same(got, want):
    assert isinstance(got, ca.ndarray)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.get(), want)


# Keys on a (4, 5, 6) array, basic indexing only: the result is a view.
BASIC_KEYS = [
    0, -1, 3, -4,
    slice(None), slice(1, 3), slice(None, None, 2), slice(None, None, -1),
    slice(-2, None), slice(3, 0, -2), slice(10, -10, -3), slice(5, 10), slice(2, 2),
    (), Ellipsis, None,
    (0, 1), (0, 1, 2), (-1, -2, -3), (1, slice(None), 2),
    (Ellipsis, 1), (1, Ellipsis), (Ellipsis, None), (None, Ellipsis, None),
    (slice(None, None, -1), slice(1, None, 2), slice(None, None, -3)),
    (None, 1, None, slice(1, 4), None), (Ellipsis, slice(None, None, -2), 0),
    (0, Ellipsis, 0), (slice(0, 0), 1), (1, None, 2, 3),
    np.int64(2), np.int8(-1), (np.intp(1), np.uint8(2)), np.array(1),
]

# Advanced keys on a (4, 5, 6) array.
ADV_KEYS = [
    [0, 2, 3], [-1, 0, -4], [[0, 1], [2, 3]], [], np.array([3, 3, 0]),
    np.array([1, 0], dtype=np.int8), np.array([2], dtype=np.uint16),
    ([0, 1], [2, 3]), ([0, 1], [2, 3], [4, 5]), ([[0], [1]], [2, 3]),
    (slice(None), [0, 4]), (slice(None), [0, 4], slice(1, 3)),
    ([0, 1], slice(None), [2, 3]), ([1], Ellipsis, [2]), (slice(None), [0], Ellipsis, [1]),
    (0, slice(None), [0, 1]), (slice(None), 0, [0, 1]), ([0, 1], 0),
    (None, [0, 1], None), ([0, 1], None, [1, 2]),
    (slice(None, None, -1), [[1, 0]], slice(None, None, 2)),
    (Ellipsis, [-1, -2]), ([2], [[1], [3]], [[5, 0]]),
    True, False, (slice(None), True), (Ellipsis, False, [0]), ([0, 1], True),
    np.array(2) * 0 + np.array([1]),
    [True, False, True, True], ([True, False, True, False], 1),
    (slice(None), [True, False, False, True, True]),
]


def adv_index_to(key, kind, device):
    """Index objects of key turned into cuarray arrays (kind='ca'), NumPy arrays
    (kind='np') or left as lists."""
    def conv(k):
        if isinstance(k, (list, np.ndarray)):
            arr = np.asarray(k)
            if arr.size == 0 and arr.dtype == np.float64:
                arr = arr.astype(np.intp)
            if kind == "ca":
                return ca.array(arr, device=device)
            if kind == "np":
                return arr
        return k
    if isinstance(key, tuple):
        return tuple(conv(k) for k in key)
    return conv(key)


def masks_for(x):
    rng = np.random.default_rng(7)
    return [
        rng.random(x.shape) < 0.5,
        rng.random(x.shape[:1]) < 0.5,
        rng.random(x.shape[:2]) < 0.5,
        np.zeros(x.shape, bool),
        np.ones(x.shape[:2], bool),
    ]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_get_every_dtype(device, dtype):
    x = random_array((4, 5, 6), dtype)
    a = dev_array(x, device)
    for key in BASIC_KEYS:  # views
        got = a[key]
        check_same(got, np.asarray(x[key]))
        assert got.base is a
    for key in ADV_KEYS:  # copies
        want = x[key]
        for kind in ("list", "np", "ca"):
            check_same(a[adv_index_to(key, kind, device)], want)
    for m in masks_for(x):
        check_same(a[ca.array(m, device=device)], x[m])
        check_same(a[m], x[m])


def test_zero_d_results_are_arrays(device):
    x = random_array((3, 4), np.float32)
    a = dev_array(x, device)
    r = a[1, 2]
    assert isinstance(r, ca.ndarray) and r.ndim == 0 and r.shape == ()
    assert float(r) == float(x[1, 2])
    z = a[1, 2][()]
    assert isinstance(z, ca.ndarray) and z.ndim == 0
    assert a[..., 1, 2].ndim == 0


def test_view_shares_memory(device):
    x = random_array((4, 5, 6), np.int32)
    a = dev_array(x, device)
    v = a[1:3, ::-2, 4]
    v[...] = 0
    x[1:3, ::-2, 4] = 0
    np.testing.assert_array_equal(a.get(), x)
    w = a[None, 2][0, ..., None]
    w[1, 1] = 99
    x[2, 1, 1] = 99
    np.testing.assert_array_equal(a.get(), x)
    # views of views keep the memory alive and point at the owner
    vv = a[1:][1:][::2]
    assert vv.base is a
    del a
    np.testing.assert_array_equal(vv.get(), x[1:][1:][::2])


def test_empty_and_zero_size(device):
    x = random_array((0, 3), np.float64)
    a = dev_array(x, device)
    for key in [slice(None), (slice(None), 1), (Ellipsis, None), slice(5, 1)]:
        check_same(a[key], x[key])
    check_same(a[[]], x[[]])
    check_same(a[:, [0, 2]], x[:, [0, 2]])
    with pytest.raises(IndexError):
        a[:, [5]]
    with pytest.raises(IndexError):
        a[0]


# ---- assignment -----------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_basic_set_every_dtype(device, dtype):
    x = random_array((4, 5, 6), dtype)
    a = dev_array(x, device)
    rng = np.random.default_rng(3)
    for i, key in enumerate(BASIC_KEYS):
        target = x[key]
        shape = np.shape(target)
        val = random_array(shape, dtype, rng)
        x[key] = val
        if i % 3 == 0:
            a[key] = ca.array(val, device=device)
        elif i % 3 == 1:
            a[key] = val  # a NumPy value: copied to the device
        else:
            a[key] = ca.array(val, device=device).astype(np.complex128) \
                if np.dtype(dtype).kind == "c" else ca.array(val, device=device)
        np.testing.assert_array_equal(a.get(), x, err_msg=repr(key))
    # scalars of every kind, with broadcasting
    one = np.ones((), dtype)[()]
    for key, v in [(slice(None), one), ((Ellipsis, 1), 0), ((0, slice(1, 3)), True),
                   ((slice(None), None, 2), one), (1, np.dtype(dtype).type(0))]:
        x[key] = v
        a[key] = v
        np.testing.assert_array_equal(a.get(), x, err_msg=repr(key))


def test_set_broadcast_and_cast(device):
    x = np.zeros((4, 5, 6), np.float32)
    a = dev_array(x, device)
    row = np.arange(6, dtype=np.int64)
    a[1] = ca.array(row, device=device)
    x[1] = row
    a[:, 2] = row[None, :]
    x[:, 2] = row[None, :]
    a[..., 3] = 1.5
    x[..., 3] = 1.5
    a[2, :, :] = ca.array(np.arange(5.0)[:, None], device=device)
    x[2, :, :] = np.arange(5.0)[:, None]
    np.testing.assert_array_equal(a.get(), x)
    b = dev_array(np.zeros(3, np.int16), device)
    b[1] = 2.9
    assert b.get().tolist() == [0, 2, 0]
    with pytest.raises(OverflowError):
        dev_array(np.zeros(3, np.uint8), device)[0] = 300
    with pytest.raises(ValueError):
        a[1] = ca.array(np.zeros(5), device=device)
    with pytest.raises(ValueError):
        a[:, :, 0] = np.zeros((3, 5))


def test_set_overlapping(device):
    x = np.arange(10, dtype=np.int64)
    a = dev_array(x, device)
    a[1:] = a[:-1]
    x[1:] = x[:-1].copy()
    np.testing.assert_array_equal(a.get(), x)
    a[::-1] = a
    x[::-1] = x.copy()
    np.testing.assert_array_equal(a.get(), x)
    a[[1, 0, 3, 2, 5, 4, 7, 6, 9, 8]] = a
    x[[1, 0, 3, 2, 5, 4, 7, 6, 9, 8]] = x.copy()
    np.testing.assert_array_equal(a.get(), x)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_advanced_set_every_dtype(device, dtype):
    x = random_array((4, 5, 6), dtype)
    a = dev_array(x, device)
    rng = np.random.default_rng(11)
    for key in ADV_KEYS:
        # GPU scatters with repeated indices are "any write wins": compare those
        # only with a scalar value.
        shape = x[key].shape
        for kind in ("list", "np", "ca"):
            k = adv_index_to(key, kind, device)
            val = random_array(shape, dtype, rng)
            dup = _has_duplicates(x, key)
            if dup and device != "cpu":
                val = val.flat[0] if val.size else np.zeros((), dtype)[()]
            x[key] = val
            a[k] = ca.array(val, device=device) if isinstance(val, np.ndarray) else val
            np.testing.assert_array_equal(a.get(), x, err_msg=f"{key!r} {kind}")
            s = np.ones((), dtype)[()]
            x[key] = s
            a[k] = s
            np.testing.assert_array_equal(a.get(), x, err_msg=f"{key!r} {kind} scalar")
    for m in masks_for(x):
        val = random_array((int(m.sum()),) + x.shape[m.ndim:], dtype, rng)
        x[m] = val
        a[ca.array(m, device=device)] = ca.array(val, device=device)
        np.testing.assert_array_equal(a.get(), x)
        x[m] = 0
        a[ca.array(m, device=device)] = 0  # the masked fill path
        np.testing.assert_array_equal(a.get(), x)
        x[m] = 1
        a[m] = ca.array(np.ones((), dtype), device=device)
        np.testing.assert_array_equal(a.get(), x)


def _has_duplicates(x, key):
    pos = np.arange(x.size).reshape(x.shape)[key].ravel()
    return len(np.unique(pos)) != len(pos)


def test_scatter_duplicates_last_wins_on_cpu():
    a = dev_array(np.zeros(4, np.int32), "cpu")
    a[[1, 1, 1, 2]] = ca.array(np.array([5, 6, 7, 8], np.int32), device="cpu")
    assert a.get().tolist() == [0, 7, 8, 0]


def test_scatter_duplicates_any_wins(device):
    a = dev_array(np.zeros(4, np.int32), device)
    a[[1, 1, 1, 2]] = ca.array(np.array([5, 6, 7, 8], np.int32), device=device)
    got = a.get().tolist()
    assert got[0] == 0 and got[3] == 0 and got[2] == 8 and got[1] in (5, 6, 7)


def test_mask_with_other_indices(device):
    x = random_array((4, 5, 6), np.float64)
    a = dev_array(x, device)
    m = np.array([True, False, True, True, False])
    for key in [(slice(None), m), (1, m), (slice(None), m, [1, 2, 3]),
                ([3, 1, 0], m, 2), (Ellipsis, m, slice(None, None, -1))]:
        want = x[key]
        ca_key = tuple(ca.array(k, device=device) if isinstance(k, np.ndarray) else k
                       for k in key)
        check_same(a[ca_key], want)
        x[key] = -1.0
        a[ca_key] = -1.0
        np.testing.assert_array_equal(a.get(), x)


# ---- bad input ------------------------------------------------------------------

def test_index_errors(device):
    x = random_array((3, 4), np.float32)
    a = dev_array(x, device)
    bad = [5, -4, (0, 4), (0, -5), (0, 0, 0), (Ellipsis, Ellipsis), 1.0, (1, 1.5),
           "a", [1.5], [5], [-4], ([0, 1], [0, 1, 2]),
           [True, False], np.ones((3, 3), bool), (slice(None), [4]), object(),
           np.array([1.0]), 2 ** 70, ([0], [9])]
    for key in bad:
        with pytest.raises(IndexError):
            x[key]
        with pytest.raises(IndexError):
            a[key]
        with pytest.raises(IndexError):
            a[key] = 0
    with pytest.raises(IndexError):
        a[ca.array(np.array([0, 3]), device=device)]
    with pytest.raises(IndexError):
        a[ca.array(np.array([0.0]), device=device)]
    with pytest.raises(IndexError):
        a[ca.array(np.ones((2, 4), bool), device=device)]
    with pytest.raises(IndexError, match="number of dimensions"):
        a[(None,) * 40]  # NumPy allows 64 dimensions, cuarray 32
    with pytest.raises(ValueError):
        a[::0]
    with pytest.raises(ValueError):
        del a[0]


def test_failed_scatter_changes_nothing(device):
    x = random_array((5,), np.int64)
    a = dev_array(x, device)
    with pytest.raises(IndexError, match="out of bounds"):
        a[[0, 1, 7]] = 3
    with pytest.raises(IndexError):
        a[ca.array(np.array([4, -6]), device=device)] = ca.array(np.array([1, 2]),
                                                                 device=device)
    np.testing.assert_array_equal(a.get(), x)
    # the array stays usable
    a[[0]] = 1
    x[[0]] = 1
    np.testing.assert_array_equal(a.get(), x)


def test_out_of_range_message_names_axis(device):
    a = dev_array(np.zeros((3, 4)), device)
    with pytest.raises(IndexError, match="index 9 is out of bounds for axis 1 with size 4"):
        a[:, [1, 9]]
    with pytest.raises(IndexError, match="index -5 is out of bounds for axis 1"):
        a[[0, 1], [0, -5]]


def test_read_only_assignment(device):
    a = dev_array(np.zeros((3, 4)), device)
    b = ca.broadcast_to(a[0], (3, 4))
    with pytest.raises(ValueError, match="read-only"):
        b[0, 0] = 1
    with pytest.raises(ValueError, match="read-only"):
        b[[0]] = 1


def test_value_shape_mismatch(device):
    a = dev_array(np.zeros((3, 4)), device)
    with pytest.raises(ValueError, match="shape mismatch"):
        a[[0, 1]] = ca.array(np.zeros(3), device=device)
    with pytest.raises(ValueError):
        a[ca.array(np.ones((3, 4), bool), device=device)] = \
            ca.array(np.zeros(5), device=device)


def test_mixed_devices_raise():
    if not ca.cuda.is_available():
        pytest.skip("needs a GPU")
    a = dev_array(np.zeros(4), "cuda:0")
    i = ca.array(np.array([0, 1]), device="cpu")
    with pytest.raises(ValueError):
        a[i]
    with pytest.raises(ValueError):
        a[[0, 1]] = ca.array(np.ones(2), device="cpu")


def test_no_leak_on_errors(device):
    """Bad keys in a loop: pool usage returns to where it was."""
    a = dev_array(np.zeros((8, 8)), device)
    idx = ca.array(np.array([0, 9]), device=device)
    for _ in range(3):
        try:
            a[idx]
        except IndexError:
            pass
    pool = ca.get_default_memory_pool() if hasattr(ca, "get_default_memory_pool") \
        else None
    before = pool.used_bytes() if pool is not None and device != "cpu" else None
    for _ in range(50):
        with pytest.raises(IndexError):
            a[idx]
        with pytest.raises(IndexError):
            a[idx] = 1
        a[[1, 2]]
        a[ca.array(np.ones((8, 8), bool), device=device)]
    if before is not None:
        assert pool.used_bytes() == before


# ---- fuzz: the index parser against NumPy -----------------------------------------

def _index_item(draw, shape_dim):
    kind = draw(st.sampled_from(["int", "slice", "slice", "none", "ell", "list",
                                 "mask", "bool"]))
    n = shape_dim if shape_dim is not None else 3
    if kind == "int":
        return draw(st.integers(-n - 2, n + 2))
    if kind == "slice":
        opt = st.one_of(st.none(), st.integers(-n - 3, n + 3))
        step = draw(st.one_of(st.none(), st.integers(-4, 4).filter(lambda s: s != 0)))
        return slice(draw(opt), draw(opt), step)
    if kind == "none":
        return None
    if kind == "ell":
        return Ellipsis
    if kind == "list":
        k = draw(st.integers(0, 3))
        wide = draw(st.integers(0, 9)) == 0
        lo, hi = (-n - 1, n) if wide or n == 0 else (-n, n - 1)
        return [draw(st.integers(lo, hi)) for _ in range(k)]
    if kind == "mask":
        k = draw(st.sampled_from([n, n, n + 1]))
        return np.array([draw(st.booleans()) for _ in range(k)], dtype=bool)
    return draw(st.booleans())


@st.composite
def shapes_and_keys(draw):
    ndim = draw(st.integers(0, 4))
    shape = tuple(draw(st.integers(0, 4)) for _ in range(ndim))
    nitems = draw(st.integers(0, 5))
    items = []
    for i in range(nitems):
        items.append(_index_item(draw, shape[i] if i < ndim else None))
    as_tuple = draw(st.booleans()) or nitems != 1
    key = tuple(items) if as_tuple else items[0]
    return shape, key


@settings(max_examples=400, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(sk=shapes_and_keys())
def test_fuzz_getitem_setitem_against_numpy(device, sk):
    shape, key = sk
    x = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    a = dev_array(x, device)
    try:
        want = x[key]
    except IndexError:
        with pytest.raises(IndexError):
            a[key]
        with pytest.raises(IndexError):
            a[key] = 0
        return
    except ValueError:
        with pytest.raises((ValueError, IndexError)):
            a[key]
        return
    got = a[key]
    want = np.asarray(want)
    assert got.shape == want.shape, (shape, key)
    np.testing.assert_array_equal(got.get(), want)
    x[key] = -7
    a[key] = -7
    np.testing.assert_array_equal(a.get(), x)
    if not _has_duplicates(x, key):
        val = -np.arange(want.size, dtype=np.int32).reshape(want.shape)
        x[key] = val
        a[key] = ca.array(val, device=device)
        np.testing.assert_array_equal(a.get(), x)


@pytest.mark.parametrize("idx_dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32,
                                       np.uint32, np.int64, np.uint64])
def test_index_array_dtypes(device, idx_dtype):
    x = random_array((6, 4), np.float32)
    a = dev_array(x, device)
    i = np.array([5, 0, 3, 3], dtype=idx_dtype)
    ci = ca.array(i, device=device)
    check_same(a[ci], x[i])
    check_same(a[:, ca.array(i[:2] % 4, device=device)],
               x[:, i[:2] % 4])
    check_same(a[ci[::2]], x[i[::2]])  # a strided index array
    x[i[:2]] = 0
    a[ci[:2]] = 0
    np.testing.assert_array_equal(a.get(), x)


def test_length_zero_mask_quirk(device):
    """NumPy does not compare a mask dimension of length 0 with its axis."""
    x = random_array((1, 3), np.int16)
    a = dev_array(x, device)
    m = np.zeros(0, bool)
    check_same(a[ca.array(m, device=device)], x[m])
    a[ca.array(m, device=device)] = 5
    x[m] = 5
    np.testing.assert_array_equal(a.get(), x)


def test_zero_d_index_arrays(device):
    x = random_array((4, 5), np.float64)
    a = dev_array(x, device)
    i = ca.array(np.array(2), device=device)
    check_same(a[i], x[2])
    check_same(a[i, i], np.asarray(x[2, 2]))
    check_same(a[:, i], x[:, 2])
    t = ca.array(np.array(True), device=device)
    f = ca.array(np.array(False), device=device)
    check_same(a[t], x[np.array(True)])
    check_same(a[f], x[np.array(False)])
    check_same(a[1, t], x[1, np.array(True)])
