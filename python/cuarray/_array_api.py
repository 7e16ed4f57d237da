"""The Python array API's inspection namespace: cuarray.__array_namespace_info__()."""

import numpy as np

from . import _core

_DTYPES = {
    "bool": np.dtype(np.bool_),
    "int8": np.dtype(np.int8),
    "int16": np.dtype(np.int16),
    "int32": np.dtype(np.int32),
    "int64": np.dtype(np.int64),
    "uint8": np.dtype(np.uint8),
    "uint16": np.dtype(np.uint16),
    "uint32": np.dtype(np.uint32),
    "uint64": np.dtype(np.uint64),
    "float32": np.dtype(np.float32),
    "float64": np.dtype(np.float64),
    "complex64": np.dtype(np.complex64),
    "complex128": np.dtype(np.complex128),
}

_KINDS = {
    "bool": ("bool",),
    "signed integer": ("int8", "int16", "int32", "int64"),
    "unsigned integer": ("uint8", "uint16", "uint32", "uint64"),
    "integral": ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"),
    "real floating": ("float32", "float64"),
    "complex floating": ("complex64", "complex128"),
    "numeric": ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "float32", "float64", "complex64", "complex128"),
}


def _device_obj(device):
    return _core.empty(0, device=device).device


class __array_namespace_info__:
    """Inspection utilities of the Python array API (2023.12) for cuarray.

    float16 is supported by cuarray but, as in NumPy's namespace, is not one of
    the array API's dtypes, so dtypes() does not list it.
    """

    __module__ = "cuarray"

    def capabilities(self):
        return {
            "boolean indexing": True,
            "data-dependent shapes": True,
            "max dimensions": 32,
        }

    def default_device(self):
        return _core.empty(0).device

    def devices(self):
        from . import cuda

        try:
            n = cuda.device_count()
        except Exception:
            n = 0
        return [_device_obj(f"cuda:{i}") for i in range(n)] + [_device_obj("cpu")]

    def default_dtypes(self, *, device=None):
        return {
            "real floating": np.dtype(np.float64),
            "complex floating": np.dtype(np.complex128),
            "integral": np.dtype(np.int64),
            "indexing": np.dtype(np.int64),
        }

    def dtypes(self, *, device=None, kind=None):
        if kind is None:
            return dict(_DTYPES)
        if isinstance(kind, str):
            if kind not in _KINDS:
                raise ValueError(f"unsupported dtype kind {kind!r}")
            return {n: _DTYPES[n] for n in _KINDS[kind]}
        if isinstance(kind, tuple):
            out = {}
            for k in kind:
                out.update(self.dtypes(device=device, kind=k))
            return out
        raise TypeError(f"kind must be None, a string or a tuple, not {type(kind).__name__}")
