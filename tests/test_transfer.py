"""Copies and transfers: get/set/asnumpy, copy, astype, fill, across devices."""

import warnings

import numpy as np
import pytest

import cuarray as ca
from conftest import ALL_DTYPES, HAVE_GPU, errors_in_threads, random_array


def rnd(shape, dtype, seed=1234):
    return np.asarray(random_array(shape, dtype, np.random.default_rng(seed)))


# ---- get / asnumpy / set ------------------------------------------------------------


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", [(), (0,), (9,), (4, 5), (2, 3, 4)])
def test_get_roundtrip(device, dtype, shape):
    h = rnd(shape, dtype)
    a = ca.asarray(h, device=device)
    g = a.get()
    assert isinstance(g, np.ndarray)
    assert g.dtype == h.dtype and g.shape == h.shape
    np.testing.assert_array_equal(g, h)
    np.testing.assert_array_equal(ca.asnumpy(a), h)
    if device == "cpu" or a.size:
        assert not np.shares_memory(g, h)


def test_get_order(device):
    h = rnd((4, 6), np.float32)
    a = ca.asarray(h, device=device)
    assert a.get().flags.c_contiguous
    assert a.T.get().flags.c_contiguous  # CuPy's default order='C'
    assert a.T.get(order="F").flags.f_contiguous
    assert a.T.get(order="A").flags.f_contiguous
    assert a.get(order="K").flags.c_contiguous
    np.testing.assert_array_equal(a.T.get(order="F"), h.T)
    for v, hv in [(a[::2] if hasattr(a, "__getitem__") and False else a.T, h.T)]:
        np.testing.assert_array_equal(v.get(), hv)
    with pytest.raises(ValueError):
        a.get(order="Z")


def test_get_out(device):
    h = rnd((5, 4), np.int32)
    a = ca.asarray(h, device=device)
    out = np.empty((5, 4), np.int32)
    r = a.get(out=out)
    assert r is out
    np.testing.assert_array_equal(out, h)
    out_f = np.empty((5, 4), np.int32, order="F")
    assert a.get(out=out_f) is out_f
    np.testing.assert_array_equal(out_f, h)
    big = np.zeros((10, 8), np.int32)
    strided = big[::2, ::2]
    assert a.get(out=strided) is strided
    np.testing.assert_array_equal(strided, h)
    assert ca.asnumpy(a, out=out) is out
    with pytest.raises(ValueError):
        a.get(out=np.empty((4, 5), np.int32))
    with pytest.raises(TypeError):
        a.get(out=np.empty((5, 4), np.int64))
    with pytest.raises(TypeError):
        a.get(out=[1, 2])
    ro = np.empty((5, 4), np.int32)
    ro.flags.writeable = False
    with pytest.raises(ValueError):
        a.get(out=ro)


def test_get_stream_and_blocking(device):
    h = rnd(100, np.float64)
    a = ca.asarray(h, device=device)
    s = ca.cuda.Stream() if device != "cpu" else None
    np.testing.assert_array_equal(a.get(stream=s), h)
    np.testing.assert_array_equal(a.get(blocking=True), h)
    np.testing.assert_array_equal(ca.asnumpy(a, stream=s, blocking=True), h)
    with pytest.raises(TypeError):
        a.get(stream="nope")


def test_asnumpy_other_objects():
    np.testing.assert_array_equal(ca.asnumpy([1, 2, 3]), np.array([1, 2, 3]))
    h = np.arange(3)
    assert ca.asnumpy(h) is h


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_set(device, dtype):
    a = ca.zeros((3, 4), dtype=dtype, device=device)
    h = rnd((3, 4), dtype)
    assert a.set(h) is None
    np.testing.assert_array_equal(a.get(), h)
    a.set(np.asfortranarray(h))
    np.testing.assert_array_equal(a.get(), h)
    t = ca.zeros((4, 3), dtype=dtype, device=device)
    t.T.set(h)
    np.testing.assert_array_equal(t.get(), h.T)
    with pytest.raises(ValueError):
        a.set(rnd((4, 3), dtype))
    with pytest.raises(TypeError):
        a.set([1, 2, 3])


