"""k-means clustering: the assignment step is an ElementwiseKernel over raw
arrays, the centre update a ReductionKernel per cluster and coordinate."""

import numpy

import cuarray as cupy

assign = cupy.ElementwiseKernel(
    "raw T x, raw T c, int32 k, int32 d", "int32 label",
    """
    T best = (T)1e300; int arg = 0;
    for (int j = 0; j < k; j++) {
        T dist = 0;
        for (int e = 0; e < d; e++) {
            T diff = x[i * d + e] - c[j * d + e];
            dist += diff * diff;
        }
        if (dist < best) { best = dist; arg = j; }
    }
    label = arg;
    """,
    "kmeans_assign")

masked_sum = cupy.ReductionKernel(
    "T x, int32 label, int32 j", "T s", "label == j ? x : (T)0", "a + b", "s = a", "0",
    "masked_sum")


def kmeans(x, k, iters=20, seed=0):
    n, d = x.shape
    idx = numpy.random.default_rng(seed).choice(n, k, replace=False)
    centers = x[cupy.asarray(idx)].copy()
    labels = cupy.empty(n, dtype=numpy.int32)
    for _ in range(iters):
        assign(x, centers, numpy.int32(k), numpy.int32(d), labels)
        counts = cupy.bincount(labels, minlength=k)
        for j in range(k):
            if int(counts[j]) == 0:
                continue
            sums = masked_sum(x, labels[:, None], numpy.int32(j), axis=0)
            centers[j] = sums / counts[j]
    return centers, labels


def kmeans_numpy(x, centers, iters):
    for _ in range(iters):
        dist = ((x[:, None, :] - centers[None]) ** 2).sum(axis=2)
        labels = dist.argmin(axis=1)
        for j in range(centers.shape[0]):
            if (labels == j).any():
                centers[j] = x[labels == j].mean(axis=0)
    return centers, labels


def main(n_per=300, k=3, iters=10):
    rng = numpy.random.default_rng(5)
    true = numpy.array([[0.0, 0.0], [6.0, 6.0], [-6.0, 5.0]])[:k]
    xh = numpy.concatenate([c + rng.standard_normal((n_per, 2)) for c in true])
    centers, labels = kmeans(cupy.asarray(xh), k, iters)
    idx = numpy.random.default_rng(0).choice(xh.shape[0], k, replace=False)
    ce, le = kmeans_numpy(xh, xh[idx].copy(), iters)
    return {"centers": cupy.asnumpy(centers), "labels": cupy.asnumpy(labels),
            "centers_expected": ce, "labels_expected": le}


if __name__ == "__main__":
    r = main(100000)
    print(f"kmeans: centres {numpy.round(r['centers'], 3).tolist()}")
