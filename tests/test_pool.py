"""Memory pools: the host pool on the cpu device everywhere, the device, managed and
pinned pools where a GPU is present; and csrc/memory/pool.c alone under ASan/UBSan."""

import gc
import json
import os
import random
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

import cuarray
from cuarray import cuda

from conftest import HAVE_GPU, errors_in_threads, requires_gpu

ROOT = Path(__file__).resolve().parent.parent

# (device, kind) pairs: every pool this machine can test.
POOLS = [pytest.param(("cpu", "host"), id="cpu-host")] + [
    pytest.param(("cuda:0", k), marks=requires_gpu, id=f"cuda:0-{k}")
    for k in ("device", "managed", "pinned")
]


@pytest.fixture(params=POOLS)
def pool(request):
    device, kind = request.param
    gc.collect()
    p = cuda.MemoryPool(kind, device)
    old = p.get_limit()
    p.free_all_blocks()
    p.reset_peak_stats()
    yield p
    p.set_limit(old)
    gc.collect()


def rounded(n):
    return (n + 511) // 512 * 512


def mixed_size(rng, max_log2=24):
    e = rng.randrange(max_log2)
    return (1 << e) + rng.randrange(1 << e)


# ---------------------------------------------------------------------------
# Handles and the Python API


def test_handles_are_shared(device):
    with cuarray.Device(device):
        p = cuarray.get_default_memory_pool()
        assert cuda.MemoryPool() is p
        assert cuda.get_default_memory_pool() is p
        assert p.kind == ("host" if device == "cpu" else "device")
        assert p.device == cuarray.Device(device)
        assert "MemoryPool" in repr(p)
    pin = cuarray.get_default_pinned_memory_pool()
    assert cuda.PinnedMemoryPool() is pin
    assert isinstance(pin, cuda.MemoryPool) and isinstance(pin, cuda.PinnedMemoryPool)
    assert pin.kind == "pinned"
    assert cuda.MemoryPool("pinned") is pin
    man = cuda.get_managed_memory_pool()
    assert man.kind == "managed" and cuda.MemoryPool(kind="managed") is man


def test_bad_arguments():
    with pytest.raises(ValueError, match="memory kind"):
        cuda.MemoryPool("gpu")
    with pytest.raises(ValueError, match="cpu device has host memory only"):
        cuda.MemoryPool("device", "cpu")
    with pytest.raises(ValueError, match="cpu device"):
        cuda.MemoryPool("managed", "cpu")
    p = cuda.MemoryPool("host", "cpu")
    with pytest.raises(ValueError):
        p.malloc(-1)
    with pytest.raises(TypeError):
        p.malloc("1")
    with pytest.raises(ValueError, match="not both"):
        p.set_limit(size=1, fraction=0.5)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        p.set_limit(fraction=1.5)
    with pytest.raises(ValueError):
        p.set_limit(size=-1)
    with pytest.raises(TypeError):
        cuda.Memory()


@pytest.mark.skipif(HAVE_GPU, reason="checks the error where there is no GPU")
def test_gpu_pool_without_gpu():
    pin = cuarray.get_default_pinned_memory_pool()
    assert pin.used_bytes() == 0 and pin.total_bytes() == 0
    with pytest.raises(cuda.CUDAError):
        pin.malloc(10)


def test_malloc_and_stats(pool):
    s0 = pool.stats()
    m = pool.malloc(1000)
    assert isinstance(m, cuda.Memory)
    assert m.size == 1000 and m.kind == pool.kind and m.ptr != 0
    assert m.ptr % 512 == 0
    assert m.device == pool.device
    s = pool.stats()
    assert s["used_bytes"] - s0["used_bytes"] == 1024
    assert s["requested_bytes"] - s0["requested_bytes"] == 1000
    assert s["used_bytes"] + s["free_bytes"] == s["total_bytes"]
    assert pool.used_bytes() == s["used_bytes"]
    assert pool.total_bytes() == s["total_bytes"]
    assert pool.free_bytes() == s["free_bytes"]
    assert pool.n_free_blocks() == s["n_free_blocks"]
    assert s["peak_used_bytes"] >= s["used_bytes"]
    assert s["largest_free_block"] <= s["free_bytes"]
    del m
    assert pool.used_bytes() == s0["used_bytes"]
    assert pool.stats()["n_frees"] == s0["n_frees"] + 1


