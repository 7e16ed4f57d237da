"""Creation functions and asarray/array, compared with NumPy on both devices."""

import array as pyarray
import gc

import math

import numpy as np
import pytest

import cuarray as ca
from conftest import ALL_DTYPES, HAVE_GPU, random_array


def rnd(shape, dtype):
    return np.asarray(random_array(shape, dtype))


def check(a, e, device):
    """a (cuarray) equals e (NumPy) in dtype, shape, values and device."""
    assert isinstance(a, ca.ndarray)
    assert a.dtype == e.dtype, (a.dtype, e.dtype)
    assert a.shape == e.shape
    assert str(a.device) == device
    np.testing.assert_array_equal(a.get(), e)


SHAPES = [(), (0,), (7,), (3, 5), (2, 0), (2, 3, 4)]


# ---- empty / zeros / ones / full ----------------------------------------------------


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_zeros_ones(device, dtype, shape):
    check(ca.zeros(shape, dtype=dtype, device=device), np.zeros(shape, dtype), device)
    check(ca.ones(shape, dtype=dtype, device=device), np.ones(shape, dtype), device)
    e = ca.empty(shape, dtype=dtype, device=device)
    assert e.shape == np.empty(shape).shape and e.dtype == dtype


@pytest.mark.parametrize("order", ["C", "F"])
def test_order(device, order):
    for f in (ca.empty, ca.zeros, ca.ones):
        a = f((3, 4, 2), order=order, device=device)
        e = np.empty((3, 4, 2), order=order)
        assert a.strides == e.strides
        assert a.flags.f_contiguous == (order == "F")
    with pytest.raises(ValueError):
        ca.zeros(3, order="K", device=device)
    with pytest.raises(ValueError):
        ca.zeros(3, order="X", device=device)


def test_defaults(device):
    assert ca.zeros(3, device=device).dtype == np.float64
    assert ca.empty(3, device=device).dtype == np.float64
    assert ca.zeros((), device=device).shape == ()
    assert ca.zeros([2, 3], device=device).shape == (2, 3)
    assert ca.zeros(np.int64(4), device=device).shape == (4,)
    assert ca.zeros((np.int32(2), 3), device=device).shape == (2, 3)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("value", [0, 1, True, 7, -3, 2.5, -0.75, 1 + 2j, np.float32(3.5),
                                   np.int8(-4)])
def test_full(device, dtype, value):
    try:
        with np.errstate(all="ignore"):
            import warnings

            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                e = np.full((2, 3), value, dtype=dtype)
    except (OverflowError, TypeError, ValueError) as exc:
        with pytest.raises(type(exc)):
            ca.full((2, 3), value, dtype=dtype, device=device)
        return
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(ca.full((2, 3), value, dtype=dtype, device=device), e, device)


@pytest.mark.parametrize("value", [3, 2.5, True, 1j, np.float32(1.5), np.uint8(200)])
def test_full_dtype_from_value(device, value):
    check(ca.full(4, value, device=device), np.full(4, value), device)


def test_full_overflow(device):
    with pytest.raises(OverflowError):
        ca.full(3, 300, dtype=np.int8, device=device)
    with pytest.raises(OverflowError):
        ca.full(3, -1, dtype=np.uint16, device=device)


def test_full_from_array(device):
    v = ca.asarray(np.array([1.0, 2.0, 3.0]), device=device)
    check(ca.full((2, 3), v, device=device), np.full((2, 3), np.array([1.0, 2.0, 3.0])),
          device)
    check(ca.full(3, ca.asarray(2, device=device), device=device), np.full(3, 2), device)


@pytest.mark.parametrize("kind", ["device", "managed", "pinned"])
def test_memory_kinds_gpu(kind):
    if not HAVE_GPU:
        pytest.skip("no CUDA GPU on this machine")
    for f in (ca.empty, ca.zeros, ca.ones):
        a = f((3, 4), dtype=np.float32, device="cuda:0", memory=kind)
        assert a.memory == kind
    np.testing.assert_array_equal(ca.zeros(5, memory=kind, device="cuda:0").get(),
                                  np.zeros(5))
    np.testing.assert_array_equal(ca.ones(5, memory=kind, device="cuda:0").get(),
                                  np.ones(5))
    np.testing.assert_array_equal(ca.full(5, 3, memory=kind, device="cuda:0").get(),
                                  np.full(5, 3))


