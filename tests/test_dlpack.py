"""DLPack, both directions: ndarray.__dlpack__/__dlpack_device__ and cuarray.from_dlpack.

Runs on the cpu device everywhere (host memory, NumPy as the other side) and on the
GPU where there is one. Capsules are read and forged with ctypes so the fields the
consumer sees (version, flags, device, dtype, shape, strides) are checked directly.
(INTEROP.md items 17-31.)
"""

import ctypes
import gc
import weakref

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cuarray
from conftest import ALL_DTYPES, HAVE_GPU, random_array, requires_gpu

# ---------------------------------------------------------------- ctypes view of the ABI


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


DELETER_L = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
DELETER_V = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                ("deleter", DELETER_L)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("version", DLPackVersion), ("manager_ctx", ctypes.c_void_p),
                ("deleter", DELETER_V), ("flags", ctypes.c_uint64), ("dl_tensor", DLTensor)]


READ_ONLY, IS_COPIED = 1, 2
kDLCPU, kDLCUDA, kDLCUDAHost, kDLCUDAManaged = 1, 2, 3, 13

_api = ctypes.pythonapi
_api.PyCapsule_GetName.restype = ctypes.c_char_p
_api.PyCapsule_GetName.argtypes = [ctypes.py_object]
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]

# Capsule names must outlive the capsules that point at them.
_NAMES = {False: b"dltensor", True: b"dltensor_versioned"}


def capsule_name(cap):
    return _api.PyCapsule_GetName(cap).decode()


def read_capsule(cap):
    """(versioned, managed struct) of an unconsumed capsule."""
    name = capsule_name(cap)
    ptr = _api.PyCapsule_GetPointer(cap, name.encode())
    if name == "dltensor_versioned":
        mt, versioned = DLManagedTensorVersioned.from_address(ptr), True
    else:
        assert name == "dltensor"
        mt, versioned = DLManagedTensor.from_address(ptr), False
    mt.capsule = cap  # the struct lives as long as the capsule
    return versioned, mt


def tensor_of(mt):
    t = mt.dl_tensor
    shape = tuple(t.shape[i] for i in range(t.ndim)) if t.ndim else ()
    strides = tuple(t.strides[i] for i in range(t.ndim)) if t.ndim and t.strides else None
    return t, shape, strides


class Forged:
    """A capsule made by hand, with a counting deleter (for bad-input tests)."""

    def __init__(self, *, data=0, device=(kDLCPU, 0), ndim=1, dtype=(2, 32, 1), shape=(4,),
                 strides=None, byte_offset=0, versioned=True, flags=0, version=(1, 0),
                 keep=None):
        self.deleted = 0
        self.keep = keep  # what `data` points into
        self._shape = (ctypes.c_int64 * max(len(shape), 1))(*shape)
        self._strides = None if strides is None else (ctypes.c_int64 * max(len(strides), 1))(*strides)
        t = DLTensor()
        t.data = data
        t.device = DLDevice(*device)
        t.ndim = ndim
        t.dtype = DLDataType(*dtype)
        t.shape = ctypes.cast(self._shape, ctypes.POINTER(ctypes.c_int64))
        t.strides = (ctypes.cast(self._strides, ctypes.POINTER(ctypes.c_int64))
                     if self._strides is not None else None)
        t.byte_offset = byte_offset

        def on_delete(_):
            self.deleted += 1
        if versioned:
            self._del = DELETER_V(on_delete)
            self.mt = DLManagedTensorVersioned(DLPackVersion(*version), None, self._del, flags, t)
        else:
            self._del = DELETER_L(on_delete)
            self.mt = DLManagedTensor(t, None, self._del)
        self.capsule = _api.PyCapsule_New(ctypes.addressof(self.mt), _NAMES[versioned],
                                          None)


def host_array(a):
    """A cuarray host array on the cpu device sharing NumPy's memory."""
    return cuarray.from_dlpack(a)


def make(a, device):
    """`a` (NumPy) as a cuarray array on `device`."""
    if device == "cpu":
        return cuarray.asarray(a, device="cpu")
    return cuarray.asarray(a, device=device)


