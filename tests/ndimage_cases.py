"""What tests/test_scipy_ndimage_*.py share: the route fixture's modules, the
call of one function on SciPy (NumPy data) and on cuarray (the same data on the
test's device), compared in shape, dtype and values, and SciPy's exceptions."""

import numpy as np
import pytest
import scipy.ndimage as nd

import cuarray as ca
import cuarray.scipy.ndimage as cn
from cuarray.scipy.ndimage import (_filters, _fourier, _interpolation, _measurements,
                                   _morphology)

from conftest import scipy_route

MODULES = (_filters, _fourier, _interpolation, _measurements, _morphology)
MODES = ["reflect", "constant", "nearest", "mirror", "wrap", "grid-constant",
         "grid-mirror", "grid-wrap"]


def route_of(request, monkeypatch, device):
    return scipy_route(request, monkeypatch, device, *MODULES)


def to_dev(v, device):
    if isinstance(v, np.ndarray):
        return ca.asarray(v, device=device)
    if isinstance(v, (list, tuple)) and any(isinstance(e, np.ndarray) for e in v):
        return type(v)(to_dev(e, device) for e in v)
    return v


def as_host(v):
    if isinstance(v, ca.ndarray):
        return v.get()
    if isinstance(v, (list, tuple)):
        return type(v)(as_host(e) for e in v)
    return v


def compare(got, want, rtol, atol, dtype=True):
    if isinstance(want, (tuple, list)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            compare(g, w, rtol, atol, dtype)
        return
    got = np.asarray(as_host(got))
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    if dtype:
        assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if want.dtype.kind in "fc":
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)
    else:
        np.testing.assert_array_equal(got, want)


def check(name, device, *args, rtol=1e-10, atol=1e-10, dtype=True, **kwargs):
    """cuarray.scipy.ndimage.<name> against scipy.ndimage.<name>."""
    want = getattr(nd, name)(*args, **kwargs)
    dargs = [to_dev(a, device) for a in args]
    dkw = {k: to_dev(v, device) for k, v in kwargs.items()}
    got = getattr(cn, name)(*dargs, **dkw)
    compare(got, want, rtol, atol, dtype)
    return got


def same_error(name, device, *args, **kwargs):
    """SciPy's exception type for the call, from cuarray too."""
    with pytest.raises(Exception) as want:
        getattr(nd, name)(*args, **kwargs)
    dargs = [to_dev(a, device) for a in args]
    dkw = {k: to_dev(v, device) for k, v in kwargs.items()}
    with pytest.raises(want.type):
        getattr(cn, name)(*dargs, **dkw)


def tol(dtype):
    """rtol/atol keywords for results of dtype."""
    t = 2e-5 if np.dtype(dtype) == np.float32 else 1e-9
    return {"rtol": t, "atol": t}
