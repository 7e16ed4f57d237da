"""cuarray.cuda.common: CuPy's cupy.cuda.common, the helpers its C side shares.

CuPy's module holds two internal helpers: the numeric code of a dtype for its
C++ kernels (_get_dtype_id) and whether the current GPU supports float16
arithmetic (_is_fp16_supported). Here they answer from cuarray's own tables: the
codes are cuarray's dtype codes (kernels/kernels.h's CA_* order, NumPy's type
order), not CuPy's numbers, and float16 is supported on every GPU cuarray runs on
(compute capability 5.3 or newer) and on the cpu device.
"""

import numpy

__all__ = ["_get_dtype_id", "_is_fp16_supported"]

_DTYPE_IDS = {numpy.dtype(t): i for i, t in enumerate(
    (numpy.bool_, numpy.int8, numpy.uint8, numpy.int16, numpy.uint16, numpy.int32,
     numpy.uint32, numpy.int64, numpy.uint64, numpy.float16, numpy.float32,
     numpy.float64, numpy.complex64, numpy.complex128))}


def _get_dtype_id(dtype):
    """cuarray's code of a NumPy dtype (ValueError for one it has no code for)."""
    try:
        return _DTYPE_IDS[numpy.dtype(dtype)]
    except (KeyError, TypeError):
        raise ValueError(f"Unsupported dtype ({dtype})") from None


def _is_fp16_supported():
    """True: the current device computes in float16 (a GPU of compute capability
    >= 5.3 -- every one cuarray's builds target -- or the cpu device)."""
    from .. import _core
    d = _core.get_device_id()
    if d < 0:
        return True
    return int(_core.Device(d).compute_capability) >= 53
