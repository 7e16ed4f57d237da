"""Monte Carlo: pi from points in the unit square, and a European call priced
by simulated terminal prices (ElementwiseKernel + ReductionKernel)."""

import math

import numpy

import cuarray as cupy

inside = cupy.ReductionKernel(
    "T x, T y", "int64 count", "(x * x + y * y <= (T)1) ? 1 : 0", "a + b",
    "count = a", "0", "inside_circle", reduce_type="int64")

payoff = cupy.ElementwiseKernel(
    "T z, T s0, T k, T r, T v, T t", "T p",
    "T st = s0 * exp((r - v * v / 2) * t + v * sqrt(t) * z); p = st > k ? st - k : (T)0",
    "call_payoff")


def main(n=1 << 20, seed=0):
    cupy.random.seed(seed)
    x = cupy.random.random(n)
    y = cupy.random.random(n)
    pi = 4.0 * int(inside(x, y)) / n
    z = cupy.random.standard_normal(n)
    s0, k, r, v, t = 100.0, 105.0, 0.01, 0.2, 1.0
    price = math.exp(-r * t) * float(cupy.mean(payoff(z, s0, k, r, v, t)))
    xh, yh, zh = cupy.asnumpy(x), cupy.asnumpy(y), cupy.asnumpy(z)
    pi_h = 4.0 * numpy.count_nonzero(xh * xh + yh * yh <= 1) / n
    st = s0 * numpy.exp((r - v * v / 2) * t + v * math.sqrt(t) * zh)
    price_h = math.exp(-r * t) * numpy.maximum(st - k, 0).mean()
    d1 = (math.log(s0 / k) + (r + v * v / 2) * t) / (v * math.sqrt(t))
    d2 = d1 - v * math.sqrt(t)
    cnd = lambda d: 0.5 * math.erfc(-d / math.sqrt(2))  # noqa: E731
    exact = s0 * cnd(d1) - k * math.exp(-r * t) * cnd(d2)
    return {"pi": pi, "pi_same_samples": pi_h, "price": price,
            "price_same_samples": price_h, "price_exact": exact, "n": n}


if __name__ == "__main__":
    r = main(1 << 26)
    print(f"monte carlo: pi {r['pi']:.5f}, call {r['price']:.4f} (exact "
          f"{r['price_exact']:.4f})")
