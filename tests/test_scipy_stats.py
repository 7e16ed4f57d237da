"""cuarray.scipy.stats against scipy.stats on both devices: every axis, ddof,
nan_policy and keepdims form SciPy 1.17 has, the float dtypes (kept) and
integers (float64), NaNs, constant and empty slices, bad arguments."""

import warnings

import numpy as np
import pytest
import scipy.stats as ss

import cuarray as ca
import cuarray.scipy.stats as cs

from conftest import random_array

DTYPES = [np.float32, np.float64, np.int64, np.int8]
AXES = [0, 1, -1, None]
POLICIES = ["propagate", "omit"]


def every_form(test):
    """test(device, policy, axis, dtype, nan) over every nan_policy, axis, dtype and
    data with or without NaNs."""
    for name, values in (("policy", POLICIES), ("axis", AXES), ("dtype", DTYPES),
                         ("nan", [False, True])):
        test = pytest.mark.parametrize(name, values)(test)
    return test


def data(dtype, nan=False, shape=(4, 6), positive=False, seed=0):
    x = random_array(shape, dtype, np.random.default_rng(seed))
    if positive:
        x = np.abs(x) + (1 if np.dtype(dtype).kind in "iu" else 0.5)
    if nan:
        x = x.astype(np.result_type(x, np.float32))
        x[1, 2] = np.nan
        x[3, 0] = np.nan
    return x


def check(name, *args, rtol=None, **kw):
    """cuarray's name(*args, **kw) (NumPy arrays moved to the device given by
    kw['device']) against SciPy's: shape, dtype, values."""
    device = kw.pop("device")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = np.asarray(getattr(ss, name)(*args, **kw))
        got = getattr(cs, name)(*(ca.asarray(a, device=device) if isinstance(a, np.ndarray)
                                  else a for a in args), **kw)
    got = got.get()
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if rtol is None:
        rtol = 1e-4 if want.dtype == np.float32 else 1e-10
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)


@every_form
def test_zscore_zmap(device, policy, axis, dtype, nan):
    x = data(dtype, nan)
    for ddof in (0, 1):
        check("zscore", x, axis=axis, ddof=ddof, nan_policy=policy, device=device)
        check("zmap", x[::-1] * 2, x, axis=axis, ddof=ddof, nan_policy=policy,
              device=device)
    check("zmap", x[:, :1], x, axis=1, ddof=1, nan_policy=policy, device=device)


def test_zscore_edges(device):
    check("zscore", np.ones(5), device=device)               # constant: NaN
    check("zscore", np.array([1.0, 1.0, 2.0]), device=device)
    check("zscore", np.zeros((0, 3)), device=device)
    check("zscore", np.array([3.0]), device=device)
    check("zmap", np.array([1.0, 2.0]), np.array([1.0, 3.0, 5.0]), device=device)
    check("zscore", np.array([1 + 2j, 3 - 1j, 0.5j]), device=device)


@every_form
def test_entropy(device, policy, axis, dtype, nan):
    p = data(dtype, nan, positive=True)
    q = data(dtype, False, positive=True, seed=1)
    for kw in ({}, {"base": 2}, {"keepdims": True}):
        check("entropy", p, axis=axis, nan_policy=policy, device=device, **kw)
        check("entropy", p, q, axis=axis, nan_policy=policy, device=device, **kw)
    if axis is None:   # SciPy ravels each first: no broadcasting
        with pytest.raises(ValueError):
            cs.entropy(ca.asarray(p, device=device), ca.asarray(q[:1], device=device),
                       axis=None)
    else:
        check("entropy", p, q[:1], axis=axis, device=device)     # qk broadcasts


def test_entropy_edges(device):
    check("entropy", np.array([0.0, 1.0, 3.0]), device=device)     # a zero adds nothing
    check("entropy", np.array([1.0, 2.0]), np.array([0.0, 1.0]), device=device)  # inf
    check("entropy", np.array([-1.0, 2.0]), device=device)
    check("entropy", np.array([[0.2, 0.8]]), base=10, axis=1, device=device)
    with pytest.raises(ValueError):
        cs.entropy(ca.asarray(np.ones((2, 3)), device=device),
                   ca.asarray(np.ones((2, 4)), device=device))


@every_form
def test_trim_mean(device, policy, axis, dtype, nan):
    x = data(dtype, nan, shape=(5, 8))
    for p in (0, 0.1, 0.2, 0.25, 0.4, 0.5):
        check("trim_mean", x, p, axis=axis, nan_policy=policy, device=device)
    check("trim_mean", x, 0.2, axis=axis, nan_policy=policy, keepdims=True, device=device)


def test_trim_mean_errors(device):
    x = ca.asarray(np.arange(10.0), device=device)
    with pytest.raises(ValueError, match="Proportion too big"):
        ss.trim_mean(np.arange(10.0), 0.6)
    with pytest.raises(ValueError, match="Proportion too big"):
        cs.trim_mean(x, 0.6)
    check("trim_mean", np.arange(10), 0.1, device=device)


@every_form
def test_boxcox_llf(device, policy, axis, dtype, nan):
    x = data(dtype, nan, positive=True)
    for lmb in (0, 0.5, 1, -1.3, 2.5):
        check("boxcox_llf", lmb, x, axis=axis, nan_policy=policy, device=device,
              rtol=2e-3 if x.dtype == np.float32 else 1e-9)
    check("boxcox_llf", 0.7, x, axis=axis, keepdims=True, nan_policy=policy,
          device=device, rtol=2e-3 if x.dtype == np.float32 else 1e-9)


def test_boxcox_llf_edges(device):
    check("boxcox_llf", 1.0, np.array([1.0, 2.0, 3.0]), device=device)
    check("boxcox_llf", 0.5, np.array([-1.0, 2.0]), device=device)   # NaN: log of < 0


@pytest.mark.parametrize("fn, args", [("zscore", ()), ("entropy", ()),
                                      ("trim_mean", (0.1,))])
def test_nan_policy_raise(device, fn, args):
    x = np.array([1.0, np.nan, 2.0])
    with pytest.raises(ValueError):
        getattr(ss, fn)(x, *args, nan_policy="raise")
    with pytest.raises(ValueError):
        getattr(cs, fn)(ca.asarray(x, device=device), *args, nan_policy="raise")
    with pytest.raises(ValueError):
        getattr(cs, fn)(ca.asarray(x, device=device), *args, nan_policy="bad")
    with pytest.raises(ValueError):
        cs.boxcox_llf(1.0, ca.asarray(x, device=device), nan_policy="raise")
    # no NaN: 'raise' computes as 'propagate'
    check(fn, np.array([1.0, 4.0, 2.0, 3.0]), *args, nan_policy="raise", device=device)


def test_namespace():
    from test_scipy_linalg import shared_names
    import cuarray.scipy
    assert cuarray.scipy.stats is cs
    listed = shared_names("scipy.stats") or ["boxcox_llf", "entropy", "trim_mean", "zmap",
                                             "zscore"]
    assert sorted(cs.__all__) == sorted(listed)
