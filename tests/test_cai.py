"""__cuda_array_interface__ (v3): the ndarray's export and cuarray's import.

A CAI pointer is GPU memory, so most of this file needs a GPU. The import's
validation runs before any CUDA call, so malformed interfaces are tested everywhere
(through the C importer, cuarray._core._from_cai, which asarray calls).
(INTEROP.md items 1-16.)
"""

import gc
import weakref

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cuarray
from conftest import ALL_DTYPES, HAVE_GPU, random_array, requires_gpu

from_cai = cuarray._core._from_cai

TYPESTR = {np.bool_: "|b1", np.int8: "|i1", np.uint8: "|u1", np.int16: "<i2", np.uint16: "<u2",
           np.int32: "<i4", np.uint32: "<u4", np.int64: "<i8", np.uint64: "<u8",
           np.float16: "<f2", np.float32: "<f4", np.float64: "<f8", np.complex64: "<c8",
           np.complex128: "<c16"}
KEYS = {"shape", "typestr", "descr", "data", "strides", "version", "stream"}


class Producer:
    """An object that offers only the interface (like Numba's device arrays)."""

    def __init__(self, iface, keep=None):
        self.__cuda_array_interface__ = iface
        self.keep = keep


def iface(**kw):
    d = dict(shape=(4,), typestr="<f4", data=(4096, False), version=3)
    d.update(kw)
    return {k: v for k, v in d.items() if v is not _DROP}


_DROP = object()


# ---------------------------------------------------------------- export


def test_host_arrays_have_no_interface():
    x = cuarray.asarray(np.arange(3.0), device="cpu")
    assert hasattr(cuarray.ndarray, "__cuda_array_interface__")  # the getter exists
    assert not hasattr(x, "__cuda_array_interface__")
    with pytest.raises(AttributeError, match="host memory"):
        x.__cuda_array_interface__


@requires_gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_export_every_dtype(dtype):
    a = random_array((3, 5), dtype)
    x = cuarray.asarray(a, device="cuda:0")
    d = x.__cuda_array_interface__
    assert set(d) == KEYS
    assert d["shape"] == (3, 5) and all(type(n) is int for n in d["shape"])
    assert d["typestr"] == TYPESTR[dtype] == np.dtype(dtype).str.replace("=", "<")
    assert d["descr"] == [("", TYPESTR[dtype])]
    assert d["data"] == (x.data.ptr, False) and type(d["data"][0]) is int
    assert d["strides"] is None
    assert d["version"] == 3
    assert d["stream"] == 1  # the legacy default stream, never 0


@requires_gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_export_views(dtype):
    a = random_array((6, 8), dtype)
    x = cuarray.asarray(a, device="cuda:0")
    isz = np.dtype(dtype).itemsize
    f = cuarray.asarray(np.asfortranarray(a), device="cuda:0", order="F")
    cases = [
        (x[::-1], (6, 8), (-8 * isz, isz)),
        (x[1:5, 2::3], (4, 2), (8 * isz, 3 * isz)),
        (x.T, (8, 6), (isz, 8 * isz)),
        (x[:, ::-2], (6, 4), (8 * isz, -2 * isz)),
        (f, (6, 8), (isz, 6 * isz)),
    ]
    for v, shape, strides in cases:
        d = v.__cuda_array_interface__
        assert d["shape"] == shape
        assert d["strides"] == strides == v.strides
        assert d["data"][0] == v.data.ptr
    # a sliced view points at its first element
    v = x[2:, 3:]
    assert v.__cuda_array_interface__["data"][0] == x.data.ptr + (2 * 8 + 3) * isz
    assert v.__cuda_array_interface__["strides"] == (8 * isz, isz)


@requires_gpu
def test_export_0d_zero_size_and_size_one_dims():
    x = cuarray.asarray(np.float32(2.5), device="cuda:0")
    d = x.__cuda_array_interface__
    assert d["shape"] == () and d["strides"] is None
    z = cuarray.zeros((0, 4), dtype=np.float32, device="cuda:0")
    d = z.__cuda_array_interface__
    assert d["shape"] == (0, 4) and d["data"][0] == 0
    o = cuarray.zeros((5, 1), dtype=np.float64, device="cuda:0")[::2]
    d = o.__cuda_array_interface__
    assert d["shape"] == (3, 1)