def test_memory_kind_errors(device):
    if device == "cpu":
        assert ca.empty(3, device="cpu", memory="host").memory == "host"
        for kind in ["device", "managed", "pinned"]:
            with pytest.raises(ValueError):
                ca.empty(3, device="cpu", memory=kind)
    else:
        with pytest.raises(ValueError):
            ca.empty(3, device=device, memory="host")
    with pytest.raises(ValueError):
        ca.empty(3, device=device, memory="nowhere")
    with pytest.raises(TypeError):
        ca.empty(3, device=device, memory=3)


def test_bad_arguments(device):
    with pytest.raises(TypeError):
        ca.zeros()
    with pytest.raises(TypeError):
        ca.zeros(3, bogus=1)
    with pytest.raises(TypeError):
        ca.zeros(3, np.float32, "C", 4)
    with pytest.raises(TypeError):
        ca.zeros(3, dtype=np.float32, shape=4)
    with pytest.raises(TypeError):
        ca.full(3)


# ---- *_like -------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_like(device, dtype):
    h = rnd((3, 4), dtype)
    a = ca.asarray(h, device=device)
    check(ca.zeros_like(a), np.zeros_like(h), device)
    check(ca.ones_like(a), np.ones_like(h), device)
    check(ca.full_like(a, 1), np.full_like(h, 1), device)
    e = ca.empty_like(a)
    assert e.shape == h.shape and e.dtype == h.dtype and str(e.device) == device
    check(ca.zeros_like(h, device=device), np.zeros_like(h), device)


def test_like_layout(device):
    h = rnd((3, 4, 5), np.float32)
    a = ca.asarray(h, device=device)
    for view, hview in [(a.T, h.T), (a, h), (a.T.copy(order="C"), h.T.copy())]:
        for order in ["K", "A", "C", "F"]:
            r = ca.empty_like(view, order=order)
            e = np.empty_like(hview, order=order)
            assert r.strides == e.strides, (order, r.strides, e.strides)
    r = ca.zeros_like(a, dtype=np.int8, shape=(2, 2))
    check(r, np.zeros((2, 2), np.int8), device)
    r = ca.full_like(a, 7, dtype=np.int16)
    check(r, np.full_like(h, 7, dtype=np.int16), device)


def test_like_device_and_memory(device):
    a = ca.zeros(3, device=device)
    b = ca.zeros_like(a, device="cpu")
    assert str(b.device) == "cpu" and b.memory == "host"
    if device != "cpu":
        c = ca.zeros_like(a, memory="managed")
        assert c.memory == "managed"


# ---- arange / linspace / eye / identity ---------------------------------------------


ARANGE_CASES = [(5,), (0,), (-3,), (2, 10, 3), (10, 2, -3), (0, 1, 0.1), (1.5,),
                (np.float32(5),), (0, 5, 1.5), (3, 3), (-2.5, 2.5, 0.5), (2 ** 40, 2 ** 40 + 3)]


@pytest.mark.parametrize("args", ARANGE_CASES)
def test_arange(device, args):
    check(ca.arange(*args, device=device), np.arange(*args), device)


@pytest.mark.parametrize("dtype", ALL_DTYPES[1:])
def test_arange_dtype(device, dtype):
    check(ca.arange(0, 20, 3, dtype=dtype, device=device), np.arange(0, 20, 3, dtype=dtype),
          device)


def test_arange_errors(device):
    with pytest.raises(TypeError):
        ca.arange(device=device)
    with pytest.raises(ZeroDivisionError):
        ca.arange(0, 5, 0, device=device)
    check(ca.arange(stop=4, device=device), np.arange(4), device)
    check(ca.arange(start=1, stop=4, device=device), np.arange(1, 4), device)


@pytest.mark.parametrize("kw", [dict(), dict(num=7), dict(num=1), dict(num=0),
                                dict(endpoint=False), dict(num=10, endpoint=False),
                                dict(dtype=np.float32), dict(dtype=np.int32, num=9),
                                dict(dtype=np.complex64)])