def test_set_dtype_mismatch(device):
    a = ca.zeros(3, dtype=np.float32, device=device)
    with pytest.raises(TypeError):
        a.set(np.zeros(3, np.float64))


@pytest.mark.parametrize("n", [1 << 20, (5 << 20) + 13, (40 << 20) + 7])
def test_large_transfers(device, n):
    # Above the staging / parallel-copy thresholds, with an odd tail.
    h = np.frombuffer(np.random.default_rng(5).bytes(n), np.uint8)
    a = ca.asarray(h, device=device)
    g = a.get()
    assert np.array_equal(g, h)
    b = ca.empty(n, np.uint8, device=device)
    b.set(h[::-1].copy())
    assert np.array_equal(b.get(), h[::-1])
    out = np.empty(n, np.uint8)
    a.get(out=out)
    assert np.array_equal(out, h)


# ---- copy / astype / fill -----------------------------------------------------------


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_copy_orders(device, order):
    h = rnd((3, 4, 5), np.float32)
    a = ca.asarray(h, device=device)
    for v, hv in [(a, h), (a.T, h.T), (a.mT, np.swapaxes(h, -1, -2))]:
        c = v.copy(order=order)
        e = hv.copy(order=order)
        assert c.strides == e.strides, (order, c.strides, e.strides)
        assert c.flags.owndata
        np.testing.assert_array_equal(c.get(), e)
    assert a.copy().flags.c_contiguous
    import copy

    np.testing.assert_array_equal(copy.copy(a.T).get(), h.T)
    np.testing.assert_array_equal(copy.deepcopy(a).get(), h)


def test_copy_is_independent(device):
    h = rnd(10, np.int64)
    a = ca.asarray(h, device=device)
    c = a.copy()
    c.fill(0)
    np.testing.assert_array_equal(a.get(), h)
    assert c.memory == a.memory