@requires_gpu
@pytest.mark.parametrize("memory", ["managed", "pinned"])
def test_export_host_accessible(memory):
    x = cuarray.asarray(np.arange(4.0), device="cuda:0", memory=memory)
    d = x.__cuda_array_interface__
    assert d["data"][0] == x.data.ptr and d["shape"] == (4,)


@requires_gpu
def test_export_stream_follows_current_stream():
    x = cuarray.zeros(4, device="cuda:0")
    s = cuarray.cuda.Stream(non_blocking=True)
    with s:
        assert x.__cuda_array_interface__["stream"] == s.ptr
    with cuarray.cuda.Stream.ptds:
        assert x.__cuda_array_interface__["stream"] == 2
    assert x.__cuda_array_interface__["stream"] == 1


@requires_gpu
def test_export_read_only():
    g = cuarray.asarray(np.arange(4.0), device="cuda:0")
    assert g.__cuda_array_interface__["data"][1] is False
    d = dict(g.__cuda_array_interface__, data=(g.data.ptr, True))
    ro = from_cai(Producer(d, keep=g))
    assert not ro.flags.writeable
    assert ro.__cuda_array_interface__["data"] == (g.data.ptr, True)


# ---------------------------------------------------------------- import: zero-copy


@requires_gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_import_round_trip_every_dtype(dtype):
    a = random_array((4, 6), dtype)
    x = cuarray.asarray(a, device="cuda:0")
    for v in (x, x[::-1], x[:, 1::2], x.T, x[2, 3], x[:0]):
        y = cuarray.asarray(Producer(v.__cuda_array_interface__, keep=v))
        assert y.shape == v.shape and y.dtype == v.dtype and y.memory == "device"
        if v.size:
            assert y.data.ptr == v.data.ptr and y.strides == v.strides
        np.testing.assert_array_equal(y.get(), v.get())


@requires_gpu
@pytest.mark.parametrize("version", [0, 1, 2, 3])
@pytest.mark.parametrize("strides", ["absent", "none", "explicit"])
def test_import_versions_and_strides(version, strides):
    a = random_array((3, 4), np.float64)
    x = cuarray.asarray(a, device="cuda:0")
    d = dict(x.__cuda_array_interface__, version=version)
    if version < 3:
        del d["stream"]
    if strides == "absent":
        del d["strides"]
    elif strides == "explicit":
        d["strides"] = (32, 8)
    y = from_cai(Producer(d, keep=x))
    assert y.data.ptr == x.data.ptr
    np.testing.assert_array_equal(y.get(), a)


@requires_gpu
def test_import_keeps_producer_alive():
    a = random_array((1000,), np.float32)
    x = cuarray.asarray(a, device="cuda:0")
    p = Producer(x.__cuda_array_interface__, keep=x)
    ref = weakref.ref(p)
    y = cuarray.asarray(p)
    del p, x
    gc.collect()
    assert ref() is not None
    np.testing.assert_array_equal(y.get(), a)
    del y
    gc.collect()
    assert ref() is None


@requires_gpu
@pytest.mark.parametrize("memory", ["managed", "pinned"])
def test_import_memory_kind_from_pointer(memory):
    x = cuarray.asarray(np.arange(6.0), device="cuda:0", memory=memory)
    y = from_cai(Producer(x.__cuda_array_interface__, keep=x))
    assert y.memory == memory and y.data.ptr == x.data.ptr
    np.testing.assert_array_equal(np.asarray(y), np.arange(6.0))


