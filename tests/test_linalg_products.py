"""Norms, chains and the product functions of python/cuarray/_linalg_products.py
against NumPy on both devices: linalg.norm (every ord, axis, keepdims),
vector_norm, matrix_norm, multi_dot, matrix_power, kron, cross, vecdot, trace,
diagonal, matrix_transpose, linalg.outer / tensordot."""

import warnings

import numpy as np
import pytest

import cuarray as ca
from cuarray import _linalg_products as lp

from conftest import random_array

FLOAT_TYPES = [np.float32, np.float64, np.complex64, np.complex128]
NORM_TYPES = FLOAT_TYPES + [np.float16, np.int32, np.int64, np.uint8, np.bool_]


def wide(x):
    return x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)


def rtol_of(dtype):
    dt = np.dtype(dtype)
    if dt.kind in "fc":
        return {2: 4e-3, 4: 2e-6, 8: 1e-13}[np.finfo(dt).bits // 8 if dt.kind == "f"
                                             else np.finfo(dt).bits // 8]
    return 1e-13


def close(got, want, dtype, rtol=None):
    g = got.get() if isinstance(got, ca.ndarray) else np.asarray(got)
    want = np.asarray(want)
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    assert g.shape == want.shape, (g.shape, want.shape)
    np.testing.assert_allclose(g, want, rtol=rtol or rtol_of(dtype), atol=0,
                               equal_nan=True)


def has(name):
    return getattr(ca.linalg, name, None) is not None


# ---------------------------------------------------------------- norm

VECTOR_ORDS = [None, 2, 1, -1, np.inf, -np.inf, 0, 3, 0.5, -2, 2.5]
MATRIX_ORDS = [None, "fro", "f", 1, -1, np.inf, -np.inf]
SVD_ORDS = ["nuc", 2, -2]


@pytest.mark.parametrize("dtype", NORM_TYPES, ids=lambda t: np.dtype(t).name)
def test_norm_vectors(device, dtype):
    rng = np.random.default_rng(np.dtype(dtype).num)
    h = random_array((37,), dtype, rng)
    a = ca.asarray(h, device=device)
    for ord in VECTOR_ORDS:
        with np.errstate(all="ignore"):
            want = np.linalg.norm(h, ord=ord)
            want_k = np.linalg.norm(h, ord=ord, keepdims=True)
        close(ca.linalg.norm(a, ord=ord), want, dtype)
        close(ca.linalg.norm(a, ord=ord, keepdims=True), want_k, dtype)


@pytest.mark.parametrize("dtype", NORM_TYPES, ids=lambda t: np.dtype(t).name)
def test_norm_axes(device, dtype):
    rng = np.random.default_rng(np.dtype(dtype).num + 1)
    h = random_array((3, 5, 7), dtype, rng)
    a = ca.asarray(h, device=device)
    for axis in (0, 1, -1, (2,)):
        for ord in VECTOR_ORDS:
            for keepdims in (False, True):
                with np.errstate(all="ignore"):
                    want = np.linalg.norm(h, ord=ord, axis=axis, keepdims=keepdims)
                close(ca.linalg.norm(a, ord=ord, axis=axis, keepdims=keepdims), want,
                      dtype)
    for axis in ((1, 2), (2, 1), (0, 2), (-1, 0)):
        for ord in MATRIX_ORDS:
            for keepdims in (False, True):
                want = np.linalg.norm(h, ord=ord, axis=axis, keepdims=keepdims)
                close(ca.linalg.norm(a, ord=ord, axis=axis, keepdims=keepdims), want,
                      dtype)
    # ord=None over everything for any ndim, and keepdims
    close(ca.linalg.norm(a), np.linalg.norm(h), dtype)
    close(ca.linalg.norm(a, keepdims=True), np.linalg.norm(h, keepdims=True), dtype)


@pytest.mark.parametrize("dtype", FLOAT_TYPES, ids=lambda t: np.dtype(t).name)
def test_norm_matrices(device, dtype):
    rng = np.random.default_rng(np.dtype(dtype).num + 2)
    for shape in ((6, 4), (4, 6), (1, 1), (5, 5)):
        h = random_array(shape, dtype, rng)
        a = ca.asarray(h, device=device)
        for ord in MATRIX_ORDS:
            close(ca.linalg.norm(a, ord=ord), np.linalg.norm(h, ord=ord), dtype)
            close(ca.linalg.norm(a, ord=ord, keepdims=True),
                  np.linalg.norm(h, ord=ord, keepdims=True), dtype)


@pytest.mark.parametrize("dtype", FLOAT_TYPES, ids=lambda t: np.dtype(t).name)
def test_norm_singular_value_orders(device, dtype):
    rng = np.random.default_rng(4)
    h = random_array((3, 6, 4), dtype, rng)
    a = ca.asarray(h, device=device)
    for ord in SVD_ORDS:
        if not has("svd"):
            # until cuarray.linalg.svd exists (the factorizations' part of issue 10)
            with pytest.raises(NotImplementedError):
                ca.linalg.norm(a, ord=ord, axis=(1, 2))
            continue
        for axis, keepdims in (((1, 2), False), ((2, 1), True), ((0, 2), False)):
            want = np.linalg.norm(h, ord=ord, axis=axis, keepdims=keepdims)
            close(ca.linalg.norm(a, ord=ord, axis=axis, keepdims=keepdims), want, dtype,
                  rtol=1e-4 if np.dtype(dtype).itemsize <= 8 else 1e-10)


def test_norm_edge_values(device):
    for h in (np.array([np.inf, 1.0]), np.array([np.nan, 1.0]), np.array([-np.inf, 2.0]),
              np.zeros(5), np.array([-0.0]), np.array([1e200, 1e200]),
              np.array([3.0 + 4.0j, np.nan + 0j])):
        a = ca.asarray(h, device=device)
        for ord in VECTOR_ORDS:
            with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
                want = np.linalg.norm(h, ord=ord)
            close(ca.linalg.norm(a, ord=ord), want, h.dtype)
    # empty: the 2-norm of nothing is 0; max-based orders raise as NumPy's
    e = ca.asarray(np.zeros((0,)), device=device)
    close(ca.linalg.norm(e), np.linalg.norm(np.zeros((0,))), np.float64)
    close(ca.linalg.norm(e, 1), np.linalg.norm(np.zeros((0,)), 1), np.float64)
    with pytest.raises(ValueError):
        ca.linalg.norm(e, np.inf)
    e2 = ca.asarray(np.zeros((0, 3)), device=device)
    close(ca.linalg.norm(e2, "fro"), np.linalg.norm(np.zeros((0, 3)), "fro"), np.float64)
    # a 0-d array
    close(ca.linalg.norm(ca.asarray(np.float32(-3.0), device=device)),
          np.linalg.norm(np.float32(-3.0)), np.float32)


def test_norm_float32_one_pass_keeps_range(device):
    """The one-pass 2-norm sums squares in float64: finite for float32 data whose
    squares overflow float32 (NumPy's float32 dot gives inf there)."""
    h = np.full(1000, 3e19, np.float32)
    got = ca.linalg.norm(ca.asarray(h, device=device))
    assert got.dtype == np.float32
    np.testing.assert_allclose(got.get(), np.linalg.norm(h.astype(np.float64)), rtol=1e-6)


def test_norm_large_vector(device):
    rng = np.random.default_rng(6)
    h = rng.standard_normal(1 << 20).astype(np.float32)
    got = ca.linalg.norm(ca.asarray(h, device=device))
    np.testing.assert_allclose(got.get(), np.linalg.norm(h.astype(np.float64)), rtol=1e-6)
    assert got.shape == () and got.dtype == np.float32


def test_norm_errors(device):
    a = ca.ones((3, 4), device=device)
    v = ca.ones((3,), device=device)
    t = ca.ones((2, 3, 4), device=device)
    for call in (lambda: ca.linalg.norm(v, "fro"), lambda: ca.linalg.norm(v, "nuc"),
                 lambda: ca.linalg.norm(a, "bad"), lambda: ca.linalg.norm(a, 3),
                 lambda: ca.linalg.norm(a, 0.5), lambda: ca.linalg.norm(t, 1),
                 lambda: ca.linalg.norm(a, axis=(0, 0)),
                 lambda: ca.linalg.norm(t, axis=(0, 1, 2)),
                 lambda: ca.linalg.norm(ca.ones((), device=device), 2),
                 lambda: ca.linalg.norm(a, axis=2)):
        with pytest.raises(ValueError):
            call()
    with pytest.raises(TypeError):
        ca.linalg.norm(a, axis=1.5j)
    # the same on NumPy's side, so the cases above are NumPy's errors
    h = np.ones((3, 4))
    with pytest.raises(ValueError):
        np.linalg.norm(np.ones(3), "fro")
    with pytest.raises(ValueError):
        np.linalg.norm(h, 3)
    with pytest.raises(ValueError):
        np.linalg.norm(np.ones((2, 3, 4)), 1)


def test_norm_of_views_and_numpy_input(device):
    rng = np.random.default_rng(7)
    h = random_array((8, 10), np.float64, rng)
    a = ca.asarray(h, device=device)
    close(ca.linalg.norm(a[::2, 1::3]), np.linalg.norm(h[::2, 1::3]), np.float64)
    close(ca.linalg.norm(a.T, axis=0), np.linalg.norm(h.T, axis=0), np.float64)
    close(ca.linalg.norm(ca.transpose(a), ord=1), np.linalg.norm(h.T, ord=1), np.float64)
    close(ca.linalg.norm([3.0, 4.0]), np.linalg.norm([3.0, 4.0]), np.float64)


@pytest.mark.parametrize("dtype", NORM_TYPES, ids=lambda t: np.dtype(t).name)
def test_vector_norm(device, dtype):
    rng = np.random.default_rng(np.dtype(dtype).num + 3)
    h = random_array((3, 4, 5), dtype, rng)
    a = ca.asarray(h, device=device)
    for ord in VECTOR_ORDS[1:]:
        for axis in (None, 0, -1, (0, 2), (2, 0, 1), (1,)):
            for keepdims in (False, True):
                with np.errstate(all="ignore"):
                    want = _ref_vector_norm(h, ord, axis, keepdims)
                got = ca.linalg.vector_norm(a, axis=axis, keepdims=keepdims, ord=ord)
                close(got, want, dtype)
    with pytest.raises(ValueError):
        ca.linalg.vector_norm(a, ord="fro")


def _ref_vector_norm(h, ord, axis, keepdims):
    """numpy.linalg.vector_norm's values and dtype, with keepdims giving the
    input's shape with the reduced axes set to 1 (the Array API's rule)."""
    want = np.linalg.vector_norm(h, axis=axis, keepdims=False, ord=ord)
    if keepdims:
        shape = list(h.shape)
        axes = range(h.ndim) if axis is None else np.atleast_1d(axis)
        for i in axes:
            shape[i] = 1
        want = np.reshape(want, shape)
    return want


@pytest.mark.parametrize("dtype", FLOAT_TYPES, ids=lambda t: np.dtype(t).name)
def test_matrix_norm(device, dtype):
    rng = np.random.default_rng(8)
    h = random_array((2, 3, 5, 4), dtype, rng)
    a = ca.asarray(h, device=device)
    for ord in ["fro", None, 1, -1, np.inf, -np.inf]:
        for keepdims in (False, True):
            want = np.linalg.matrix_norm(h, ord=ord, keepdims=keepdims)
            close(ca.linalg.matrix_norm(a, ord=ord, keepdims=keepdims), want, dtype)
    with pytest.raises(ValueError):
        ca.linalg.matrix_norm(ca.ones(3, device=device))


# ---------------------------------------------------------------- multi_dot

def test_chain_order_is_optimal():
    shapes = [(10, 100), (100, 5), (5, 50)]
    split = lp._chain_order(shapes)
    assert split[0][2] == 1  # ((A B) C): 5000 + 2500 multiplications
    shapes = [(30, 35), (35, 15), (15, 5), (5, 10), (10, 20), (20, 25)]
    split = lp._chain_order(shapes)  # the textbook chain: ((A1 (A2 A3)) ((A4 A5) A6))
    assert split[0][5] == 2 and split[0][2] == 0 and split[3][5] == 4


@pytest.mark.parametrize("dtype", FLOAT_TYPES + [np.int64], ids=lambda t: np.dtype(t).name)
def test_multi_dot(device, dtype):
    rng = np.random.default_rng(9)
    for shapes in ([(4, 6), (6, 3)], [(4, 6), (6, 3), (3, 5)],
                   [(10, 2), (2, 9), (9, 3), (3, 8), (8, 4)],
                   [(6,), (6, 3), (3, 5), (5, 2)], [(4, 6), (6, 3), (3,)],
                   [(6,), (6, 3), (3, 5), (5,)], [(6,), (6,)]):
        hs = [random_array(s, dtype, rng) for s in shapes]
        got = ca.linalg.multi_dot([ca.asarray(x, device=device) for x in hs])
        want = np.linalg.multi_dot(hs)
        close(got, want, dtype, rtol=1e-5 if np.dtype(dtype).itemsize <= 8 else 1e-12)
    hs = [random_array(s, np.float64, rng) for s in [(4, 6), (6, 3), (3, 5)]]
    out = ca.empty((4, 5), device=device)
    r = ca.linalg.multi_dot([ca.asarray(x, device=device) for x in hs], out=out)
    assert r is out
    np.testing.assert_allclose(out.get(), np.linalg.multi_dot(hs), rtol=1e-12)
    with pytest.raises(ValueError):
        ca.linalg.multi_dot([ca.ones((2, 2), device=device)])
    with pytest.raises(np.linalg.LinAlgError):
        ca.linalg.multi_dot([ca.ones((2, 2), device=device), ca.ones((2, 2, 2), device=device),
                             ca.ones((2, 2), device=device)])


# ---------------------------------------------------------------- matrix_power

@pytest.mark.parametrize("dtype", FLOAT_TYPES + [np.int64, np.int8],
                         ids=lambda t: np.dtype(t).name)
def test_matrix_power(device, dtype):
    rng = np.random.default_rng(10)
    h = random_array((3, 4, 4), dtype, rng)
    if np.dtype(dtype).kind in "iu":
        h = (h % 3).astype(dtype)
    else:
        h = (h / 20).astype(dtype)
    a = ca.asarray(h, device=device)
    for n in (0, 1, 2, 3, 5, 8, 13):
        want = np.linalg.matrix_power(h, n)
        close(ca.linalg.matrix_power(a, n), want, dtype,
              rtol=1e-4 if np.dtype(dtype).itemsize <= 8 else 1e-11)
    close(ca.linalg.matrix_power(a[0], 4), np.linalg.matrix_power(h[0], 4), dtype,
          rtol=1e-4 if np.dtype(dtype).itemsize <= 8 else 1e-11)


def test_matrix_power_negative(device):
    h = np.array([[2.0, 1.0], [1.0, 3.0]]) + np.eye(2)
    a = ca.asarray(h, device=device)
    if not has("inv"):
        # until cuarray.linalg.inv exists (the factorizations' part of issue 10)
        with pytest.raises(NotImplementedError):
            ca.linalg.matrix_power(a, -2)
        return
    for n in (-1, -2, -5):
        np.testing.assert_allclose(ca.linalg.matrix_power(a, n).get(),
                                   np.linalg.matrix_power(h, n), rtol=1e-10)


def test_matrix_power_errors(device):
    with pytest.raises(np.linalg.LinAlgError):
        ca.linalg.matrix_power(ca.ones((2, 3), device=device), 2)
    with pytest.raises(np.linalg.LinAlgError):
        ca.linalg.matrix_power(ca.ones((3,), device=device), 2)
    with pytest.raises(TypeError):
        ca.linalg.matrix_power(ca.ones((2, 2), device=device), 1.5)


# ---------------------------------------------------------------- kron

@pytest.mark.parametrize("shapes", [((2, 3), (4, 5)), ((3,), (2, 2)), ((2, 1, 3), (3,)),
                                    ((2, 2), (2, 3, 1)), ((3,), (4,)), ((), (3,)),
                                    ((2, 0), (3, 4))], ids=str)
def test_kron(device, shapes):
    rng = np.random.default_rng(11)
    for dt1, dt2 in ((np.float64, np.float64), (np.float32, np.complex64),
                     (np.int8, np.int8), (np.int32, np.float32)):
        h1, h2 = random_array(shapes[0], dt1, rng), random_array(shapes[1], dt2, rng)
        got = ca.kron(ca.asarray(h1, device=device), ca.asarray(h2, device=device))
        want = np.kron(h1, h2)
        close(got, want, want.dtype)
    h = random_array((2, 3), np.float64, rng)
    close(ca.kron(ca.asarray(h, device=device), 2.0), np.kron(h, 2.0), np.float64)


# ---------------------------------------------------------------- cross

@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.int32,
                                   np.int8], ids=lambda t: np.dtype(t).name)
