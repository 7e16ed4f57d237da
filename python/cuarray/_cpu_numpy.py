"""Helpers for the cpu device's hand-off to NumPy's own routines.

A cpu-device array converts zero-copy to NumPy (numpy.asarray(x) is a view) and
back (cuarray.asarray(r, device=x.device)), so where NumPy has a routine the cpu
device may run it on views instead of a composition of cuarray primitives built
for the GPU. Each module that does so has its own CPU_NUMPY flag (tests turn it
off to run the compositions on the cpu device) and its own rule for which cases
go to NumPy (only those measured faster there).
"""

import numpy as _np

from . import _core


def view(a):
    """A zero-copy NumPy view of a cpu-device array; anything else unchanged."""
    return _np.asarray(a) if isinstance(a, _core.ndarray) else a


def wrap(r, device):
    """A NumPy result (or a tuple or namedtuple of them) as cpu-device arrays; a
    NumPy scalar becomes a 0-d array, other Python objects stay as they are."""
    if isinstance(r, tuple):
        vals = [wrap(x, device) for x in r]
        return type(r)(*vals) if hasattr(r, "_fields") else tuple(vals)
    if isinstance(r, (_np.ndarray, _np.generic)):
        return _core.asarray(r, device=device)
    return r
