"""cuarray.cuda.cub: what CUB does for cuarray, under CuPy's module name.

CuPy's cupy.cuda.cub is an internal acceleration module: with
``CUPY_ACCELERATORS=cub`` its reductions and scans call CUB's device-wide
algorithms, and its functions take raw arrays and CuPy's internal op codes.
cuarray has no such switch: CUB is compiled into its kernels and used where it
wins, always (docs/ARCHITECTURE.md, kernels/gpu/): cub::DeviceScan for a long
contiguous cumsum/cumprod row, cub::DeviceRadixSort and DeviceSegmentedRadixSort
for sort/argsort, cub::BlockRadixSort for short rows. This module names those
uses: ``available`` says whether this build has them (a CUDA build), and the
functions below are the cuarray calls that reach CUB for large contiguous inputs
(on the cpu device, and for other shapes, cuarray's own loops answer with the
same results).
"""

from .. import _core

__all__ = ["available", "device_scan", "device_reduce", "device_sort", "device_argsort"]

available = bool(_core.built_with_cuda)

_SCANS = {"sum": "cumsum", "prod": "cumprod", "nansum": "nancumsum",
          "nanprod": "nancumprod"}
_REDUCTIONS = ("sum", "prod", "min", "max", "argmin", "argmax")


def device_scan(x, op="sum", axis=None, dtype=None, out=None):
    """The inclusive scan of x: op 'sum', 'prod', 'nansum' or 'nanprod'
    (cumsum & co.; a long contiguous row runs cub::DeviceScan)."""
    if op not in _SCANS:
        raise ValueError(f"device_scan: op must be one of {sorted(_SCANS)}, not {op!r}")
    import cuarray
    return getattr(cuarray, _SCANS[op])(x, axis=axis, dtype=dtype, out=out)


def device_reduce(x, op="sum", axis=None, out=None, keepdims=False):
    """x reduced by op ('sum', 'prod', 'min', 'max', 'argmin', 'argmax'), as the
    cuarray function of that name (cuarray's own one-pass reduction kernels, which
    CuPy's cub path stands in for)."""
    if op not in _REDUCTIONS:
        raise ValueError(f"device_reduce: op must be one of {list(_REDUCTIONS)}, "
                         f"not {op!r}")
    import cuarray
    return getattr(cuarray, op)(x, axis=axis, out=out, keepdims=keepdims)


def device_sort(x, axis=-1):
    """A sorted copy of x (CUB's radix sorts on the GPU)."""
    import cuarray
    return cuarray.sort(x, axis=axis)


def device_argsort(x, axis=-1):
    """The indices that sort x (CUB's radix sorts of keys and positions)."""
    import cuarray
    return cuarray.argsort(x, axis=axis)