def view(a, device, f):
    """cuarray's array for layout `f` of NumPy data `a`: on the cpu device the
    NumPy view itself is wrapped (same memory, same strides); on a GPU the cuarray
    array is sliced the same way."""
    if device == "cpu":
        return cuarray.asarray(f(a), device="cpu")
    return f(cuarray.asarray(a, device=device))


LAYOUTS = {
    "plain": lambda v: v,
    "rev": lambda v: v[::-1],
    "step": lambda v: v[::2, 1::3],
    "neg2": lambda v: v[:, ::-2],
    "T": lambda v: v.T,
    "0d": lambda v: v[1, 2],
    "empty": lambda v: v[:0],
}


def ptr(x):
    return x.data.ptr


def np_ptr(a):
    return a.__array_interface__["data"][0]


# ---------------------------------------------------------------- __dlpack_device__


def test_dlpack_device_host():
    x = cuarray.asarray(np.arange(3.0), device="cpu")
    assert x.__dlpack_device__() == (kDLCPU, 0)
    assert all(type(v) is int for v in x.__dlpack_device__())


@requires_gpu
@pytest.mark.parametrize("memory,expect", [("device", (kDLCUDA, 0)), ("managed", (kDLCUDAManaged, 0)),
                                           ("pinned", (kDLCUDAHost, 0))])
def test_dlpack_device_gpu(memory, expect):
    x = cuarray.asarray(np.arange(3.0), device="cuda:0", memory=memory)
    assert x.__dlpack_device__() == expect


# ---------------------------------------------------------------- export: capsule contents


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_capsule_fields_every_dtype(dtype, device):
    a = random_array((3, 4), dtype)
    x = make(a, device)
    versioned, mt = read_capsule(x.__dlpack__(max_version=(1, 0)))
    assert versioned and mt.version.major == 1
    t, shape, strides = tensor_of(mt)
    assert shape == (3, 4) and strides == (4, 1) and t.ndim == 2
    expect_code = {"b": 6, "i": 0, "u": 1, "f": 2, "c": 5}[np.dtype(dtype).kind]
    assert (t.dtype.code, t.dtype.bits, t.dtype.lanes) == (expect_code, 8 * np.dtype(dtype).itemsize, 1)
    assert t.data + t.byte_offset == ptr(x)
    assert (t.device.device_type, t.device.device_id) == x.__dlpack_device__()
    assert mt.flags == 0


@pytest.mark.parametrize("max_version,name", [(None, "dltensor"), ((0, 8), "dltensor"),
                                              ((1, 0), "dltensor_versioned"),
                                              ((1, 3), "dltensor_versioned"),
                                              ((2, 0), "dltensor_versioned")])
def test_capsule_kind_by_max_version(max_version, name, device):
    x = make(np.arange(5, dtype=np.int32), device)
    cap = x.__dlpack__() if max_version is None else x.__dlpack__(max_version=max_version)
    assert capsule_name(cap) == name
    if name == "dltensor_versioned":
        _, mt = read_capsule(cap)
        assert (mt.version.major, mt.version.minor) == (1, 0)


def test_strides_in_elements_kept(device):
    a = random_array((6, 8), np.float32)
    expect = {
        "rev": ((6, 8), (-8, 1)),
        "step": ((3, 3), (16, 3)),
        "neg2": ((6, 4), (8, -2)),
        "T": ((8, 6), (1, 8)),
    }
    for name, (shape, strides) in expect.items():
        v = view(a, device, LAYOUTS[name])
        _, mt = read_capsule(v.__dlpack__(max_version=(1, 0)))
        t, s, st_ = tensor_of(mt)
        assert (s, st_) == (shape, strides), name
        assert t.data + t.byte_offset == ptr(v), name


def test_zero_dim_and_zero_size(device):
    x = make(np.array(3.5), device)
    _, mt = read_capsule(x.__dlpack__(max_version=(1, 0)))
    assert mt.dl_tensor.ndim == 0
    z = make(np.zeros((0, 3), np.float64), device)
    _, mt = read_capsule(z.__dlpack__(max_version=(1, 0)))
    assert tensor_of(mt)[1] == (0, 3)


def test_max_dims(device):
    a = np.arange(2.0).reshape((1,) * 31 + (2,))
    x = make(a, device)
    _, mt = read_capsule(x.__dlpack__(max_version=(1, 0)))
    assert mt.dl_tensor.ndim == 32


