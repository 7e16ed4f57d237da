"""Expectation maximisation for a mixture of Gaussians (diagonal covariances)."""

import time

import numpy

import cuarray as cupy


def log_gauss(x, means, variances):
    # x (n, d), means/variances (k, d) -> (n, k)
    xp = cupy.get_array_module(x)
    diff = x[:, None, :] - means[None, :, :]
    return -0.5 * (xp.sum(diff * diff / variances[None], axis=2)
                   + xp.sum(xp.log(2 * numpy.pi * variances), axis=1)[None, :])


def em(x, k, iters=50, seed=0):
    xp = cupy.get_array_module(x)
    n, d = x.shape
    idx = numpy.random.default_rng(seed).choice(n, k, replace=False)
    means = x[xp.asarray(idx)]
    variances = xp.ones((k, d), dtype=x.dtype)
    weights = xp.full(k, 1.0 / k, dtype=x.dtype)
    for _ in range(iters):
        logp = log_gauss(x, means, variances) + xp.log(weights)[None, :]
        m = xp.max(logp, axis=1, keepdims=True)
        resp = xp.exp(logp - m)
        resp /= xp.sum(resp, axis=1, keepdims=True)
        nk = xp.sum(resp, axis=0)
        weights = nk / n
        means = (resp.T @ x) / nk[:, None]
        diff = x[:, None, :] - means[None, :, :]
        variances = xp.sum(resp[:, :, None] * diff * diff, axis=0) / nk[:, None] + 1e-6
    return means, variances, weights, xp.argmax(resp, axis=1)


def make_data(n_per, seed=1):
    rng = numpy.random.default_rng(seed)
    centers = numpy.array([[-4.0, -4.0], [0.0, 5.0], [5.0, 0.0]])
    x = numpy.concatenate([c + rng.standard_normal((n_per, 2)) * s
                           for c, s in zip(centers, (0.5, 1.0, 0.8))])
    return x, centers


def main(n_per=500):
    x, centers = make_data(n_per)
    t = time.perf_counter()
    means, variances, weights, labels = em(cupy.asarray(x), 3)
    return {"means": cupy.asnumpy(means), "weights": cupy.asnumpy(weights),
            "labels": cupy.asnumpy(labels), "centers": centers, "n_per": n_per,
            "seconds": time.perf_counter() - t}


if __name__ == "__main__":
    r = main(100000)
    print(f"gmm: {r['seconds']:.3f} s, weights {numpy.round(r['weights'], 3)}")
