"""Round trips with CuPy and PyTorch on the GPU (CAI and DLPack, all four directions),
plus NumPy on host-accessible memory, and the stream race test.

Skips cleanly without a GPU or without the library. (INTEROP.md items 32-35.)
"""

import ctypes
import functools
import gc
import weakref

import numpy as np
import pytest

import cuarray
from conftest import ALL_DTYPES, HAVE_GPU, random_array

pytestmark = pytest.mark.skipif(not HAVE_GPU, reason="no CUDA GPU on this machine")


def _import(name):
    if not HAVE_GPU:
        return None
    try:
        mod = __import__(name)
    except Exception:
        return None
    try:
        if name == "torch" and not mod.cuda.is_available():
            return None
        if name == "cupy" and mod.cuda.runtime.getDeviceCount() < 1:
            return None
    except Exception:
        return None
    return mod


cupy = _import("cupy")
torch = _import("torch")
need_cupy = pytest.mark.skipif(cupy is None, reason="CuPy not importable or no GPU")
need_torch = pytest.mark.skipif(torch is None, reason="PyTorch not importable or no GPU")


def torch_dtype(dtype):
    name = np.dtype(dtype).name
    t = {"bool": "bool"}.get(name, name)
    td = getattr(torch, t, None)
    if td is None:
        pytest.skip(f"torch has no {name}")
    return td


def views(x):
    """The layouts every direction is tried with."""
    yield "plain", x
    yield "step", x[::2, 1::3]
    yield "neg", x[::-1]
    yield "T", x.T
    yield "0d", x[1, 2]
    yield "empty", x[:0]


def ca_numpy(x):
    return x.get()


@functools.lru_cache(maxsize=None)
def cupy_wraps_negative_strides():
    """Whether this CuPy's DLPack export divides a negative byte stride by the item
    size in unsigned arithmetic (cupy/cupy#10172, seen with CuPy 14.2), read straight
    from its capsule: the int16 stride -1 then arrives as 2**63 - 1."""
    c = cupy.arange(4, dtype=cupy.int16)[::-1]
    cap = c.__dlpack__(max_version=(1, 0))
    api = ctypes.pythonapi
    api.PyCapsule_GetName.restype = ctypes.c_char_p
    api.PyCapsule_GetName.argtypes = [ctypes.py_object]
    api.PyCapsule_GetPointer.restype = ctypes.c_void_p
    api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    name = api.PyCapsule_GetName(cap)
    mt = api.PyCapsule_GetPointer(cap, name)
    # DLManagedTensorVersioned: version, manager_ctx, deleter, flags (32 bytes),
    # then the DLTensor, whose strides pointer is at offset 32.
    tensor = mt + (32 if name == b"dltensor_versioned" else 0)
    strides = ctypes.c_void_p.from_address(tensor + 32).value
    return ctypes.c_int64.from_address(strides).value != -1


# ---------------------------------------------------------------- cuarray -> CuPy


@need_cupy
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("how", ["asarray", "from_dlpack"])
def test_cupy_consumes_cuarray(dtype, how):
    a = random_array((6, 8), dtype)
    x = cuarray.asarray(a, device="cuda:0")
    for name, v in views(x):
        c = cupy.asarray(v) if how == "asarray" else cupy.from_dlpack(v)
        assert c.shape == v.shape and c.dtype == v.dtype, name
        if v.size:
            assert c.data.ptr == v.data.ptr, name
            assert c.strides == v.strides, name
        np.testing.assert_array_equal(cupy.asnumpy(c), ca_numpy(v), err_msg=name)


@need_cupy
def test_cupy_sees_cuarray_writes_and_outlives_it():
    a = random_array((1000,), np.float32)
    x = cuarray.asarray(a, device="cuda:0")
    c = cupy.asarray(x)
    c[0] = 42
    assert x.get()[0] == 42
    d = cupy.from_dlpack(x)
    del x
    gc.collect()
    expect = a.copy()
    expect[0] = 42
    np.testing.assert_array_equal(cupy.asnumpy(c), expect)
    np.testing.assert_array_equal(cupy.asnumpy(d), expect)


# ---------------------------------------------------------------- CuPy -> cuarray


