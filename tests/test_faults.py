"""Fault injection (issue 44): every allocation, library load and library call can be
made to fail (csrc/runtime/faults.c), and each failure must surface as a clear
exception, leave nothing allocated and leave the pools and libraries usable.

Each sweep first counts a workload's calls at a point (armed with an n it never
reaches), then fails call n for every n in turn (and, with `times`, every call from
n on, so the pools' one retry after giving back their cache fails too).
"""
import gc
import os
import subprocess
import sys

import numpy as np
import pytest

import cuarray as ca
from cuarray import _core

GPU = [d for d in ("cuda:0",) if ca.cuda.runtime.getDeviceCount() > 0] \
    if hasattr(ca, "cuda") else []
NEVER = 10**15  # arms a point for counting only


@pytest.fixture(autouse=True)
def _disarm():
    yield
    for p in ("device_alloc", "pinned_alloc", "host_alloc", "library_load",
              "library_call"):
        _core._fault_inject(p, 0)


def _used(device):
    gc.collect()
    with ca.Device(device):
        return ca.get_default_memory_pool().used_bytes()


def _count(point, work):
    _core._fault_inject(point, NEVER)
    work()
    n = _core._fault_calls(point)
    _core._fault_inject(point, 0)
    return n


def _sweep(point, work, check, expected, times=1):
    """Fail call n (n .. n + times - 1) for each n the workload reaches; each run
    either completes (the pool's retry absorbed a single failure) or raises one of
    `expected`; afterwards the unfaulted workload gives the right answer."""
    calls = _count(point, work)
    assert calls > 0, f"the workload never reached {point}"
    raised = 0
    for n in range(1, calls + 1):
        _core._fault_inject(point, n, times)
        try:
            work()
        except expected as e:
            assert str(e), "an injected failure raised an exception without a message"
            raised += 1
        finally:
            _core._fault_inject(point, 0)
        check(work())
    return calls, raised


# ---- the controls ------------------------------------------------------------


def test_bad_point_and_arguments():
    with pytest.raises(ValueError, match="fault point must be one of"):
        _core._fault_inject("disk", 1)
    with pytest.raises(ValueError, match="n must be >= 0"):
        _core._fault_inject("host_alloc", -1)
    with pytest.raises(ValueError, match="times >= 1"):
        _core._fault_inject("host_alloc", 1, 0)
    with pytest.raises(ValueError):
        _core._fault_calls("nothing")


def test_counting_only_while_armed():
    _core._fault_inject("host_alloc", NEVER)
    ca.empty(12345 + 17, dtype=np.float64, device="cpu")
    assert _core._fault_calls("host_alloc") >= 0
    _core._fault_inject("host_alloc", 0)
    before = _core._fault_calls("host_alloc")
    ca.empty(99991, device="cpu")
    assert _core._fault_calls("host_alloc") == before


# ---- the cpu device's pool ------------------------------------------------------


def _free_cache(device):
    with ca.Device(device):
        ca.get_default_memory_pool().free_all_blocks()


def _host_work():
    _free_cache("cpu")  # so that the workload's allocations reach the upstream
    out, keep = [], []
    for k in range(4):
        a = ca.arange(1_000_003 * (k + 1), dtype=np.float64, device="cpu")
        keep.append(a)
        out.append(float((a[:10] * 2).sum()))
    return out


def test_host_alloc_single_failure_is_retried():
    """One failed malloc: the pool gives back its cache and retries once."""
    calls, raised = _sweep("host_alloc", _host_work, lambda r: r == [90.0] * 4,
                           MemoryError, times=1)
    assert raised <= calls


def test_host_alloc_failures_surface_as_memoryerror():
    before = _used("cpu")
    calls, raised = _sweep("host_alloc", _host_work, lambda r: r == [90.0] * 4,
                           MemoryError, times=NEVER)
    assert raised == calls, "every persistent failure must raise MemoryError"
    assert _used("cpu") == before


def test_host_alloc_error_type_and_message():
    _core._fault_inject("host_alloc", 1, NEVER)
    with pytest.raises(ca.OutOfMemoryError) as e:
        ca.empty(3_000_017, device="cpu")
    assert isinstance(e.value, MemoryError)
    _core._fault_inject("host_alloc", 0)
    assert ca.empty(3_000_017, device="cpu").size == 3_000_017


def _run(code, env_value):
    env = dict(os.environ, CUARRAY_FAULT=env_value)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=120)


def test_environment_variable_arms_points():
    r = _run("import cuarray as ca\n"
             "try:\n ca.empty(5_000_011, device='cpu')\n"
             "except MemoryError as e: print('MemoryError', e)\n",
             "host_alloc:1:1000000")
    assert "MemoryError" in r.stdout, r.stderr


@pytest.mark.parametrize("value", ["host_alloc", "host_alloc:x", "disk:1",
                                   "host_alloc:1:0", "host_alloc:-2"])
