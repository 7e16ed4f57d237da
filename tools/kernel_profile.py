"""Where the device time goes in the open issues' rows (CUPTI through
torch.profiler sees every kernel of the process, cuarray's and CuPy's too), and the
cached ElementwiseKernel per-call wall time beside CuPy."""
import statistics, sys, time
import numpy as np
import torch
import cupy as cp
import cuarray as ca
from torch.profiler import profile, ProfilerActivity

def sync():
    torch.cuda.synchronize()

def kernels(label, f, iters=3):
    for _ in range(3):
        f()
    sync()
    t0 = torch.cuda.Event(enable_timing=True); t1 = torch.cuda.Event(enable_timing=True)
    t0.record()
    for _ in range(iters):
        f()
    t1.record(); sync()
    ms = t0.elapsed_time(t1) / iters
    with profile(activities=[ProfilerActivity.CUDA]) as p:
        for _ in range(iters):
            f()
        sync()
    rows = []
    for e in p.key_averages():
        dt = getattr(e, "device_time_total", None) or getattr(e, "cuda_time_total", 0)
        if dt <= 0:
            continue
        rows.append((dt / iters, e.count / iters, e.key))
    rows.sort(reverse=True)
    print(f"== {label}: {ms*1e3:.0f} us per call (events)")
    for us, c, k in rows[:12]:
        print(f"   {us:9.1f} us  x{c:4.1f}  {k[:150]}")
    sys.stdout.flush()

N = 1 << 26
g = ca.random.default_rng(0)
xf = g.random(N, dtype=np.float32); xi = g.integers(0, 2**62, size=N, dtype=np.int64)
cxf = cp.random.default_rng(0).random(N, dtype=np.float32)
cxi = cp.random.default_rng(0).integers(0, 2**62, N, dtype=np.int64)
txf = torch.rand(N, device="cuda")
kernels("cuarray argsort f32", lambda: ca.argsort(xf))
kernels("cupy argsort f32", lambda: cp.argsort(cxf))
kernels("torch argsort f32", lambda: torch.argsort(txf))
kernels("cuarray sort f32", lambda: ca.sort(xf))
kernels("cuarray sort i64", lambda: ca.sort(xi))
kernels("cupy sort i64", lambda: cp.sort(cxi))
kernels("cuarray permutation", lambda: g.permutation(N))
kernels("cupy permutation", lambda: cp.random.permutation(N))
kernels("torch randperm", lambda: torch.randperm(N, device="cuda"))
sx = ca.arange(N, dtype=np.int64)
kernels("cuarray shuffle", lambda: g.shuffle(sx))
csx = cp.arange(N, dtype=np.int64)
kernels("cupy shuffle", lambda: cp.random.shuffle(csx))
gx = ca.random.Generator(ca.random.XORWOW(0))
kernels("cuarray XORWOW uniform", lambda: gx.random(size=N, dtype=np.float32))
bx = ca.random.XORWOW(0)
kernels("cuarray XORWOW raw", lambda: bx.random_raw(N))
a4 = ca.asarray(np.random.rand(4096).astype(np.float32)); b4 = ca.asarray(np.random.rand(4096).astype(np.float32))
kernels("cuarray add.outer", lambda: ca.add.outer(a4, b4), iters=20)
ta4 = torch.rand(4096, device="cuda"); tb4 = torch.rand(4096, device="cuda")
kernels("torch outer", lambda: ta4[:, None] + tb4, iters=20)
ca4 = cp.random.rand(4096, dtype=np.float32); cb4 = cp.random.rand(4096, dtype=np.float32)
kernels("cupy outer", lambda: cp.add.outer(ca4, cb4), iters=20)
rng = np.random.default_rng(0)
idx = rng.integers(0, 1 << 20, 1 << 24); vals = rng.random(1 << 24, dtype=np.float32)
bins = ca.zeros(1 << 20, dtype=np.float32); di = ca.asarray(idx); dv = ca.asarray(vals)
kernels("cuarray add.at", lambda: ca.add.at(bins, di, dv), iters=10)
cbins = cp.zeros(1 << 20, dtype=np.float32); ci = cp.asarray(idx); cv = cp.asarray(vals)
kernels("cupy add.at", lambda: cp.add.at(cbins, ci, cv), iters=10)
tbins = torch.zeros(1 << 20, device="cuda"); ti = torch.as_tensor(idx, device="cuda"); tv = torch.as_tensor(vals, device="cuda")
kernels("torch index_add_", lambda: tbins.index_add_(0, ti, tv), iters=10)

def wall(f, n=3000, reps=11):
    for _ in range(500):
        f()
    sync(); ts = []
    for _ in range(reps):
        t = time.perf_counter()
        for _ in range(n):
            f()
        sync(); ts.append((time.perf_counter() - t) / n * 1e6)
    return min(ts), statistics.median(ts)

for mod in (ca, cp, ca, cp):
    k = mod.ElementwiseKernel("T x, T y", "T z", "z = x * x + y * 3", "bench_ew")
    a = mod.asarray(np.ones(1024, np.float32)); out = mod.empty(1024, dtype=np.float32)
    k(a, a, out)
    print(mod.__name__, "cached ElementwiseKernel call: min %.2f med %.2f us" % wall(lambda: k(a, a, out)))
    print(mod.__name__, "ElementwiseKernel no out: min %.2f med %.2f us" % wall(lambda: k(a, a)))
    x = mod.asarray(np.ones(1024, np.float32))
    print(mod.__name__, "a + b: min %.2f med %.2f us" % wall(lambda: x + x))
