"""python -m cuarray: show the configuration and run a tiny example on the default device."""

import sys

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
    if not hasattr(cuarray, "asarray"):
        print("  (arrays are not built yet in this checkout)")
        return 0
    x = cuarray.asarray(h)
    print(f"  x = cuarray.asarray(np.arange(10, dtype=np.float32)) -> {x!r}")
    y = x
    if hasattr(x, "__mul__") and hasattr(x, "__add__"):
        try:
            y = x * 2 + 1
            print(f"  y = x * 2 + 1 -> {y!r}")
        except (TypeError, NotImplementedError):
            pass
    if hasattr(y, "sum"):
        try:
            print(f"  y.sum() -> {float(y.sum())}")
        except (TypeError, NotImplementedError):
            pass
    back = y.get() if hasattr(y, "get") else np.asarray(y)
    print(f"  y.get() -> {back!r}")
    expect = h * 2 + 1 if y is not x else h
    ok = np.array_equal(back, expect)
    print(f"  matches NumPy: {ok}")
    cuarray.cuda.Stream.null.synchronize()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
