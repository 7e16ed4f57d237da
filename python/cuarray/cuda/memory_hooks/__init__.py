"""Ready-made memory hooks (CuPy's cupy.cuda.memory_hooks)."""

from .debug_print import DebugPrintHook
from .line_profile import LineProfileHook

__all__ = ["DebugPrintHook", "LineProfileHook"]