def test_environment_variable_malformed(value):
    r = _run("import cuarray", value)
    assert r.returncode != 0
    assert "CUARRAY_FAULT: bad entry" in r.stderr


# ---- GPU: the device and pinned pools, libraries ---------------------------------


def _gpu_alloc_work():
    x = ca.arange(1 << 20, dtype=np.float32, device="cuda:0")
    y = (x * 2 + 1).sum()
    z = ca.sort(x[::-1])
    h = ca.asnumpy(z[:1000])
    return float(y), float(h[10])


@pytest.mark.skipif(not GPU, reason="no CUDA GPU on this machine")
@pytest.mark.parametrize("times", [1, NEVER])
def test_device_alloc_sweep(times):
    want = _gpu_alloc_work()
    _free_cache("cuda:0")
    before = _used("cuda:0")
    calls, raised = _sweep("device_alloc", lambda: (_free_cache("cuda:0"),
                                                   _gpu_alloc_work())[1],
                           lambda r: r == want, MemoryError, times=times)
    if times == NEVER:
        assert raised == calls
    assert _used("cuda:0") == before


@pytest.mark.skipif(not GPU, reason="no CUDA GPU on this machine")
def test_pinned_alloc_sweep():
    h = np.arange(1 << 22, dtype=np.float32)

    def work():
        ca.get_default_pinned_memory_pool().free_all_blocks()
        a = ca.asarray(h, device="cuda:0")
        return float(ca.asnumpy(a)[-1])

    calls, raised = _sweep("pinned_alloc", work, lambda r: r == h[-1],
                           MemoryError, times=NEVER)
    assert calls >= 0 and raised <= calls


def _library_workloads():
    rng = np.random.default_rng(0)
    m = rng.standard_normal((64, 64)).astype(np.float32) + 8 * np.eye(64, dtype=np.float32)
    v = rng.standard_normal(64).astype(np.float32)

    def blas():
        # a 64x64 product runs on cuarray's tiled kernel (ops/linalg.c, SMALL_*):
        # with no product small, it is the cuBLAS call the sweep must reach
        old = _core._linalg_small_limits(0, 0)
        try:
            a = ca.asarray(m, device="cuda:0")
            return ca.asnumpy(a @ a)
        finally:
            _core._linalg_small_limits(*old)

    def fft():
        return ca.asnumpy(ca.fft.fft(ca.asarray(v, device="cuda:0")))

    def solver():
        return ca.asnumpy(ca.linalg.solve(ca.asarray(m, device="cuda:0"),
                                          ca.asarray(v, device="cuda:0")))

    def sparse():
        import cuarray.scipy.sparse as sp
        a = sp.csr_matrix(ca.asarray(np.where(m > 1, m, 0), device="cuda:0"))
        return ca.asnumpy(a @ ca.asarray(v, device="cuda:0"))

    def rand():
        g = ca.random.Generator(ca.random.CURAND("XORWOW", seed=3)) \
            if hasattr(ca.random, "CURAND") else None
        if g is None:
            pytest.skip("no cuRAND bit generator in this build")
        with ca.Device(0):
            return ca.asnumpy(g.random(1000, dtype=np.float32))

    return {"blas": (blas, ca.cuda.CUBLASError), "fft": (fft, ca.cuda.CUFFTError),
            "solver": (solver, ca.cuda.CUSOLVERError),
            "sparse": (sparse, ca.cuda.CUSPARSEError),
            "rand": (rand, ca.cuda.CURANDError)}


@pytest.mark.skipif(not GPU, reason="no CUDA GPU on this machine")
@pytest.mark.parametrize("lib", ["blas", "fft", "solver", "sparse", "rand"])
def test_library_call_sweep(lib):
    work, error = _library_workloads()[lib]
    want = work()
    before = _used("cuda:0")
    calls, raised = _sweep("library_call", work,
                           lambda r: np.array_equal(r, want), error, times=1)
    assert raised == calls, f"each failed {lib} call must raise {error.__name__}"
    assert _used("cuda:0") == before


@pytest.mark.skipif(not GPU, reason="no CUDA GPU on this machine")
def test_library_load_failure_is_not_sticky():
    """A fresh process (this worker has loaded the libraries already): the first load
    fails as a missing library would (ImportError), the next call loads it and works.
    An 8x8 product would run on cuarray's tiled kernel and load nothing:
    _linalg_small_limits(0, 0) sends it to cuBLAS."""
    code = ("import numpy as np, cuarray as ca\n"
            "from cuarray import _core\n"
            "_core._linalg_small_limits(0, 0)\n"
            "a = ca.ones((8, 8), dtype=np.float32, device='cuda:0')\n"
            "_core._fault_inject('library_load', 1)\n"
            "try:\n    a @ a\n    print('no error')\n"
            "except ImportError as e:\n    print('ImportError', e)\n"
            "print('then', float((a @ a).sum()))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120)
    assert "ImportError" in r.stdout and "injected fault" in r.stdout, r.stdout + r.stderr
    assert "then 512.0" in r.stdout, r.stdout + r.stderr