@pytest.mark.parametrize("n", [1, 511, 512, 513, 4096 * 4, 1 << 20, (1 << 20) + 1, 3_000_001])
def test_rounding_to_512(pool, n):
    used = pool.used_bytes()
    m = pool.malloc(n)
    assert pool.used_bytes() - used == rounded(n)
    assert m.size == n
    del m


def test_zero_size(pool):
    s0 = pool.stats()
    m = pool.malloc(0)
    assert m.ptr == 0 and m.size == 0 and m.kind == pool.kind
    s = pool.stats()
    assert s["n_allocs"] == s0["n_allocs"] and s["total_bytes"] == s0["total_bytes"]
    if pool.kind != "device":
        assert len(memoryview(m)) == 0
    if pool.kind != "host":
        assert m.__cuda_array_interface__["data"] == (0, False)
    del m


def test_reuse_without_upstream(pool):
    m = pool.malloc(16384)
    big = pool.malloc(5 << 20)
    ptr, bptr = m.ptr, big.ptr
    del m, big
    n_up = pool.stats()["n_upstream_allocs"]
    for _ in range(200):
        m = pool.malloc(16384)
        big = pool.malloc(3 << 20)
        assert m.ptr == ptr and big.ptr == bptr
        del m, big
    s = pool.stats()
    assert s["n_upstream_allocs"] == n_up
    assert s["n_cached_reuses"] >= 400


def test_random_sequences(pool):
    """Random alloc/free: no two live blocks overlap, statistics add up,
    neighbours merge once everything is free."""
    rng = random.Random(20240611)
    base = pool.stats()
    live = []
    for op in range(3000):
        if not live or (len(live) < 300 and rng.random() < 0.55):
            live.append(pool.malloc(mixed_size(rng, 23)))
        else:
            live.pop(rng.randrange(len(live)))
        if op % 50 == 0:
            spans = sorted((m.ptr, m.ptr + rounded(m.size)) for m in live)
            for (a0, a1), (b0, b1) in zip(spans, spans[1:]):
                assert a1 <= b0, "live blocks overlap"
            s = pool.stats()
            assert s["used_bytes"] - base["used_bytes"] == sum(rounded(m.size) for m in live)
            assert s["requested_bytes"] - base["requested_bytes"] == sum(m.size for m in live)
            assert s["used_bytes"] + s["free_bytes"] == s["total_bytes"]
            assert s["n_used_blocks"] - base["n_used_blocks"] == len(live)
    live.clear()
    s = pool.stats()
    assert s["used_bytes"] == base["used_bytes"]
    if s["n_used_blocks"] == 0:
        # every segment merged back into one free block
        assert s["n_free_blocks"] == s["n_segments"]
        pool.free_all_blocks()
        s = pool.stats()
        assert s["total_bytes"] == 0 and s["n_free_blocks"] == 0


def test_free_all_blocks(pool):
    keep = pool.malloc(10000)
    tmp = [pool.malloc(n) for n in (100, 70000, 2 << 20, 9 << 20)]
    assert pool.free_bytes() >= 0
    # Library caches (cuBLAS, cuFFT, cuSOLVER work areas) may keep segments of
    # this pool partly used, and the blocks above may come from their free
    # space: one block larger than all free space takes a segment of its own.
    tmp.append(pool.malloc(pool.free_bytes() + (4 << 20)))
    del tmp
    before = pool.stats()
    pool.free_all_blocks()
    after = pool.stats()
    assert after["total_bytes"] < before["total_bytes"]
    assert after["n_upstream_frees"] > before["n_upstream_frees"]
    assert after["used_bytes"] == before["used_bytes"]
    # only segments with live blocks are left
    assert after["n_segments"] <= after["n_used_blocks"]
    del keep
    pool.free_all_blocks(stream=None)


