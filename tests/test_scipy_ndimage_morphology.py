"""cuarray.scipy.ndimage's morphology and distance transform against SciPy:
binary (iterations, mask, border_value, origins), grey (size, footprint,
structure, modes), structuring elements, distance_transform_edt.

Tests that take `route` run twice on the cpu device: SciPy's own routine on views
('scipy') and the kernels' host loops ('composition', CPU_SCIPY off)."""

import numpy as np
import pytest
import scipy.ndimage as nd

import cuarray as ca
import cuarray.scipy.ndimage as cn

from conftest import ROUTES, random_array
from ndimage_cases import check, compare, route_of, same_error

BINARY = ["binary_erosion", "binary_dilation", "binary_opening", "binary_closing"]
GREY = ["grey_erosion", "grey_dilation", "grey_opening", "grey_closing",
        "morphological_gradient", "morphological_laplace", "white_tophat",
        "black_tophat"]


@pytest.fixture(params=ROUTES)
def route(request, monkeypatch, device):
    return route_of(request, monkeypatch, device)


def blobs(shape, p=0.6, seed=5):
    rng = np.random.default_rng(seed)
    return rng.random(shape) < p


def test_structures(device):
    for rank in range(0, 4):
        for conn in range(0, 4):
            compare(cn.generate_binary_structure(rank, conn),
                    nd.generate_binary_structure(rank, conn), 0, 0)
    s = nd.generate_binary_structure(2, 1)
    for it in (0, 1, 2, 3):
        compare(cn.iterate_structure(ca.asarray(s, device=device), it),
                nd.iterate_structure(s, it), 0, 0)
    got = cn.iterate_structure(s, 2, origin=(1, -1))
    want = nd.iterate_structure(s, 2, origin=(1, -1))
    compare(got[0], want[0], 0, 0)
    assert list(got[1]) == list(want[1])


@pytest.mark.parametrize("fn", BINARY)
@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, np.int32, np.float64])
def test_binary(route, device, fn, dtype):
    x = blobs((12, 11)).astype(dtype)
    check(fn, device, x)
    check(fn, device, x, structure=np.ones((2, 3), bool), iterations=2)
    s8 = nd.generate_binary_structure(2, 2)
    check(fn, device, x, structure=s8, border_value=1)
    check(fn, device, x, structure=np.array([[0, 1, 1], [1, 1, 0]], bool),
          origin=(0, -1))


@pytest.mark.parametrize("fn", ["binary_erosion", "binary_dilation"])
def test_binary_iterations_mask(route, device, fn):
    x = blobs((15, 14), 0.5)
    mask = blobs((15, 14), 0.7, seed=9)
    check(fn, device, x, iterations=0)
    check(fn, device, x, iterations=3, mask=mask)
    check(fn, device, x, iterations=-1, mask=mask, border_value=1)
    check(fn, device, blobs((6, 7, 5)), structure=nd.generate_binary_structure(3, 2))
    out = ca.zeros((15, 14), dtype=np.int16, device=device)
    getattr(cn, fn)(ca.asarray(x, device=device), output=out)
    compare(out, getattr(nd, fn)(x).astype(np.int16), 0, 0)


def test_hit_or_miss_propagation_fill(route, device):
    x = blobs((14, 13), 0.55)
    check("binary_hit_or_miss", device, x)
    check("binary_hit_or_miss", device, x, np.array([[0, 1, 0], [1, 1, 1]], bool),
          np.array([[1, 0, 1], [0, 0, 0]], bool), origin1=(0, 1), origin2=(-1, 0))
    check("binary_propagation", device, x, mask=blobs((14, 13), 0.7, seed=3))
    check("binary_fill_holes", device, x)
    check("binary_fill_holes", device, x, structure=np.ones((3, 3), bool))
    ring = np.zeros((7, 7), bool)
    ring[1:6, 1:6] = True
    ring[3, 3] = False
    check("binary_fill_holes", device, ring)


@pytest.mark.parametrize("fn", GREY)
@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.float32, np.float64])
@pytest.mark.parametrize("mode", ["reflect", "constant", "nearest", "mirror", "wrap"])
def test_grey(route, device, fn, dtype, mode):
    x = random_array((10, 9), dtype)
    check(fn, device, x, size=3, mode=mode, cval=2.0)
    check(fn, device, x, size=(2, 4), mode=mode)
    check(fn, device, x, footprint=np.array([[1, 0, 1], [1, 1, 0]], bool), mode=mode)
    check(fn, device, x, structure=np.array([[0.0, 1.0], [2.0, 1.0]]), mode=mode,
          origin=(0, -1))


def test_grey_bool_tophat(route, device):
    x = blobs((9, 9))
    check("white_tophat", device, x, size=3)
    check("black_tophat", device, x, size=(3, 2))


def test_morphology_errors(route, device):
    x = blobs((6, 6))
    same_error("binary_erosion", device, x, structure=np.ones((3,), bool))
    same_error("binary_erosion", device, x, mask=np.ones((3, 3), bool))
    same_error("binary_dilation", device, x.astype(complex))
    same_error("grey_erosion", device, x.astype(float))
    # an origin outside the structure: SciPy fails with an IndexError of its
    # internals; ours is the filters' ValueError
    with pytest.raises(ValueError if route == "composition" else IndexError):
        cn.binary_erosion(ca.asarray(x, device=device), np.ones((3, 3), bool), origin=2)


@pytest.mark.parametrize("shape", [(17,), (13, 15), (6, 7, 8)])
@pytest.mark.parametrize("sampling", [None, 1.5, "axes"])
def test_edt(route, device, shape, sampling):
    x = blobs(shape, 0.8, seed=len(shape))
    if sampling == "axes":
        sampling = [0.5 + i for i in range(len(shape))]
    check("distance_transform_edt", device, x, sampling=sampling)
    d, i = cn.distance_transform_edt(ca.asarray(x, device=device), sampling=sampling,
                                     return_indices=True)
    want = nd.distance_transform_edt(x, sampling=sampling)
    compare(d, want, 1e-12, 1e-12)
    i = i.get()
    assert i.dtype == np.int32 and i.shape == (len(shape),) + shape
    # the indices name a zero at exactly the distance
    assert not x[tuple(i)].any()
    h = np.ones(len(shape)) if sampling is None else \
        np.broadcast_to(np.asarray(sampling, float), (len(shape),))
    grid = np.indices(shape)
    dist = np.sqrt((((i - grid) * h.reshape((-1,) + (1,) * len(shape))) ** 2).sum(0))
    np.testing.assert_allclose(dist, want, rtol=1e-12, atol=1e-12)


def test_edt_outputs_and_errors(route, device):
    x = blobs((8, 9), 0.7)
    dist = ca.zeros((8, 9), device=device)
    idx = ca.zeros((2, 8, 9), dtype=np.int32, device=device)
    r = cn.distance_transform_edt(ca.asarray(x, device=device), return_indices=True,
                                  distances=dist, indices=idx)
    assert r is None
    compare(dist, nd.distance_transform_edt(x), 1e-12, 1e-12)
    same_error("distance_transform_edt", device, x, return_distances=False)
    same_error("distance_transform_edt", device, x, return_indices=True,
               indices=np.zeros((2, 8, 9), np.int64))
    same_error("distance_transform_edt", device, x, distances=np.zeros((8, 8)))
