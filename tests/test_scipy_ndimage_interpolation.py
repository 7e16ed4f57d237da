"""cuarray.scipy.ndimage's interpolation against SciPy: spline_filter(1d),
map_coordinates, affine_transform, shift, zoom and rotate for every order, every
mode, dtypes (integer outputs round as SciPy's), edges and SciPy's exceptions.

Tests that take `route` run twice on the cpu device: SciPy's own routine on views
('scipy') and the kernels' host loops ('composition', CPU_SCIPY off)."""

import numpy as np
import pytest
import scipy

import cuarray as ca
import cuarray.scipy.ndimage as cn

from conftest import ROUTES, random_array
from ndimage_cases import MODES, check, route_of, same_error

ORDERS = [0, 1, 2, 3, 4, 5]
TOL = {"rtol": 1e-8, "atol": 1e-8}

# SciPy before 1.18 summed the causal start of the reflect-form prefilter (reflect,
# nearest, grid-mirror) into c[0] while its last term read c[0] (scipy/scipy#24615):
# off by about z^(2n), up to 1e-4 here on lines of 7 to 9 at order 5. cuarray
# computes the exact start, as 1.18 does; an older SciPy's answer is only that close.
OLD_REFLECT = tuple(int(v) for v in scipy.__version__.split(".")[:2]) < (1, 18)


def tol_for(mode, order):
    if OLD_REFLECT and mode in ("reflect", "nearest", "grid-mirror") and order >= 2:
        return {"rtol": 1e-5, "atol": 1e-3}
    return TOL


@pytest.fixture(params=ROUTES)
def route(request, monkeypatch, device):
    return route_of(request, monkeypatch, device)


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("mode", MODES)
def test_spline_filter(route, device, order, mode):
    x = random_array((9, 8), np.float64)
    check("spline_filter1d", device, x, order=order, axis=0, mode=mode,
          **tol_for(mode, order))
    if order > 1:
        check("spline_filter", device, x, order=order, mode=mode, **tol_for(mode, order))
        check("spline_filter", device, x.astype(np.float32), order=order, mode=mode,
              output=np.float32, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("mode", MODES)
def test_map_coordinates(route, device, order, mode):
    x = random_array((7, 8), np.float64)
    rng = np.random.default_rng(order)
    c = rng.uniform(-4, 11, size=(2, 5, 6))
    c[:, 0, :3] = [[0, 6, 3], [0, 7, 2]]     # nodes, edges
    check("map_coordinates", device, x, c, order=order, mode=mode, cval=1.5,
          **tol_for(mode, order))
    if order > 1:
        check("map_coordinates", device, x, c, order=order, mode=mode, prefilter=False,
              **TOL)


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.int32, np.float32])
def test_map_coordinates_dtypes(route, device, dtype):
    x = random_array((6, 6), dtype)
    c = np.random.default_rng(1).uniform(0, 5, size=(2, 40))
    check("map_coordinates", device, x, c, order=1, rtol=1e-5, atol=1e-4)
    check("map_coordinates", device, x, c, order=3, output=np.float64, rtol=1e-5,
          atol=1e-4)


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("mode", MODES)
def test_affine_shift_zoom(route, device, order, mode):
    x = random_array((8, 9), np.float64)
    m = np.array([[0.9, 0.2], [-0.15, 1.1]])
    t = tol_for(mode, order)
    check("affine_transform", device, x, m, offset=(0.5, -1.2), order=order, mode=mode, **t)
    check("affine_transform", device, x, np.array([1.2, 0.8]), offset=0.3,
          output_shape=(6, 11), order=order, mode=mode, **t)
    check("shift", device, x, (1.3, -2.7), order=order, mode=mode, cval=-1.0, **t)
    check("zoom", device, x, (1.6, 0.7), order=order, mode=mode, **t)
    check("zoom", device, x, 2.0, order=order, mode=mode, grid_mode=True, **t)


@pytest.mark.parametrize("order", [0, 1, 3])
@pytest.mark.parametrize("reshape", [True, False])
def test_rotate(route, device, order, reshape):
    x = random_array((9, 7), np.float64)
    for angle in (30, 90, -135.5):
        check("rotate", device, x, angle, reshape=reshape, order=order, **TOL)
    x3 = random_array((5, 6, 4), np.float64)
    check("rotate", device, x3, 20, axes=(2, 0), reshape=reshape, order=order,
          mode="nearest", rtol=1e-7, atol=1e-7)


def test_homogeneous_matrix(route, device):
    x = random_array((6, 7), np.float64)
    m = np.array([[1.0, 0.1, 0.5], [0.2, 0.9, -1.0], [0, 0, 1]])
    check("affine_transform", device, x, m, order=1, **TOL)
    check("affine_transform", device, x, m[:2], order=3, **TOL)


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int32, np.float32])
def test_integer_rounding(route, device, dtype):
    x = random_array((10, 10), dtype)
    check("shift", device, x, 0.5, order=1, rtol=1e-6, atol=1e-5)
    check("zoom", device, x, 1.5, order=3, rtol=1e-6, atol=1e-4)
    check("rotate", device, x, 33, order=2, rtol=1e-6, atol=1e-4)


def test_complex(route, device):
    x = random_array((6, 7), np.complex128)
    check("shift", device, x, 0.5, order=3, **TOL)
    check("zoom", device, x, 1.5, order=1, cval=1 + 2j, **TOL)


def test_edges(route, device):
    check("zoom", device, random_array((1, 5), np.float64), 2.0, **TOL)
    check("shift", device, random_array((1,), np.float64), 0.3, mode="nearest", **TOL)
    check("map_coordinates", device, random_array((4,), np.float64),
          np.array([[0.5, 1.5]]), order=1, **TOL)
    check("zoom", device, random_array((0, 3), np.float64), 2.0, **TOL)
    check("spline_filter", device, random_array((1, 5), np.float64), **TOL)


def test_errors(route, device):
    x = random_array((5, 6), np.float64)
    same_error("map_coordinates", device, x, np.zeros((3, 4)))
    same_error("map_coordinates", device, x, np.zeros((2, 4)), order=6)
    same_error("map_coordinates", device, x, np.zeros((2, 4)), mode="bogus")
    same_error("spline_filter", device, x, order=1)
    same_error("affine_transform", device, x, np.ones((3, 3)))
    same_error("zoom", device, np.float64(1.0), 2.0)
    same_error("rotate", device, np.arange(4.0), 10)
    same_error("rotate", device, x, 10, axes=(0, 3))
    same_error("map_coordinates", device, x, np.zeros((2, 2), complex))
