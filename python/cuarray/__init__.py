"""cuarray: NumPy-compatible arrays on CUDA GPUs (and the host), from a C core."""

from . import _core  # noqa: F401

__version__ = _core.__version__
