"""cuarray: NumPy-compatible arrays on CUDA GPUs (and the host), from a C core."""

from . import _core  # noqa: F401

__version__ = _core.__version__

# runtime
from . import cuda  # noqa: E402
from ._core import Device, OutOfMemoryError  # noqa: E402,F401
# end runtime