@pytest.mark.parametrize("ends", [(0, 1), (-3.5, 10), (5, -5), (1, 1)])
def test_linspace(device, kw, ends):
    check(ca.linspace(*ends, **kw, device=device), np.linspace(*ends, **kw), device)


def test_linspace_retstep(device):
    r, step = ca.linspace(0, 10, 7, retstep=True, device=device)
    e, estep = np.linspace(0, 10, 7, retstep=True)
    check(r, e, device)
    assert step == estep
    with pytest.raises(ValueError):
        ca.linspace(0, 1, -1, device=device)


@pytest.mark.parametrize("n,m,k", [(3, None, 0), (3, 5, 1), (5, 3, -2), (4, 4, 4), (4, 4, -9),
                                   (0, 3, 0), (1, 1, 0), (6, 2, 1)])
@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.bool_, np.complex64,
                                   np.float16])
def test_eye(device, n, m, k, dtype):
    check(ca.eye(n, m, k, dtype=dtype, device=device), np.eye(n, m, k, dtype=dtype), device)


def test_eye_order_identity(device):
    a = ca.eye(4, 3, k=1, order="F", device=device)
    assert a.flags.f_contiguous
    check(a, np.eye(4, 3, k=1), device)
    check(ca.identity(3, device=device), np.identity(3), device)
    check(ca.identity(2, dtype=np.int8, device=device), np.identity(2, dtype=np.int8), device)
    with pytest.raises(ValueError):
        ca.eye(-1, device=device)
    with pytest.raises(TypeError):
        ca.eye(2.5, device=device)


# ---- asarray / array ----------------------------------------------------------------


@pytest.mark.parametrize("obj", [3, 2.5, True, 1 - 2j, [1, 2, 3], [[1.5, 2], [3, 4]],
                                 (1, 2), [[True, False]], [], [[]], np.float32(2),
                                 np.int8(-3), [1, 2.5, 3j], 2 ** 63, [np.uint8(3)]])
def test_asarray_python(device, obj):
    check(ca.asarray(obj, device=device), np.asarray(obj), device)
    check(ca.array(obj, device=device), np.array(obj), device)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_asarray_python_dtype(device, dtype):
    obj = [[1, 0, 3], [4, 5, 6]]
    check(ca.asarray(obj, dtype=dtype, device=device), np.asarray(obj, dtype=dtype), device)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_asarray_numpy(device, dtype, shape):
    h = rnd(shape, dtype)
    check(ca.asarray(h, device=device), h, device)
    check(ca.array(h, device=device), h, device)


@pytest.mark.parametrize("src", ALL_DTYPES)
@pytest.mark.parametrize("dst", [np.float32, np.int16, np.complex128, np.bool_])
def test_asarray_numpy_dtype(device, src, dst):
    h = rnd((4, 3), src)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e = np.asarray(h, dtype=dst)
        check(ca.asarray(h, dtype=dst, device=device), e, device)


def test_asarray_strided_numpy(device):
    h = rnd((6, 8), np.float64)
    for v in [h[::2, 1::3], h.T, h[::-1], h[:, ::-2], h[2:4]]:
        check(ca.asarray(v, device=device), v, device)
        a = ca.asarray(v, order="C", device=device)
        assert a.flags.c_contiguous
        check(a, v, device)
        a = ca.asarray(v, order="F", device=device)
        assert a.flags.f_contiguous
        check(a, v, device)


def test_asarray_unsupported(device):
    for obj in [np.array(["a", "b"]), np.array([object()]), ["a", "b"],
                np.zeros(2, dtype=[("x", "f4")])]:  # (datetime64: tests/test_datetime.py)
        with pytest.raises(TypeError):
            ca.asarray(obj, device=device)
    with pytest.raises(ValueError):
        ca.asarray([[1, 2], [3]], device=device)
    check(ca.asarray(np.array([1.0, 2.0], dtype=">f8"), device=device),
          np.array([1.0, 2.0]), device)


