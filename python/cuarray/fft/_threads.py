"""Large complex transforms of the cpu device on two host threads.

A transform along one axis is independent line by line, and numpy.fft's gufunc
transforms each line on its own: the lines of one half of another axis on the
worker thread and the other half here give numpy.fft's result bit for bit, in
about half the time on two cores. A transform over several axes is numpy.fftn's
own sequence of one-axis passes (the last axis first, each with the same norm),
each pass split that way.

Only complex-to-complex transforms without ``s``/``n`` or ``out`` of float32,
float64, complex64 and complex128 arrays split: over several lines from
MIN_SPLIT_SIZE elements; one long line (every element on the transformed axis)
from fft/_four_step.py's thresholds, as four steps whose passes split this way.
The callers test the size against MIN_SIZE, the least of those, so that small
calls pay one comparison; everything else is one call of ``_core._fft`` as before.
"""

from .. import _core, _host_threads
from .._core import _fft
from . import _four_step

# Elements from which two threads beat one on this project's 2-core host, where
# handing half to the worker costs about 0.1 ms (measured 2026-12-04, session 10:
# at 2^15 lines of 64 or 128 ran 0.55-0.8x, at 2^16 0.7x to 4x, the timings of one
# call bimodal on the shared host; 2^17 is the first size that wins every shape).
MIN_SPLIT_SIZE = 1 << 17

# The callers' one size comparison: nothing smaller takes either path.
MIN_SIZE = min(MIN_SPLIT_SIZE, _four_step.MIN_LENGTH_POWER_OF_TWO)

_CPU = _core.Device("cpu")
_RESULT = {"float32": "complex64", "complex64": "complex64",
           "float64": "complex128", "complex128": "complex128"}


def c2c(a, inverse, s, axes, norm, out):
    """numpy.fft.fftn (ifftn) of `a` over `axes` (an int, a sequence or None) on two
    threads, or in four steps where `a` is one long line, or None where neither
    applies (the caller then makes its one C call, which also raises for bad
    axes)."""
    if not (s is None and out is None and isinstance(a, _core.ndarray)
            and a.dtype.name in _RESULT and a.device == _CPU):
        return None
    axes = _plain_axes(axes, a.ndim)
    if axes is None:
        return None
    if len(axes) == 1 and a.shape[axes[0]] == a.size:
        # Four steps whatever the thread count, so that results do not depend on it.
        return _four_step.c2c_line(a, inverse, norm, _RESULT[a.dtype.name], _pass)
    if not (_host_threads.ENABLED and a.ndim >= 2 and a.size >= MIN_SPLIT_SIZE):
        return None
    for ax in reversed(axes):
        a = _pass(a, inverse, ax, norm)
    return a


def _plain_axes(axes, nd):
    """axes as distinct ints in [0, nd), or None (also for no axes at all)."""
    if axes is None:
        return list(range(nd))
    try:
        axes = (axes,) if type(axes) is int else tuple(axes)
    except TypeError:
        return None
    plain = [ax % nd for ax in axes if type(ax) is int and -nd <= ax < nd]
    if not plain or len(plain) != len(axes) or len(set(plain)) != len(plain):
        return None
    return plain


def _pass(a, inverse, ax, norm, res=None):
    """One c2c pass along axis `ax` into `res` (None: a new array), the lines split
    between two threads where there are two."""
    cut = _host_threads.halves(a.shape, ax) if _host_threads.ENABLED else None
    if cut is None:
        return _fft(a, inverse, None, ax, norm, res)
    _, first, second = cut
    if res is None:
        res = _core.empty(a.shape, dtype=_RESULT[a.dtype.name], device=a.device)
    _host_threads.both(_fft, (a[first], inverse, None, ax, norm, res[first]),
                       (a[second], inverse, None, ax, norm, res[second]))
    return res
