"""Conjugate gradient on a symmetric positive definite system, CuPy style."""

import time

import numpy

import cuarray as cupy


def cg(A, b, tol=1e-10, max_iter=1000):
    xp = cupy.get_array_module(A)
    x = xp.zeros_like(b)
    r = b - A @ x
    p = r.copy()
    rr = xp.dot(r, r)
    b_norm = float(xp.sqrt(xp.dot(b, b)))
    for i in range(max_iter):
        Ap = A @ p
        alpha = rr / xp.dot(p, Ap)
        x += alpha * p
        r -= alpha * Ap
        rr_new = xp.dot(r, r)
        if float(xp.sqrt(rr_new)) <= tol * b_norm:
            return x, i + 1
        p = r + (rr_new / rr) * p
        rr = rr_new
    return x, max_iter


def make_system(n, seed=0):
    rng = numpy.random.default_rng(seed)
    m = rng.standard_normal((n, n))
    a = m @ m.T / n + numpy.eye(n)
    b = rng.standard_normal(n)
    return a, b


def main(n=256, dtype=numpy.float64):
    a, b = make_system(n)
    A = cupy.asarray(a.astype(dtype))
    B = cupy.asarray(b.astype(dtype))
    t = time.perf_counter()
    x, iters = cg(A, B)
    x = cupy.asnumpy(x)
    return {"x": x, "expected": numpy.linalg.solve(a, b), "iterations": iters,
            "seconds": time.perf_counter() - t}


if __name__ == "__main__":
    r = main(2048)
    print(f"cg: {r['iterations']} iterations, {r['seconds']:.3f} s, max error "
          f"{abs(r['x'] - r['expected']).max():.2e}")