@need_cupy
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("how", ["asarray", "from_dlpack"])
def test_cuarray_consumes_cupy(dtype, how):
    a = random_array((6, 8), dtype)
    c0 = cupy.asarray(a)
    for name, c in (("plain", c0), ("step", c0[::2, 1::3]), ("neg", c0[::-1]), ("T", c0.T),
                    ("0d", c0[1, 2]), ("empty", c0[:0])):
        if (how == "from_dlpack" and name == "neg" and c.itemsize > 1 and
                cupy_wraps_negative_strides()):
            # CuPy's capsule is corrupt: refused cleanly, never misread.
            with pytest.raises(BufferError, match="strides overflow"):
                cuarray.from_dlpack(c)
            continue
        x = cuarray.asarray(c) if how == "asarray" else cuarray.from_dlpack(c)
        assert x.shape == c.shape and x.dtype == c.dtype, name
        assert x.memory == "device" and x.device == cuarray.Device(0)
        if c.size:
            assert x.data.ptr == c.data.ptr, name
            assert x.strides == c.strides, name
        np.testing.assert_array_equal(x.get(), cupy.asnumpy(c), err_msg=name)


@need_cupy
def test_cupy_producer_deleted_while_cuarray_lives():
    a = random_array((1 << 16,), np.float64)
    c = cupy.asarray(a)
    x = cuarray.asarray(c)
    y = cuarray.from_dlpack(cupy.asarray(a))
    del c
    gc.collect()
    # Were the blocks returned to CuPy's pool, these would reuse and zero them.
    junk = [cupy.zeros(1 << 16, dtype=cupy.float64) for _ in range(8)]
    cupy.cuda.Device().synchronize()
    np.testing.assert_array_equal(x.get(), a)
    np.testing.assert_array_equal(y.get(), a)
    del junk


# ---------------------------------------------------------------- cuarray -> PyTorch


@need_torch
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("how", ["as_tensor", "from_dlpack"])
def test_torch_consumes_cuarray(dtype, how):
    td, a = torch_dtype(dtype), random_array((6, 8), dtype)
    x = cuarray.asarray(a, device="cuda:0")
    for name, v in views(x):
        if name == "neg":
            # PyTorch has no negative strides, and up to at least 2.12 it aborts the
            # process (std::terminate in the noexcept TensorMaker::computeStorageSize)
            # on any CAI or DLPack producer's negative stride instead of raising:
            # pytorch/pytorch#188023, fixed by #188062. Never hand it one.
            continue
        try:
            t = (torch.as_tensor(v, device="cuda") if how == "as_tensor"
                 else torch.from_dlpack(v))
        except (TypeError, ValueError, RuntimeError, BufferError) as e:
            # PyTorch has only partial unsigned support.
            if np.dtype(dtype).kind == "u" and dtype != np.uint8:
                continue
            raise AssertionError(f"{name}: {e}") from e
        assert t.dtype == td and tuple(t.shape) == v.shape, name
        if v.size:
            assert t.data_ptr() == v.data.ptr, name
        np.testing.assert_array_equal(t.cpu().numpy(), ca_numpy(v), err_msg=name)


@need_torch
def test_torch_outlives_cuarray():
    a = random_array((1000,), np.float32)
    x = cuarray.asarray(a, device="cuda:0")
    t1 = torch.as_tensor(x, device="cuda")
    t2 = torch.from_dlpack(x)
    del x
    gc.collect()
    np.testing.assert_array_equal(t1.cpu().numpy(), a)
    np.testing.assert_array_equal(t2.cpu().numpy(), a)


# ---------------------------------------------------------------- PyTorch -> cuarray


@need_torch
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("how", ["asarray", "from_dlpack"])
def test_cuarray_consumes_torch(dtype, how):
    td, a = torch_dtype(dtype), random_array((6, 8), dtype)
    try:
        t0 = torch.from_numpy(a).to("cuda")
    except (TypeError, RuntimeError):
        pytest.skip(f"torch cannot hold {np.dtype(dtype).name} on the GPU")
    assert t0.dtype == td
    for name, t in (("plain", t0), ("step", t0[::2, 1::3]), ("T", t0.T), ("0d", t0[1, 2]),
                    ("empty", t0[:0])):
        try:
            x = cuarray.asarray(t) if how == "asarray" else cuarray.from_dlpack(t)
        except (TypeError, RuntimeError, BufferError) as e:
            if np.dtype(dtype).kind == "u" and dtype != np.uint8:
                pytest.skip(f"torch cannot export {np.dtype(dtype).name}: {e}")
            raise
        assert x.shape == tuple(t.shape) and x.dtype == np.dtype(dtype), name
        if t.numel():
            assert x.data.ptr == t.data_ptr(), name
            assert x.strides == tuple(s * t.element_size() for s in t.stride()), name
        expect = a[::2, 1::3] if name == "step" else a.T if name == "T" else \
            a[1, 2] if name == "0d" else a[:0] if name == "empty" else a
        np.testing.assert_array_equal(x.get(), expect, err_msg=name)


