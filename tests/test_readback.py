"""Reading one element back: float(), int(), bool(), complex(), .item() and
operator.index() of one-element arrays.

On a GPU these go through the mapped readback slots of csrc/array/readback.c (a tiny
kernel writes the value into pinned host memory that the host polls, with a
stream synchronize as the fallback for long queues); on the cpu device through
memcpy. Every test runs on both devices.
"""

import math
import operator
import os
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import cuarray as ca
from cuarray import cuda
from conftest import ALL_DTYPES, random_array, requires_gpu

# Where this process imported cuarray from, for the child processes below.
PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(ca.__file__)))


def same(x, y):
    """Equal Python scalars of the same type, NaN equal to NaN."""
    if type(x) is not type(y):
        return False
    if isinstance(x, complex):
        return same(x.real, y.real) and same(x.imag, y.imag)
    if isinstance(x, float) and math.isnan(x):
        return math.isnan(y)
    return x == y


def check_conversions(a, h):
    """Every scalar conversion of the one-element cuarray `a` against the
    NumPy array `h` holding the same value."""
    assert a.size == 1 and h.size == 1
    assert same(a.item(), h.item()), (a.item(), h.item())
    kind = h.dtype.kind
    if not (kind == "f" and math.isnan(h.item())):
        assert bool(a) == bool(h.item())
    assert same(complex(a), complex(h.item()))
    if kind != "c":
        assert same(float(a), float(h.item()))
        if kind != "f" or math.isfinite(h.item()):
            assert same(int(a), int(h.item()))
    if kind in "iu" and a.ndim == 0:
        assert same(operator.index(a), operator.index(h.item()))


# ---- every dtype, 0-d and one-element results ------------------------------------


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_elements_every_dtype(device, dtype):
    h = np.asarray(random_array((50,), dtype))
    a = ca.asarray(h, device=device)
    # 0-d views at every offset of a short run, then scattered ones.
    for i in list(range(18)) + [31, 48, 49, -1]:
        check_conversions(a[i], np.asarray(h[i]))
        assert same(a.item(i), h.item(i))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_computed_results_every_dtype(device, dtype):
    rng = np.random.default_rng(7)
    h = np.asarray(random_array((40,), dtype, rng))
    a = ca.asarray(h, device=device)
    for i, j in [(0, 1), (3, 7), (38, 39), (12, 5)]:
        # The value is computed by a kernel queued just before the readback.
        check_conversions(a[i:i + 1] + a[j:j + 1], h[i:i + 1] + h[j:j + 1])
        if np.dtype(dtype).kind != "c":
            # (Complex products may differ in the last bit: FMA on the GPU.)
            check_conversions(a[i] * a[j], (h[i:i + 1] * h[j:j + 1]).reshape(()))
    if np.dtype(dtype).kind != "c":
        check_conversions(a.max(), np.asarray(h.max()))
        check_conversions(a.min(), np.asarray(h.min()))
        check_conversions(a.argmax(), np.asarray(h.argmax()))
    check_conversions(a.any(), np.asarray(h.any()))
    check_conversions(a.all(), np.asarray(h.all()))


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.int64, np.uint64])
def test_integer_sums_exact(device, dtype):
    h = np.asarray(random_array((1000,), dtype))
    a = ca.asarray(h, device=device)
    s, hs = a.sum(), h.sum()
    assert s.dtype == hs.dtype
    assert int(s) == int(hs)
    assert s.item() == hs.item()


def test_float_sum_round_trip(device):
    # The benchmark's case: float(v.sum()) of 1024 float32.
    h = np.asarray(random_array((1024,), np.float32))
    v = ca.asarray(h, device=device)
    ref = float(h.astype(np.float64).sum())
    for _ in range(20):
        assert float(v.sum()) == pytest.approx(ref, rel=1e-5, abs=1e-3)
    assert bool((v * 0).sum() == 0) is True
    assert bool(v.sum() > 1e30) is False


# ---- alignment: one-element views at every offset -------------------------------


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if d is not np.bool_])
def test_unaligned_one_element_views(device, dtype):
    dt = np.dtype(dtype)
    step = min(dt.itemsize, 8)  # the alignment cuarray's views require
    rng = np.random.default_rng(11)
    hb = rng.integers(0, 256, size=64, dtype=np.uint8)
    b = ca.asarray(hb, device=device)
    for off in range(0, 64 - dt.itemsize + 1, step):
        hv = hb[off:off + dt.itemsize].view(dt)
        v = b[off:off + dt.itemsize].view(dt)
        assert v.shape == (1,)
        assert same(v.item(), hv.item()), (off, v.item(), hv.item())
        assert same(v[0].item(), hv[0].item())


