"""connected_components (SciPy 1.17's signature, labels int32).

On the cpu device (CPU_SCIPY) SciPy's own routine runs on the SciPy form of the
graph, so the labels are SciPy's exactly. Elsewhere it is a composition over the
edge list, one host read per sweep:
- weak components (and undirected graphs): min-label propagation along both edge
  directions by scatter-min (ufunc.at, atomics on a GPU) with pointer jumping,
  until no label moves; labels are then numbered by each component's smallest
  node, which is SciPy's numbering.
- strong components: forward min-colouring, then backward reachability from each
  colour's root within its colour; the reached nodes form the root's component
  and leave the graph; repeat. Components equal SciPy's; their numbers are by
  smallest node, not SciPy's depth-first completion order (SciPy's labels are a
  permutation of these).
"""

import numpy as _np

import cuarray as _ca

__all__ = ["connected_components"]

CPU_SCIPY = True


def _edges(csgraph):
    """The graph's n and its edges (row, col): a sparse matrix's stored entries,
    a dense array's nonzeros (SciPy's reading of each)."""
    from cuarray.scipy.sparse.linalg._interface import _issparse
    if _issparse(csgraph):
        shape = csgraph.shape
        coo = csgraph.tocoo()
        row, col = coo.row, coo.col
    else:
        a = _ca.asarray(csgraph)
        shape = a.shape
        if a.ndim == 2 and shape[0] == shape[1]:
            row, col = _ca.nonzero(a)
    if len(shape) != 2 or shape[0] != shape[1]:
        raise ValueError("graph should be a square array")
    return shape[0], row.astype(_np.int64), col.astype(_np.int64)


def _weak(n, row, col, device):
    labels = _ca.arange(n, dtype=_np.int64, device=device)
    src = _ca.concatenate([row, col])
    dst = _ca.concatenate([col, row])
    while True:
        before = labels.copy()
        _ca.minimum.at(labels, dst, labels[src])
        labels = labels[labels]                 # pointer jumping: halve the paths
        if not bool((labels != before).any()):
            return labels


def _strong(n, row, col, device):
    ids = _ca.arange(n, dtype=_np.int64, device=device)
    comp = _ca.full(n, -1, dtype=_np.int64, device=device)
    while True:
        live = comp < 0
        if not bool(live.any()):
            return comp
        keep = live[row] & live[col]
        r, c = row[keep], col[keep]
        color = _ca.where(live, ids, n)
        while True:                              # forward: colour = min predecessor
            before = color.copy()
            _ca.minimum.at(color, c, color[r])
            if not bool((color != before).any()):
                break
        reach = (color == ids) & live
        same = color[r] == color[c]
        rs, cs = r[same], c[same]
        while True:                              # backward within the colour
            before = reach.copy()
            _ca.maximum.at(reach, rs, reach[cs])
            if not bool((reach != before).any()):
                break
        comp = _ca.where(reach, color, comp)


def connected_components(csgraph, directed=True, connection="weak",
                         return_labels=True):
    """connected_components(csgraph, directed=True, connection='weak',
    return_labels=True)

    The number of weakly or strongly connected components of a graph (a sparse
    matrix's stored entries or a dense array's nonzeros are its edges) and each
    node's component label (int32): ``(n_components, labels)`` or the number.
    """
    if connection.lower() not in ("weak", "strong"):
        raise ValueError("connection must be 'weak' or 'strong'")
    dev = getattr(csgraph, "device", None)
    if CPU_SCIPY and dev == "cpu":
        import scipy.sparse.csgraph as sg
        g = csgraph.get() if hasattr(csgraph, "tocoo") else _np.asarray(csgraph)
        r = sg.connected_components(g, directed, connection, return_labels)
        if not return_labels:
            return int(r)
        return int(r[0]), _ca.asarray(r[1], device="cpu")
    n, row, col = _edges(csgraph)
    dev = row.device
    strong = directed and connection.lower() == "strong"
    raw = _strong(n, row, col, dev) if strong else _weak(n, row, col, dev)
    roots, labels = _ca.unique(raw, return_inverse=True)
    count = int(roots.shape[0])
    if not return_labels:
        return count
    return count, labels.astype(_np.int32).reshape(n)
