"""Probe (GPU): does a long-lived library block pin a cached segment of the device
pool? The scenario behind test_pool's order-dependent mixed-workload failure: a
large array is freed (its segment stays cached), then the first matmul on a stream
takes cuBLAS's 32 MiB workspace from the pool; free_all_blocks cannot return the
segment it was carved from. Prints the pool's figures at each step."""
import cuarray as ca

pool = ca.get_default_memory_pool()


def show(step):
    s = pool.stats()
    print(f"{step:<44} total {pool.total_bytes() >> 20:>6} MiB  used "
          f"{pool.used_bytes() >> 10:>8} KiB  free {pool.free_bytes() >> 20:>6} MiB  "
          f"largest free {s['largest_free_block'] >> 20} MiB")


pool.free_all_blocks()
show("start")
big = ca.empty(1 << 28, dtype="float32")       # 1 GiB
del big
show("1 GiB array freed (cached)")
s = ca.cuda.Stream()
with s:
    a = ca.ones((64, 64), dtype="float32")
    (a @ a).sum()
    s.synchronize()
del a
show("a matmul on a new stream (cuBLAS workspace)")
pool.free_all_blocks()
show("free_all_blocks")