def test_odd_offset_small_types(device):
    for dtype in [np.int8, np.uint8, np.bool_, np.float16, np.int16]:
        h = np.asarray(random_array((9,), dtype))
        a = ca.asarray(h, device=device)
        check_conversions(a[3:4], h[3:4])
        check_conversions(a[5:6], h[5:6])
        check_conversions(a[3], np.asarray(h[3]))


def test_complex128_only_8_byte_aligned(device):
    h = np.asarray(random_array((9,), np.float64))
    a = ca.asarray(h, device=device)
    v, hv = a[1:3].view(np.complex128), h[1:3].view(np.complex128)
    check_conversions(v, hv)
    v, hv = a[3:5].view(np.complex128), h[3:5].view(np.complex128)
    check_conversions(v, hv)


# ---- long queues (the fallback synchronize) --------------------------------------


def test_after_long_elementwise_queue(device):
    n = (1 << 22) if device != "cpu" else (1 << 14)
    x = ca.ones(n, dtype=np.float64, device=device)
    for _ in range(200):
        x = x + 1.0
    # float64 sums of 201.0 are exact at this size.
    assert float(x.sum()) == 201.0 * n
    assert int(x[n // 2]) == 201
    assert float(x[-1]) == 201.0


def test_after_big_matmul(device):
    n = 4096 if device != "cpu" else 96
    rng = np.random.default_rng(3)
    ha = rng.standard_normal((n, n)).astype(np.float32)
    hb = rng.standard_normal((n, n)).astype(np.float32)
    a = ca.asarray(ha, device=device)
    b = ca.asarray(hb, device=device)
    for _ in range(3):
        c = ca.matmul(a, b)
    for i, j in [(5, 7), (n - 1, 0), (n // 2, n // 3)]:
        ref = float(ha[i].astype(np.float64) @ hb[:, j].astype(np.float64))
        assert float(c[i, j]) == pytest.approx(ref, rel=1e-3, abs=1e-2 * math.sqrt(n))
    d = ca.matmul(a, b)
    ref = float(ha.astype(np.float64).sum(axis=0) @ hb.astype(np.float64).sum(axis=1))
    got = float(d.sum(dtype=np.float64))
    assert got == pytest.approx(ref, rel=1e-3, abs=1e-2 * n * math.sqrt(n))


# ---- slot reuse ------------------------------------------------------------------


def test_many_readbacks_reuse_slots(device):
    h = np.arange(1000, dtype=np.int64) * 3 - 500
    a = ca.asarray(h, device=device)
    for i in range(1000):
        assert int(a[i]) == h[i]
    for i in range(0, 1000, 7):
        # Each value computed right before its readback: a stale slot value
        # from the previous iteration would be caught.
        assert int(a[i] + i) == h[i] + i
        assert float(a[i] * 0.5) == h[i] * 0.5
        assert bool(a[i] == h[i]) is True


def test_alternating_dtypes(device):
    arrays = [(ca.asarray(h, device=device), h)
              for h in (np.asarray(random_array((16,), d)) for d in ALL_DTYPES)]
    for k in range(200):
        a, h = arrays[k % len(arrays)]
        i = (k * 5) % 16
        assert same(a[i].item(), h[i].item())


# ---- threads ---------------------------------------------------------------------


def _run_threads(target, n):
    errors = []

    def body(k):
        try:
            target(k)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append((k, repr(e)))

    threads = [threading.Thread(target=body, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_threads_read_back_at_once(device):
    def work(k):
        with ca.Device(device):
            h = np.asarray(random_array((257,), np.float64, np.random.default_rng(k)))
            a = ca.asarray(h, device=device)
            for i in range(300):
                j = (i * 13 + k) % 257
                assert float(a[j] + k) == h[j] + k
                assert int(a.argmax()) == int(h.argmax())
            big = ca.ones(1 << 16, dtype=np.int64, device=device) * (k + 1)
            for _ in range(20):
                assert int(big.sum()) == (k + 1) << 16
    _run_threads(work, 8)


def test_threads_with_own_streams(device):
    def work(k):
        with ca.Device(device):
            s = cuda.Stream(non_blocking=(k % 2 == 1))
            with s:
                h = np.arange(1000, dtype=np.int32) + k
                a = ca.asarray(h, device=device)
                for i in range(0, 1000, 3):
                    assert int(a[i] * 2) == 2 * (i + k)
                x = ca.ones(1 << 18, dtype=np.float32, device=device)
                for _ in range(30):
                    x = x + 1.0
                assert float(x[12345]) == 31.0
    _run_threads(work, 6)


# ---- streams ---------------------------------------------------------------------


@pytest.mark.parametrize("non_blocking", [False, True])
def test_readback_on_non_default_stream(device, non_blocking):
    n = (1 << 22) if device != "cpu" else (1 << 12)
    with ca.Device(device):
        s = cuda.Stream(non_blocking=non_blocking)
        with s:
            x = ca.zeros(n, dtype=np.float32, device=device)
            for k in range(1, 40):
                x += 1.0
                if k % 13 == 0:
                    # Right behind the add on the same stream.
                    assert float(x[n - 1]) == float(k)
            assert float(x.sum(dtype=np.float64)) == 39.0 * n
            assert int(x.argmax()) == 0
        # Back on the null stream: the value stays what s computed.
        s.synchronize()
        assert float(x[7]) == 39.0


def test_readback_sees_work_of_its_own_stream_only_after_it(device):
    with ca.Device(device):
        s = cuda.Stream(non_blocking=True)
        with s:
            a = ca.full((1,), 5, dtype=np.int64, device=device)
            for _ in range(50):
                a += 1
            assert int(a) == 55
            a *= 2
            assert a.item() == 110


# ---- several GPUs ----------------------------------------------------------------


def _gpu_count():
    try:
        return cuda.device_count()
    except Exception:
        return 0


@pytest.mark.skipif(_gpu_count() < 2, reason="needs two CUDA GPUs")
def test_readback_on_every_gpu():
    # The slot area is one portable allocation; each device reaches it through
    # its own device pointer.
    n = _gpu_count()
    arrays = []
    for d in range(n):
        with ca.Device(d):
            h = np.arange(100, dtype=np.float32) * (d + 1)
            arrays.append((ca.asarray(h, device=f"cuda:{d}"), h))
    for k in range(300):
        d = k % n
        a, h = arrays[d]
        with ca.Device(d):
            assert float(a[k % 100] + 1) == h[k % 100] + 1
        # Read without making the device current: the readback selects it.
        assert float(a[(k * 7) % 100]) == h[(k * 7) % 100]


# ---- errors ----------------------------------------------------------------------


def test_conversion_errors_unchanged(device):
    a = ca.asarray([1.0, 2.0], device=device)
    with pytest.raises(TypeError):
        float(a)
    with pytest.raises(ValueError):
        bool(a)
    with pytest.raises(ValueError):
        a.item()
    with pytest.raises(TypeError):
        float(ca.asarray([1j], device=device))
    with pytest.raises(ValueError):
        int(ca.asarray(np.nan, device=device))
    # The readback still works after the errors.
    assert float(a[1]) == 2.0


# A kernel that faults (an address far outside any allocation, through a
# __cuda_array_interface__ with a huge shape) makes the context unusable: run
# it in a child process. The readback must raise CUDAError, not hang and not
# return a value.
_FAULT_SCRIPT = textwrap.dedent("""
    import os, sys
    sys.path.insert(0, {pkg!r})
    import numpy as np
    import cuarray as ca

    base = ca.zeros(16, dtype=np.int8, device="cuda:0")
    assert int(base[3]) == 0
    ptr = base.__cuda_array_interface__["data"][0]
    # Above the 47-bit user address space: no allocation, host or device.
    target = (1 << 47) + (1 << 40)
    n = target - ptr + 16

    class Wide:
        __cuda_array_interface__ = {{
            "shape": (n,), "typestr": "|i1", "data": (ptr, False),
            "version": 3, "strides": None, "stream": None,
        }}

    wide = ca.asarray(Wide())
    bad = wide[n - 8]
    try:
        if {mode!r} == "direct":
            v = int(bad)
        else:
            v = int(bad + 1)   # the faulting kernel comes before the readback
    except ca.cuda.CUDAError as e:
        print("CUDAError", e, flush=True)
        os._exit(0)
    except BaseException as e:
        print("other", type(e).__name__, e, flush=True)
        os._exit(3)
    print("value", v, flush=True)
    os._exit(4)
""")


@requires_gpu
@pytest.mark.parametrize("mode", ["direct", "after_kernel"])
def test_faulting_kernel_raises_cuda_error(mode):
    script = _FAULT_SCRIPT.format(pkg=PKG_DIR, mode=mode)
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, (r.returncode, r.stdout, r.stderr)
    assert "CUDAError" in r.stdout


_FORK_SCRIPT = textwrap.dedent("""
    import os, sys
    sys.path.insert(0, {pkg!r})
    import numpy as np
    import cuarray as ca

    a = ca.asarray(np.arange(10.0), device={device!r})
    assert float(a[4]) == 4.0
    pid = os.fork()
    if pid == 0:
        # CUDA is unusable in a forked child: an exception or the right value,
        # never a crash or a hang.
        try:
            ok = float(a[4]) == 4.0
        except Exception:
            ok = True
        os._exit(0 if ok else 5)
    _, status = os.waitpid(pid, 0)
    assert float(a[6]) == 6.0
    print("child", status, flush=True)
""")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork")
def test_fork_does_not_crash(device):
    script = _FORK_SCRIPT.format(pkg=PKG_DIR, device=device)
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, (r.stdout, r.stderr)
    assert "child 0" in r.stdout, (r.stdout, r.stderr)


# ---- mirrors: one-element reduction results written to host memory by their kernel --


_RED = ["sum", "prod", "max", "min", "argmax", "argmin", "mean", "any", "all", "std",
        "var"]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("op", _RED)
def test_reduction_results_read_back(device, dtype, op):
    h = random_array((1000,), dtype, np.random.default_rng(11))
    if dtype == np.float16 and op in ("prod", "sum", "mean", "std", "var"):
        h = (h / 64).astype(dtype)
    a = ca.asarray(h, device=device)
    try:
        want = getattr(np, op)(h)
    except TypeError:
        pytest.skip(f"NumPy has no {op} for {np.dtype(dtype)}")
    try:
        r = getattr(a, op)()
    except TypeError:
        pytest.skip(f"{op} on {np.dtype(dtype)}")
    got = r.item()
    if np.asarray(want).dtype.kind in "fc" and op in ("sum", "prod", "mean", "std", "var"):
        np.testing.assert_allclose(got, want.item(), rtol=2e-3 if dtype == np.float16 else 1e-5)
    else:
        assert same(got, np.asarray(want).item())
    assert same(r.item(), got)  # read again: the same value


def test_mirror_sees_later_writes(device):
    h = random_array((4096,), np.float32)
    v = ca.asarray(h, device=device)
    total = float(np.asarray(h, np.float64).sum())
    s = v.sum()
    s += 1
    assert float(s) == pytest.approx(total + 1, rel=1e-5)
    s = v.sum()
    s[...] = 5
    assert float(s) == 5.0
    s = v.sum()
    ca.add(s, 2, out=s)
    assert float(s) == pytest.approx(total + 2, rel=1e-5)
    s = v.sum()
    t = v * 2  # other GPU work in between: the array is read the usual way
    assert float(s) == pytest.approx(total, rel=1e-5)
    del t
    o = ca.empty((), dtype=np.float32, device=device)
    v.max(out=o)
    assert float(o) == h.max()
    v.min(out=o)
    assert float(o) == h.min()


@requires_gpu
def test_mirror_with_exports():
    torch = pytest.importorskip("torch")
    v = ca.asarray(np.arange(1000, dtype=np.float32), device="cuda:0")
    s = v.sum()
    t = torch.as_tensor(s, device="cuda")
    t.fill_(7.0)
    assert float(s) == 7.0


@requires_gpu
def test_many_live_and_dropped_results():
    v = ca.asarray(random_array((3000,), np.float64), device="cuda:0")
    h = v.get()
    kept = [(v * k).sum() for k in range(200)]  # more results than slots
    for k, s in enumerate(kept):
        assert float(s) == pytest.approx((h * k).sum(), rel=1e-12, abs=1e-9)
    for k in range(500):  # dropped at once: their slots come back
        v.sum()
        if k % 50 == 0:
            assert float(v.sum()) == pytest.approx(h.sum(), rel=1e-12)
    s1, s2 = cuda.Stream(), cuda.Stream(non_blocking=True)
    for k in range(300):
        with (s1 if k % 2 else s2) as s:
            r = (v + k).max()
            assert float(r) == h.max() + k
            v.sum()
        del s
