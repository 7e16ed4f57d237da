"""Fuzz: DLPack capsules made by NumPy and by cuarray, then corrupted, into from_dlpack.

Real capsules (NumPy's ndarray.__dlpack__ and cuarray's own export on the cpu device)
of random dtypes, shapes and layouts have fields of their managed tensor rewritten
in place: version, flags, device, dtype (code, bits, lanes), ndim, byte offset;
capsules are renamed, used twice, or passed to from_dlpack after the producer is
gone. Properties: a capsule cuarray can read imports as NumPy reads the same memory;
any other raises a NumPy-typed exception; the producer's deleter runs exactly once
(the producer's reference count comes back to where it was); a rejected capsule is
not consumed. __dlpack__'s arguments are checked against NumPy's. Only fields the
consumer can check are corrupted: a bigger shape than the memory is undetectable by
any consumer. Budget: tests/fuzz_budget.py.
"""

import ctypes
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cuarray as ca
from conftest import ALL_DTYPES, HAVE_GPU
from fuzz_budget import NUMPY_TYPED, assert_numpy_typed, exc_type, fuzz
from test_dlpack import _api, capsule_name, read_capsule

pytestmark = pytest.mark.filterwarnings("ignore")

# (DLPack type code, bits) of the dtypes cuarray holds
DL_CODES = {(0, 8): np.int8, (0, 16): np.int16, (0, 32): np.int32, (0, 64): np.int64,
            (1, 8): np.uint8, (1, 16): np.uint16, (1, 32): np.uint32, (1, 64): np.uint64,
            (2, 16): np.float16, (2, 32): np.float32, (2, 64): np.float64,
            (5, 64): np.complex64, (5, 128): np.complex128, (6, 8): np.bool_}
kDLCPU, kDLCUDA, kDLCUDAHost, kDLCUDAManaged = 1, 2, 3, 13
LAYOUTS = [lambda v: v, lambda v: v[::-1], lambda v: v.T, lambda v: v[..., ::2],
           lambda v: v[:1], lambda v: v[:0], lambda v: v.reshape(-1)[-1:].reshape(())]


@st.composite
def corruptions(draw):
    """The fields to rewrite: a dict of field -> value (empty: the capsule as made)."""
    c = {}
    if draw(st.booleans()):
        c["version"] = (draw(st.integers(0, 3)), draw(st.integers(0, 9)))
    if draw(st.booleans()):
        c["flags"] = draw(st.sampled_from([0, 1, 2, 3, 4, 1 << 40]))
    if draw(st.booleans()):
        c["device"] = (draw(st.sampled_from([1, 1, 2, 3, 4, 7, 8, 9, 10, 13, 14, 99])),
                       draw(st.sampled_from([0, 0, 1, -1, 7])))
    if draw(st.booleans()):
        c["dtype"] = (draw(st.integers(0, 8)), draw(st.sampled_from([1, 4, 8, 16, 32, 64])),
                      draw(st.sampled_from([1, 1, 0, 2, 4])))
    if draw(st.booleans()):
        c["ndim"] = draw(st.sampled_from([-1, -2**31, 0, 1]))
    if draw(st.booleans()):
        c["byte_offset"] = draw(st.integers(1, 7))
    return c