@pytest.mark.parametrize("src", ALL_DTYPES)
@pytest.mark.parametrize("dst", ALL_DTYPES)
def test_astype_every_pair(device, src, dst):
    h = rnd((5, 7), src)
    a = ca.asarray(h, device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e = h.astype(dst)
        r = a.astype(dst)
        rt = a.T.astype(dst)
    assert r.dtype == e.dtype and r.shape == e.shape
    np.testing.assert_array_equal(r.get(), e)
    np.testing.assert_array_equal(rt.get(), e.T)


def test_astype_special_values(device):
    h = np.array([0.0, -0.0, 1.5, -1.5, np.inf, -np.inf, np.nan, 1e30, -2.5e9, 255.9],
                 np.float64)
    a = ca.asarray(h, device=device)
    for dst in [np.bool_, np.float16, np.float32, np.complex64]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            np.testing.assert_array_equal(a.astype(dst).get(), h.astype(dst))
    c = np.array([1 + 2j, -3j, 0j, np.nan + 1j], np.complex128)
    ac = ca.asarray(c, device=device)
    for dst in [np.bool_, np.float64, np.float32, np.complex64]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            np.testing.assert_array_equal(ac.astype(dst).get(), c.astype(dst))


def test_astype_options(device):
    h = rnd((3, 4), np.float32)
    a = ca.asarray(h, device=device)
    assert a.astype(np.float32, copy=False) is a
    assert a.astype(np.float32) is not a
    assert a.T.astype(np.float32, copy=False) is not None
    assert a.T.astype(np.float32, order="C", copy=False).flags.c_contiguous
    assert a.astype(np.float64, order="F").flags.f_contiguous
    assert a.T.astype(np.float64).flags.f_contiguous  # order='K'
    np.testing.assert_array_equal(a.astype(np.int32, casting="unsafe").get(),
                                  h.astype(np.int32))
    with pytest.raises(TypeError):
        a.astype(np.int32, casting="safe")
    assert a.astype(np.float64, casting="safe").dtype == np.float64
    with pytest.raises(TypeError):
        a.astype(object)
    with pytest.raises(TypeError):
        a.astype()


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_fill(device, dtype):
    h = rnd((4, 5), dtype)
    a = ca.asarray(h, device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for value in [0, 1, 3.5, True, 2 - 1j]:
            try:
                h.fill(value)
            except (TypeError, OverflowError, ValueError) as exc:
                with pytest.raises(type(exc)):
                    a.fill(value)
                continue
            assert a.fill(value) is None
            np.testing.assert_array_equal(a.get(), h)
    t = ca.zeros((5, 4), dtype=dtype, device=device).T
    t.fill(1)
    np.testing.assert_array_equal(t.get(), np.ones((4, 5), dtype))


def test_fill_errors(device):
    a = ca.zeros(3, dtype=np.int8, device=device)
    with pytest.raises(OverflowError):
        a.fill(1000)
    with pytest.raises(ValueError):  # as NumPy: int("x")
        a.fill("x")
    a.fill(ca.asarray(np.int8(5), device=device))
    np.testing.assert_array_equal(a.get(), np.full(3, 5, np.int8))


def test_read_only_destination():
    h = np.arange(4.0)
    h.flags.writeable = False
    a = ca.asarray(h, device="cpu")
    assert not a.flags.writeable
    with pytest.raises(ValueError):
        a.fill(1)
    with pytest.raises(ValueError):
        a.set(np.zeros(4))
    b = a.copy()
    assert b.flags.writeable


# ---- across devices -----------------------------------------------------------------


@pytest.mark.skipif(not HAVE_GPU, reason="no CUDA GPU on this machine")
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_cpu_gpu_roundtrip(dtype):
    h = rnd((6, 5), dtype)
    c = ca.asarray(h, device="cpu")
    g = ca.asarray(c, device="cuda:0")
    assert str(g.device) == "cuda:0"
    np.testing.assert_array_equal(g.get(), h)
    back = g.to_device("cpu")
    np.testing.assert_array_equal(back.get(), h)
    np.testing.assert_array_equal(ca.asarray(c.T, device="cuda:0").get(), h.T)
    np.testing.assert_array_equal(ca.asarray(g.T, device="cpu").get(), h.T)
    for kind in ["managed", "pinned"]:
        m = ca.asarray(h, device="cuda:0", memory=kind)
        assert m.memory == kind
        np.testing.assert_array_equal(m.get(), h)
        d = ca.asarray(m, memory="device")
        assert d.memory == "device"
        np.testing.assert_array_equal(d.get(), h)


@pytest.mark.skipif(not HAVE_GPU, reason="no CUDA GPU on this machine")
def test_mixing_devices_is_an_error():
    g = ca.zeros(3, device="cuda:0")
    c = ca.zeros(3, device="cpu")
    with pytest.raises(ValueError):
        ca.full_like(g, c)
    with pytest.raises(ValueError):
        g.fill(c)


def test_parallel_copy_after_fork():
    # The copy threads do not survive fork(): the child starts its own.
    import os

    if not hasattr(os, "fork"):
        pytest.skip("no fork")
    h = np.arange(3 << 20, dtype=np.float64)
    ca.asarray(h, device="cpu", copy=True)  # the parent's threads are running
    pid = os.fork()
    if pid == 0:
        ok = False
        try:
            ok = np.array_equal(ca.asarray(h, device="cpu", copy=True).get(), h)
        finally:
            os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def test_concurrent_large_copies():
    h = np.arange(2 << 20, dtype=np.float64)

    def work():
        for _ in range(5):
            assert np.array_equal(ca.asarray(h, device="cpu", copy=True).get(), h)

    assert not errors_in_threads(work, [()] * 4)


# ---- small transfers and scalar conversions (the pinned bounce buffers) -------------


def _same_scalar(got, want):
    assert type(got) is type(want), (type(got), type(want))
    if isinstance(want, float) and want != want:
        assert got != got
    else:
        assert got == want


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_scalar_conversions(device, dtype):
    h = rnd((7, 5), dtype, seed=21)
    a = ca.asarray(h, device=device)
    for idx in [(0, 0), (3, 2), (6, 4)]:
        z = a[idx]
        hz = h[idx]
        _same_scalar(z.item(), hz.item())
        _same_scalar(complex(z), complex(hz))
        assert bool(z) == bool(hz)
        if np.dtype(dtype).kind != "c":
            _same_scalar(float(z), float(hz))
            _same_scalar(int(z), int(hz))
    for i in [0, 1, 17, 34, -1]:
        _same_scalar(a.item(i), h.item(i))
    _same_scalar(a.item(6, 4), h.item(6, 4))
    _same_scalar(a.T.item(4, 6), h.T.item(4, 6))
    one = ca.asarray(h[2:3, 1:2], device=device)  # size 1, not 0-d
    _same_scalar(one.item(), h[2, 1].item())


def test_scalar_after_queued_work(device):
    # The read is ordered after the work that produced the value, on the
    # current stream (the default one, or a user stream).
    h = np.abs(rnd(1 << 16, np.float32, seed=3))  # a well-conditioned sum
    a = ca.asarray(h, device=device)
    for _ in range(3):
        b = a * 2
        got = float(b.sum())
        assert got == pytest.approx(float((h * 2).sum(dtype=np.float64)), rel=1e-4)
    if device != "cpu":
        s = ca.cuda.Stream(non_blocking=True)
        with s:
            c = a + 1
            assert float(c[12345]) == float(h[12345] + np.float32(1))
            assert c[:3].get().tolist() == (h[:3] + np.float32(1)).tolist()


@pytest.mark.parametrize("nbytes", [1, 7, 16, 4095, 4096, 4097, 65535, 65536, 65537])
@pytest.mark.parametrize("offset", [0, 1, 5])
def test_small_transfer_sizes(device, nbytes, offset):
    # Both sides of the 4 KiB and 64 KiB thresholds; odd offsets make the device
    # address unaligned.
    raw = np.random.default_rng(nbytes).bytes(nbytes + offset)
    h = np.frombuffer(raw, np.uint8).copy()
    big = ca.asarray(h, device=device)
    v = big[offset:]
    assert np.array_equal(v.get(), h[offset:])
    out = np.empty(nbytes, np.uint8)
    assert v.get(out=out) is out
    assert np.array_equal(out, h[offset:])
    w = h[offset:][::-1].copy()
    v.set(w)
    assert np.array_equal(big.get()[offset:], w)
    assert np.array_equal(big.get()[:offset], h[:offset])
    f = ca.asarray(h[offset:].view(np.uint8), device=device)
    assert np.array_equal(ca.asnumpy(f), h[offset:])


@pytest.mark.parametrize("n", [16, 1024, 8192])
def test_small_transfers_pinned_host(device, n):
    # A page-locked NumPy array (cuarray pinned memory) as the host side, with
    # blocking=False too: the copy must then be left on the stream, not bounced.
    if device == "cpu":
        pytest.skip("pinned memory needs a GPU")
    h = rnd(n, np.float64, seed=n)
    a = ca.asarray(h, device=device)
    pin = np.asarray(ca.empty(n, dtype=np.float64, memory="pinned"))
    assert a.get(out=pin) is pin
    np.testing.assert_array_equal(pin, h)
    pin[:] = 0
    a.get(out=pin, blocking=False)
    ca.cuda.Device(0).synchronize()
    np.testing.assert_array_equal(pin, h)
    b = ca.asarray(pin, device=device)
    np.testing.assert_array_equal(b.get(), h)


def test_scalar_conversions_many_threads(device):
    # More threads than bounce buffers: some take the ordinary path.
    h = rnd((64, 100), np.float64, seed=8)
    a = ca.asarray(h, device=device)
    def work(k):
        row = a[k]
        for j in range(60):
            assert float(row[j]) == h[k, j]
            assert a.item(k, j) == h[k, j]
            assert np.array_equal(row[j:j + 5].get(), h[k, j:j + 5])
            x = ca.asarray(h[k], device=device)
            assert float(x.sum()) == pytest.approx(h[k].sum(), abs=1e-9)

    errors = errors_in_threads(work, [(k,) for k in range(12)])
    assert not errors, errors[:3]


def test_scalar_conversion_errors(device):
    # float/bool/item() of a size > 1 array: tests/test_readback.py
    a = ca.asarray(np.arange(3.0), device=device)
    with pytest.raises(IndexError):
        a.item(3)
    e = ca.asarray(np.zeros(0), device=device)
    with pytest.raises(ValueError):
        bool(e)