def test_copy_true_sets_is_copied(device):
    a = random_array((4, 5), np.float64)
    x = view(a, device, lambda v: v[:, ::2])
    cap = x.__dlpack__(max_version=(1, 0), copy=True)
    _, mt = read_capsule(cap)
    assert mt.flags & IS_COPIED
    assert mt.dl_tensor.data + mt.dl_tensor.byte_offset != ptr(x)
    y = cuarray.from_dlpack(cap)
    np.testing.assert_array_equal(y.get() if device != "cpu" else np.asarray(y), a[:, ::2])


def test_copy_false_and_none_share(device):
    x = make(np.arange(4.0), device)
    for c in (False, None):
        _, mt = read_capsule(x.__dlpack__(max_version=(1, 0), copy=c))
        assert mt.flags == 0 and mt.dl_tensor.data == ptr(x)


# ---------------------------------------------------------------- export: arguments


def test_stream_argument_values(device):
    x = make(np.arange(4.0), device)
    for s in (None, 1, 2, -1):
        x.__dlpack__(stream=s)
    with pytest.raises(ValueError):
        x.__dlpack__(stream=0)
    for bad in ("1", 1.0, True, [1]):
        with pytest.raises(TypeError):
            x.__dlpack__(stream=bad)
    with pytest.raises(ValueError):
        x.__dlpack__(stream=-7)


def test_bad_arguments(device):
    x = make(np.arange(4.0), device)
    with pytest.raises(TypeError):
        x.__dlpack__(None)  # keyword-only
    with pytest.raises(TypeError):
        x.__dlpack__(foo=1)
    with pytest.raises(TypeError):
        x.__dlpack__(max_version=1)
    with pytest.raises(TypeError):
        x.__dlpack__(max_version=(1, "0"))
    with pytest.raises(TypeError):
        x.__dlpack__(dl_device=2)


def test_dl_device_own_and_cpu_host():
    x = cuarray.asarray(np.arange(4.0), device="cpu")
    _, mt = read_capsule(x.__dlpack__(max_version=(1, 0), dl_device=(kDLCPU, 0)))
    assert mt.dl_tensor.data == ptr(x) and mt.flags == 0
    for bad in [(kDLCUDA, 0), (kDLCPU, 1), (4, 0), (kDLCUDAManaged, 0)]:
        with pytest.raises(BufferError):
            x.__dlpack__(dl_device=bad)


@requires_gpu
def test_dl_device_gpu():
    a = random_array((3, 4), np.float32)
    x = cuarray.asarray(a, device="cuda:0")
    # own device
    _, mt = read_capsule(x.__dlpack__(max_version=(1, 0), dl_device=(kDLCUDA, 0)))
    assert mt.dl_tensor.data == ptr(x)
    # to the CPU: a host copy
    cap = x.__dlpack__(max_version=(1, 0), dl_device=(kDLCPU, 0))
    _, mt = read_capsule(cap)
    assert mt.flags & IS_COPIED and mt.dl_tensor.device.device_type == kDLCPU
    y = cuarray.from_dlpack(cap)
    assert y.device == cuarray.Device("cpu")
    np.testing.assert_array_equal(np.asarray(y), a)
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(kDLCPU, 0), copy=False)
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(kDLCUDA, 1))
    # managed memory is host-accessible: shared with copy=False
    m = cuarray.asarray(a, device="cuda:0", memory="managed")
    _, mt = read_capsule(m.__dlpack__(max_version=(1, 0), dl_device=(kDLCPU, 0), copy=False))
    assert mt.dl_tensor.data == ptr(m) and not mt.flags & IS_COPIED
    # and may be exported as CUDA memory of its device
    _, mt = read_capsule(m.__dlpack__(max_version=(1, 0), dl_device=(kDLCUDA, 0)))
    assert mt.dl_tensor.device.device_type == kDLCUDA


