"""cuarray.cuda.pinned_memory: page-locked host memory, by CuPy's names.

``alloc_pinned_memory(n)`` returns a PinnedMemoryPointer, which exports the
buffer protocol (``numpy.frombuffer(p, dtype, count)``), from cuarray's pinned
pool unless ``set_pinned_memory_allocator`` set another allocator. cuarray's
own staged transfers keep their own pinned buffers and do not call it.
"""

from .. import _core
from .memory import _PooledMemory, BaseMemory

PinnedMemoryPool = _core.PinnedMemoryPool
get_default_pinned_memory_pool = _core.get_default_pinned_memory_pool


class PinnedMemoryPointer(_core.MemoryPointer):
    """PinnedMemoryPointer(mem, offset)

    A pointer into pinned host memory; as a buffer it is the host bytes from
    the pointer to the end of `mem`.
    """


class PinnedMemory(_PooledMemory):
    """PinnedMemory(size, flags=0)

    Mapped, portable page-locked host memory of cuarray's pinned pool (the
    flags of cudaHostAlloc are accepted and ignored: the pool's memory is
    always portable and mapped).
    """

    def __init__(self, size, flags=0):
        super().__init__(get_default_pinned_memory_pool().malloc(int(size)))


class _RawPinnedMemory(BaseMemory):
    """cudaHostAlloc'ed memory outside the pool (set_pinned_memory_allocator(None))."""

    def __init__(self, size):
        self.size = int(size)
        self.device_id = max(_core.get_device_id(), 0)
        self.ptr = _core._rt_host_alloc(self.size, True) if self.size else 0

    def __del__(self):
        ptr, self.ptr = getattr(self, "ptr", 0), 0
        if ptr:
            try:
                _core._rt_host_free(ptr)
            except Exception:  # noqa: BLE001 - at shutdown the runtime may be gone
                pass


def _pool_malloc(size):
    return PinnedMemoryPointer(PinnedMemory(size), 0)


def _raw_malloc(size):
    return PinnedMemoryPointer(_RawPinnedMemory(size), 0)


_allocator = _pool_malloc


def set_pinned_memory_allocator(allocator=None):
    """set_pinned_memory_allocator(allocator=None)

    The allocator alloc_pinned_memory calls (size -> PinnedMemoryPointer);
    None allocates with cudaHostAlloc directly, without a pool (as CuPy).
    A pool's ``malloc`` works too: ``set_pinned_memory_allocator(
    PinnedMemoryPool().malloc)`` (cuarray's pool returns Memory objects, which
    are wrapped).
    """
    global _allocator
    if allocator is not None and not callable(allocator):
        raise TypeError("set_pinned_memory_allocator: the allocator must be callable "
                        "or None")
    _allocator = _raw_malloc if allocator is None else allocator


def alloc_pinned_memory(size):
    """alloc_pinned_memory(size): a PinnedMemoryPointer to `size` bytes of pinned
    host memory from the current pinned allocator."""
    p = _allocator(int(size))
    if isinstance(p, _core.Memory):
        p = PinnedMemoryPointer(p, 0)
    return p


__all__ = ["PinnedMemory", "PinnedMemoryPointer", "PinnedMemoryPool",
           "alloc_pinned_memory", "set_pinned_memory_allocator",
           "get_default_pinned_memory_pool"]
