"""Probe (GPU): searchsorted's two GPU paths, plain (random queries) and sorted
(the queries sorted first), over array and query sizes, float32. Wall time per call
with a synchronize around a batch (calls here take 10 us to 2 ms). Chooses
csrc/sort.c's search_sort_min_bytes / _queries: prints G queries/s for each path
and the ratio sorted / plain."""
import time

import numpy as np

import cuarray as ca

PLAIN = (1 << 62, 1 << 62)   # thresholds no input reaches
SORTED = (0, 1)
sync = ca.cuda.Stream.null.synchronize


def per_call(fn):
    fn()
    sync()
    n, t = 1, 0.0
    while t < 0.02:
        n *= 2
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        sync()
        t = time.perf_counter() - t0
    return t / n


rng = np.random.default_rng(0)
old = ca._core._search_sort_threshold(*PLAIN)
print(f"{'array':>10} {'queries':>10} {'plain Gq/s':>11} {'sorted Gq/s':>12} {'ratio':>6}")
for log_n in (16, 18, 20, 21, 22, 24):
    a = ca.asarray(np.sort(rng.random(1 << log_n, dtype=np.float32)))
    for log_q in (12, 14, 16, 18, 20, 22, 24):
        v = ca.asarray(rng.random(1 << log_q, dtype=np.float32))
        rates = []
        for th in (PLAIN, SORTED):
            ca._core._search_sort_threshold(*th)
            rates.append((1 << log_q) / per_call(lambda: ca.searchsorted(a, v)) / 1e9)
        print(f"{'2^%d' % log_n:>10} {'2^%d' % log_q:>10} {rates[0]:11.2f} {rates[1]:12.2f} "
              f"{rates[1] / rates[0]:6.2f}")
ca._core._search_sort_threshold(*old)
