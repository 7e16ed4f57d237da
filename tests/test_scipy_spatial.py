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


# ---- KDTree (brute force on the device) and Delaunay (Qhull on the host) ----

@pytest.mark.parametrize("p", [1, 2, 3.5, math.inf])
@pytest.mark.parametrize("k", [1, 3, [1, 4], [2], 70])
def test_kdtree_query(device, p, k):
    rng = np.random.default_rng(4)
    data, x = rng.random((50, 3)), rng.random((4, 5, 3))
    want = sps.KDTree(data).query(x, k=k, p=p)
    got = cs.KDTree(ca.asarray(data, device=device)).query(ca.asarray(x, device=device),
                                                          k=k, p=p)
    for g, w in zip(got, want):
        g = g.get()
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype)
        np.testing.assert_allclose(g, w, rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.float64])
def test_kdtree_shapes_bounds_dtypes(device, dtype, monkeypatch):
    from cuarray.scipy.spatial import _kdtree
    monkeypatch.setattr(_kdtree, "TILE", 64)        # many distance tiles
    rng = np.random.default_rng(5)
    data = (rng.random((40, 2)) * 20).astype(dtype)
    x = (rng.random((9, 2)) * 20).astype(dtype)
    T, G = sps.KDTree(data), cs.KDTree(ca.asarray(data, device=device))
    for kw in [dict(k=2, distance_upper_bound=3.0), dict(k=1), dict(k=5, p=1,
                                                                   distance_upper_bound=8)]:
        for pts in (x, x[0]):
            w = T.query(pts, **kw)
            g = G.query(ca.asarray(pts, device=device), **kw)
            np.testing.assert_allclose(g[0].get(), w[0], rtol=1e-6)
            # integer coordinates tie: the indices must name points at the distances
            gi = g[1].get()
            found = gi < len(data)
            p = kw.get("p", 2)
            d = np.linalg.norm(data[np.where(found, gi, 0)].astype(float)
                               - np.asarray(pts, float)[..., None, :] if gi.ndim > (pts.ndim - 1)
                               else data[np.where(found, gi, 0)].astype(float) - pts,
                               ord=p, axis=-1)
            np.testing.assert_allclose(np.where(found, d, np.inf), w[0], rtol=1e-6)
            np.testing.assert_array_equal(found, w[1] < len(data))
    assert G.n == T.n and G.m == T.m
    np.testing.assert_allclose(G.maxes.get(), T.maxes)
    np.testing.assert_allclose(G.mins.get(), T.mins)


def test_kdtree_ball_point_and_errors(device):
    rng = np.random.default_rng(6)
    data, x = rng.random((60, 2)), rng.random((3, 4, 2))
    T, G = sps.KDTree(data), cs.KDTree(ca.asarray(data, device=device))
    for p in (1, 2, math.inf):
        w = T.query_ball_point(x, 0.2, p=p)
        g = G.query_ball_point(ca.asarray(x, device=device), 0.2, p=p)
        # SciPy leaves a batch's lists in tree order (return_sorted=None); ours are sorted
        assert g.shape == w.shape
        assert [sorted(v) for v in g.ravel()] == [sorted(v) for v in w.ravel()]
        assert G.query_ball_point(ca.asarray(x[0, 0], device=device), 0.3, p=p) == \
            sorted(T.query_ball_point(x[0, 0], 0.3, p=p))
        np.testing.assert_array_equal(
            G.query_ball_point(ca.asarray(x, device=device), 0.2, p=p,
                               return_length=True).get(),
            T.query_ball_point(x, 0.2, p=p, return_length=True))
    r = rng.random((3, 4)) * 0.3
    assert [sorted(v) for v in G.query_ball_point(ca.asarray(x, device=device), r).ravel()] \
        == [sorted(v) for v in T.query_ball_point(x, r).ravel()]
    xd = ca.asarray(x, device=device)
    for kw in [dict(k=0), dict(p=0.5)]:
        with pytest.raises(ValueError):
            T.query(x, **kw)
        with pytest.raises(ValueError):
            G.query(xd, **kw)
    with pytest.raises(ValueError):
        T.query(rng.random(3))
    with pytest.raises(ValueError):
        G.query(ca.asarray(rng.random(3), device=device))
    with pytest.raises(ValueError):
        sps.KDTree(np.array([[0.0, np.nan]]))
    with pytest.raises(ValueError):
        cs.KDTree(ca.asarray(np.array([[0.0, np.nan]]), device=device))
    assert cs.cKDTree is cs.KDTree


def test_delaunay(device):
    rng = np.random.default_rng(7)
    pts = rng.random((40, 2))
    S, D = sps.Delaunay(pts), cs.Delaunay(ca.asarray(pts, device=device))
    for name in ("points", "simplices", "neighbors", "equations", "transform",
                 "convex_hull", "vertex_to_simplex", "coplanar"):
        got, want = getattr(D, name), getattr(S, name)
        assert isinstance(got, ca.ndarray) and got.device == ca.asarray(
            0, device=device).device
        np.testing.assert_array_equal(got.get(), want)
    assert D.nsimplex == S.nsimplex and D.ndim == S.ndim and D.npoints == S.npoints
    for a, b in zip(D.vertex_neighbor_vertices, S.vertex_neighbor_vertices):
        np.testing.assert_array_equal(a.get(), b)
    xi = rng.uniform(-0.2, 1.2, (30, 2))
    np.testing.assert_array_equal(D.find_simplex(ca.asarray(xi, device=device)).get(),
                                  S.find_simplex(xi))
    np.testing.assert_allclose(D.plane_distance(ca.asarray(xi[0], device=device)).get(),
                               S.plane_distance(xi[0]))
    np.testing.assert_allclose(D.lift_points(ca.asarray(xi, device=device)).get(),
                               S.lift_points(xi))
    with pytest.raises(Exception):
        sps.Delaunay(np.zeros((2, 2)))
    with pytest.raises(Exception):
        cs.Delaunay(ca.asarray(np.zeros((2, 2)), device=device))