@requires_gpu
def test_numpy_from_dlpack_of_device_array():
    a = random_array((5,), np.float64)
    x = cuarray.asarray(a, device="cuda:0")
    with pytest.raises((BufferError, RuntimeError, TypeError)):
        np.from_dlpack(x)  # device memory: NumPy cannot read it in place
    try:
        y = np.from_dlpack(x, device="cpu")  # NumPy >= 2.1 asks for a host copy
    except TypeError:
        pytest.skip("NumPy without from_dlpack(device=)")
    np.testing.assert_array_equal(y, a)


@requires_gpu
@pytest.mark.parametrize("memory", ["managed", "pinned"])
def test_numpy_from_dlpack_host_accessible(memory):
    a = random_array((5,), np.int32)
    x = cuarray.asarray(a, device="cuda:0", memory=memory)
    y = np.from_dlpack(x)
    np.testing.assert_array_equal(y, a)
    y[0] = 77
    assert x.get()[0] == 77


# ---------------------------------------------------------------- read-only


def test_read_only_round_trip():
    a = np.arange(6.0)
    a.flags.writeable = False
    x = cuarray.from_dlpack(a)
    assert not x.flags.writeable
    with pytest.raises(BufferError):
        x.__dlpack__()  # legacy capsules cannot say read-only
    _, mt = read_capsule(x.__dlpack__(max_version=(1, 0)))
    assert mt.flags & READ_ONLY
    y = np.from_dlpack(x)
    assert not y.flags.writeable
    # a copy is writeable, and may go out as a legacy capsule
    cap = x.__dlpack__(copy=True)
    assert capsule_name(cap) == "dltensor"


def test_forged_read_only_flag():
    buf = np.arange(4, dtype=np.float32)
    f = Forged(data=np_ptr(buf), flags=READ_ONLY, keep=buf)
    x = cuarray.from_dlpack(f.capsule)
    assert not x.flags.writeable
    y = cuarray.from_dlpack(f2 := Forged(data=np_ptr(buf), keep=buf).capsule)
    assert y.flags.writeable
    del f2


# ---------------------------------------------------------------- NumPy <-> cuarray on the host


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_numpy_from_dlpack_zero_copy(dtype):
    a = random_array((4, 6), dtype)
    for name, f in LAYOUTS.items():
        v = view(a, "cpu", f)
        y = np.from_dlpack(v)
        if v.size:
            assert np_ptr(y) == ptr(v), name
        assert y.strides == v.strides, name
        np.testing.assert_array_equal(y, f(a), err_msg=name)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_cuarray_from_numpy_zero_copy(dtype):
    a = random_array((4, 6), dtype)
    for v in (a, a[::-1], a[:, 1::2], a.T, a[1, 2:3].reshape(()), a[:0]):
        x = cuarray.from_dlpack(v)
        assert x.device == cuarray.Device("cpu") and x.memory == "host"
        assert x.shape == v.shape and x.dtype == v.dtype
        if v.size:
            assert ptr(x) == np_ptr(v)
            assert x.strides == v.strides
        np.testing.assert_array_equal(np.asarray(x), v)


def test_writes_visible_both_ways():
    a = np.zeros(4, np.int64)
    x = cuarray.from_dlpack(a)
    a[1] = 5
    assert np.asarray(x)[1] == 5
    y = np.from_dlpack(x)
    y[2] = 9
    assert a[2] == 9


def test_producer_deleted_while_consumer_lives():
    a = random_array((1000,), np.float64)
    expect = a.copy()
    ref = weakref.ref(a)
    x = cuarray.from_dlpack(a)
    del a
    gc.collect()
    assert ref() is not None  # kept alive by the import
    np.testing.assert_array_equal(np.asarray(x), expect)
    del x
    gc.collect()
    assert ref() is None  # and released with it


def test_unconsumed_capsule_keeps_array_then_frees():
    x = cuarray.asarray(np.arange(4.0), device="cpu")
    ref = weakref.ref(x)
    cap = x.__dlpack__(max_version=(1, 0))
    del x
    gc.collect()
    assert ref() is not None
    del cap
    gc.collect()
    assert ref() is None


