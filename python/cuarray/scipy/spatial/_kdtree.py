"""KDTree (SciPy's scipy.spatial.KDTree's query interface) over cuarray arrays.

There is no tree: a GPU answers k-nearest-neighbour queries faster by brute
force. query() computes the exact Minkowski distances from a tile of query
points to every data point (differences, as distance_matrix does, tiles of at
most TILE elements of differences), takes the k smallest per row by
argpartition and sorts those k (so the work is O(queries * n * m) and the
memory one tile), then applies distance_upper_bound. query_ball_point is the
same distance tile thresholded, its index lists built on the host from one copy
of the mask. Ties between equidistant points may be ordered differently from
SciPy's tree walk; eps (approximate search) is accepted and the search is
exact."""

import math

import numpy as _np

import cuarray as _ca

__all__ = ["KDTree", "cKDTree"]

TILE = 1 << 24      # elements of differences per distance tile


def _as(x, device=None, dtype=_np.float64):
    if isinstance(x, _ca.ndarray) and (device is None or x.device == device):
        return x.astype(dtype)
    if isinstance(x, _ca.ndarray):
        x = x.get()
    return _ca.asarray(x, dtype=dtype, device=device)


def _pdist(x, y, p):
    """(len(x), len(y)) Minkowski p-distances (p-th powers not taken back for
    finite p other than 1, 2: the ranking is the same, the root taken later)."""
    d = _ca.abs(x[:, None, :] - y[None, :, :])
    if p == math.inf:
        return d.max(axis=-1) if d.shape[-1] else d.sum(axis=-1)
    if p == 1:
        return d.sum(axis=-1)
    if p == 2:
        return (d * d).sum(axis=-1)
    return (d ** p).sum(axis=-1)


def _finish(dist, p):
    if p == 2:
        return _ca.sqrt(dist)
    if p in (1, math.inf):
        return dist
    return dist ** (1.0 / p)


class KDTree:
    """KDTree(data, leafsize=10, compact_nodes=True, copy_data=False,
    balanced_tree=True, boxsize=None)

    Nearest-neighbour queries over the rows of data (n, m), answered on data's
    device by brute force (see the module notes; the tree-shaping arguments are
    accepted and unused). boxsize (periodic topology) is not supported."""

    def __init__(self, data, leafsize=10, compact_nodes=True, copy_data=False,
                 balanced_tree=True, boxsize=None):
        data = _as(data, getattr(data, "device", None))
        if data.ndim != 2:
            data = data.reshape(-1, 1) if data.ndim == 1 else data
        if data.ndim != 2:
            raise ValueError("data must be 2 dimensions")
        if leafsize < 1:
            raise ValueError("leafsize must be at least 1")
        if boxsize is not None:
            raise NotImplementedError("KDTree: periodic boxsize is not supported "
                                      "by cuarray's brute-force search")
        if data.size and not bool(_ca.isfinite(data).all()):
            raise ValueError("data must be finite, check for nan or inf values")
        self.data = data.copy() if copy_data else data
        self.n, self.m = data.shape
        self.leafsize = leafsize
        self.boxsize = None
        self.maxes = data.max(axis=0) if self.n else data.sum(axis=0)
        self.mins = data.min(axis=0) if self.n else data.sum(axis=0)

    def _points(self, x):
        x = _as(x, self.data.device)
        if x.shape[-1] != self.m:
            raise ValueError(f"x must consist of vectors of length {self.m} but has "
                             f"shape {x.shape}")
        return x.reshape(-1, self.m), x.shape[:-1]

    def query(self, x, k=1, eps=0.0, p=2.0, distance_upper_bound=math.inf, workers=1):
        """query(x, k=1, eps=0, p=2, distance_upper_bound=inf, workers=1)

        The distances to and indices of the k nearest data points of each point
        of x (k an int, or a sequence of 1-based ranks). Missing neighbours have
        distance inf and index n, as SciPy's."""
        if p < 1:
            raise ValueError("Only p-norms with 1<=p<=infinity permitted")
        ranks, single = _ranks(k)
        pts, lead = self._points(x)
        kmax = max(ranks)
        q = pts.shape[0]
        dist = _ca.full((q, kmax), math.inf, dtype=_np.float64, device=pts.device)
        idx = _ca.full((q, kmax), self.n, dtype=_np.intp, device=pts.device)
        rows = max(1, TILE // max(self.n * max(self.m, 1), 1))
        take = min(kmax, self.n)
        for s in range(0, q if take else 0, rows):
            d = _pdist(pts[s:s + rows], self.data, p)
            if take < self.n:
                part = _ca.argpartition(d, take - 1, axis=1)[:, :take]
            else:
                part = _ca.broadcast_to(_ca.arange(self.n, device=d.device), d.shape)
            dk = _ca.take_along_axis(d, part, axis=1)
            order = _ca.argsort(dk, axis=1, kind="stable")
            dist[s:s + rows, :take] = _ca.take_along_axis(dk, order, axis=1)
            idx[s:s + rows, :take] = _ca.take_along_axis(part, order, axis=1)
        dist = _finish(dist, p)
        if distance_upper_bound != math.inf:
            far = dist >= distance_upper_bound
            dist = _ca.where(far, math.inf, dist)
            idx = _ca.where(far, self.n, idx)
        sel = _ca.asarray(_np.asarray(ranks) - 1, device=pts.device)
        dist, idx = dist[:, sel], idx[:, sel]
        if single:
            return dist.reshape(lead), idx.reshape(lead)
        return dist.reshape(lead + (len(ranks),)), idx.reshape(lead + (len(ranks),))

    def query_ball_point(self, x, r, p=2.0, eps=0.0, workers=1, return_sorted=None,
                         return_length=False):
        """The indices of the data points within distance r of each point of x
        (lists, in an object array for many points; counts with
        return_length). The distance tiles run on the device, the lists are
        built on the host."""
        pts, lead = self._points(x)
        rr = _np.broadcast_to(_np.asarray(r.get() if isinstance(r, _ca.ndarray) else r,
                                          dtype=_np.float64), lead).reshape(-1)
        rdev = _ca.asarray(rr, device=pts.device)
        rows = max(1, TILE // max(self.n * max(self.m, 1), 1))
        masks = []
        for s in range(0, pts.shape[0], rows):
            d = _finish(_pdist(pts[s:s + rows], self.data, p), p)
            masks.append(d <= rdev[s:s + rows, None])
        mask = (_ca.concatenate(masks) if masks else
                _ca.zeros((0, self.n), dtype=bool, device=pts.device))
        if return_length:
            counts = mask.sum(axis=1).astype(_np.intp)
            return counts.reshape(lead) if lead else int(counts[0])
        host = mask.get()
        lists = [_np.nonzero(row)[0].tolist() for row in host]
        if not lead:
            return lists[0]
        out = _np.empty(len(lists), dtype=object)
        for i, v in enumerate(lists):
            out[i] = v
        return out.reshape(lead)


def _ranks(k):
    if _np.ndim(k) == 0:
        k = int(k)
        if k < 1:
            raise ValueError(f"k must be an integer >= 1, got {k}")
        return list(range(1, k + 1)), k == 1
    ranks = [int(v) for v in k]
    if not ranks or min(ranks) < 1:
        raise ValueError("k must be a positive integer or a sequence of them")
    return ranks, False


cKDTree = KDTree
