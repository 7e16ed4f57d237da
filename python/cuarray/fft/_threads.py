"""Large complex transforms of the cpu device on two host threads.

A transform along one axis is independent line by line, and numpy.fft's gufunc
transforms each line on its own: the lines of one half of another axis on the
worker thread and the other half here give numpy.fft's result bit for bit, in
about half the time on two cores. A transform over several axes is numpy.fftn's
own sequence of one-axis passes (the last axis first, each with the same norm),
each pass split that way.

Only complex-to-complex transforms without ``s``/``n`` or ``out`` of float32,
float64, complex64 and complex128 arrays of at least MIN_SIZE elements split;
everything else is one call of ``_core._fft`` as before.
"""

from .. import _core, _host_threads
from .._core import _fft

# Elements from which two threads beat one on this project's 2-core host
# (measured: see benchmarks/results/cpu-2026-12-04-s10-*.md and the commit).
MIN_SIZE = 1 << 15

_CPU = _core.Device("cpu")
_RESULT = {"float32": "complex64", "complex64": "complex64",
           "float64": "complex128", "complex128": "complex128"}


def wanted(a, n, out):
    """Whether a c2c transform of `a` splits (cheap tests first: small calls pay
    two comparisons)."""
    return (n is None and out is None and getattr(a, "size", 0) >= MIN_SIZE
            and _host_threads.ENABLED and isinstance(a, _core.ndarray) and a.ndim >= 2
            and a.dtype.name in _RESULT and a.device == _CPU)


def c2c(a, inverse, axes, norm):
    """numpy.fft.fftn (ifftn) of `a` over `axes` (an int or a sequence), or None
    where the axes are not plain distinct ints in range (the C path then raises or
    handles them)."""
    nd = a.ndim
    if axes is None:
        axes = tuple(range(nd))
    elif type(axes) is int:
        axes = (axes,)
    try:
        norm_axes = [ax % nd for ax in axes if type(ax) is int and -nd <= ax < nd]
    except TypeError:
        return None
    if not norm_axes or len(norm_axes) != len(axes) or len(set(norm_axes)) != len(axes):
        return None
    for ax in reversed(norm_axes):
        a = _pass(a, inverse, ax, norm)
    return a


def _pass(a, inverse, ax, norm):
    """One c2c pass along axis `ax`, the lines split between two threads."""
    cut = _host_threads.halves(a.shape, ax)
    if cut is None:
        return _fft(a, inverse, None, ax, norm, None)
    _, first, second = cut
    res = _core.empty(a.shape, dtype=_RESULT[a.dtype.name], device=a.device)
    _host_threads.both(_fft, (a[first], inverse, None, ax, norm, res[first]),
                       (a[second], inverse, None, ax, norm, res[second]))
    return res