def test_cross(device, dtype):
    rng = np.random.default_rng(12)
    h1, h2 = random_array((4, 3), dtype, rng), random_array((4, 3), dtype, rng)
    a1, a2 = ca.asarray(h1, device=device), ca.asarray(h2, device=device)
    close(ca.cross(a1, a2), np.cross(h1, h2), dtype)
    close(ca.linalg.cross(a1, a2), np.linalg.cross(h1, h2), dtype)
    # broadcasting and the axis arguments
    h3 = random_array((3, 2, 5), dtype, rng)
    a3 = ca.asarray(h3, device=device)
    close(ca.cross(h1[0], a3, axisb=0), np.cross(h1[0], h3, axisb=0), dtype)
    close(ca.cross(h1[0], a3, axisb=0, axisc=0), np.cross(h1[0], h3, axisb=0, axisc=0),
          dtype)
    h4 = random_array((3, 5), dtype, rng)
    close(ca.cross(ca.asarray(h4, device=device), ca.asarray(h4[::-1], device=device),
                   axis=0), np.cross(h4, h4[::-1], axis=0), dtype)
    close(ca.linalg.cross(ca.asarray(h4, device=device),
                          ca.asarray(h4[::-1], device=device), axis=0),
          np.linalg.cross(h4, h4[::-1], axis=0), dtype)