@need_torch
def test_torch_producer_deleted_while_cuarray_lives():
    a = random_array((1 << 16,), np.float32)
    t = torch.from_numpy(a).cuda()
    x = cuarray.asarray(t)
    y = cuarray.from_dlpack(torch.from_numpy(a).cuda())
    ref = weakref.ref(t)
    del t
    gc.collect()
    assert ref() is not None  # the import holds the tensor
    torch.cuda.empty_cache()
    junk = [torch.zeros(1 << 16, device="cuda") for _ in range(8)]
    torch.cuda.synchronize()
    np.testing.assert_array_equal(x.get(), a)
    np.testing.assert_array_equal(y.get(), a)
    del x
    gc.collect()
    assert ref() is None
    del junk


@need_torch
def test_torch_dlpack_fast_path():
    """from_dlpack of a plain CUDA tensor skips torch's Python __dlpack__ (issue 16):
    the path turns itself on, shares memory, and hands what torch's method refuses
    back to it, so the errors stay torch's."""
    t = torch.arange(12, dtype=torch.float32, device="cuda").reshape(3, 4)
    x = cuarray.from_dlpack(t)
    assert cuarray._core._torch_dlpack_state() == 1
    assert x.data.ptr == t.data_ptr() and x.shape == (3, 4)
    np.testing.assert_array_equal(x.get(), np.arange(12, dtype=np.float32).reshape(3, 4))
    v = cuarray.from_dlpack(t[:, 1::2])
    assert v.strides == (16, 8)
    np.testing.assert_array_equal(v.get(), np.arange(12, dtype=np.float32).reshape(3, 4)[:, 1::2])
    g = torch.ones(3, device="cuda", requires_grad=True)
    with pytest.raises((RuntimeError, BufferError)):  # torch 2.11: BufferError
        cuarray.from_dlpack(g)
    np.testing.assert_array_equal(cuarray.from_dlpack(g.detach()).get(), np.ones(3, np.float32))
    c = torch.ones(3, dtype=torch.complex64, device="cuda").conj()
    assert c.is_conj()
    with pytest.raises((RuntimeError, BufferError)):  # torch 2.11: BufferError
        cuarray.from_dlpack(c)
    np.testing.assert_array_equal(cuarray.from_dlpack(c.resolve_conj()).get(),
                                  np.ones(3, np.complex64))
    p = torch.nn.Parameter(torch.ones(2, device="cuda"), requires_grad=False)
    np.testing.assert_array_equal(cuarray.from_dlpack(p).get(), np.ones(2, np.float32))
    h = torch.arange(4)  # a CPU tensor: the generic path, a host array
    y = cuarray.from_dlpack(h)
    assert y.device == cuarray.empty(0, device="cpu").device
    np.testing.assert_array_equal(y.get(), np.arange(4))
    assert cuarray._core._torch_dlpack_state() == 1


@need_torch
def test_torch_dlpack_fast_path_streams():
    """Work queued on torch's current stream of the tensor's device is ordered before
    our stream (an event, no host wait), whichever of the two streams is current."""
    n = 1 << 20
    t = torch.zeros(n, device="cuda")
    torch.cuda.synchronize()
    ts = torch.cuda.Stream()
    with torch.cuda.stream(ts):
        torch.cuda._sleep(SPIN)
        t.fill_(3.0)
        x = cuarray.from_dlpack(t)  # our stream: the legacy default stream
        y = x * 2
    assert (y.get() == 6.0).all()
    torch.cuda.synchronize()
    ours = cuarray.cuda.Stream(non_blocking=True)
    torch.cuda._sleep(SPIN)  # on torch's default stream
    t.fill_(5.0)
    with ours:
        z = cuarray.from_dlpack(t) + 1
    ours.synchronize()
    assert (z.get() == 6.0).all()


# ---------------------------------------------------------------- NumPy and host-accessible memory


@pytest.mark.parametrize("memory", ["managed", "pinned"])
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_numpy_from_dlpack_host_accessible(memory, dtype):
    a = random_array((4, 6), dtype)
    x = cuarray.asarray(a, device="cuda:0", memory=memory)
    for v in (x, x[::-1], x.T, x[:, ::2]):
        y = np.from_dlpack(v)
        np.testing.assert_array_equal(y, v.get())


# ---------------------------------------------------------------- streams: the race test

SPIN = 200_000_000  # GPU clock cycles: ~0.1 s, far longer than any host step below


@need_torch
def test_race_torch_to_cuarray_dlpack():
    """PyTorch writes on its own stream after a long sleep; cuarray reads on another
    stream without a manual synchronize: from_dlpack's stream handshake must order it."""
    n = 1 << 20
    t = torch.zeros(n, device="cuda")
    torch.cuda.synchronize()
    ts = torch.cuda.Stream()
    ours = cuarray.cuda.Stream(non_blocking=True)
    with torch.cuda.stream(ts):
        torch.cuda._sleep(SPIN)
        t.fill_(7.0)
        with ours:
            x = cuarray.from_dlpack(t)
            y = x.copy()
    ours.synchronize()
    assert (y.get() == 7.0).all()


