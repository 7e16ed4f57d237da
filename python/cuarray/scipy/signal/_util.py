"""Helpers shared by cuarray.scipy.signal's modules: the cpu device's hand-off to
SciPy on zero-copy views, host views of inputs, results back as cuarray arrays."""

import numpy as _np

import cuarray as _ca
from .._optional import scipy_module
from ..._devices import device_of, on_cpu  # noqa: F401 (re-exported for the signal modules)


def scipy_signal():
    """scipy.signal, or an ImportError naming the optional dependency."""
    return scipy_module("signal")


def host(x):
    """x for a host library: a cpu-device array as a NumPy view (no copy), a GPU
    array copied to the host, tuples/lists element by element, else x itself."""
    if isinstance(x, _ca.ndarray):
        return _np.asarray(x) if x.device == "cpu" else x.get()
    if isinstance(x, tuple):
        return tuple(host(v) for v in x)
    if isinstance(x, list) and any(isinstance(v, _ca.ndarray) for v in x):
        return [host(v) for v in x]
    return x


def back(r, device=None):
    """Host results (arrays, tuples and lists of them) as cuarray arrays on
    device (None: the default device); scalars stay as they are."""
    if isinstance(r, tuple):
        return tuple(back(v, device) for v in r)
    if isinstance(r, list):
        return [back(v, device) for v in r]
    if isinstance(r, _np.ndarray):
        return _ca.asarray(r, device=device)
    return r


def asarray(x):
    """x as a cuarray array (NumPy arrays and lists go to the default device)."""
    return x if isinstance(x, _ca.ndarray) else _ca.asarray(x)


def like(v, ref):
    """v as a cuarray array on ref's device (cuarray arrays as they are): a
    secondary input (zi, a window, a second signal) follows the primary one."""
    return v if isinstance(v, _ca.ndarray) else _ca.asarray(v, device=ref.device)