def test_cross_two_element_vectors(device):
    rng = np.random.default_rng(13)
    h2, h3 = rng.standard_normal((4, 2)), rng.standard_normal((4, 3))
    a2, a3 = ca.asarray(h2, device=device), ca.asarray(h3, device=device)
    for x, y, hx, hy in ((a2, a2, h2, h2), (a2, a3, h2, h3), (a3, a2, h3, h2)):
        if np.lib.NumpyVersion(np.__version__) >= "2.5.0.dev0":
            # NumPy 2.5 refuses them (the end of 2.0's deprecation), as cuarray then does
            for f, p, q in ((np.cross, hx, hy), (ca.cross, x, y)):
                with pytest.raises(ValueError, match="3-dimensional vectors"):
                    f(p, q)
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            want = np.cross(hx, hy)
        with pytest.warns(DeprecationWarning):
            got = ca.cross(x, y)
        close(got, want, np.float64)


def test_cross_errors(device):
    a = ca.ones((4, 3), device=device)
    with pytest.raises(ValueError):
        ca.cross(a, ca.ones((4, 4), device=device))
    with pytest.raises(ValueError):
        ca.cross(ca.ones((), device=device), a)
    with pytest.raises(ValueError):
        ca.linalg.cross(ca.ones((4, 2), device=device), a)
    with pytest.raises(np.exceptions.AxisError):
        ca.cross(a, a, axisa=2)


