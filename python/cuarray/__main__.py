"""python -m cuarray: show the configuration and run a tiny example on the default device."""

import sys
import time

import numpy as np

import cuarray


def main():
    cuarray.show_config()
    try:
        dev = cuarray.Device()
    except cuarray.cuda.CUDAError as e:
        print(f"\nno example: {e}", file=sys.stderr)
        return 1
    print(f"\nexample on the default device ({dev}):")
    h = np.arange(10, dtype=np.float32)
    x = cuarray.asarray(h)
    print(f"  x = cuarray.asarray(np.arange(10, dtype=np.float32)) -> {x!r}")
    y = x * 2 + 1
    print(f"  y = x * 2 + 1 -> {y!r}")
    print(f"  float(y.sum()) -> {float(y.sum())}")
    back = y.get()
    ok = np.array_equal(back, h * 2 + 1)

    # The blog example, smaller: random numbers and a matrix product.
    n = 4000 if str(dev) != "cpu" else 1000
    a = cuarray.random.default_rng(0).random((n, n))
    t0 = time.perf_counter()
    b = cuarray.dot(a, a)
    cuarray.cuda.Stream.null.synchronize()
    dt = time.perf_counter() - t0
    ref = a.get() @ a.get()
    err = float(np.max(np.abs(b.get() - ref)) / np.max(np.abs(ref)))
    print(f"  dot of two {n}x{n} float64 random matrices: {dt * 1e3:.1f} ms "
          f"({2 * n ** 3 / dt / 1e12:.2f} TFLOP/s), max relative error vs NumPy {err:.1e}")
    ok = ok and err < 1e-12
    pool = cuarray.get_default_memory_pool()
    print(f"  memory pool: {pool.used_bytes()} bytes in use, {pool.total_bytes()} reserved")
    print(f"  matches NumPy: {ok}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
