"""bartlett, blackman, hamming, hanning, kaiser against NumPy's float64 values."""

import numpy as np
import pytest

import cuarray as ca
from conftest import requires_gpu

DEVICES = ["cpu", pytest.param("cuda:0", marks=requires_gpu)]
WINDOWS = ["bartlett", "blackman", "hamming", "hanning"]
SIZES = [-3, 0, 1, 2, 3, 5, 6, 16, 101, 7.0]


def close(got, want):
    assert isinstance(got, ca.ndarray)
    g = got.get()
    assert g.shape == want.shape and g.dtype == want.dtype == np.float64
    np.testing.assert_allclose(g, want, rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("name", WINDOWS)
@pytest.mark.parametrize("M", SIZES)
def test_window(name, M):
    close(getattr(ca, name)(M), getattr(np, name)(M))


@pytest.mark.parametrize("M", SIZES)
@pytest.mark.parametrize("beta", [0.0, 1.5, 8.6, 14])
def test_kaiser(M, beta):
    close(ca.kaiser(M, beta), np.kaiser(M, beta))


@pytest.mark.parametrize("name", WINDOWS)
def test_window_bad_input(name):
    for bad in ("abc", [1, 2]):
        with pytest.raises((TypeError, ValueError)) as want:
            getattr(np, name)(bad)
        with pytest.raises(want.type):
            getattr(ca, name)(bad)


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("name", WINDOWS + ["kaiser"])
def test_window_on_default_device(dev, name):
    # windows take no array, so they land on the current default device
    args = (9, 3.0) if name == "kaiser" else (9,)
    with ca.Device(dev):
        w = getattr(ca, name)(*args)
    assert w.device is ca.Device(dev)
    close(w, getattr(np, name)(*args))


def test_exported():
    for name in WINDOWS + ["kaiser"]:
        assert callable(getattr(ca, name))