@pytest.mark.parametrize("versioned", [False, True])
def test_consumed_capsule_renamed_and_single_use(versioned, device):
    x = make(np.arange(4.0), device)
    ref = weakref.ref(x)
    cap = x.__dlpack__(max_version=(1, 0) if versioned else None)
    y = cuarray.from_dlpack(cap)
    assert capsule_name(cap) == ("used_dltensor_versioned" if versioned else "used_dltensor")
    with pytest.raises(BufferError):
        cuarray.from_dlpack(cap)
    assert ptr(y) == ptr(x)
    del x, cap
    gc.collect()
    assert ref() is not None  # y still uses the memory
    del y
    gc.collect()
    assert ref() is None


@pytest.mark.parametrize("versioned", [False, True])
def test_deleter_runs_exactly_once(versioned):
    buf = np.arange(8, dtype=np.float32)
    f = Forged(data=np_ptr(buf), shape=(8,), versioned=versioned, keep=buf)
    x = cuarray.from_dlpack(f.capsule)
    v = x.T  # a view: holds x, which holds the memory
    np.testing.assert_array_equal(np.asarray(v), buf)
    assert f.deleted == 0
    del x
    gc.collect()
    assert f.deleted == 0  # the view still holds the memory
    del v
    gc.collect()
    assert f.deleted == 1
    f.capsule = None  # the (renamed) capsule's death must not delete again
    gc.collect()
    assert f.deleted == 1


def test_rejected_capsule_is_not_consumed():
    buf = np.zeros(4, np.float32)
    f = Forged(data=np_ptr(buf), dtype=(4, 32, 1), keep=buf)  # a 32-bit "bfloat"
    with pytest.raises(TypeError, match="code 4, bits 32"):
        cuarray.from_dlpack(f.capsule)
    assert capsule_name(f.capsule) == "dltensor_versioned"
    assert f.deleted == 0


@pytest.mark.parametrize("kwargs,exc", [
    (dict(dtype=(2, 32, 2)), TypeError),          # vector lanes
    (dict(dtype=(2, 8, 1)), TypeError),           # float8
    (dict(dtype=(3, 64, 1)), TypeError),          # opaque handle
    (dict(dtype=(6, 1, 1)), TypeError),           # 1-bit bool
    (dict(device=(4, 0)), BufferError),           # OpenCL
    (dict(device=(kDLCUDA, 999)), BufferError),   # no such GPU
    (dict(ndim=33, shape=(1,) * 33), BufferError),
    (dict(ndim=-1), BufferError),
    (dict(shape=(-4,)), BufferError),
    (dict(data=0), BufferError),                  # NULL data, non-empty
    (dict(version=(2, 0)), BufferError),
    (dict(shape=(2**62, 2**62), ndim=2), ValueError),
])
def test_bad_capsules(kwargs, exc):
    buf = np.zeros(64, np.float64)
    kw = dict(data=np_ptr(buf), keep=buf)
    kw.update(kwargs)
    f = Forged(**kw)
    with pytest.raises(exc):
        cuarray.from_dlpack(f.capsule)
    assert capsule_name(f.capsule) == "dltensor_versioned"