# ---------------------------------------------------------------- vecdot

@pytest.mark.parametrize("dtype", FLOAT_TYPES + [np.int32, np.int8, np.bool_],
                         ids=lambda t: np.dtype(t).name)
def test_vecdot(device, dtype):
    rng = np.random.default_rng(14)
    h1, h2 = random_array((3, 4, 5), dtype, rng), random_array((4, 5), dtype, rng)
    a1, a2 = ca.asarray(h1, device=device), ca.asarray(h2, device=device)
    close(ca.vecdot(a1, a2), np.vecdot(h1, h2), dtype)
    close(ca.linalg.vecdot(a1, a2), np.linalg.vecdot(h1, h2), dtype)
    h3 = random_array((3, 4, 4), dtype, rng)
    close(ca.vecdot(a1[..., :4], ca.asarray(h3, device=device), axis=1),
          np.vecdot(h1[..., :4], h3, axis=1), dtype)
    close(ca.linalg.vecdot(a1[..., :4], ca.asarray(h3, device=device), axis=-2),
          np.linalg.vecdot(h1[..., :4], h3, axis=-2), dtype)
    with pytest.raises(ValueError):
        ca.vecdot(a1, ca.asarray(h3, device=device))


# ---------------------------------------------------------------- trace, diagonal, transpose

