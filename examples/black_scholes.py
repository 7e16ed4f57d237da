"""Black–Scholes option prices with an ElementwiseKernel."""

import math
import time

import numpy

import cuarray as cupy

black_scholes_kernel = cupy.ElementwiseKernel(
    "T s, T x, T t, T r, T v", "T call, T put",
    """
    const T sq = sqrt(t);
    const T d1 = (log(s / x) + (r + v * v / 2) * t) / (v * sq);
    const T d2 = d1 - v * sq;
    const T cnd1 = normcdf(d1);
    const T cnd2 = normcdf(d2);
    const T disc = exp(-r * t);
    call = s * cnd1 - x * disc * cnd2;
    put = x * disc * (1 - cnd2) - s * (1 - cnd1);
    """,
    "black_scholes")


def black_scholes_numpy(s, x, t, r, v):
    cnd = numpy.vectorize(lambda d: 0.5 * math.erfc(-d / math.sqrt(2)))
    sq = numpy.sqrt(t)
    d1 = (numpy.log(s / x) + (r + v * v / 2) * t) / (v * sq)
    d2 = d1 - v * sq
    disc = numpy.exp(-r * t)
    c1, c2 = cnd(d1), cnd(d2)
    return s * c1 - x * disc * c2, x * disc * (1 - c2) - s * (1 - c1)


def main(n=4096, dtype=numpy.float64, seed=0):
    rng = numpy.random.default_rng(seed)
    s = rng.uniform(5, 30, n).astype(dtype)
    x = rng.uniform(1, 100, n).astype(dtype)
    t = rng.uniform(0.25, 10, n).astype(dtype)
    r, v = dtype(0.02), dtype(0.3)
    start = time.perf_counter()
    call, put = black_scholes_kernel(cupy.asarray(s), cupy.asarray(x), cupy.asarray(t),
                                     r, v)
    call, put = cupy.asnumpy(call), cupy.asnumpy(put)
    ec, ep = black_scholes_numpy(s.astype(numpy.float64), x.astype(numpy.float64),
                                 t.astype(numpy.float64), 0.02, 0.3)
    return {"call": call, "put": put, "call_expected": ec, "put_expected": ep,
            "seconds": time.perf_counter() - start}


if __name__ == "__main__":
    r = main(1 << 16)
    print(f"black-scholes: {r['seconds']:.3f} s, max error "
          f"{abs(r['call'] - r['call_expected']).max():.2e}")