def _corrupt(mt, versioned, c):
    """Rewrite the fields of managed tensor `mt`; what the consumer must then do:
    None if it can read the capsule, else the reason it must refuse it."""
    t = mt.dl_tensor
    why = None
    if versioned and "version" in c:
        mt.version.major, mt.version.minor = c["version"]
        if c["version"][0] != 1:
            why = "major version"
    if versioned and "flags" in c:
        mt.flags = c["flags"]
    if "device" in c:
        t.device.device_type, t.device.device_id = c["device"]
        # a CPU's device_id names nothing; pinned and managed memory are host
        # memory to a consumer without a GPU; with one, CUDA may look the pointer
        # up and find it is not what the capsule says (either answer is right
        # there, as it is for host memory called device memory of GPU 0)
        if HAVE_GPU and (c["device"][0] in (kDLCUDAHost, kDLCUDAManaged)
                         or c["device"] == (kDLCUDA, 0)):
            why = why or "maybe"
        elif c["device"][0] not in (kDLCPU, kDLCUDAHost, kDLCUDAManaged):
            why = why or "device"
    bits = t.dtype.bits
    if "dtype" in c and c["dtype"][1] <= bits:  # never reads past the producer's memory
        t.dtype.code, t.dtype.bits, t.dtype.lanes = c["dtype"]
        if (c["dtype"][0], c["dtype"][1]) not in DL_CODES or c["dtype"][2] != 1:
            why = why or "dtype"
    if "ndim" in c and (c["ndim"] < 0 or c["ndim"] < t.ndim):
        t.ndim = c["ndim"]
        if c["ndim"] < 0:
            why = why or "ndim"
    itemsize = max(t.dtype.bits // 8, 1)  # of the dtype now in the capsule
    if "byte_offset" in c and c["byte_offset"] % itemsize:
        t.byte_offset = c["byte_offset"]
        if t.ndim >= 0 and all(t.shape[i] for i in range(t.ndim)):  # empty: no reads
            why = why or "misaligned"
    return why


def _fields(mt):
    """The tensor's fields as Python values, read before the consumer may free it."""
    t = mt.dl_tensor
    ok = t.ndim >= 0 and (t.dtype.code, t.dtype.bits) in DL_CODES
    shape = tuple(t.shape[i] for i in range(t.ndim)) if ok else None
    strides = tuple(t.strides[i] for i in range(t.ndim)) if ok and t.strides else None
    return dict(code=(t.dtype.code, t.dtype.bits), shape=shape, strides=strides,
                start=t.data + t.byte_offset, flags=getattr(mt, "flags", 0))


def _expected(f, host):
    """What a consumer reading fields `f` over `host`'s memory must see."""
    dtype = np.dtype(DL_CODES[f["code"]])
    strides = f["strides"] and tuple(s * dtype.itemsize for s in f["strides"])
    if 0 in f["shape"]:
        return np.empty(f["shape"], dtype)
    offset = f["start"] - host.__array_interface__["data"][0]
    return np.ndarray(f["shape"], dtype, buffer=host.reshape(-1).view(np.uint8),
                      offset=offset, strides=strides)


def _producer(kind, dtype, shape, layout):
    a = np.arange(int(np.prod(shape)), dtype=np.int64).astype(dtype).reshape(shape)
    if kind == "numpy":
        src = a
        obj = layout(a)
    else:
        src = ca.asarray(a, device="cpu")
        obj = layout(src)
    return src, obj


@fuzz(200)
@given(kind=st.sampled_from(["numpy", "cuarray"]), dtype=st.sampled_from(ALL_DTYPES),
       shape=st.lists(st.integers(1, 4), min_size=2, max_size=3).map(tuple),
       layout=st.integers(0, len(LAYOUTS) - 1), versioned=st.booleans(), c=corruptions(),
       twice=st.booleans())
def test_fuzz_corrupted_capsules(kind, dtype, shape, layout, versioned, c, twice):
    src, obj = _producer(kind, dtype, shape, LAYOUTS[layout])
    host = np.asarray(src) if kind == "cuarray" else src
    refs = sys.getrefcount(src), sys.getrefcount(obj)
    cap = obj.__dlpack__(max_version=(1, 0) if versioned else None)
    versioned, mt = read_capsule(cap)
    why = _corrupt(mt, versioned, c)
    fields = _fields(mt)
    del mt  # a consumer that frees the tensor at once (an empty one) leaves it dangling
    try:
        x = ca.from_dlpack(cap)
    except NUMPY_TYPED + (ca.cuda.CUDAError,) as e:
        assert why is not None, f"refused a good capsule ({c}): {e!r}"
        if why != "maybe":  # a CUDA check may come after the capsule is taken
            assert not isinstance(e, ca.cuda.CUDAError), repr(e)
            assert not capsule_name(cap).startswith("used_"), "a refused capsule was consumed"
    else:
        assert why in (None, "maybe"), f"imported a capsule with a bad {why}: {c}"
        assert capsule_name(cap).startswith("used_")
        want = _expected(fields, host)
        assert x.shape == want.shape and x.dtype == want.dtype, (x.shape, want.shape)
        if x.size and why is None:  # "maybe": a host pointer taken as GPU memory
            np.testing.assert_array_equal(x.get(), want, strict=True)
        if versioned and fields["flags"] & 1:
            assert not x.flags.writeable
        if twice:
            with pytest.raises(BufferError):
                ca.from_dlpack(cap)
        del x
    del cap  # no cycles: the references go at once
    assert (sys.getrefcount(src), sys.getrefcount(obj)) == refs, \
        "the producer's deleter did not run exactly once"


@fuzz(100)
@given(name=st.sampled_from([b"dltensor", b"dltensor_versioned", b"used_dltensor",
                             b"used_dltensor_versioned", b"DLTensor", b"", b"dltensor\x00x",
                             b"tensor"]),
       versioned=st.booleans())
def test_fuzz_capsule_names(name, versioned):
    a = np.arange(6.0)
    refs = sys.getrefcount(a)
    cap = a.__dlpack__(max_version=(1, 0) if versioned else None)
    ptr = _api.PyCapsule_GetPointer(cap, capsule_name(cap).encode())
    real = capsule_name(cap).encode()
    keep = ctypes.c_char_p(name)        # the name must outlive the capsule
    ctypes.pythonapi.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
    ctypes.pythonapi.PyCapsule_SetName(cap, keep)
    try:
        x = ca.from_dlpack(cap)
    except NUMPY_TYPED:
        # NumPy's destructor frees only a capsule still named as it made it
        ctypes.pythonapi.PyCapsule_SetName(cap, real)
        assert _api.PyCapsule_GetPointer(cap, real) == ptr
    else:
        assert name.split(b"\x00")[0] == real, name  # a C string ends at its NUL
        np.testing.assert_array_equal(x.get(), a)
        del x
    del cap
    assert sys.getrefcount(a) == refs


_args = dict(
    stream=st.sampled_from([None]),
    max_version=st.sampled_from([None, (1, 0), (0, 5), (2, 0), (1, 9), (99, 99), (1,), "x",
                                 (1, 0, 0), 1, (1.0, 0)]),
    dl_device=st.sampled_from([None, (1, 0), (1, 1), (2, 0), (3, 0), (13, 0), (1,), "cpu",
                               (1, 0, 0), (1.0, 0), 1]),
    copy=st.sampled_from([None, True, False, 0, 1]),
)


@fuzz(150)
@given(dtype=st.sampled_from(ALL_DTYPES), layout=st.integers(0, len(LAYOUTS) - 1),
       kw=st.fixed_dictionaries({}, optional=_args))
def test_fuzz_dlpack_arguments_against_numpy(dtype, layout, kw):
    a = LAYOUTS[layout](np.arange(12).astype(dtype).reshape(3, 4))
    x = ca.asarray(a, device="cpu")
    for k, v in kw.items():  # one argument at a time: NumPy's very exception type
        _, want_exc = exc_type(a.__dlpack__, **{k: v})
        if want_exc is not None:
            assert_numpy_typed(exc_type(x.__dlpack__, **{k: v})[1], want_exc, f"{k}={v!r}")
    _, want_exc = exc_type(a.__dlpack__, **kw)
    cap, got_exc = exc_type(x.__dlpack__, **kw)
    if want_exc is not None:  # several bad arguments: either may be reported
        assert got_exc is not None and issubclass(got_exc, NUMPY_TYPED), (kw, got_exc)
        return
    assert got_exc is None, (kw, got_exc)
    np.testing.assert_array_equal(ca.from_dlpack(cap).get(), a, strict=True)
