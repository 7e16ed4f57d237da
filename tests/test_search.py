"""nonzero, where(cond), flatnonzero, argwhere and count_nonzero against NumPy, on
every dtype and both devices (csrc/ops/search.c)."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cuarray as ca
from conftest import ALL_DTYPES, DEVICES, random_array


def dev(x, device, memory=None):
    """A cuarray copy of NumPy array x on `device`."""
    return ca.array(np.array(x, copy=True), device=device, memory=memory)


def with_zeros(shape, dtype, seed=0, frac=0.4):
    """Random data of `dtype` with about `frac` of it zero."""
    rng = np.random.default_rng(seed)
    x = random_array(shape, dtype, rng)
    x[rng.random(shape) < frac] = 0
    return x


def check_index(got, want, device):
    assert isinstance(got, ca.ndarray)
    assert got.dtype == np.int64
    assert got.shape == want.shape, (got.shape, want.shape)
    assert str(got.device) == str(device)
    np.testing.assert_array_equal(got.get(), want)


def check_tuple(got, want, device):
    assert isinstance(got, tuple)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        check_index(g, w, device)


def check_all(x, a, device):
    """Every function of the family on cuarray array a against NumPy array x."""
    check_tuple(ca.nonzero(a), np.nonzero(x), device)
    check_tuple(a.nonzero(), x.nonzero(), device)
    check_tuple(ca.where(a), np.where(x), device)
    check_index(ca.flatnonzero(a), np.flatnonzero(x), device)
    check_index(ca.argwhere(a), np.argwhere(x), device)
    c = ca.count_nonzero(a)
    assert isinstance(c, ca.ndarray) and c.shape == () and c.dtype == np.int64
    assert int(c) == np.count_nonzero(x)


SHAPES = [(1,), (7,), (4, 5), (3, 4, 5), (2, 3, 4, 5), (1, 1), (1, 7, 1), (5, 1, 3, 1)]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_all_dtypes_and_dims(dtype, device):
    for i, shape in enumerate(SHAPES):
        x = with_zeros(shape, dtype, seed=i)
        check_all(x, dev(x, device), device)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_all_zero_and_all_nonzero(dtype, device):
    for shape in [(6,), (3, 4), (2, 3, 2)]:
        z = np.zeros(shape, dtype)
        check_all(z, dev(z, device), device)
        o = np.ones(shape, dtype)
        check_all(o, dev(o, device), device)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.float32, np.complex128])
@pytest.mark.parametrize("shape", [(0,), (0, 3), (3, 0), (2, 0, 4), (0, 0, 0, 0)])
def test_empty(dtype, shape, device):
    x = np.zeros(shape, dtype)
    a = dev(x, device)
    check_all(x, a, device)
    for axis in range(len(shape)):
        r = ca.count_nonzero(a, axis=axis)
        np.testing.assert_array_equal(r.get(), np.count_nonzero(x, axis=axis))
        assert r.shape == np.count_nonzero(x, axis=axis).shape


def test_ten_dims(device):
    shape = (2, 1, 2, 1, 2, 1, 2, 1, 2, 3)
    for dtype in [np.bool_, np.float64]:
        x = with_zeros(shape, dtype, seed=3)
        check_all(x, dev(x, device), device)


def test_many_blocks(device):
    """Enough elements for many GPU blocks of the mask kernels and the unravel."""
    x = with_zeros((1000, 1001), np.float32, seed=5, frac=0.7)
    check_all(x, dev(x, device), device)
    y = with_zeros((37, 41, 53), np.int16, seed=6, frac=0.02)
    check_all(y, dev(y, device), device)
    b = np.zeros(300_001, bool)
    b[[0, 4095, 4096, 4097, 123_456, 300_000]] = True
    check_all(b, dev(b, device), device)


# ---- views ---------------------------------------------------------------------------

VIEW_KEYS = [
    (slice(None, None, 2),),
    (slice(None, None, -1),),
    (slice(1, None), slice(None, None, -2)),
    (slice(None, None, -1), slice(None, None, -1), slice(None, None, -1)),
    (Ellipsis, slice(1, 4)),
    (1,),
    (slice(None), 2),
    (slice(3, 0, -2), slice(None), slice(None, None, 3)),
]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_views(dtype, device):
    x = with_zeros((5, 6, 7), dtype, seed=11)
    a = dev(x, device)
    for key in VIEW_KEYS:
        check_all(x[key], a[key], device)
    check_all(x.T, a.T, device)
    check_all(x.transpose(1, 2, 0)[::-1], a.transpose(1, 2, 0)[::-1], device)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8])
def test_byte_dtypes_not_contiguous(dtype, device):
    """Bool and 8-bit arrays are their own mask only when C-contiguous."""
    x = with_zeros((6, 8), dtype, seed=2)
    a = dev(x, device)
    check_all(x[:, ::2], a[:, ::2], device)
    check_all(x.T, a.T, device)
    check_all(x[::-1, 1:7], a[::-1, 1:7], device)
    check_all(np.asfortranarray(x), ca.asfortranarray(a), device)


def test_bool_bytes_other_than_one(device):
    """A bool array holding bytes other than 0/1 (possible through views of other
    memory): any nonzero byte is true, as NumPy reads them."""
    raw = np.array([0, 1, 2, 255, 0, 128], np.uint8)
    x = raw.view(np.bool_)
    a = dev(raw, device).view(np.bool_)
    check_tuple(ca.nonzero(a), np.nonzero(x), device)
    check_index(ca.flatnonzero(a), np.flatnonzero(x), device)
    assert int(ca.count_nonzero(a)) == np.count_nonzero(x)


def mask_cases(rng):
    """Masks across the host loops' edges: group (8), skip (32) and block (255
    words) boundaries, the pool's size thresholds (2^19 for the offsets, 2^22
    for the count), densities from none to all, long false runs, and bytes
    other than 0/1."""
    out = []
    for n in [1, 7, 8, 9, 31, 32, 33, 64, 100, 255 * 8 - 1, 255 * 8, 255 * 8 + 9, 5000]:
        for p in [0.0, 0.03, 0.5, 0.97, 1.0]:
            out.append((rng.random(n) < p).view(np.uint8))
    sparse = np.zeros(70_000, np.uint8)
    sparse[rng.integers(0, 70_000, 40)] = rng.integers(1, 256, 40)
    out.append(sparse)
    for n in [(1 << 19) - 1, (1 << 19) + 13, (1 << 22) + 5]:
        out.append((rng.random(n) < 0.4).view(np.uint8) * rng.integers(1, 256, n,
                                                                        dtype=np.uint8))
    return out


def test_mask_groups_blocks_and_pieces(device, host_threads):
    """nonzero, flatnonzero, count_nonzero, sum and mean of masks, on one host
    thread and on two (the long ones are cut in pieces; the same results)."""
    rng = np.random.default_rng(21)
    for raw in mask_cases(rng):
        x = raw.view(np.bool_)
        a = dev(raw, device).view(np.bool_)
        for threads in (1, 2):
            host_threads(threads)
            check_index(ca.flatnonzero(a), np.flatnonzero(x), device)
            check_tuple(ca.nonzero(a), np.nonzero(x), device)
            assert int(ca.count_nonzero(a)) == np.count_nonzero(x)
            assert int(a.sum()) == int(x.sum()) == np.count_nonzero(x)
            assert float(a.mean()) == x.mean()
            if raw.size == 5000:
                m = x.reshape(50, 100)
                check_tuple(ca.nonzero(a.reshape(50, 100)), np.nonzero(m), device)
                check_index(ca.argwhere(a.reshape(50, 100)), np.argwhere(m), device)
                v = np.arange(10_000, dtype=np.float32).reshape(50, 200)[:, ::2]
                got = dev(v, device)[a.reshape(50, 100)]
                np.testing.assert_array_equal(got.get(), v[m])


# ---- floats and complex ---------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_nan_and_negative_zero(dtype, device):
    x = np.array([0.0, -0.0, np.nan, 1.0, -np.inf, np.inf, -np.nan, 0.0, 1e-30, -5e-8],
                 dtype)
    a = dev(x, device)
    check_all(x, a, device)
    check_all(x.reshape(2, 5), a.reshape(2, 5), device)
    # -0.0 is zero, NaN nonzero
    assert ca.flatnonzero(dev(np.array([-0.0, np.nan], dtype), device)).get().tolist() == [1]


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_parts(dtype, device):
    vals = [0, 1j, 1, -0.0 - 0.0j, complex(np.nan, 0), complex(0, np.nan), complex(-0.0, 2),
            complex(3, -0.0), 0j, complex(np.inf, 0)]
    x = np.array(vals, dtype)
    a = dev(x, device)
    check_all(x, a, device)
    check_all(x.reshape(5, 2)[::-1], a.reshape(5, 2)[::-1], device)


# ---- where(condition) -------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_where_one_argument(dtype, device):
    for shape in [(9,), (3, 4), (2, 3, 4)]:
        x = with_zeros(shape, dtype, seed=21)
        check_tuple(ca.where(dev(x, device)), np.where(x), device)
    x = with_zeros((4, 5), dtype, seed=22)
    check_tuple(ca.where(condition=dev(x, device)), np.where(x), device)


def test_where_one_argument_comparison(device):
    x = random_array((6, 7), np.float64)
    a = dev(x, device)
    check_tuple(ca.where(a > 0), np.where(x > 0), device)
    # the result indexes the array as NumPy's does
    r = ca.where(a > 0)
    np.testing.assert_array_equal(a[r].get(), x[np.where(x > 0)])


def test_nonzero_result_indexes(device):
    x = with_zeros((4, 5, 6), np.float32, seed=8)
    a = dev(x, device)
    np.testing.assert_array_equal(a[ca.nonzero(a)].get(), x[np.nonzero(x)])
    np.testing.assert_array_equal(a[a.nonzero()].get(), x[x.nonzero()])


def test_results_are_independent_arrays(device):
    x = with_zeros((3, 4), np.int32, seed=9)
    a = dev(x, device)
    r0, r1 = ca.nonzero(a)
    want0, want1 = np.nonzero(x)
    r0[...] = -1
    np.testing.assert_array_equal(r1.get(), want1)
    # the input is untouched
    np.testing.assert_array_equal(a.get(), x)
    assert r0.flags.c_contiguous and r1.flags.c_contiguous
    del r0
    np.testing.assert_array_equal(r1.get(), want1)
    # argwhere is C-contiguous (N, ndim), as NumPy's
    assert ca.argwhere(a).flags.c_contiguous


# ---- count_nonzero ----------------------------------------------------------------------

AXES = [None, 0, 1, -1, 2, (0, 2), (1, 0), (), (0, 1, 2), (-1, -3)]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_count_nonzero_axis(dtype, device):
    x = with_zeros((3, 4, 5), dtype, seed=31)
    a = dev(x, device)
    for axis in AXES:
        for keepdims in (False, True):
            got = ca.count_nonzero(a, axis=axis, keepdims=keepdims)
            want = np.count_nonzero(x, axis=axis, keepdims=keepdims)
            want = np.asarray(want)
            assert isinstance(got, ca.ndarray)
            assert got.dtype == np.int64
            assert got.shape == want.shape, (axis, keepdims, got.shape, want.shape)
            assert str(got.device) == str(device)
            np.testing.assert_array_equal(got.get(), want)
    # positional axis
    np.testing.assert_array_equal(ca.count_nonzero(a, 1).get(), np.count_nonzero(x, 1))


def test_count_nonzero_views(device):
    x = with_zeros((6, 7, 8), np.float64, seed=32)
    x[0, 0, 0] = np.nan
    x[1, 1, 1] = -0.0
    a = dev(x, device)
    for key in VIEW_KEYS:
        for axis in (None, 0, -1):
            np.testing.assert_array_equal(
                ca.count_nonzero(a[key], axis=axis).get(),
                np.count_nonzero(x[key], axis=axis))


def test_count_nonzero_zero_d(device):
    for v in (0, 3, np.nan):
        x = np.array(v, np.float32)
        a = dev(x, device)
        c = ca.count_nonzero(a)
        assert c.shape == () and int(c) == np.count_nonzero(x)
        assert int(ca.count_nonzero(a, axis=())) == np.count_nonzero(x, axis=())


def test_count_nonzero_bad_axis(device):
    a = dev(np.ones((2, 3)), device)
    with pytest.raises(np.exceptions.AxisError):
        ca.count_nonzero(a, axis=2)
    with pytest.raises(np.exceptions.AxisError):
        ca.count_nonzero(a, axis=(0, -3))
    with pytest.raises(ValueError):
        ca.count_nonzero(a, axis=(0, 0))
    with pytest.raises(TypeError):
        ca.count_nonzero(a, axis=1.5)
    with pytest.raises(TypeError):
        ca.count_nonzero(a, 0, True)   # keepdims is keyword-only, as NumPy's


# ---- 0-d and bad input ------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_zero_d(dtype, device):
    for v in (0, 1):
        x = np.array(v, dtype)
        a = dev(x, device)
        with pytest.raises(ValueError, match="0d arrays"):
            ca.nonzero(a)
        with pytest.raises(ValueError, match="0d arrays"):
            a.nonzero()
        with pytest.raises(ValueError, match="0d arrays"):
            ca.where(a)
        check_index(ca.flatnonzero(a), np.flatnonzero(x), device)
        check_index(ca.argwhere(a), np.argwhere(x), device)
        assert int(ca.count_nonzero(a)) == np.count_nonzero(x)


@pytest.mark.parametrize("fn", [ca.nonzero, ca.flatnonzero, ca.argwhere, ca.count_nonzero,
                                ca.where])
def test_bad_input(fn):
    for bad in (np.ones(3), [1, 0, 2], 3, None, "abc"):
        with pytest.raises(TypeError):
            fn(bad)
    with pytest.raises(TypeError):
        fn()
    with pytest.raises(TypeError):
        fn(ca.ones(3, device="cpu"), nonsense=1)


def test_bad_arguments():
    a = ca.ones(3, device="cpu")
    with pytest.raises(TypeError):
        ca.nonzero(a, a)
    with pytest.raises(TypeError):
        a.nonzero(1)
    with pytest.raises(TypeError):
        ca.argwhere(a, 0)
    with pytest.raises(TypeError):
        ca.count_nonzero(a, 0, keepdims=True, extra=1)
    # keyword names as NumPy's
    check_tuple(ca.nonzero(a=a), np.nonzero(np.ones(3)), "cpu")
    check_index(ca.flatnonzero(a=a), np.flatnonzero(np.ones(3)), "cpu")
    check_index(ca.argwhere(a=a), np.argwhere(np.ones(3)), "cpu")


# ---- memory kinds and large arrays --------------------------------------------------------

@pytest.mark.parametrize("memory", ["managed", "pinned"])
def test_memory_kinds(memory, device):
    if device == "cpu":
        pytest.skip("managed and pinned memory are GPU kinds")
    for dtype in (np.bool_, np.float32, np.complex64):
        x = with_zeros((7, 9), dtype, seed=41)
        a = dev(x, device, memory=memory)
        check_all(x, a, device)
        check_all(x[::-1, ::2], a[::-1, ::2], device)


def test_large_gpu(device):
    """More than 2**32 elements: int64 flat indices and 64-bit unravelling."""
    if device == "cpu":
        pytest.skip("5.4 GB of host memory is too much for the shared CI machine")
    cols = 2**30 + 3
    a = ca.zeros((5, cols), dtype=ca.bool_, device=device)
    rows_np = np.array([0, 0, 1, 2, 3, 4, 4], np.int64)
    cols_np = np.array([0, cols - 1, 12345, 2**29 + 7, 2**30, 5, cols - 1], np.int64)
    for r, c in zip(rows_np.tolist(), cols_np.tolist()):
        a[r, c] = True   # basic indexing: a fill of one element
    r, c = ca.nonzero(a)
    np.testing.assert_array_equal(r.get(), rows_np)
    np.testing.assert_array_equal(c.get(), cols_np)
    flat = rows_np * cols + cols_np
    assert flat.max() > 2**32
    np.testing.assert_array_equal(ca.flatnonzero(a).get(), flat)
    np.testing.assert_array_equal(ca.argwhere(a).get(), np.stack([rows_np, cols_np], 1))
    assert int(ca.count_nonzero(a)) == len(flat)
    np.testing.assert_array_equal(ca.count_nonzero(a, axis=1).get(),
                                  np.bincount(rows_np, minlength=5))
    del a, r, c


# ---- random views (hypothesis) -------------------------------------------------------------

@st.composite
def strided_views(draw):
    ndim = draw(st.integers(1, 4))
    shape = tuple(draw(st.integers(0, 6)) for _ in range(ndim))
    key = []
    for n in shape:
        step = draw(st.sampled_from([1, 2, 3, -1, -2]))
        start = draw(st.integers(0, max(n - 1, 0)))
        key.append(slice(start, None, step) if step > 0 else slice(None, start, step))
    dtype = draw(st.sampled_from(ALL_DTYPES))
    seed = draw(st.integers(0, 2**16))
    frac = draw(st.sampled_from([0.0, 0.3, 0.9, 1.0]))
    return shape, tuple(key), dtype, seed, frac


@pytest.mark.parametrize("where", DEVICES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=strided_views())
def test_random_views(where, case):
    shape, key, dtype, seed, frac = case
    x = with_zeros(shape, dtype, seed=seed, frac=frac)
    a = dev(x, where)
    check_all(x[key], a[key], where)


def test_on_a_stream(device):
    """Data made on a non-default stream: the count waits for that stream."""
    x = with_zeros((512, 1024), np.float32, seed=51, frac=0.5)
    with ca.Device(device):
        s = ca.cuda.Stream(non_blocking=True)
        with s:
            a = dev(x, device)
            b = a * 2.0
            nz = ca.nonzero(b)
            flat = ca.flatnonzero(b)
            arg = ca.argwhere(b)
            cnt = ca.count_nonzero(b, axis=0)
            s.synchronize()
        check_tuple(nz, np.nonzero(x), device)
        check_index(flat, np.flatnonzero(x), device)
        check_index(arg, np.argwhere(x), device)
        np.testing.assert_array_equal(cnt.get(), np.count_nonzero(x, axis=0))


def test_deferred_inputs(device):
    """Inputs that element-wise fusion may leave pending on a GPU (dense float32
    and bool arrays above its size threshold): their kernels must run first."""
    x = with_zeros((300, 1000), np.float32, seed=61, frac=0.3)
    a = dev(x, device)
    check_tuple(ca.nonzero(a > 0.5), np.nonzero(x > 0.5), device)
    check_tuple(ca.where((a > 0.5) & (a < 2.0)), np.where((x > 0.5) & (x < 2.0)), device)
    check_index(ca.flatnonzero(a * 2.0 - 1.0), np.flatnonzero(x * 2.0 - 1.0), device)
    check_index(ca.argwhere(a < -1.0), np.argwhere(x < -1.0), device)
    assert int(ca.count_nonzero(a > 0.5)) == np.count_nonzero(x > 0.5)
    np.testing.assert_array_equal(ca.count_nonzero(a - 1.0, axis=1).get(),
                                  np.count_nonzero(x - 1.0, axis=1))


def test_large_gpu_cast(device):
    """More than 2**31 elements of a dtype that is cast to a mask first."""
    if device == "cpu":
        pytest.skip("4.3 GB of host memory is too much for the shared CI machine")
    n = 2**31 + 5
    a = ca.zeros((n,), dtype=ca.float16, device=device)
    pos = [0, 2**31 - 1, 2**31, n - 1]
    for p in pos:
        a[p] = -1.5
    a[7] = -0.0   # zero
    np.testing.assert_array_equal(ca.flatnonzero(a).get(), pos)
    (i,) = ca.nonzero(a)
    np.testing.assert_array_equal(i.get(), pos)
    assert int(ca.count_nonzero(a)) == len(pos)
    del a, i
