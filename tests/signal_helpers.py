"""Shared checks of the cuarray.scipy.signal test files (test_scipy_signal_*.py)."""

import numpy as np
import pytest

import cuarray as ca
from cuarray.scipy.signal import (_lfilter, _peaks, _rank, _signaltools, _spectral,
                                  _splines, _upfirdn)

from conftest import ROUTES, scipy_route

# every module whose CPU_SCIPY flag the 'composition' route turns off (they call
# each other: decimate reaches upfirdn, the splines lfilter)
MODULES = (_lfilter, _peaks, _rank, _signaltools, _spectral, _splines, _upfirdn)


def signal_route(request, monkeypatch, device):
    return scipy_route(request, monkeypatch, device, *MODULES)


@pytest.fixture(params=ROUTES)
def route(request, monkeypatch, device):
    """The test files' route fixture (imported by name): 'scipy' and 'composition'."""
    return signal_route(request, monkeypatch, device)


def dev(a, device):
    return ca.asarray(np.asarray(a), device=device)


def tol(dtype, f64=1e-9, f32=2e-4):
    """rtol for a result dtype: the recurrences' and transforms' rounding (float64
    results to f64, float32/complex64 results to f32)."""
    return f32 if np.dtype(dtype) in (np.float32, np.complex64) else f64


def near(got, want, rtol=None, scale_atol=True):
    """got's shape and dtype are want's and its values are within rtol (default
    by dtype), with an absolute slack of rtol times want's largest magnitude
    (blocked sums round relative to the signal, not to each sample)."""
    g = got.get() if isinstance(got, ca.ndarray) else np.asarray(got)
    w = np.asarray(want)
    assert g.shape == w.shape, (g.shape, w.shape)
    assert g.dtype == w.dtype, (g.dtype, w.dtype)
    rtol = tol(w.dtype) if rtol is None else rtol
    if w.dtype.kind not in "fc":
        np.testing.assert_array_equal(g, w)
        return
    big = float(np.nanmax(np.abs(w))) if w.size else 0.0
    atol = rtol * max(big, 1.0) if scale_atol else rtol
    np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, equal_nan=True)


def near_all(got, want, rtol=None):
    """near() over tuples/lists (and dicts) of results."""
    if isinstance(want, dict):
        assert set(got) == set(want)
        for k in want:
            near(got[k], want[k], rtol)
    elif isinstance(want, (tuple, list)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            near_all(g, w, rtol)
    else:
        near(got, want, rtol)


def same_error(fn_ref, fn_got):
    """fn_got raises the exception type fn_ref (SciPy) raises."""
    with pytest.raises(Exception) as want:
        fn_ref()
    with pytest.raises(want.type):
        fn_got()
