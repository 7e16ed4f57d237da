"""Issue 9's per-call rows, alone: a + b and v * 2.0 on 1024 float32 (wall per call,
queue kept full, as benchmarks/harness.py's wall mode), a.sum(); best and median of
repeats. Run with the tree to time on PYTHONPATH."""
import statistics
import sys
import time

import numpy as np
import cuarray as ca

a = ca.asarray(np.random.rand(1024).astype(np.float32))
b = ca.asarray(np.random.rand(1024).astype(np.float32))


def sync():
    ca.cuda.Device().synchronize()


cases = {"a + b": lambda: a + b, "v * 2.0": lambda: a * 2.0, "a.sum()": lambda: a.sum()}
out = []
for name, f in cases.items():
    for _ in range(2000):
        f()
    sync()
    ts = []
    for _ in range(15):
        t = time.perf_counter()
        for _ in range(5000):
            f()
        sync()
        ts.append((time.perf_counter() - t) / 5000 * 1e6)
    out.append(f"{name}: min {min(ts):.2f} med {statistics.median(ts):.2f} us")
print(sys.argv[1] if len(sys.argv) > 1 else "", "; ".join(out))
