"""cuarray.cuda.nvtx: NVTX ranges and marks for Nsight Systems, by CuPy's names.

The CUDA 12+ toolkit ships NVTX 3, which is header-only: there is no
libnvToolsExt to load. cuarray compiles NVTX 3's header into its extension;
the first call looks for a profiler's injection library (NVTX_INJECTION64_PATH,
set by nsys) and, with none, every call is a no-op costing a few nanoseconds.
The arguments are checked either way.
"""

from .. import _core

# CuPy's colour table for id_color (ARGB)
_COLORS = (0xFF00FF00, 0xFF0000FF, 0xFFFFFF00, 0xFFFF00FF, 0xFF00FFFF, 0xFFFF0000,
           0xFFFFFFFF)


def _argb(id_color, argb_color):
    if argb_color is not None:
        v = int(argb_color)
        if not 0 <= v <= 0xFFFFFFFF:
            raise ValueError(f"argb_color must fit in 32 bits, not {argb_color!r}")
        return v
    i = int(id_color)
    if i == -1:
        return -1
    if not 0 <= i < len(_COLORS):
        raise ValueError(f"id_color must be -1 or in [0, {len(_COLORS)}), not {id_color}")
    return _COLORS[i]


def _message(message):
    if not isinstance(message, str):
        raise TypeError(f"message must be a str, not {type(message).__name__}")
    return message


def RangePush(message, id_color=-1, argb_color=None):
    """RangePush(message, id_color=-1, argb_color=None): open a nested range."""
    return _core._nvtx_push(_message(message), _argb(id_color, argb_color))


def RangePop():
    """RangePop(): close the innermost open range."""
    return _core._nvtx_pop()


def Mark(message, id_color=-1, argb_color=None):
    """Mark(message, id_color=-1, argb_color=None): an instant event."""
    _core._nvtx_mark(_message(message), _argb(id_color, argb_color))


def MarkC(message, argb_color=0):
    """MarkC(message, argb_color=0): Mark with an ARGB colour."""
    Mark(message, argb_color=argb_color)


def RangePushC(message, argb_color=0):
    """RangePushC(message, argb_color=0): RangePush with an ARGB colour."""
    return RangePush(message, argb_color=argb_color)


__all__ = ["RangePush", "RangePop", "Mark", "MarkC", "RangePushC"]
