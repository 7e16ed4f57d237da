"""Which device a composition runs on: the first cuarray array among its operands.

NumPy-style functions take any mix of cuarray arrays, NumPy arrays, scalars and
sequences; the result belongs where the first cuarray operand lives, and where there
is none the current device (None) is used. Every Python composition asks here.
"""

from ._core import ndarray as _ndarray


def device_of(*objs):
    """The device of the first cuarray array among `objs`, else None (current)."""
    for o in objs:
        if isinstance(o, _ndarray):
            return o.device
    return None


def on_cpu(*objs):
    """True when the first cuarray array among `objs` lives on the cpu device."""
    dev = device_of(*objs)
    return dev is not None and dev == "cpu"
