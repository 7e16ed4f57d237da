"""Thrust-style sorting: sort, argsort (a permutation applied to values),
searchsorted (binning)."""

import numpy

import cuarray as cupy


def main(n=100000, seed=0):
    rng = numpy.random.default_rng(seed)
    keys_h = rng.integers(0, 1 << 30, n).astype(numpy.int32)
    vals_h = rng.standard_normal(n).astype(numpy.float32)
    keys, vals = cupy.asarray(keys_h), cupy.asarray(vals_h)
    sorted_keys = cupy.sort(keys)
    order = cupy.argsort(keys, kind="stable")
    vals_by_key = vals[order]
    edges = cupy.asarray(numpy.linspace(0, 1 << 30, 17).astype(numpy.int32))
    bins = cupy.searchsorted(edges, keys, side="right")
    return {"sorted": cupy.asnumpy(sorted_keys), "by_key": cupy.asnumpy(vals_by_key),
            "bins": cupy.asnumpy(bins), "keys": keys_h, "vals": vals_h,
            "edges": cupy.asnumpy(edges)}


if __name__ == "__main__":
    r = main(1 << 24)
    print("sort: ok" if numpy.all(numpy.diff(r["sorted"]) >= 0) else "sort: WRONG")