@need_torch
def test_race_cuarray_to_torch_dlpack():
    """cuarray queues a long chain of copies ending in the value on its own stream;
    torch.from_dlpack on another stream must see the final value."""
    n = 1 << 26
    ours = cuarray.cuda.Stream(non_blocking=True)
    with ours:
        src = cuarray.asarray(np.full(n, 3.0, np.float32), device="cuda:0")
        ours.synchronize()
        for _ in range(100):  # tens of ms of queued copies
            x = src.copy()
    ts = torch.cuda.Stream()
    with torch.cuda.stream(ts):
        with ours:
            t = torch.from_dlpack(x)  # x.__dlpack__(stream=ts): ts waits for `ours`
        ok = bool((t == 3.0).all())  # synchronizes ts only
    assert ok


@need_cupy
def test_race_cupy_to_cuarray_cai():
    """CuPy writes on its own stream after a spin; cuarray imports through the CAI
    (CuPy exports its current stream) and reads on another stream."""
    spin = cupy.RawKernel(r"""
    extern "C" __global__ void spin_fill(long long cycles, float *out, float v, int n) {
        long long t0 = clock64();
        while (clock64() - t0 < cycles) {}
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
            out[i] = v;
    }""", "spin_fill")
    n = 1 << 20
    c = cupy.zeros(n, dtype=cupy.float32)
    cupy.cuda.Device().synchronize()
    cs = cupy.cuda.Stream(non_blocking=True)
    ours = cuarray.cuda.Stream(non_blocking=True)
    with cs:
        spin((64,), (256,), (np.int64(SPIN), c, np.float32(5.0), np.int32(n)))
        with ours:
            x = cuarray.asarray(c)  # stream=cs in the interface: `ours` waits on it
            y = x.copy()
    ours.synchronize()
    assert (y.get() == 5.0).all()


@need_cupy
def test_race_cuarray_to_cupy_cai():
    n = 1 << 26
    ours = cuarray.cuda.Stream(non_blocking=True)
    with ours:
        src = cuarray.asarray(np.full(n, 2.0, np.float32), device="cuda:0")
        ours.synchronize()
        for _ in range(100):
            x = src.copy()
        cs = cupy.cuda.Stream(non_blocking=True)
        with cs:
            c = cupy.asarray(x)  # our interface names `ours`
            ok = bool((c == 2.0).all())
    assert ok


@need_cupy
def test_cupy_arrays_inside_lists_and_as_indices():
    """CuPy's own arrays where cuarray takes arrays: inside lists (stacked on the
    device), as integer and mask indices (read, not converted through __index__),
    as set values; each compared with NumPy on the same data (issue 37)."""
    h = np.arange(12.0).reshape(3, 4)
    x = ca.asarray(h)
    rows = [cupy.asarray(h[0]), cupy.asarray(h[2])]
    got = ca.asarray(rows)
    np.testing.assert_array_equal(ca.asnumpy(got), np.stack([h[0], h[2]]))
    mixed = ca.asarray([x[1], rows[0]])
    np.testing.assert_array_equal(ca.asnumpy(mixed), np.stack([h[1], h[0]]))
    idx = np.array([2, 0, 2])
    np.testing.assert_array_equal(ca.asnumpy(x[cupy.asarray(idx)]), h[idx])
    mask = h[:, 0] > 3
    np.testing.assert_array_equal(ca.asnumpy(x[cupy.asarray(mask)]), h[mask])
    np.testing.assert_array_equal(ca.asnumpy(x[cupy.asarray(1), 2]), h[1, 2])
    y = ca.asarray(h.copy())
    want = h.copy()
    want[idx] = -1.0
    y[cupy.asarray(idx)] = cupy.full((3, 4), -1.0)
    np.testing.assert_array_equal(ca.asnumpy(y), want)
    with pytest.raises(IndexError):
        x[cupy.asarray([0.5])]


@need_torch
def test_torch_cuda_tensors_inside_lists_and_as_indices():
    h = np.arange(6.0, dtype=np.float32)
    x = ca.asarray(h)
    t = torch.as_tensor(h, device="cuda")
    np.testing.assert_array_equal(ca.asnumpy(ca.asarray([t, t])), np.stack([h, h]))
    i = torch.as_tensor([5, 1], device="cuda")
    np.testing.assert_array_equal(ca.asnumpy(x[i]), h[[5, 1]])
