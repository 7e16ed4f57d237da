"""cuSOLVER through cupy.linalg: a linear solve and a symmetric eigenproblem."""

import numpy

import cuarray as cupy


def main(n=128, seed=0):
    rng = numpy.random.default_rng(seed)
    m = rng.standard_normal((n, n))
    a = m @ m.T + n * numpy.eye(n)
    b = rng.standard_normal((n, 3))
    x = cupy.linalg.solve(cupy.asarray(a), cupy.asarray(b))
    w, v = cupy.linalg.eigh(cupy.asarray(a))
    return {"x": cupy.asnumpy(x), "x_expected": numpy.linalg.solve(a, b),
            "w": cupy.asnumpy(w), "w_expected": numpy.linalg.eigvalsh(a),
            "v": cupy.asnumpy(v), "a": a}


if __name__ == "__main__":
    r = main(2048)
    print(f"solve: max error {abs(r['x'] - r['x_expected']).max():.2e}")