@requires_gpu
def test_import_stream_values():
    x = cuarray.asarray(np.arange(4.0), device="cuda:0")
    s = cuarray.cuda.Stream(non_blocking=True)
    for stream in (None, 1, 2, s.ptr):
        y = from_cai(Producer(dict(x.__cuda_array_interface__, stream=stream), keep=x))
        np.testing.assert_array_equal(y.get(), np.arange(4.0))
    with s:
        y = from_cai(Producer(dict(x.__cuda_array_interface__, stream=1), keep=x))
        np.testing.assert_array_equal(y.get(), np.arange(4.0))
    old = cuarray._core._cai_sync(False)
    try:
        y = from_cai(Producer(dict(x.__cuda_array_interface__, stream=s.ptr), keep=x))
    finally:
        cuarray._core._cai_sync(old)
    assert y.data.ptr == x.data.ptr


@requires_gpu
def test_import_host_pointer_is_rejected():
    a = np.zeros(4, np.float32)
    with pytest.raises(ValueError, match="not CUDA memory"):
        from_cai(Producer(iface(data=(a.ctypes.data, False)), keep=a))


@requires_gpu
def test_asarray_other_device_or_copy():
    a = random_array((5,), np.float32)
    x = cuarray.asarray(a, device="cuda:0")
    p = Producer(x.__cuda_array_interface__, keep=x)
    y = cuarray.asarray(p, copy=True)
    assert y.data.ptr != x.data.ptr
    np.testing.assert_array_equal(y.get(), a)
    y = cuarray.asarray(p, dtype=np.float64)
    np.testing.assert_array_equal(y.get(), a.astype(np.float64))
    y = cuarray.asarray(p, order="F")
    np.testing.assert_array_equal(y.get(), a)


# ---------------------------------------------------------------- import: bad interfaces (everywhere)


@pytest.mark.parametrize("d,exc,match", [
    (iface(mask=Producer({})), NotImplementedError, "mask"),
    (iface(typestr=">i4"), ValueError, "byte order"),
    (iface(typestr=">f8"), ValueError, "byte order"),
    (iface(typestr="<f16"), TypeError, "not a cuarray dtype"),
    (iface(typestr="|V8"), TypeError, "not a cuarray dtype"),
    # (the C importer hands datetime64 to cuarray._datetime: asarray takes it)
    (iface(typestr="<M8"), TypeError, "datetime64"),
    (iface(typestr="|b2"), TypeError, "not a cuarray dtype"),
    (iface(typestr="f4"), ValueError, "malformed"),
    (iface(typestr="<f"), ValueError, "malformed"),
    (iface(typestr="<fx"), ValueError, "malformed"),
    (iface(typestr=b"<f4"), TypeError, "str"),
    (iface(typestr=_DROP), ValueError, "typestr"),
    (iface(shape=_DROP), ValueError, "shape"),
    (iface(data=_DROP), ValueError, "data"),
    (iface(shape=4), TypeError, "tuple"),
    (iface(shape=(4.0,)), TypeError, "int"),
    (iface(shape=(-1,)), ValueError, "negative"),
    (iface(shape=(1,) * 33), ValueError, "dimensions"),
    (iface(shape=(2**40, 2**40)), ValueError, "overflow|large"),
    (iface(strides=(4, 4)), ValueError, "entries"),
    (iface(strides="x"), TypeError, "tuple"),
    (iface(data=4096), TypeError, "tuple"),
    (iface(data=(4096,)), TypeError, "tuple"),
    (iface(data=(-8, False)), ValueError, "pointer"),
    (iface(data=(2**70, False)), ValueError, "pointer"),
    (iface(data=("4096", False)), TypeError, "int"),
    (iface(data=(0, False)), ValueError, "NULL"),
    (iface(data=(4098, False)), ValueError, "aligned"),
    (iface(strides=(6,), shape=(3,)), ValueError, "multiple"),
    (iface(strides=(-4,), shape=(2000,)), ValueError, "address space"),
    (iface(version=4), ValueError, "version"),
    (iface(version=-1), ValueError, "version"),
    (iface(version="3"), TypeError, "int"),
    (iface(stream=0), ValueError, "stream"),
    (iface(stream=True), TypeError, "bool"),
    (iface(stream="1"), TypeError, "int"),
    (iface(stream=-5), ValueError, "stream"),
])
def test_bad_interfaces(d, exc, match):
    with pytest.raises(exc, match=match):
        from_cai(Producer(d))


