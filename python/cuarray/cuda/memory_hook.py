"""Memory hooks (CuPy's cupy.cuda.memory_hook): user code told of every allocation
from cuarray's pools on this thread.

`with hook:` installs a MemoryHook on the current thread (hooks are per thread, as
CuPy's); the pools then call, with keyword arguments,

- malloc_preprocess(device_id, size, mem_size) / malloc_postprocess(device_id,
  size, mem_size, mem_ptr, pmem_id) around each request (size as asked, mem_size
  as rounded up to the pools' 512 bytes; pmem_id is id() of the Memory object);
- alloc_preprocess(device_id, mem_size) / alloc_postprocess(device_id, mem_size,
  mem_ptr) when the request made the pool reserve memory from CUDA (mem_size: the
  bytes reserved). Both are told after the pool's call returns: the pool's CUDA
  call runs under its lock, where Python must not run (csrc/memory/memory_hooks.c);
- free_preprocess / free_postprocess(device_id, mem_size, mem_ptr, pmem_id) when a
  block goes back to its pool.

Device memory, managed memory and the cpu device's memory (device_id -1) are
reported; pinned host memory and memory from set_allocator's allocator are not, as
in CuPy. A thread without hooks pays one thread-local check per allocation.
"""

import threading

from .. import _core

__all__ = ["MemoryHook", "get_memory_hooks"]

_state = threading.local()


def get_memory_hooks():
    """This thread's installed hooks, by name, in installation order (a dict)."""
    hooks = getattr(_state, "hooks", None)
    if hooks is None:
        hooks = _state.hooks = {}
    return hooks


def _dispatch(event, device_id, size, mem_size, mem_ptr, pmem_id):
    """Called by the pools (C) for each event: each hook's method, with CuPy's
    keyword arguments for that event."""
    if event.startswith("malloc"):
        kw = {"device_id": device_id, "size": size, "mem_size": mem_size}
        if event == "malloc_postprocess":
            kw.update(mem_ptr=mem_ptr, pmem_id=pmem_id)
    elif event.startswith("alloc"):
        kw = {"device_id": device_id, "mem_size": mem_size}
        if event == "alloc_postprocess":
            kw["mem_ptr"] = mem_ptr
    else:
        kw = {"device_id": device_id, "mem_size": mem_size, "mem_ptr": mem_ptr,
              "pmem_id": pmem_id}
    for hook in list(get_memory_hooks().values()):
        getattr(hook, event)(**kw)


def _install():
    _core._set_memory_hook(_dispatch if get_memory_hooks() else None)


class MemoryHook:
    """Base class of memory hooks: override the events you want (each takes the
    keyword arguments in this module's docstring). `name` must be unique among a
    thread's installed hooks."""

    name = "MemoryHook"

    def __enter__(self):
        hooks = get_memory_hooks()
        if self.name in hooks:
            raise KeyError(f"Hook {self.name} already exists")
        hooks[self.name] = self
        _install()
        return self

    def __exit__(self, *exc):
        hooks = get_memory_hooks()
        if hooks.get(self.name) is self:
            del hooks[self.name]
        _install()

    def _ignore(self, **kwargs):
        """An event this hook does not override: nothing to do."""

    alloc_preprocess = alloc_postprocess = _ignore
    malloc_preprocess = malloc_postprocess = _ignore
    free_preprocess = free_postprocess = _ignore
