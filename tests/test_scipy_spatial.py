"""cuarray.scipy.spatial.distance_matrix against scipy.spatial's on both devices."""

import math

import numpy as np
import pytest
import scipy.spatial as sps

import cuarray as ca
import cuarray.scipy.spatial as cs

from conftest import random_array

P = [1, 2, 3, 0.5, -1.5, math.inf]
DTYPES = [np.float32, np.float64, np.int64, np.int8, np.bool_]


def check(x, y, device, **kw):
    want = sps.distance_matrix(x, y, **kw)
    got = cs.distance_matrix(ca.asarray(x, device=device), ca.asarray(y, device=device),
                             **kw).get()
    assert got.shape == want.shape and got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.filterwarnings("ignore:divide by zero:RuntimeWarning")   # p < 0, equal points
@pytest.mark.parametrize("p", P)
@pytest.mark.parametrize("dtype", DTYPES)
def test_distance_matrix(device, p, dtype):
    rng = np.random.default_rng(0)
    x, y = random_array((7, 3), dtype, rng), random_array((5, 3), dtype, rng)
    check(x, y, device, p=p)


@pytest.mark.parametrize("threshold", [1000000, 50, 1])
@pytest.mark.parametrize("p", [1, 2, math.inf])
def test_threshold_blocks(device, threshold, p):
    rng = np.random.default_rng(1)
    x, y = rng.random((30, 4)), rng.random((11, 4))
    check(x, y, device, p=p, threshold=threshold)
    check(y, x, device, p=p, threshold=threshold)


def test_shapes_and_errors(device):
    rng = np.random.default_rng(2)
    check(np.zeros((0, 3)), rng.random((4, 3)), device)
    check(rng.random((1, 1)), rng.random((1, 1)), device)
    x = ca.asarray(rng.random((3, 2)), device=device)
    with pytest.raises(ValueError, match="2-dimensional vectors but y contains 1"):
        cs.distance_matrix(x, ca.asarray(rng.random((4, 1)), device=device))
    with pytest.raises(ValueError):
        cs.distance_matrix(ca.asarray(rng.random(3), device=device), x)
    with pytest.raises(ZeroDivisionError):
        sps.distance_matrix(rng.random((3, 2)), rng.random((3, 2)), p=0)
    with pytest.raises(ZeroDivisionError):
        cs.distance_matrix(x, x, p=0)


def test_minkowski_distance(device):
    rng = np.random.default_rng(3)
    x, y = rng.random((4, 3)), rng.random((4, 3))
    for p in (1, 2, 2.5, math.inf):
        np.testing.assert_allclose(
            cs.minkowski_distance(ca.asarray(x, device=device),
                                  ca.asarray(y, device=device), p).get(),
            sps.minkowski_distance(x, y, p), rtol=1e-12)


def test_namespace():
    import cuarray.scipy
    assert cuarray.scipy.spatial is cs
    assert callable(cs.distance_matrix)
