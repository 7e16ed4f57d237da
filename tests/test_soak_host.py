"""Soak and threads: many mixed operations with flat memory, and threads with checked
results (issue 44).

The soak runs SOAK_OPS mixed operations (creation, element-wise, reductions,
views, fancy get/set, reshape/transpose, matmul, sort, casts, concatenation,
copies to NumPy) in a loop; after a warm-up the process's resident set size (from
/proc/self/statm) stays within a bound and the pool's used bytes come back to
where they started; every 500th round is checked against NumPy. The thread test
runs THREADS threads of the same mixed work (each on its own stream on a GPU),
each result checked against NumPy. By default 10^6 operations and 8 threads
(about 1 s each on the cpu device of the 2-core machine: small arrays, ~0.8 us a
cuarray call); more with CUARRAY_SOAK_OPS=10000000 CUARRAY_SOAK_THREADS=16.
"""

import os
import threading

import numpy as np
import pytest

import cuarray as ca

SOAK_OPS = int(os.environ.get("CUARRAY_SOAK_OPS", "1000000"))
THREADS = int(os.environ.get("CUARRAY_SOAK_THREADS", "8"))
OPS_PER_ROUND = 20
RSS_SLACK = 16 << 20  # allocator and interpreter noise; a leak of 100 B an op is 100 MB


def rss_bytes():
    """The resident set size of this process (Linux /proc/self/statm, in pages)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def used_bytes(device):
    with ca.Device(device):
        return ca.get_default_memory_pool().used_bytes()


def one_round(h, device, k):
    """OPS_PER_ROUND cuarray operations on host data `h` (round k); their results
    and NumPy's, to compare."""
    a = ca.asarray(h, device=device)                         # 1 transfer
    b = a * 2.0 + 1.0                                        # 2, 3 element-wise
    s = b.sum(axis=0)                                        # 4 reduction
    v = b[1:, ::2]                                           # 5 view
    idx = ca.asarray(np.array([k % h.shape[0], 0]), device=device)  # 6
    f = b[idx]                                               # 7 gather
    b[idx] = -1.0                                            # 8 scatter
    t = b.T.reshape(-1)                                      # 9, 10 transpose, reshape
    m = ca.matmul(a[:4, :4], a[:4, :4])                      # 11, 12 slice, matmul
    srt = ca.sort(a[0])                                      # 13, 14 slice, sort
    c = a.astype(np.float32)                                 # 15
    cat = ca.concatenate([v.reshape(-1), s])                 # 16, 17
    mx = ca.max(c)                                           # 18
    out = (s.get(), f.get(), t.get(), m.get(), srt.get(), cat.get(), float(mx))  # 19, 20
    hb = h * 2.0 + 1.0
    hs = hb.sum(axis=0)
    hv = hb[1:, ::2]
    hi = np.array([k % h.shape[0], 0])
    hf = hb[hi]
    hb[hi] = -1.0
    want = (hs, hf, hb.T.reshape(-1), h[:4, :4] @ h[:4, :4], np.sort(h[0]),
            np.concatenate([hv.reshape(-1), hs]), float(h.astype(np.float32).max()))
    return out, want


def check(out, want, what):
    for k, (g, w) in enumerate(zip(out, want)):
        np.testing.assert_allclose(g, w, rtol=1e-12, err_msg=f"{what}: result {k}")


@pytest.mark.soak
def test_soak_flat_memory(device):
    rng = np.random.default_rng(44)
    h = rng.standard_normal((8, 6))
    for k in range(50):  # warm-up: caches, pools, lazily imported modules
        one_round(h, device, k)
    if device != "cpu":
        ca.cuda.Device(0).synchronize()
    pool0, rss0 = used_bytes(device), rss_bytes()
    samples = []
    rounds = SOAK_OPS // OPS_PER_ROUND
    for k in range(rounds):
        out, want = one_round(h, device, k)
        if k % 500 == 0:
            check(out, want, f"round {k}")
            samples.append(rss_bytes())
    assert used_bytes(device) == pool0, "pool used bytes did not come back"
    grown = max(samples + [rss_bytes()]) - rss0
    assert grown < RSS_SLACK, f"RSS grew {grown >> 10} KiB over {rounds * OPS_PER_ROUND} ops"
    # flat, not just small: the second half grows no more than the slack's quarter
    half = samples[len(samples) // 2:]
    assert max(half) - half[0] < RSS_SLACK // 4, [s >> 10 for s in samples]


def _worker(device, seed, rounds, errors, gpu):
    try:
        rng = np.random.default_rng(seed)
        stream = ca.cuda.Stream(non_blocking=True) if gpu else None
        for k in range(rounds):
            h = rng.standard_normal((8, 6))
            if stream is not None:
                with stream:
                    out, want = one_round(h, device, k)
            else:
                out, want = one_round(h, device, k)
            check(out, want, f"thread {seed} round {k}")
    except BaseException as e:  # noqa: BLE001 - reported by the main thread
        errors.append((seed, e))


@pytest.mark.soak
def test_threads_mixed_work_checked(device):
    rounds = max(SOAK_OPS // OPS_PER_ROUND // THREADS // 10, 20)
    one_round(np.ones((8, 6)), device, 0)  # warm-up outside the threads
    pool0 = used_bytes(device)
    errors = []
    threads = [threading.Thread(target=_worker,
                                args=(device, s, rounds, errors, device != "cpu"))
               for s in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    assert not errors, errors[:3]
    if device != "cpu":
        ca.cuda.Device(0).synchronize()
    assert used_bytes(device) == pool0
