"""save_npz / load_npz in SciPy's file layout (the files load in SciPy and back)."""

import numpy as np

from ._base import _CLASSES, sparray

_KEYS = {"csr": ("data", "indices", "indptr"), "csc": ("data", "indices", "indptr"),
         "coo": ("data", "row", "col"), "dia": ("data", "offsets")}


def save_npz(file, matrix, compressed=True):
    """save_npz(file, matrix, compressed=True): the matrix's buffers (copied to
    the host) in an .npz file, as scipy.sparse.save_npz writes them."""
    fmt = matrix.format
    arrays = {k: getattr(matrix, k).get() for k in _KEYS[fmt]}
    arrays["format"] = fmt.encode("ascii")
    arrays["shape"] = np.asarray(matrix.shape)
    if isinstance(matrix, sparray):
        arrays["_is_array"] = True
    (np.savez_compressed if compressed else np.savez)(file, **arrays)


def load_npz(file, *, device=None):
    """load_npz(file): the sparse array or matrix save_npz (cuarray's or SciPy's)
    wrote, on `device` (default: the current device)."""
    with np.load(file, allow_pickle=False) as f:
        fmt = f["format"].item()
        fmt = fmt.decode("ascii") if isinstance(fmt, bytes) else str(fmt)
        if fmt not in _KEYS:
            raise NotImplementedError(f"Load is not implemented for sparse matrix "
                                      f"of format {fmt}.")
        is_array = bool(f["_is_array"]) if "_is_array" in f.files else False
        shape = tuple(int(d) for d in f["shape"])
        cls = _CLASSES[(fmt, is_array)]
        bufs = [f[k] for k in _KEYS[fmt]]
    if fmt == "coo":
        return cls((bufs[0], (bufs[1], bufs[2])), shape=shape, device=device)
    return cls(tuple(bufs), shape=shape, device=device)