@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.int32,
                                   np.int8, np.uint8, np.bool_],
                         ids=lambda t: np.dtype(t).name)
def test_trace(device, dtype):
    rng = np.random.default_rng(15)
    h = random_array((4, 5, 6), dtype, rng)
    a = ca.asarray(h, device=device)
    for offset in (0, 1, -2, 7):
        for ax in ((0, 1), (1, 2), (2, 0), (-1, -2)):
            close(ca.trace(a, offset, *ax), np.trace(h, offset, *ax), dtype)
        close(ca.linalg.trace(a, offset=offset), np.linalg.trace(h, offset=offset), dtype)
    close(ca.trace(a[0]), np.trace(h[0]), dtype)
    wt = np.complex128 if np.dtype(dtype).kind == "c" else np.float64
    close(ca.trace(a, dtype=wt), np.trace(h, dtype=wt), wt)
    close(ca.linalg.trace(a, dtype=wt), np.linalg.trace(h, dtype=wt), wt)
    with pytest.raises(ValueError):
        ca.trace(ca.ones(3, device=device))


def test_linalg_diagonal_and_transposes(device):
    rng = np.random.default_rng(16)
    h = random_array((2, 4, 5), np.float64, rng)
    a = ca.asarray(h, device=device)
    for offset in (0, 1, -1, 6):
        np.testing.assert_array_equal(ca.linalg.diagonal(a, offset=offset).get(),
                                      np.linalg.diagonal(h, offset=offset))
    np.testing.assert_array_equal(ca.matrix_transpose(a).get(), np.matrix_transpose(h))
    np.testing.assert_array_equal(ca.linalg.matrix_transpose(a).get(),
                                  np.linalg.matrix_transpose(h))
    with pytest.raises(ValueError):
        ca.matrix_transpose(ca.ones(3, device=device))
    with pytest.raises(ValueError):
        ca.linalg.diagonal(ca.ones(3, device=device))


def test_linalg_outer_and_tensordot(device):
    rng = np.random.default_rng(17)
    h1, h2 = random_array((4,), np.complex64, rng), random_array((3,), np.complex64, rng)
    close(ca.linalg.outer(ca.asarray(h1, device=device), ca.asarray(h2, device=device)),
          np.linalg.outer(h1, h2), np.complex64)
    with pytest.raises(ValueError):
        ca.linalg.outer(ca.ones((2, 2), device=device), ca.ones(2, device=device))
    h3, h4 = random_array((3, 4, 5), np.float64, rng), random_array((4, 5, 2), np.float64, rng)
    close(ca.linalg.tensordot(ca.asarray(h3, device=device), ca.asarray(h4, device=device)),
          np.linalg.tensordot(h3, h4), np.float64)
    close(ca.linalg.tensordot(ca.asarray(h3, device=device), ca.asarray(h4, device=device),
                              axes=([1], [0])),
          np.linalg.tensordot(h3, h4, axes=([1], [0])), np.float64)