def test_asarray_buffer_objects(device):
    b = bytearray(b"\x01\x02\x03\x04")
    check(ca.asarray(b, device=device), np.asarray(b), device)
    ar = pyarray.array("d", [1.0, 2.0, 3.5])
    check(ca.asarray(ar, device=device), np.asarray(ar), device)
    mv = memoryview(np.arange(12, dtype=np.int32).reshape(3, 4))[::2]
    check(ca.asarray(mv, device=device), np.asarray(mv), device)
    with pytest.raises(TypeError):  # bytes are a string to NumPy
        ca.asarray(b"abc", device=device)


def test_asarray_cuarray(device):
    h = rnd((3, 4), np.float32)
    a = ca.asarray(h, device=device)
    assert ca.asarray(a) is a
    assert ca.asarray(a, dtype=np.float32) is a
    assert ca.asarray(a, copy=False) is a
    assert ca.asarray(a, device=device) is a
    b = ca.asarray(a, copy=True)
    assert b is not a
    check(b, h, device)
    check(ca.asarray(a, dtype=np.float64), h.astype(np.float64), device)
    with pytest.raises(ValueError):
        ca.asarray(a, dtype=np.float64, copy=False)
    t = ca.asarray(a.T, order="C")
    assert t.flags.c_contiguous
    check(t, h.T, device)
    assert ca.asarray(a.T, order="F").base is a.T.base
    c = ca.asarray(a, device="cpu")
    check(c, h, "cpu")
    check(ca.asarray(c, device=device), h, device)


def test_array_copies(device):
    h = rnd((3, 4), np.int32)
    a = ca.asarray(h, device=device)
    b = ca.array(a)
    assert b is not a and b.flags.owndata
    check(b, h, device)
    b.fill(0)
    check(a, h, device)
    c = ca.array(a, copy=False)
    assert c is a
    d = ca.array(h, ndmin=4, device=device)
    check(d, np.array(h, ndmin=4), device)
    e = ca.array(5, ndmin=2, device=device)
    check(e, np.array(5, ndmin=2), device)


def test_asarray_copy_false_python(device):
    with pytest.raises(ValueError):
        ca.asarray([1, 2, 3], copy=False, device=device)
    with pytest.raises(ValueError):
        ca.asarray(3.0, copy=False, device=device)


def test_ascontiguous(device):
    h = rnd((4, 6), np.complex64)
    a = ca.asarray(h, device=device)
    r = ca.ascontiguousarray(a.T)
    assert r.flags.c_contiguous
    check(r, np.ascontiguousarray(h.T), device)
    assert ca.ascontiguousarray(a) is a
    r = ca.asfortranarray(a)
    assert r.flags.f_contiguous
    check(r, np.asfortranarray(h), device)
    s = ca.ascontiguousarray(ca.asarray(3.0, device=device))
    assert s.shape == (1,)
    check(ca.ascontiguousarray(h[::2], dtype=np.float64, device=device),
          np.ascontiguousarray(h[::2], dtype=np.float64), device)


# ---- leaks --------------------------------------------------------------------------


def _used_bytes(device):
    get = getattr(ca, "get_default_memory_pool", None)
    if get is None:
        pytest.skip("no memory pool API")
    with ca.Device(device):
        return get().used_bytes()


def test_no_leaks(device):
    h = rnd((64, 33), np.float32)
    for _ in range(3):  # warm-up (caches, first-use allocations)
        ca.zeros(100, device=device)
    gc.collect()
    before = _used_bytes(device)
    for i in range(300):
        a = ca.empty((i % 7 + 1, 100), device=device)
        b = ca.zeros_like(a)
        c = ca.ones(i % 5 + 3, dtype=np.int16, device=device)
        d = ca.asarray(h, device=device)
        e = d.T.copy()
        f = e.astype(np.float64)
        g = ca.array(f)
        ca.full(7, 2.5, device=device)
        ca.eye(5, device=device)
        ca.arange(50, device=device)
        repr(g)
        del a, b, c, d, e, f, g
    gc.collect()
    assert _used_bytes(device) == before


def test_errors_leave_nothing_behind(device):
    gc.collect()
    before = _used_bytes(device)
    for _ in range(50):
        with pytest.raises(OverflowError):
            ca.full(1000, 300, dtype=np.int8, device=device)
        with pytest.raises(ValueError):
            ca.asarray(ca.zeros(10, device=device), dtype=np.int8, copy=False)
    gc.collect()
    assert _used_bytes(device) == before


