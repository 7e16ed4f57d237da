"""Window functions: bartlett, blackman, hamming, hanning, kaiser, as NumPy's.

Each is built on the default device from arange and element-wise cos, with
NumPy's formulas (numpy/lib/_function_base_impl.py) term for term, so the
results agree with NumPy's float64 ones to a few ulp. kaiser needs the modified
Bessel function I0, which cuarray has no kernel for: its argument vector depends
only on (M, beta), so NumPy computes the window on the host and it arrives in
one transfer.
"""

import sys as _sys

import numpy as _np

# the package namespace (element-wise functions live in _ufuncs, reductions and
# shapes in _core); names are looked up at call time, so __init__'s order of
# imports does not matter
_ca = _sys.modules[__package__]

__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser"]


def _n(M):
    """NumPy's window preamble: M as a float, the empty and one-point windows
    (returned as arrays), else None and the symmetric index n = 1-M, 3-M, ..."""
    # NumPy takes M through np.array([0.0, M]), so a float M works and a
    # non-number raises its TypeError/ValueError
    M = _np.array([0.0, M])[1]
    if M < 1:
        return M, _ca.asarray(_np.array([], dtype=_np.float64))
    if M == 1:
        return M, _ca.ones((1,), dtype=_np.float64)
    return M, None


def _sym(M):
    return _ca.arange(1 - M, M, 2, dtype=_np.float64)


def _window(M, formula):
    """formula(n, M) over the symmetric sample points n of M (NumPy's results for
    M <= 1)."""
    M, early = _n(M)
    if early is not None:
        return early
    return formula(_sym(M), M)


def bartlett(M):
    """bartlett(M)

    The Bartlett (triangular) window of M points (numpy.bartlett).
    """
    return _window(M, lambda n, M: _ca.where(n <= 0, 1 + n / (M - 1), 1 - n / (M - 1)))


def blackman(M):
    """blackman(M)

    The Blackman window of M points (numpy.blackman).
    """
    return _window(M, lambda n, M: (0.42 + 0.5 * _ca.cos(_np.pi * n / (M - 1))
                                    + 0.08 * _ca.cos(2.0 * _np.pi * n / (M - 1))))


def hamming(M):
    """hamming(M)

    The Hamming window of M points (numpy.hamming).
    """
    return _window(M, lambda n, M: 0.54 + 0.46 * _ca.cos(_np.pi * n / (M - 1)))


def hanning(M):
    """hanning(M)

    The Hann window of M points (numpy.hanning).
    """
    return _window(M, lambda n, M: 0.5 + 0.5 * _ca.cos(_np.pi * n / (M - 1)))


def kaiser(M, beta):
    """kaiser(M, beta)

    The Kaiser window of M points and shape beta (numpy.kaiser). Computed by
    NumPy on the host (I0 has no cuarray kernel; the window depends only on M and
    beta) and moved to the default device in one transfer: NumPy's values exactly.
    """
    return _ca.asarray(_np.kaiser(M, beta))