# The workload of test_mixed_workload_ratio. It runs in a fresh process: a pool
# shared with earlier tests may hold a segment it cannot return (a long-lived block
# of another user, such as the 32 MiB cuBLAS workspace carved from a cached segment
# of a freed large array), and such a segment's bytes count as reserved from the
# start. Seen in a whole-suite run on the H200: 32 MiB + 16 KiB live bytes not the
# test's own, and ratios of 2.3 to 4.0 that were 1.0-1.1 in a fresh process.
_MIXED_WORKLOAD = """
import json, random, sys
from cuarray import cuda

def mixed_size(rng, max_log2):
    e = rng.randrange(max_log2)
    return (1 << e) + rng.randrange(1 << e)

pool = cuda.MemoryPool(sys.argv[1], sys.argv[2])
ratios = []
for seed in (1, 2, 3, 4):
    pool.free_all_blocks()
    pool.reset_peak_stats()
    rng = random.Random(seed)
    menu = [512 + mixed_size(rng, 25) for _ in range(40)]
    keep = [pool.malloc(1024 + mixed_size(rng, 26)) for _ in range(50)]
    for it in range(150):
        tmp = [pool.malloc(rng.choice(menu)) for _ in range(20)]
        rng.shuffle(tmp)
        while tmp:
            tmp.pop()
        if it % 10 == 9:
            for _ in range(5):
                j = rng.randrange(50)
                keep[j] = None
                keep[j] = pool.malloc(1024 + mixed_size(rng, 26))
    s = pool.stats()
    ratios.append(s["peak_total_bytes"] / s["peak_requested_bytes"])
    del keep
print(json.dumps(ratios))
"""