# ---- fuzzing: bad input raises cleanly, good input matches NumPy -------------------

from hypothesis import given, settings, strategies as st  # noqa: E402

_scalars = st.one_of(st.integers(-2 ** 70, 2 ** 70), st.floats(allow_nan=True),
                     st.booleans(), st.complex_numbers(allow_nan=False), st.text(max_size=2),
                     st.none())
_nested = st.recursive(_scalars, lambda c: st.lists(c, max_size=4), max_leaves=12)
_dims = st.one_of(st.integers(-5, 6), st.integers(-2 ** 64, 2 ** 64), st.floats(),
                  st.text(max_size=2))
_dtypes = st.one_of(st.none(), st.sampled_from(ALL_DTYPES),
                    st.sampled_from(["f4", "<f8", ">i4", "U2", "O", "M8", "c16", "?",
                                     "float", "q", "V3", "xyz", ""]))


@settings(max_examples=300, deadline=None)
@given(obj=_nested, dtype=_dtypes)
def test_fuzz_asarray(obj, dtype):
    try:
        e = np.asarray(obj, dtype=dtype)
        ok = True
    except Exception:
        ok = False
    try:
        a = ca.asarray(obj, dtype=dtype, device="cpu")
    except (TypeError, ValueError, OverflowError, MemoryError):
        return
    assert ok
    assert a.dtype == e.dtype and a.shape == e.shape
    np.testing.assert_array_equal(a.get(), e)


@settings(max_examples=300, deadline=None)
@given(shape=st.one_of(_dims, st.lists(_dims, max_size=5)), dtype=_dtypes,
       order=st.sampled_from(["C", "F", "K", "x", None, 3]))
def test_fuzz_creation_args(shape, dtype, order):
    dims = shape if isinstance(shape, list) else [shape]
    if all(isinstance(d, int) and d > 0 for d in dims) and 2**22 < math.prod(dims) < 2**59:
        # zeros/ones would touch (and the pool would then cache) up to gigabytes per
        # example: at 2^27 elements, 300 examples of 16-byte dtypes outran the 100 s
        # timeout in a whole-suite run of 14 workers on the H200's host. Beyond RAM
        # (94 TiB, say) whether malloc says yes is the machine's overcommit policy:
        # NumPy failed once and then not on the GPU host, and the host pool then
        # held the block. Sizes whose byte count overflows are still checked.
        return
    for f in (ca.empty, ca.zeros, ca.ones):
        try:
            a = f(shape, dtype=dtype, order=order, device="cpu")
        except (TypeError, ValueError, OverflowError, MemoryError):
            continue
        e = np.empty(shape, dtype=dtype, order=order or "C")
        assert a.shape == e.shape and a.dtype == e.dtype


def test_array_of_cuarray_arrays(device):
    """array/asarray of a list or tuple holding cuarray arrays (CuPy's
    cupy.array([x, y])): stacked on the arrays' device, NumPy's shapes and
    promotion; no host round trip, so it works for device memory."""
    h1, h2 = np.arange(3.0), np.arange(3, 6, dtype=np.int32)
    a, b = ca.asarray(h1, device=device), ca.asarray(h2, device=device)
    for got, want in ((ca.array([a, b]), np.array([h1, h2])),
                      (ca.asarray((a, b)), np.asarray((h1, h2))),
                      (ca.array([[a], [b]]), np.array([[h1], [h2]])),
                      (ca.array([a, b], dtype=np.float32), np.array([h1, h2], np.float32)),
                      (ca.array([a[0], a[2], b[1]]), np.array([h1[0], h1[2], h2[1]])),
                      (ca.array([a[1], 7.5]), np.array([h1[1], 7.5])),
                      (np.array([a, b], like=a), np.array([h1, h2])),
                      (ca.array([a[:0], a[:0]]), np.array([h1[:0], h1[:0]]))):
        assert isinstance(got, ca.ndarray) and got.device == a.device
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got.get(), want)
    with pytest.raises(ValueError):
        ca.array([a, a[:2]])
    with pytest.raises(ValueError):
        ca.array([a, b], copy=False)
