"""cuarray.scipy.ndimage's Fourier filters against SciPy: complex FFTs (n = -1)
and real FFTs along an axis (n >= 0), per-axis parameters, output dtypes and
SciPy's exceptions.

Tests that take `route` run twice on the cpu device: SciPy's own routine on views
('scipy') and the compositions ('composition', CPU_SCIPY off)."""

import numpy as np
import pytest

from conftest import ROUTES, random_array
from ndimage_cases import check, route_of, same_error

FNS = ["fourier_gaussian", "fourier_uniform", "fourier_shift", "fourier_ellipsoid"]
TOL = {"rtol": 1e-9, "atol": 1e-9}


@pytest.fixture(params=ROUTES)
def route(request, monkeypatch, device):
    return route_of(request, monkeypatch, device)


@pytest.mark.parametrize("fn", FNS)
@pytest.mark.parametrize("shape", [(16,), (9, 12), (5, 6, 7)])
def test_complex_fft(route, device, fn, shape):
    x = np.fft.fftn(random_array(shape, np.float64))
    check(fn, device, x, 1.7, **TOL)
    check(fn, device, x, [0.5 + i for i in range(len(shape))], **TOL)
    check(fn, device, x.astype(np.complex64), 2.0, rtol=2e-5, atol=2e-4)


@pytest.mark.parametrize("fn", FNS)
@pytest.mark.parametrize("axis", [0, -1])
def test_real_fft(route, device, fn, axis):
    x = random_array((10, 13), np.float64)
    n = x.shape[axis]
    fx = np.fft.rfft(x, axis=axis)
    fx = np.fft.fft(fx, axis=1 - (axis % 2))
    check(fn, device, fx, 2.5, n=n, axis=axis, **TOL)


@pytest.mark.parametrize("fn", ["fourier_gaussian", "fourier_uniform",
                                "fourier_ellipsoid"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_real_inputs(route, device, fn, dtype):
    x = random_array((8, 9), dtype)
    t = {"rtol": 2e-5, "atol": 2e-4} if dtype == np.float32 else TOL
    check(fn, device, x, 1.5, **t)
    check(fn, device, x, 1.5, output=np.complex128, **t)


def test_shift_real_input(route, device):
    check("fourier_shift", device, random_array((8, 6), np.float32), (1.0, 2.5),
          rtol=2e-5, atol=2e-4)


def test_errors(route, device):
    x = np.fft.fftn(random_array((6, 6), np.float64))
    same_error("fourier_shift", device, x, 1.0, output=np.float64)
    same_error("fourier_gaussian", device, x, 1.0, output=np.int32)
    same_error("fourier_ellipsoid", device, np.zeros((2, 2, 2, 2), complex), 1.0)
    same_error("fourier_gaussian", device, x, [1.0, 2.0, 3.0])