@pytest.mark.parametrize("where", POOLS)
def test_mixed_workload_ratio(where):
    """Reserved bytes over the peak of requested bytes stays under 1.15 on a
    program-like mixed workload, from an empty pool: long-lived arrays of many
    sizes, some replaced now and then, and bursts of temporaries from a menu of
    mixed shapes.

    Fragmentation varies with the random sizes: the target holds for the mean
    over seeds; no single seed may pass 1.25 (over 30 seeds of the same
    workload in C, the mean was 1.075 and the worst 1.16)."""
    device, kind = where
    r = subprocess.run([sys.executable, "-c", _MIXED_WORKLOAD, kind, device],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    ratios = json.loads(r.stdout.strip().splitlines()[-1])
    assert len(ratios) == 4
    assert sum(ratios) / len(ratios) < 1.15, ratios
    assert max(ratios) < 1.25, ratios


def test_a_long_lived_block_pins_its_segment():
    """Why the workload above runs in a process of its own: a block carved from a
    cached segment keeps the whole segment reserved after free_all_blocks (the
    pool returns whole segments only), and the segment's free part still serves
    later requests."""
    pool = cuda.MemoryPool("host", "cpu")
    gc.collect()
    pool.free_all_blocks()
    base = pool.total_bytes()
    big = pool.malloc(256 << 20)
    del big                                   # cached: a free 256 MiB segment
    small = pool.malloc((32 << 20) + (16 << 10))
    pool.free_all_blocks()
    assert pool.total_bytes() - base >= 256 << 20
    other = pool.malloc(128 << 20)            # from the pinned segment's free part
    assert pool.total_bytes() - base < (256 << 20) + (128 << 20)
    del other, small
    pool.free_all_blocks()
    assert pool.total_bytes() <= base


def test_limit_and_out_of_memory(pool):
    # Other users of the default pool (the cuBLAS workspace, arrays of earlier
    # tests) may hold memory: the limit is set above what is in use now.
    # Their segments may also hold free space (f bytes), which could serve small
    # requests: every request below is larger than f, so it needs new memory.
    pool.free_all_blocks()
    base, f = pool.total_bytes(), pool.free_bytes()
    lim = base + f + (8 << 20)
    pool.set_limit(size=lim)
    assert pool.get_limit() == lim
    a = pool.malloc(f + (5 << 20))
    ask = f + (4 << 20)
    with pytest.raises(cuarray.OutOfMemoryError) as ei:
        pool.malloc(ask)
    err = ei.value
    assert isinstance(err, MemoryError)
    msg = str(err)
    assert str(ask) in msg                     # requested
    # blocks free_all_blocks could not return (a slab still partly used) stay
    # cached, so "in use" is the pool's used figure, not base + 5 MiB
    assert "in use" in msg and str(pool.used_bytes()) in msg
    assert "cached" in msg
    assert "limit" in msg and str(lim) in msg
    assert pool.total_bytes() <= lim
    # usable after
    b = pool.malloc(2 << 20)
    del a, b
    # the cache is released and the request retried before failing
    c = pool.malloc(f + (7 << 20))
    assert pool.total_bytes() <= lim
    s = pool.stats()
    assert s["n_oom_errors"] >= 1 and s["n_oom_retries"] >= 1
    del c
    pool.set_limit(0)
    assert pool.get_limit() == 0
    pool.set_limit(size=1 << 40)
    pool.set_limit()
    assert pool.get_limit() == 0


def test_limit_fraction(pool):
    if pool.kind in ("host", "pinned"):
        cap = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    else:
        cap = pool.device.mem_info[1]
    pool.set_limit(fraction=0.25)
    assert abs(pool.get_limit() - cap // 4) <= 1
    pool.set_limit(fraction=0)
    assert pool.get_limit() == 0


def test_oom_huge_request(pool):
    if pool.kind in ("managed", "pinned"):
        pytest.skip("never ask for more managed or pinned memory than the machine has")
    before = pool.stats()
    with pytest.raises(cuarray.OutOfMemoryError, match="out of memory"):
        pool.malloc(1 << 62)
    m = pool.malloc(100)
    assert pool.used_bytes() == before["used_bytes"] + 512
    del m


def test_threads_hammer_one_pool(pool):
    errors = []
    host = pool.kind != "device"

    def work(seed):
        rng = random.Random(seed)
        live = []
        try:
            for _ in range(1500):
                if not live or (len(live) < 40 and rng.random() < 0.5):
                    m = pool.malloc(rng.randrange(1, 300000))
                    tag = rng.randrange(1, 256)
                    if host:
                        a = np.frombuffer(m, np.uint8)
                        a[0] = a[-1] = tag
                        del a
                    live.append((m, tag))
                else:
                    m, tag = live.pop(rng.randrange(len(live)))
                    if host:
                        a = np.frombuffer(m, np.uint8)
                        if a[0] != tag or a[-1] != tag:
                            errors.append("memory of a live block was overwritten")
                        del a
                if rng.random() < 0.002:
                    pool.free_all_blocks()
        except Exception as e:  # pragma: no cover - reported below
            errors.append(repr(e))

    assert not errors_in_threads(work, [(i,) for i in range(4)])
    assert not errors, errors[:3]
    s = pool.stats()
    assert s["used_bytes"] + s["free_bytes"] == s["total_bytes"]


# ---------------------------------------------------------------------------
# Stream order (GPU)


@requires_gpu
def test_cross_stream_reuse_waits():
    with cuarray.Device("cuda:0"):
        pool = cuarray.get_default_memory_pool()
        a, b = cuda.Stream(), cuda.Stream()
        n = 1 << 22
        with a:
            x = cuarray.full((n // 4,), 1.0, dtype=np.float32)
            ptr = x.data.ptr
            del x
            waits = pool.stats()["n_stream_waits"]
            y = cuarray.empty((n // 4,), dtype=np.float32)   # same stream: no wait
            assert pool.stats()["n_stream_waits"] == waits
            assert y.data.ptr == ptr
            y.fill(3.0)
            del y
        with b:
            z = cuarray.empty((n // 4,), dtype=np.float32)
            assert z.data.ptr == ptr
            assert pool.stats()["n_stream_waits"] == waits + 1
            z.fill(2.0)
            assert np.all(z.get() == 2.0)
            del z
        b.synchronize()
        a.synchronize()


@requires_gpu
def test_destroyed_stream_is_forgotten():
    with cuarray.Device("cuda:0"):
        pool = cuarray.get_default_memory_pool()
        s = cuda.Stream()
        with s:
            m = pool.malloc(123456)
            ptr = m.ptr
            del m
        del s
        gc.collect()
        # the block's stream is gone: reusing it must not wait on it
        m = pool.malloc(123456)
        assert m.ptr == ptr
        del m


@requires_gpu
@pytest.mark.parametrize("value", ["1000000", "50%", "bogus"])
def test_env_limit(value):
    code = (
        "import cuarray\n"
        "p = cuarray.cuda.MemoryPool('device', 0)\n"
        "try:\n"
        "    print(p.get_limit(), p.device.mem_info[1])\n"
        "except ValueError as e:\n"
        "    print('ValueError', e)\n"
    )
    env = dict(os.environ, CUARRAY_GPU_MEMORY_LIMIT=value)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    if value == "bogus":
        assert out[0] == "ValueError" and "CUARRAY_GPU_MEMORY_LIMIT" in " ".join(out)
    elif value == "50%":
        assert abs(int(out[0]) - int(out[1]) // 2) <= 1
    else:
        assert int(out[0]) == 1000000


# ---------------------------------------------------------------------------
# pool.c alone, under AddressSanitizer and UBSan


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
def test_pool_c_under_sanitizers(tmp_path):
    exe = tmp_path / "test_pool"
    cmd = ["gcc", "-std=c11", "-O1", "-g", "-Wall", "-Wextra", "-Werror",
           "-fsanitize=address,undefined", "-fno-sanitize-recover=undefined",
           "-fno-omit-frame-pointer", f"-I{ROOT / 'csrc' / 'memory'}",
           f"-I{ROOT / 'csrc' / 'runtime'}",
           str(ROOT / "tests" / "c" / "test_pool.c"), str(ROOT / "csrc" / "memory" / "pool.c"),
           str(ROOT / "csrc" / "runtime" / "faults.c"),
           "-lpthread", "-o", str(exe)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1", UBSAN_OPTIONS="print_stacktrace=1")
    env.pop("LD_PRELOAD", None)
    r = subprocess.run([str(exe)], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ALL OK" in r.stdout


@requires_gpu
def test_blocks_of_a_destroyed_foreign_stream():
    """Memory used on another library's stream (here CuPy's, through an
    ExternalStream) is tagged foreign: once CuPy destroys the stream, reusing
    the memory on ours waits for the device and never hands the dead handle to
    CUDA (a use after free in the driver: the intermittent segfaults of sessions
    5-7 came from blocks of CuPy's streams freed by test_cupy_allocator_shares_
    our_pool, reused later on the default stream)."""
    cupy = pytest.importorskip("cupy")
    with cuarray.Device(0):
        pool = cuarray.get_default_memory_pool()
        waits = pool.stats()["n_stream_waits"]
        for i in range(16):
            cs = cupy.cuda.Stream(non_blocking=True)
            with cuda.ExternalStream(cs.ptr):
                x = cuarray.full(1 << 20, i, dtype=np.float32)
                y = x * 2
                assert y.__cuda_array_interface__["stream"] == cs.ptr
            cs.synchronize()
            np.testing.assert_array_equal(y[:4].get(), [2 * i] * 4)
            del x, y
            del cs
            gc.collect()  # CuPy destroys its stream
            streams = [cupy.cuda.Stream() for _ in range(4)]  # may reuse its record
            z = cuarray.zeros(1 << 20, dtype=np.float32)
            w = cuarray.zeros(1 << 19, dtype=np.float32)
            assert float(z.sum()) == 0 and float(w.sum()) == 0
            del z, w, streams
        assert pool.stats()["n_stream_waits"] > waits  # the blocks were reused
        # cuBLAS's 32 MiB workspace is made per stream: one made on CuPy's stream
        # goes back to the pool when the next product runs on ours (gmm's crash)
        a = cuarray.ones((64, 64), dtype=np.float64)
        for _ in range(4):
            cs = cupy.cuda.Stream(non_blocking=True)
            with cuda.ExternalStream(cs.ptr):
                b = a @ a
            cs.synchronize()
            del cs
            gc.collect()
            np.testing.assert_array_equal((a @ b).get(), np.full((64, 64), 64.0 * 64))
