"""cuarray.scipy.ndimage's measurements against SciPy: label (structures,
numbering, output forms), find_objects, value_indices and the statistics by
label with index None / scalar / sequence, dtypes and SciPy's exceptions.

Tests that take `route` run twice on the cpu device: SciPy's own routine on views
('scipy') and the compositions over the kernels ('composition', CPU_SCIPY off)."""

import numpy as np
import pytest
import scipy.ndimage as nd

import cuarray as ca
import cuarray.scipy.ndimage as cn

from conftest import ROUTES, random_array
from ndimage_cases import check, compare, route_of, same_error

STATS = ["sum", "sum_labels", "mean", "variance", "standard_deviation", "minimum",
         "maximum", "median"]
POSITIONS = ["minimum_position", "maximum_position", "extrema", "center_of_mass"]


@pytest.fixture(params=ROUTES)
def route(request, monkeypatch, device):
    return route_of(request, monkeypatch, device)


def mask(shape, p=0.55, seed=2):
    return np.random.default_rng(seed).random(shape) < p


@pytest.mark.parametrize("shape", [(40,), (23, 31), (9, 10, 11)])
@pytest.mark.parametrize("conn", [1, 2, 3])
def test_label(route, device, shape, conn):
    if conn > len(shape):
        pytest.skip("connectivity above the rank is the full structure")
    x = mask(shape)
    st = nd.generate_binary_structure(len(shape), conn)
    check("label", device, x, st)
    check("label", device, x.astype(np.int32) * 7)


def test_label_forms(route, device):
    x = mask((12, 13))
    out = ca.zeros((12, 13), dtype=np.int64, device=device)
    n = cn.label(ca.asarray(x, device=device), output=out)
    lab, want_n = nd.label(x)
    assert n == want_n
    compare(out, lab.astype(np.int64), 0, 0)
    check("label", device, x, output=np.int16)
    check("label", device, np.array(3.0))
    check("label", device, np.array(0))
    check("label", device, np.zeros((0, 4)))
    check("label", device, np.ones((1, 1)))
    same_error("label", device, x, np.ones((3, 3, 3)))
    same_error("label", device, x, np.ones((3, 2)))
    same_error("label", device, x.astype(complex))


@pytest.mark.parametrize("fn", STATS)
@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.float32, np.float64])
def test_stats(route, device, fn, dtype):
    x = random_array((13, 12), dtype)
    lab, n = nd.label(mask((13, 12)))
    t = {"rtol": 1e-5 if dtype == np.float32 else 1e-10, "atol": 1e-6, "dtype": False}
    check(fn, device, x, **t)
    check(fn, device, x, lab, **t)
    check(fn, device, x, lab, 2, **t)
    # an absent label: 0 (SciPy's median gives an arbitrary element there)
    check(fn, device, x, lab, [3, 1, 4, 1] + ([] if fn == "median" else [n + 5]), **t)
    check(fn, device, x, lab, np.arange(n + 1), **t)


@pytest.mark.parametrize("fn", POSITIONS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_positions(route, device, fn, dtype):
    x = random_array((11, 9), dtype)
    lab, n = nd.label(mask((11, 9)))
    t = {"rtol": 1e-5 if dtype == np.float32 else 1e-10, "atol": 1e-10,
         "dtype": False}
    check(fn, device, x, **t)
    check(fn, device, x, lab, **t)
    check(fn, device, x, lab, 3, **t)
    check(fn, device, x, lab, [2, 1, n], **t)


@pytest.mark.parametrize("dtype", [np.uint8, np.int32])
def test_tied_positions(route, device, dtype):
    # ties: SciPy's pick follows its unstable sort; ours is at a tied extreme
    x = random_array((11, 9), dtype)
    lab, n = nd.label(mask((11, 9)))
    for fn, ext in (("minimum_position", "minimum"), ("maximum_position", "maximum")):
        got = getattr(cn, fn)(ca.asarray(x, device=device),
                              ca.asarray(lab, device=device), list(range(1, n + 1)))
        want = getattr(nd, ext)(x, lab, list(range(1, n + 1)))
        assert [x[p] for p in got] == list(want)
        assert [lab[p] for p in got] == list(range(1, n + 1))


def test_histogram(route, device):
    x = random_array((10, 11), np.float64)
    lab, n = nd.label(mask((10, 11)))
    check("histogram", device, x, -20, 20, 8)
    check("histogram", device, x, -10, 10, 5, lab, 2)
    want = nd.histogram(x, -10, 10, 5, lab, [1, 3])
    got = cn.histogram(ca.asarray(x, device=device), -10, 10, 5,
                       ca.asarray(lab, device=device), [1, 3])
    for g, w in zip(got, want):
        compare(g, w, 0, 0, dtype=False)


def test_find_objects_value_indices(route, device):
    lab, n = nd.label(mask((15, 14)))
    lab[lab == 3] = 0
    for ml in (0, 2, n + 2):
        assert cn.find_objects(ca.asarray(lab, device=device), ml) == \
            nd.find_objects(lab, ml)
    x = random_array((7, 8), np.int16) % 4
    want = nd.value_indices(x)
    got = cn.value_indices(ca.asarray(x, device=device))
    assert sorted(got) == sorted(want)
    for k in want:
        compare(got[k], want[k], 0, 0, dtype=False)
    got = cn.value_indices(ca.asarray(x, device=device), ignore_value=0)
    assert sorted(got) == sorted(nd.value_indices(x, ignore_value=0))


def test_labeled_comprehension(device):
    x = random_array((8, 9), np.float64)
    lab, n = nd.label(mask((8, 9)))
    want = nd.labeled_comprehension(x, lab, [1, 2, 3], np.ptp, float, -1)
    got = cn.labeled_comprehension(ca.asarray(x, device=device),
                                   ca.asarray(lab, device=device), [1, 2, 3], np.ptp,
                                   float, -1)
    compare(got, want, 1e-12, 1e-12)
