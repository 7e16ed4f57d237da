"""LineProfileHook: allocation sizes by the Python lines that asked for them."""

import os
import sys

from ..memory_hook import MemoryHook

_HERE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class _Frame:
    __slots__ = ("name", "used", "acquired", "children")

    def __init__(self, name):
        self.name = name
        self.used = 0       # bytes requested from the pools (malloc)
        self.acquired = 0   # bytes the pools reserved from CUDA for them (alloc)
        self.children = {}

    def child(self, name):
        c = self.children.get(name)
        if c is None:
            c = self.children[name] = _Frame(name)
        return c


def _stack(max_depth):
    """The caller's frames outside cuarray, outermost first."""
    names = []
    f = sys._getframe(3)
    while f is not None:
        path = os.path.abspath(f.f_code.co_filename)
        if not path.startswith(_HERE):
            names.append(f"{f.f_code.co_filename}:{f.f_lineno}:{f.f_code.co_name}")
        f = f.f_back
    names.reverse()
    return names[-max_depth:] if max_depth > 0 else names


class LineProfileHook(MemoryHook):
    """Adds up, per Python call path (outside cuarray), the bytes requested from
    the pools ("used") and the bytes the pools reserved from CUDA for them
    ("acquired"); `print_report()` prints the tree. max_depth > 0 keeps only the
    innermost max_depth frames of each path."""

    name = "LineProfileHook"

    def __init__(self, max_depth=0):
        self._root = _Frame("_root")
        self._max_depth = max_depth

    def _path(self):
        """The root and the nodes of the calling path (each counts its subtree)."""
        node = self._root
        path = [node]
        for name in _stack(self._max_depth):
            node = node.child(name)
            path.append(node)
        return path

    def malloc_preprocess(self, device_id, size, mem_size):
        for node in self._path():
            node.used += mem_size

    def alloc_preprocess(self, device_id, mem_size):
        for node in self._path():
            node.acquired += mem_size

    def print_report(self, file=sys.stdout):
        """The tree: each line a call path's frame, its used and acquired bytes."""
        self._print(self._root, 0, file)

    def _print(self, node, depth, file):
        file.write(f"{'  ' * depth}{node.name} ({_human(node.used)}, "
                   f"{_human(node.acquired)})\n")
        for c in node.children.values():
            self._print(c, depth + 1, file)


def _human(n):
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.2f}{unit}"
        n /= 1024