def test_not_a_dict_and_no_interface():
    with pytest.raises(TypeError, match="dict"):
        from_cai(Producer([("shape", (1,))]))
    with pytest.raises(TypeError, match="no __cuda_array_interface__"):
        from_cai(object())

    class Raises:
        @property
        def __cuda_array_interface__(self):
            raise RuntimeError("boom")
    with pytest.raises(RuntimeError, match="boom"):
        from_cai(Raises())


def test_stream_ignored_before_version_3():
    # A version-2 interface has no stream; a stray value is not read there.
    y = from_cai(Producer(iface(version=2, stream=0, shape=(0,), data=(0, False))))
    assert y.size == 0
    with pytest.raises(ValueError, match="stream"):
        from_cai(Producer(iface(version=3, stream=0, shape=(0,), data=(0, False))))


def test_valid_interface_needs_cuda():
    # Everything checks out; only the pointer remains. Without a GPU that is a
    # CUDA error; with one, this (made-up) pointer is not CUDA memory.
    with pytest.raises((cuarray.cuda.CUDAError, ValueError)) as e:
        from_cai(Producer(iface()))
    if not HAVE_GPU:
        assert isinstance(e.value, cuarray.cuda.CUDAError)
    elif isinstance(e.value, ValueError):
        assert "not CUDA memory" in str(e.value)


@pytest.mark.parametrize("mask", [None, _DROP])
def test_zero_size_import_needs_no_pointer(mask):
    for typestr, dtype in (("<f8", np.float64), ("|b1", np.bool_), ("<c8", np.complex64)):
        y = from_cai(Producer(iface(shape=(0, 3), typestr=typestr, data=(0, False), mask=mask)))
        assert y.shape == (0, 3) and y.dtype == dtype and y.size == 0


def test_readonly_zero_size():
    y = from_cai(Producer(iface(shape=(0,), data=(0, True))))
    assert not y.flags.writeable


def test_native_byte_order_spellings():
    for ts in ("=f4", "|f4", "<f4", ">i1", "<u1", "|i1"):
        d = iface(shape=(0,), typestr=ts, data=(0, False))
        assert from_cai(Producer(d)).size == 0


# ---------------------------------------------------------------- fuzz: never a crash

_values = st.one_of(st.none(), st.booleans(), st.integers(-2**65, 2**65), st.floats(),
                    st.text(max_size=5), st.binary(max_size=4),
                    st.lists(st.integers(-10, 10), max_size=4).map(tuple))


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    shape=st.one_of(_values, st.lists(st.integers(-2, 5), max_size=6).map(tuple)),
    typestr=st.one_of(_values, st.sampled_from(list(TYPESTR.values()) + [">f4", "<f16", "|V4"])),
    data=st.one_of(_values, st.tuples(st.one_of(st.integers(-1, 2**66), _values), _values)),
    strides=st.one_of(_values, st.lists(st.integers(-64, 64), max_size=6).map(tuple)),
    version=st.one_of(_values, st.integers(0, 3)),
    stream=_values,
    mask=_values,
    drop=st.sets(st.sampled_from(["shape", "typestr", "data", "strides", "version", "stream",
                                  "mask"])),
)
def test_fuzz_interfaces(shape, typestr, data, strides, version, stream, mask, drop):
    d = dict(shape=shape, typestr=typestr, data=data, strides=strides, version=version,
             stream=stream, mask=mask)
    for k in drop:
        del d[k]
    try:
        y = from_cai(Producer(d))
    except (TypeError, ValueError, NotImplementedError, OverflowError, cuarray.cuda.CUDAError):
        return
    # Only empty arrays can come out of made-up interfaces.
    assert y.size == 0


def test_more_than_4gib_interface_parses():
    # 12 GiB described: the parse must get past the sizes to the pointer check.
    d = iface(shape=(3 * 2**30,), typestr="<f4", strides=(4,))
    with pytest.raises((cuarray.cuda.CUDAError, ValueError)) as e:
        from_cai(Producer(d))
    assert "overflow" not in str(e.value) and "large" not in str(e.value)