def test_misaligned_capsule():
    buf = np.zeros(16, np.float64)
    f = Forged(data=np_ptr(buf) + 2, keep=buf)
    with pytest.raises(BufferError, match="aligned"):
        cuarray.from_dlpack(f.capsule)
    f = Forged(data=np_ptr(buf), strides=(3,), shape=(2,), dtype=(2, 64, 1), keep=buf)
    x = cuarray.from_dlpack(f.capsule)  # element strides are always aligned
    np.testing.assert_array_equal(np.asarray(x), buf[::3][:2])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_unsigned_wrapped_negative_stride_refused(dtype):
    """CuPy (cupy/cupy#10172, seen with 14.2) exports a[::-1] with the byte stride
    divided by the item size in unsigned arithmetic. For 1-byte items that is the
    right bit pattern; for wider ones an element stride near 2**63 / itemsize whose
    byte stride overflows: refused cleanly, capsule left unconsumed."""
    a = random_array((6, 8), dtype)
    v = a[::-1, ::2]
    k = a.itemsize
    code = {"b": 6, "i": 0, "u": 1, "f": 2, "c": 5}[a.dtype.kind]

    def capsule(strides):
        return Forged(data=np_ptr(v), ndim=2, shape=v.shape, strides=strides,
                      dtype=(code, 8 * k, 1), keep=a)

    wrapped = tuple((s + 2**64) // k if s < 0 else s // k for s in v.strides)
    wrapped = tuple(w - 2**64 if w >= 2**63 else w for w in wrapped)  # as int64
    f = capsule(wrapped)
    if k == 1:
        x = cuarray.from_dlpack(f.capsule)
        assert x.strides == v.strides
        np.testing.assert_array_equal(np.asarray(x), v)
    else:
        assert wrapped[0] > 0
        with pytest.raises(BufferError, match="strides overflow"):
            cuarray.from_dlpack(f.capsule)
        assert capsule_name(f.capsule) == "dltensor_versioned"
        assert f.deleted == 0
    # The true element strides (negative) read back as the NumPy view's.
    f = capsule(tuple(s // k for s in v.strides))
    x = cuarray.from_dlpack(f.capsule)
    assert x.strides == v.strides and ptr(x) == np_ptr(v)
    np.testing.assert_array_equal(np.asarray(x), v)


def test_byte_offset_and_null_strides():
    buf = np.arange(12, dtype=np.int32)
    f = Forged(data=np_ptr(buf), byte_offset=8, shape=(2, 3), ndim=2, dtype=(0, 32, 1), keep=buf)
    x = cuarray.from_dlpack(f.capsule)
    np.testing.assert_array_equal(np.asarray(x), buf[2:8].reshape(2, 3))
    assert ptr(x) == np_ptr(buf) + 8


def test_not_a_producer():
    with pytest.raises(TypeError):
        cuarray.from_dlpack([1, 2, 3])
    with pytest.raises(TypeError):
        cuarray.from_dlpack(object())

    class Bad:
        def __dlpack__(self, **kw):
            return "capsule"

        def __dlpack_device__(self):
            return (kDLCPU, 0)
    with pytest.raises(TypeError):
        cuarray.from_dlpack(Bad())

    class BadDevice:
        def __dlpack__(self, **kw):
            raise AssertionError("not reached")

        def __dlpack_device__(self):
            return "cpu"
    with pytest.raises(TypeError):
        cuarray.from_dlpack(BadDevice())


def test_from_dlpack_arguments():
    """from_dlpack(x, /, *, device=None, copy=None), as the standard spells it."""
    a = np.arange(4.0)
    np.testing.assert_array_equal(cuarray.from_dlpack(a).get(), a)
    np.testing.assert_array_equal(cuarray.from_dlpack(a, device="cpu", copy=None).get(), a)
    c = cuarray.from_dlpack(a, copy=True)
    c[0] = 5.0
    assert a[0] == 0.0  # a copy
    with pytest.raises(TypeError):
        cuarray.from_dlpack()
    with pytest.raises(TypeError):
        cuarray.from_dlpack(x=a)
    with pytest.raises(TypeError):
        cuarray.from_dlpack(a, a)
    with pytest.raises(TypeError):
        cuarray.from_dlpack(a, stream=1)
    with pytest.raises(TypeError):
        cuarray.from_dlpack(a, copy=False, copy_=1)


def test_producer_named_tensor_is_not_torch():
    """A producer class that happens to be called Tensor takes the generic path."""
    a = np.arange(3.0)

    class Tensor:
        def __dlpack__(self, **kw):
            return a.__dlpack__(**kw)

        def __dlpack_device__(self):
            return a.__dlpack_device__()
    np.testing.assert_array_equal(cuarray.from_dlpack(Tensor()).get(), a)
    assert cuarray._core._torch_dlpack_state() in (0, 1, -1)


def test_wrapper_objects_and_call_protocol():
    a = random_array((3, 3), np.float32)
    calls = []

    class Wrapper:  # CuPy's DLDummy / PyTorch's TensorDLPackWrapper
        def __dlpack__(self, **kw):
            calls.append(kw)
            return a.__dlpack__(**kw)

        def __dlpack_device__(self):
            return a.__dlpack_device__()
    x = cuarray.from_dlpack(Wrapper())
    assert ptr(x) == np_ptr(a)
    assert calls[0].get("max_version") == (1, 0)
    assert calls[0].get("stream") is None  # CPU producers get no stream


def test_legacy_producer_fallback():
    a = random_array((5,), np.int16)
    calls = []

    class Legacy:
        def __dlpack__(self, stream=None):
            calls.append(stream)
            return a.__dlpack__()

        def __dlpack_device__(self):
            return (kDLCPU, 0)
    x = cuarray.from_dlpack(Legacy())
    assert ptr(x) == np_ptr(a) and len(calls) == 1


@requires_gpu
def test_stream_passed_to_gpu_producer():
    x = cuarray.asarray(np.arange(4.0), device="cuda:0")
    seen = []

    class Spy:
        def __dlpack__(self, **kw):
            seen.append(kw)
            return x.__dlpack__(**kw)

        def __dlpack_device__(self):
            return x.__dlpack_device__()
    cuarray.from_dlpack(Spy())
    assert seen[-1]["stream"] == 1 and seen[-1]["max_version"] == (1, 0)
    s = cuarray.cuda.Stream(non_blocking=True)
    with s:
        y = cuarray.from_dlpack(Spy())
    assert seen[-1]["stream"] == s.ptr
    assert ptr(y) == ptr(x)


# ---------------------------------------------------------------- from_dlpack(device=, copy=)


def test_from_dlpack_copy_and_device_on_host():
    a = random_array((3, 4), np.float32)
    x = cuarray.from_dlpack(a, copy=True)
    assert ptr(x) != np_ptr(a)
    np.testing.assert_array_equal(np.asarray(x), a)
    x = cuarray.from_dlpack(a, device="cpu", copy=False)
    assert ptr(x) == np_ptr(a)
    with pytest.raises(TypeError):
        cuarray.from_dlpack(a, "cpu")  # device is keyword-only


@requires_gpu
def test_from_dlpack_cross_device():
    a = random_array((3, 4), np.float32)
    x = cuarray.from_dlpack(a, device="cuda:0")
    assert x.device == cuarray.Device(0) and x.memory == "device"
    np.testing.assert_array_equal(x.get(), a)
    with pytest.raises(BufferError):
        cuarray.from_dlpack(a, device="cuda:0", copy=False)
    g = cuarray.asarray(a, device="cuda:0")
    h = cuarray.from_dlpack(g, device="cpu")
    assert h.device == cuarray.Device("cpu")
    np.testing.assert_array_equal(np.asarray(h), a)
    with pytest.raises(BufferError):
        cuarray.from_dlpack(g, device="cpu", copy=False)
    c = cuarray.from_dlpack(g, copy=True)
    assert ptr(c) != ptr(g)
    np.testing.assert_array_equal(c.get(), a)


@requires_gpu
@pytest.mark.parametrize("memory", ["device", "managed", "pinned"])
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_gpu_round_trip_zero_copy(memory, dtype):
    a = random_array((4, 6), dtype)
    x = cuarray.asarray(a, device="cuda:0", memory=memory)
    for name, f in LAYOUTS.items():
        v = f(x)
        for mv in (None, (1, 0)):
            y = cuarray.from_dlpack(v.__dlpack__(max_version=mv))
            assert y.memory == memory and y.shape == v.shape, name
            if v.size:
                assert ptr(y) == ptr(v) and y.strides == v.strides, name
            np.testing.assert_array_equal(y.get(), f(a), err_msg=name)


# ---------------------------------------------------------------- fuzz: never a crash


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    versioned=st.booleans(),
    version=st.tuples(st.integers(0, 3), st.integers(0, 5)),
    device=st.tuples(st.sampled_from([0, 1, 2, 3, 4, 13, 99, -1]), st.integers(-2, 3)),
    ndim=st.integers(-2, 40),
    dtype=st.tuples(st.integers(0, 8), st.sampled_from([0, 1, 8, 16, 32, 64, 128, 255]),
                    st.integers(0, 3)),
    shape=st.lists(st.integers(-3, 6), min_size=0, max_size=40),
    strides=st.one_of(st.none(), st.lists(st.integers(-8, 8), min_size=0, max_size=40)),
    offset=st.integers(0, 64),
    misalign=st.integers(0, 3),
)
def test_fuzz_capsules(versioned, version, device, ndim, dtype, shape, strides, offset, misalign):
    # gc.freeze: the collections below scan only what this example makes (in a GPU
    # worker that had imported torch and CuPy, 300 full collections took 108 s)
    gc.freeze()
    try:
        _fuzz_one_capsule(versioned, version, device, ndim, dtype, shape, strides, offset,
                          misalign)
    finally:
        gc.unfreeze()


def _fuzz_one_capsule(versioned, version, device, ndim, dtype, shape, strides, offset,
                      misalign):
    buf = np.zeros(1 << 14, np.uint8)  # big enough for every in-range layout
    n = max(ndim, 0)
    shape = (list(shape) + [1] * n)[:max(n, 1)]
    if strides is not None:
        strides = (list(strides) + [1] * n)[:max(n, 1)]
    # Point at the middle so negative strides stay inside the buffer.
    f = Forged(data=np_ptr(buf) + (1 << 13) + misalign, device=device, ndim=ndim, dtype=dtype,
               shape=shape, strides=strides, byte_offset=offset, versioned=versioned,
               version=version, keep=buf)
    try:
        x = cuarray.from_dlpack(f.capsule)
    except (TypeError, ValueError, BufferError, NotImplementedError, cuarray.cuda.CUDAError):
        # Rejected before consuming (the producer still owns it), or consumed and
        # then released exactly once (a CUDA error after the checks).
        gc.collect()
        if capsule_name(f.capsule).startswith("used_"):
            assert f.deleted == 1
        else:
            assert f.deleted == 0
        return
    assert capsule_name(f.capsule).startswith("used_")
    assert x.ndim == ndim
    del x
    gc.collect()
    assert f.deleted == 1


def test_no_reference_leaks():
    import sys
    a = np.arange(10.0)
    x = cuarray.asarray(np.arange(10.0), device="cpu")
    ra, rx = sys.getrefcount(a), sys.getrefcount(x)
    for _ in range(200):
        y = cuarray.from_dlpack(a)
        cap = x.__dlpack__(max_version=(1, 0))
        z = cuarray.from_dlpack(x.__dlpack__())
        w = np.from_dlpack(x)
        try:
            cuarray.from_dlpack(cap)
            cuarray.from_dlpack(cap)
        except BufferError:
            pass
        del y, z, w, cap
    gc.collect()
    assert sys.getrefcount(a) == ra and sys.getrefcount(x) == rx


_api.PyCapsule_SetName.restype = ctypes.c_int
_api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
_USED = b"used_dltensor_versioned"


def test_deleter_from_another_thread_without_the_gil():
    import threading
    x = cuarray.asarray(np.arange(4.0), device="cpu")
    ref = weakref.ref(x)
    cap = x.__dlpack__(max_version=(1, 0))
    _, mt = read_capsule(cap)
    addr = ctypes.addressof(mt)
    assert _api.PyCapsule_SetName(cap, _USED) == 0  # as a consumer does
    deleter = mt.deleter  # a CFUNCTYPE: calling it releases the GIL
    del x
    t = threading.Thread(target=lambda: deleter(addr))
    t.start()
    t.join()
    del cap, mt
    gc.collect()
    assert ref() is None


def test_capsules_alive_at_interpreter_exit():
    import subprocess
    import sys
    src = (
        "import numpy as np, cuarray\n"
        "x = cuarray.asarray(np.arange(4.0), device='cpu')\n"
        "caps = [x.__dlpack__(max_version=(1, 0)), x.__dlpack__()]\n"
        "y = np.from_dlpack(x)\n"
        "z = cuarray.from_dlpack(np.arange(3.0))\n"
        "class Cycle: pass\n"
        "c = Cycle(); c.self = c; c.caps = caps; c.z = z\n"
        "del x\n"
    )
    r = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""


def test_more_than_4gib_metadata():
    # Sizes and strides are 64-bit: describe (never touch) 32 GiB of "memory".
    buf = np.zeros(8, np.float32)
    f = Forged(data=np_ptr(buf), shape=(2**33,), keep=buf)
    x = cuarray.from_dlpack(f.capsule)
    assert x.shape == (2**33,) and x.nbytes == 2**35
    f2 = Forged(data=np_ptr(buf), ndim=2, shape=(2, 3), strides=(2**31, 1), keep=buf)
    y = cuarray.from_dlpack(f2.capsule)
    assert y.strides == (2**33, 4)
