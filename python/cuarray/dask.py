"""cuarray arrays as Dask chunks, and "cuarray" as a Dask array backend.

Dask runs cuarray chunks on its own engine (no scheduler of cuarray's): a Dask
array whose chunks are cuarray arrays computes with cuarray's functions, reached
through NumPy's dispatch protocols (``__array_function__``/``__array_ufunc__``)
and the registrations below, which Dask looks up by chunk type::

    import dask, dask.array as da
    import cuarray as ca
    import cuarray.dask  # noqa: F401  (registers cuarray with Dask; idempotent)

    x = da.from_array(ca.random.random((40000, 4000)), chunks=(4000, 4000))
    float(x.sum().compute())

    with dask.config.set({"array.backend": "cuarray"}):
        y = da.ones((8, 8), chunks=4)   # cuarray chunks

Importing cuarray never imports Dask; importing this module does (and registers),
and so does Dask itself when ``array.backend`` is "cuarray" (an entry point in
the ``dask.array.backends`` group names this module's backend class).
Serialization for ``distributed`` needs nothing here: cuarray arrays pickle
with protocol 5, their bytes as one out-of-band buffer (see ``ndarray.__reduce_ex__``).
With one worker per GPU (dask-cuda's ``LocalCUDACluster``, or ``CUARRAY_DEVICE=cuda:N``
in each worker's environment), each worker's chunks live on its own GPU.
"""

import numpy as _np
from dask.array.backends import ArrayBackendEntrypoint as _ArrayBackendEntrypoint
from dask import config as _dask_config
from dask.utils import Dispatch as _Dispatch

import cuarray as _ca

from . import _core

__all__ = ["register", "CuarrayBackendEntrypoint"]

_registered = False


def _percentile(a, q, method="linear"):
    # Dask's chunk-percentile contract: (percentiles of a, number of elements)
    n = len(a)
    if not n:
        return None, n
    # q may come as a cuarray array (Dask builds it with like=, on any device)
    q = _ca.asnumpy(q) if isinstance(q, _ca.ndarray) else _np.asarray(q)
    return _ca.percentile(a, q, method=method), n


def _einsum(*args, **kwargs):
    # Dask passes NumPy's einsum keywords; cuarray.einsum takes NumPy's signature
    kwargs.pop("casting", None)
    kwargs.pop("order", None)
    return _ca.einsum(*args, **kwargs)


def _to_numpy(x, **kwargs):
    return x.get()


def _from_numpy(x, **kwargs):
    return _ca.asarray(x, **kwargs)


def register():
    """Register cuarray's ndarray with Dask (chunk type, lookups, sizeof, backend).

    Called on import of this module; safe to call again.
    """
    global _registered
    if _registered:
        return
    from dask.array import backends as b
    from dask.array.chunk_types import register_chunk_type
    from dask.sizeof import sizeof

    t = _core.ndarray
    b.concatenate_lookup.register(t, _ca.concatenate)
    b.take_lookup.register(t, _ca.take)
    b.tensordot_lookup.register(t, _ca.tensordot)
    b.einsum_lookup.register(t, _einsum)
    b.percentile_lookup.register(t, _percentile)
    b.numel_lookup.register(t, b._numel_arraylike)
    b.nannumel_lookup.register(t, b._nannumel)
    b.empty_lookup.register(t, _ca.empty)
    b.to_numpy_dispatch.register(t, _to_numpy)
    sizeof.register(t, lambda x: int(x.nbytes))
    register_chunk_type(t)
    b.array_creation_dispatch.register_backend("cuarray", _entrypoint())
    _registered = True


def _entrypoint():
    return CuarrayBackendEntrypoint()


class CuarrayBackendEntrypoint(_ArrayBackendEntrypoint):
    """Dask's array-creation functions making cuarray chunks (the current device)."""

    @classmethod
    def to_backend_dispatch(cls):
        return _to_cuarray_dispatch

    @classmethod
    def to_backend(cls, data, **kwargs):
        if isinstance(data._meta, _core.ndarray):
            return data
        return data.map_blocks(_from_numpy, **kwargs)

    @property
    def RandomState(self):
        return _random_state_class()

    @property
    def default_bit_generator(self):
        from . import random
        bg = getattr(random, "Philox", None)
        if bg is None:
            raise NotImplementedError(
                "cuarray.random has no BitGenerator class for Dask's default_rng; "
                "use da.random.RandomState with the cuarray backend")
        return bg

    @staticmethod
    def arange(*args, like=None, **kwargs):
        import dask.array as da
        like = _ca.empty(()) if like is None else like
        with _dask_config.set({"array.backend": "numpy"}):
            return da.arange(*args, like=like, **kwargs)


def _creation(name):
    def make(*args, **kwargs):
        return _with_cuarray_meta(name, *args, **kwargs)
    make.__name__ = make.__qualname__ = name
    return staticmethod(make)


# Dask's own creation functions, run by its numpy backend with a cuarray meta array:
# the chunks are made by cuarray (through NumPy's dispatch on the meta)
for _name in ("ones", "zeros", "empty", "full"):
    setattr(CuarrayBackendEntrypoint, _name, _creation(_name))
del _name


_seeded_class = None


def _one_seed(seed):
    if seed is None or not _np.ndim(seed):
        return seed
    words = _np.asarray(seed, dtype=_np.uint32).ravel().tolist()
    return int(_np.random.SeedSequence(words).generate_state(1, _np.uint64)[0])


def _random_state_class():
    """cuarray's RandomState, also taking the seed Dask gives each chunk (an array
    of 624 uint32 words, as NumPy's RandomState takes): the words are mixed into
    one 64-bit seed by NumPy's SeedSequence, so distinct chunks get distinct streams."""
    global _seeded_class
    if _seeded_class is None:
        from . import random

        class RandomState(random.RandomState):
            __doc__ = random.RandomState.__doc__

            __slots__ = ()

            def __new__(cls, seed=None):
                return super().__new__(cls, _one_seed(seed))

            def __init__(self, seed=None):
                # the C base parses its seed in tp_new; nothing is left to do here
                pass

        RandomState.__module__ = __name__
        _seeded_class = RandomState
    return _seeded_class


def _with_cuarray_meta(name, *args, meta=None, **kwargs):
    import dask.array as da
    meta = _ca.empty(()) if meta is None else meta
    with _dask_config.set({"array.backend": "numpy"}):
        return getattr(da, name)(*args, meta=meta, **kwargs)


_to_cuarray_dispatch = _Dispatch("to_cuarray_dispatch")
_to_cuarray_dispatch.register(_np.ndarray, _from_numpy)
_to_cuarray_dispatch.register(_core.ndarray, lambda x, **kwargs: x)

register()
