"""cuarray.testing: the assertions accept cuarray and NumPy arrays and fail as NumPy's."""

import warnings

import numpy as np
import pytest

import cuarray as ca
import cuarray.testing as cat

PAIRS = ["ca-ca", "ca-np", "np-ca", "np-np"]


def _pair(kind, a, b, device):
    x = ca.asarray(a, device=device) if kind[:2] == "ca" else a
    y = ca.asarray(b, device=device) if kind[-2:] == "ca" else b
    return x, y


@pytest.mark.parametrize("kind", PAIRS)
def test_assert_allclose(device, kind):
    a = np.array([1.0, 2.0, np.nan])
    x, y = _pair(kind, a, a + 1e-9, device)
    cat.assert_allclose(x, y, rtol=1e-7)
    x, y = _pair(kind, a, a + 1e-3, device)
    with pytest.raises(AssertionError, match="Not equal to tolerance"):
        cat.assert_allclose(x, y)
    cat.assert_allclose(x, y, atol=1e-2)
    x, y = _pair(kind, a, a, device)
    with pytest.raises(AssertionError):
        cat.assert_allclose(x, y, equal_nan=False)


@pytest.mark.parametrize("kind", PAIRS)
def test_assert_array_equal(device, kind):
    a = np.arange(6).reshape(2, 3)
    x, y = _pair(kind, a, a.copy(), device)
    cat.assert_array_equal(x, y)
    b = a.copy()
    b[1, 2] = 9
    x, y = _pair(kind, a, b, device)
    with pytest.raises(AssertionError, match="Mismatched elements: 1 / 6"):
        cat.assert_array_equal(x, y, err_msg="here")
    x, y = _pair(kind, a, a.astype(np.float32), device)
    cat.assert_array_equal(x, y)
    with pytest.raises(AssertionError):
        cat.assert_array_equal(x, y, strict=True)
    x, y = _pair(kind, a, a[:1], device)
    with pytest.raises(AssertionError, match="shape"):
        cat.assert_array_equal(x, y)


@pytest.mark.parametrize("kind", PAIRS)
def test_assert_array_almost_equal(device, kind):
    a = np.array([1.0, 2.0])
    x, y = _pair(kind, a, a + 1e-8, device)
    cat.assert_array_almost_equal(x, y)
    x, y = _pair(kind, a, a + 1e-4, device)
    with pytest.raises(AssertionError):
        cat.assert_array_almost_equal(x, y, decimal=6)
    cat.assert_array_almost_equal(x, y, decimal=3)


@pytest.mark.parametrize("kind", PAIRS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_assert_nulp_and_ulp(device, kind, dtype):
    a = np.array([1.0, 10.0, 1e-3], dtype=dtype)
    b = np.nextafter(a, np.array(np.inf, dtype=dtype))
    x, y = _pair(kind, a, b, device)
    cat.assert_array_almost_equal_nulp(x, y, nulp=1)
    ulps = cat.assert_array_max_ulp(x, y, maxulp=1)
    np.testing.assert_array_equal(ulps, np.testing.assert_array_max_ulp(a, b, maxulp=1))
    c = np.nextafter(b, np.array(np.inf, dtype=dtype))
    c = np.nextafter(c, np.array(np.inf, dtype=dtype))
    x, y = _pair(kind, a, c, device)
    with pytest.raises(AssertionError):
        cat.assert_array_almost_equal_nulp(x, y, nulp=1)
    with pytest.raises(AssertionError):
        cat.assert_array_max_ulp(x, y, maxulp=2)


@pytest.mark.parametrize("kind", PAIRS)
def test_assert_array_less(device, kind):
    x, y = _pair(kind, np.array([1, 2]), np.array([2, 3]), device)
    cat.assert_array_less(x, y)
    with pytest.raises(AssertionError, match="strictly ordered"):
        cat.assert_array_less(y, x)


def test_assert_equal_almost_equal_list(device):
    x = ca.arange(3, device=device)
    cat.assert_equal(x, np.arange(3))
    with pytest.raises(AssertionError):
        cat.assert_equal(x, np.arange(1, 4))
    cat.assert_almost_equal(ca.asarray(1.0000001, device=device), 1.0)
    cat.assert_array_list_equal([x, x + 1], [np.arange(3), np.arange(1, 4)])
    with pytest.raises(AssertionError):
        cat.assert_array_list_equal([x], [np.arange(3), np.arange(3)])
    with pytest.raises(AssertionError):
        cat.assert_array_list_equal([x], [np.arange(1, 4)])


def test_assert_warns():
    def warn(v):
        warnings.warn("w", UserWarning)
        return v

    assert cat.assert_warns(UserWarning, warn, 5) == 5
    with pytest.raises(AssertionError):
        cat.assert_warns(DeprecationWarning, warn, 5)
    with cat.assert_warns(UserWarning):
        warn(1)
    with pytest.raises(AssertionError):
        with cat.assert_warns(UserWarning):
            pass
    # no NumPy deprecation warning of its own
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        with cat.assert_warns(RuntimeWarning):
            warnings.warn("r", RuntimeWarning)


def test_assert_raises():
    with cat.assert_raises(ValueError):
        ca.zeros(-1)


def test_namespace():
    assert ca.testing is cat
    for name in cat.__all__:
        assert callable(getattr(cat, name))
