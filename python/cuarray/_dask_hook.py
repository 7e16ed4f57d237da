"""Register cuarray with Dask whenever both are imported, in either order.

Dask looks up a chunk type's functions (how to count a chunk's elements, concatenate,
take, ...) in dispatch tables that know NumPy and CuPy by name; without cuarray's
entries, ``da.from_array(cuarray_array).std(axis=1)`` fails in the chunk-count lookup.
``cuarray.dask`` fills the tables, but a user should not have to know to import it:

- cuarray imported after Dask (``dask.array`` already in ``sys.modules``): register
  at once;
- cuarray imported first: a one-shot finder on ``sys.meta_path`` waits for
  ``dask.array``'s import and registers when that module has finished executing.

A distributed worker unpickling a cuarray chunk imports cuarray, so the same two
cases cover workers. Nothing here imports Dask: a program that never uses Dask pays
one dictionary lookup per import of a module named ``dask.array``, that is, nothing.
"""

import sys

_TRIGGER = "dask.array"


def _register():
    from . import dask  # noqa: F401  (registers on import; idempotent)


class _AfterDaskArray:
    """A meta-path finder that only wraps dask.array's loader (it finds nothing
    itself: the other finders locate the module)."""

    def find_spec(self, name, path=None, target=None):
        if name != _TRIGGER:
            return None
        _uninstall()
        from importlib.util import find_spec
        spec = find_spec(name)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        spec.loader = _RegisteringLoader(spec.loader)
        return spec


class _RegisteringLoader:
    def __init__(self, loader):
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        try:
            _register()
        except ImportError:
            pass  # a Dask too old or partial for cuarray.dask: plain Dask still works

    def __getattr__(self, name):  # get_resource_reader, is_package, ...
        return getattr(self._loader, name)


_finder = _AfterDaskArray()


def _uninstall():
    try:
        sys.meta_path.remove(_finder)
    except ValueError:
        pass


def install():
    if _TRIGGER in sys.modules:
        try:
            _register()
        except ImportError:
            pass
    elif _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)
