"""The indexing helpers of python/cuarray/_indexing.py against NumPy on both devices:
take/put and their along-axis forms, choose, compress, extract, place, putmask,
select, diagonals, triangles, index grids, meshgrid, logspace, geomspace, vander and
the index objects r_, c_, s_, index_exp, mgrid, ogrid."""

import numpy as np
import pytest

import cuarray as ca
from conftest import agree, requires_gpu

DEVICES = ["cpu", pytest.param("cuda:0", marks=requires_gpu)]
DTYPES = [np.bool_, np.int8, np.uint16, np.int32, np.int64, np.float32, np.float64,
          np.complex64]


@pytest.fixture(params=DEVICES)
def dev(request):
    return request.param


def data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.integers(-5, 10, size=shape)
    return a.astype(dtype)


def D(h, dev):
    return ca.asarray(np.asarray(h), device=dev)


def same(got, want, exact=True):
    """Same dtype, shape and values (NaNs equal); tuples element by element."""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w, exact)
        return
    assert isinstance(got, ca.ndarray), type(got)
    w = np.asarray(want)
    g = ca.asnumpy(got)
    assert g.dtype == w.dtype, (g.dtype, w.dtype)
    assert g.shape == w.shape, (g.shape, w.shape)
    if exact:
        np.testing.assert_array_equal(g, w)
    else:
        np.testing.assert_allclose(g, w, rtol=1e-6 if w.dtype.itemsize <= 8 and
                                   w.dtype.kind != "c" else 1e-12, atol=0)


def raises_like(fn_np, fn_ca):
    """NumPy's call raises; cuarray's raises the same exception type."""
    with pytest.raises(Exception) as e_np:
        fn_np()
    with pytest.raises(type(e_np.value)):
        fn_ca()


def test_exports():
    from cuarray import _indexing
    for n in _indexing.__all__:
        assert getattr(ca, n) is getattr(_indexing, n)


# -- take / put ----------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axis", [None, 0, 1, -1, -2])
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_take(dev, dtype, axis, mode):
    h = data((3, 4), dtype)
    idx = np.array([[0, 2], [-1, 1]]) if mode == "raise" else np.array([5, -7, 0, 2])
    same(ca.take(D(h, dev), D(idx, dev), axis=axis, mode=mode),
         np.take(h, idx, axis=axis, mode=mode))
    same(ca.take(D(h, dev), 1, axis=axis, mode=mode), np.take(h, 1, axis=axis,
                                                             mode=mode))


def test_take_edge(dev):
    h = np.arange(6.0).reshape(2, 3)
    same(ca.take(D(h, dev), []), np.take(h, []))
    same(ca.take(D(np.float32(3), dev), [0, 0]), np.take(np.float32(3), [0, 0]))
    out = ca.empty((2,), dtype=np.float64, device=dev)
    r = ca.take(D(h, dev), [4, 1], out=out)
    assert r is out
    same(out, np.take(h, [4, 1]))
    x = D(h, dev)
    raises_like(lambda: np.take(h, [6]), lambda: ca.take(x, [6]))
    raises_like(lambda: np.take(h, [-7]), lambda: ca.take(x, [-7]))
    raises_like(lambda: np.take(h, [0], axis=2), lambda: ca.take(x, [0], axis=2))
    raises_like(lambda: np.take(h, [0], mode="bad"), lambda: ca.take(x, [0],
                                                                     mode="bad"))
    same(ca.take(x, [1.7, -1.2]), np.take(h, [1.7, -1.2]))  # a list: cast as int()
    raises_like(lambda: np.take(h, np.array([0.5])),
                lambda: ca.take(x, D(np.array([0.5]), dev)))
    e = np.zeros((0, 3))
    raises_like(lambda: np.take(e, [0], axis=0, mode="wrap"),
                lambda: ca.take(D(e, dev), [0], axis=0, mode="wrap"))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("contig", [True, False])
def test_put(dev, dtype, mode, contig):
    h = data((4, 5), dtype)
    x = D(h, dev)
    if not contig:
        h = h[:, ::2]
        x = x[:, ::2]
    ind = [0, -1, 3] if mode == "raise" else [0, 13, -20]
    v = data((2,), dtype, seed=1)
    np.put(h, ind, v, mode=mode)
    ca.put(x, ind, D(v, dev), mode=mode)
    same(x, h)


def test_put_errors(dev):
    h = np.zeros(5)
    x = D(h, dev)
    raises_like(lambda: np.put(h, [5], 1.0), lambda: ca.put(x, [5], 1.0))
    raises_like(lambda: np.put(h, [0], 1.0, mode="nope"),
                lambda: ca.put(x, [0], 1.0, mode="nope"))
    raises_like(lambda: np.put([1, 2], [0], 1), lambda: ca.put([1, 2], [0], 1))
    ca.put(x, [], 1.0)  # nothing to write
    same(x, h)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_take_put_along_axis(dev, dtype, axis):
    h = data((3, 4), dtype)
    if axis is None:
        # distinct modulo both sizes used below (12 and 6): the GPU's order of
        # writes to a repeated index is unspecified, NumPy's is the last one
        idx = np.array([11, 0, 4, -3])
    else:
        idx = np.argsort(data((3, 4), np.int64, seed=2), axis=axis)
    same(ca.take_along_axis(D(h, dev), D(idx, dev), axis=axis),
         np.take_along_axis(h, idx, axis=axis))
    v = data((3, 4), dtype, seed=3)
    if axis is None:
        # copies: on cpu D() shares h, and the first write would reach the second
        for x, hh in ((D(h.copy(), dev), h.copy()),
                      (D(h.copy(), dev)[:, ::2], h.copy()[:, ::2])):
            i1 = idx % hh.size
            # NumPy 2.4's own axis=None path writes to a read-only flat view and
            # fails; the meaning is arr.flat[indices] = values.
            hh.flat[i1] = v.ravel()[:4]
            ca.put_along_axis(x, D(i1, dev), D(v.ravel()[:4], dev), axis=None)
            same(x, hh)
        return
    x = D(h, dev)
    np.put_along_axis(h, idx, v, axis=axis)
    ca.put_along_axis(x, D(idx, dev), D(v, dev), axis=axis)
    same(x, h)
    # broadcast indices: one per row along the axis
    idx1 = np.take(idx, [0], axis=axis)
    same(ca.take_along_axis(D(h, dev), D(idx1, dev), axis=axis),
         np.take_along_axis(h, idx1, axis=axis))


def test_along_axis_errors(dev):
    h = np.arange(6).reshape(2, 3)
    x = D(h, dev)
    raises_like(lambda: np.take_along_axis(h, np.array([0]), axis=0),
                lambda: ca.take_along_axis(x, D(np.array([0]), dev), axis=0))
    raises_like(lambda: np.take_along_axis(h, np.array([[0.5]]), axis=0),
                lambda: ca.take_along_axis(x, D(np.array([[0.5]]), dev), axis=0))
    raises_like(lambda: np.take_along_axis(h, np.array([[0]]), axis=3),
                lambda: ca.take_along_axis(x, D(np.array([[0]]), dev), axis=3))
    raises_like(lambda: np.take_along_axis(h, np.array([[5]]), axis=1),
                lambda: ca.take_along_axis(x, D(np.array([[5]]), dev), axis=1))


# -- choose, compress, extract, place, putmask, select -------------------------


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.complex128])
def test_choose(dev, mode, dtype):
    a = np.array([[0, 1, 2], [2, 1, 0]]) if mode == "raise" else np.array([[0, 4, -1]])
    ch = [data((3,), dtype, seed=s) for s in range(3)]
    ch[1] = ch[1].real.astype(np.float64)  # promotion across choices
    same(ca.choose(D(a, dev), [D(c, dev) for c in ch], mode=mode),
         np.choose(a, ch, mode=mode))
    same(ca.choose(D(np.int64(1), dev), [D(c, dev) for c in ch], mode=mode),
         np.choose(np.int64(1), ch, mode=mode))
    # choices as one array (its first axis), broadcast against a
    ch2 = data((3, 1, 3), dtype, seed=4)
    a2 = a.reshape(-1, 1, 3) if a.size % 3 == 0 else a
    same(ca.choose(D(a2, dev), D(ch2, dev), mode=mode),
         np.choose(a2, ch2, mode=mode))


def test_out(dev):
    h = np.arange(12.0).reshape(3, 4)
    x = D(h, dev)
    out = ca.empty((2, 4), dtype=np.float64, device=dev)
    assert ca.compress([True, False, True], x, axis=0, out=out) is out
    same(out, np.compress([True, False, True], h, axis=0))
    out = ca.empty((3,), dtype=np.int64, device=dev)
    ch = [np.arange(3), np.arange(3) * 10]
    assert ca.choose(D(np.array([1, 0, 1]), dev), [D(c, dev) for c in ch],
                     out=out) is out
    same(out, np.choose(np.array([1, 0, 1]), ch))
    bad = ca.empty((5,), dtype=np.float64, device=dev)
    raises_like(lambda: np.take(h, [0, 1], out=np.empty(5)),
                lambda: ca.take(x, [0, 1], out=bad))


def test_put_0d_and_empty(dev):
    h = np.array(3.0)
    x = D(h, dev)
    np.put(h, [0], 7.0)
    ca.put(x, [0], 7.0)
    same(x, h)
    raises_like(lambda: np.put(np.zeros(0), [0], 1.0),
                lambda: ca.put(D(np.zeros(0), dev), [0], 1.0))


def test_choose_errors(dev):
    ch = [np.arange(3), np.arange(3) * 10]
    c = [D(x, dev) for x in ch]
    raises_like(lambda: np.choose(np.array([0, 2, 1]), ch),
                lambda: ca.choose(D(np.array([0, 2, 1]), dev), c))
    raises_like(lambda: np.choose(np.array([0, 1, 1]), ch, mode="x"),
                lambda: ca.choose(D(np.array([0, 1, 1]), dev), c, mode="x"))
    raises_like(lambda: np.choose(np.array([0, 1]), ch),
                lambda: ca.choose(D(np.array([0, 1]), dev), c))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_compress_extract(dev, dtype, axis):
    h = data((3, 4), dtype)
    cond = np.array([True, False, True])
    same(ca.compress(D(cond, dev), D(h, dev), axis=axis),
         np.compress(cond, h, axis=axis))
    same(ca.compress([False] * 3, D(h, dev), axis=axis),
         np.compress([False] * 3, h, axis=axis))
    m = (h.real.astype(np.float64) % 2) == 0
    same(ca.extract(D(m, dev), D(h, dev)), np.extract(m, h))
    same(ca.extract(D(h, dev), D(h, dev)), np.extract(h, h))


def test_compress_errors(dev):
    h = np.arange(6).reshape(2, 3)
    x = D(h, dev)
    raises_like(lambda: np.compress([True, False, True], h, axis=0),
                lambda: ca.compress([True, False, True], x, axis=0))
    raises_like(lambda: np.compress([[True]], h, axis=0),
                lambda: ca.compress([[True]], x, axis=0))
    raises_like(lambda: np.compress([True], h, axis=2),
                lambda: ca.compress([True], x, axis=2))
    # a longer condition whose tail is false is fine, as NumPy's
    same(ca.compress([True, False, False, False], x, axis=1),
         np.compress([True, False, False, False], h, axis=1))


@pytest.mark.parametrize("dtype", DTYPES)
def test_place_putmask(dev, dtype):
    h = data((3, 4), dtype)
    m = data((3, 4), np.int64, seed=5) > 2
    v = data((5,), dtype, seed=6)
    x = D(h, dev)
    hp = h.copy()
    np.place(hp, m, v)
    ca.place(x, D(m, dev), D(v, dev))
    same(x, hp)
    x = D(h, dev).T  # a view: the boolean setitem path
    hp = h.copy().T
    np.place(hp, m.T, v)
    ca.place(x, D(m.T, dev), D(v, dev))
    same(x, hp)
    x = D(h, dev)
    hp = h.copy()
    np.putmask(hp, m, v)
    ca.putmask(x, D(m, dev), D(v, dev))
    same(x, hp)
    x = D(h, dev)
    hp = h.copy()
    np.putmask(hp, m, data((3, 4), dtype, seed=7))
    ca.putmask(x, D(m, dev), D(data((3, 4), dtype, seed=7), dev))
    same(x, hp)


def test_place_putmask_errors(dev):
    h = np.arange(4.0)
    x = D(h, dev)
    m = np.array([True, False, True, False])
    raises_like(lambda: np.place(h, m, []), lambda: ca.place(x, D(m, dev), []))
    raises_like(lambda: np.place([1.0], [True], [2.0]),
                lambda: ca.place([1.0], [True], [2.0]))
    raises_like(lambda: np.putmask(h, m[:3], 1.0),
                lambda: ca.putmask(x, D(m[:3], dev), 1.0))
    # nothing selected: empty values are fine
    ca.place(x, D(np.zeros(4, bool), dev), [])
    same(x, h)


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.float32, np.complex64])
def test_select(dev, dtype):
    x = np.arange(10).astype(dtype)
    xr = np.arange(10)
    conds = [xr < 3, xr > 5]
    choices = [x, x * 2]
    got = ca.select([D(c, dev) for c in conds], [D(c, dev) for c in choices], 42)
    same(got, np.select(conds, choices, 42))
    got = ca.select([D(c, dev) for c in conds], [D(c, dev) for c in choices])
    same(got, np.select(conds, choices))
    got = ca.select([D(c, dev) for c in conds], [D(x, dev), 1.5], default=0)
    same(got, np.select(conds, [x, 1.5], default=0))
    # 0-d and empty
    same(ca.select([D(np.bool_(True), dev)], [D(np.float32(3), dev)]),
         np.select([np.bool_(True)], [np.float32(3)]))
    same(ca.select([D(np.zeros(0, bool), dev)], [D(np.zeros(0, dtype), dev)]),
         np.select([np.zeros(0, bool)], [np.zeros(0, dtype)]))
    # overlapping conditions: the first wins
    c2 = [xr < 5, xr < 8]
    same(ca.select([D(c, dev) for c in c2], [D(x, dev), D(x * 3, dev)]),
         np.select(c2, [x, x * 3]))


def test_select_errors(dev):
    x = np.arange(3)
    raises_like(lambda: np.select([x < 1], [x, x]),
                lambda: ca.select([D(x < 1, dev)], [D(x, dev), D(x, dev)]))
    raises_like(lambda: np.select([], []), lambda: ca.select([], []))
    raises_like(lambda: np.select([x], [x]), lambda: ca.select([D(x, dev)],
                                                             [D(x, dev)]))


# -- diagonals -----------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 2), (0, 3), (2, 3, 4)])
@pytest.mark.parametrize("offset", [0, 1, -1, 3, -6])
def test_diagonal(dev, dtype, shape, offset):
    h = data(shape, dtype)
    same(ca.diagonal(D(h, dev), offset), np.diagonal(h, offset))
    if len(shape) == 3:
        same(ca.diagonal(D(h, dev), offset, -1, 0), np.diagonal(h, offset, -1, 0))
        same(ca.diagonal(D(h, dev), offset, 2, 1), np.diagonal(h, offset, 2, 1))
        same(ca.diagonal(D(h, dev), offset, 1, 2), np.diagonal(h, offset, 1, 2))
    # a non-contiguous a takes the gather path
    hs = np.swapaxes(h, 0, 1)
    same(ca.diagonal(ca.swapaxes(D(h, dev), 0, 1), offset), np.diagonal(hs, offset))


def test_diagonal_view(dev):
    h = np.arange(12.0).reshape(3, 4)
    x = D(h, dev)
    d = ca.diagonal(x, 1)
    assert d.base is not None  # a view: no copy of the diagonal


def test_diagonal_errors(dev):
    h = np.arange(6).reshape(2, 3)
    x = D(h, dev)
    raises_like(lambda: np.diagonal(np.arange(3)), lambda: ca.diagonal(
        D(np.arange(3), dev)))
    raises_like(lambda: np.diagonal(h, 0, 1, 1), lambda: ca.diagonal(x, 0, 1, 1))
    raises_like(lambda: np.diagonal(h, 0, 0, 2), lambda: ca.diagonal(x, 0, 0, 2))
    raises_like(lambda: np.diag(np.zeros((2, 2, 2))),
                lambda: ca.diag(D(np.zeros((2, 2, 2)), dev)))
    raises_like(lambda: np.diag(np.float64(1)), lambda: ca.diag(D(np.float64(1),
                                                                   dev)))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("k", [0, 2, -1])
def test_diag_diagflat(dev, dtype, k):
    v = data((3,), dtype)
    same(ca.diag(D(v, dev), k), np.diag(v, k))
    same(ca.diag(D(np.zeros(0, dtype), dev), k), np.diag(np.zeros(0, dtype), k))
    m = data((3, 4), dtype)
    same(ca.diag(D(m, dev), k), np.diag(m, k))
    same(ca.diagflat(D(m, dev), k), np.diagflat(m, k))
    same(ca.diagflat(D(np.array(5, dtype), dev), k), np.diagflat(np.array(5, dtype), k))


@pytest.mark.parametrize("n,ndim", [(3, 2), (4, 3), (0, 2), (1, 1)])
def test_diag_indices(dev, n, ndim):
    same(ca.diag_indices(n, ndim, device=dev), np.diag_indices(n, ndim))
    h = np.zeros((n,) * max(ndim, 2))
    same(ca.diag_indices_from(D(h, dev)), np.diag_indices_from(h))


def test_diag_indices_from_errors(dev):
    for h in (np.zeros(3), np.zeros((2, 3))):
        raises_like(lambda: np.diag_indices_from(h),
                    lambda: ca.diag_indices_from(D(h, dev)))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(3, 3), (3, 5), (7, 3), (3, 3, 3), (0, 0)])
@pytest.mark.parametrize("wrap", [False, True])
@pytest.mark.parametrize("val", [7, [1, 2]])
def test_fill_diagonal(dev, dtype, shape, wrap, val):
    h = data(shape, dtype)
    x = D(h, dev)
    np.fill_diagonal(h, np.asarray(val).astype(dtype), wrap=wrap)
    ca.fill_diagonal(x, D(np.asarray(val).astype(dtype), dev), wrap=wrap)
    same(x, h)
    if len(shape) == 2:  # a transposed view: the gather path
        h = data(shape[::-1], dtype).T
        x = D(data(shape[::-1], dtype), dev).T
        np.fill_diagonal(h, np.asarray(val).astype(dtype), wrap=wrap)
        ca.fill_diagonal(x, D(np.asarray(val).astype(dtype), dev), wrap=wrap)
        same(x, h)


def test_fill_diagonal_errors(dev):
    for h in (np.zeros(3), np.zeros((2, 2, 3))):
        raises_like(lambda: np.fill_diagonal(h, 1), lambda: ca.fill_diagonal(
            D(h, dev), 1))


# -- index grids ---------------------------------------------------------------


@pytest.mark.parametrize("dims", [(2, 3), (4,), (), (0, 2), (2, 1, 3)])
@pytest.mark.parametrize("dtype", [int, np.int32, np.float32])
@pytest.mark.parametrize("sparse", [False, True])
def test_indices(dev, dims, dtype, sparse):
    same(ca.indices(dims, dtype=dtype, sparse=sparse, device=dev),
         np.indices(dims, dtype=dtype, sparse=sparse))


def test_indices_errors(dev):
    raises_like(lambda: np.indices((-1, 2)), lambda: ca.indices((-1, 2), device=dev))
    raises_like(lambda: np.indices((1.5,)), lambda: ca.indices((1.5,), device=dev))


def test_ix(dev):
    a, b = np.array([0, 2]), np.array([True, False, True, True])
    same(ca.ix_(D(a, dev), D(b, dev)), np.ix_(a, b))
    same(ca.ix_([1, 2], [3], [0, 1, 2]), np.ix_([1, 2], [3], [0, 1, 2]))
    same(ca.ix_([]), np.ix_([]))
    h = np.arange(20).reshape(4, 5)
    same(D(h, dev)[ca.ix_(D(a, dev), D(b[:3], dev))], h[np.ix_(a, b[:3])])
    raises_like(lambda: np.ix_([[1]]), lambda: ca.ix_([[1]]))


@pytest.mark.parametrize("k", [0, 1, -1])
def test_mask_indices(dev, k):
    same(ca.mask_indices(4, ca.triu, k, device=dev), np.mask_indices(4, np.triu, k))
    same(ca.mask_indices(3, ca.tril, k, device=dev), np.mask_indices(3, np.tril, k))


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("dims", [(3, 4), (2, 3, 5), (7,)])
def test_ravel_unravel(dev, order, dims):
    size = int(np.prod(dims))
    flat = np.array([0, size - 1, size // 2, 1])
    want = np.unravel_index(flat, dims, order=order)
    got = ca.unravel_index(D(flat, dev), dims, order=order)
    same(got, want)
    same(ca.ravel_multi_index(tuple(D(w, dev) for w in want), dims, order=order),
         np.ravel_multi_index(want, dims, order=order))
    same(ca.unravel_index(D(np.zeros((0,), np.int64), dev), dims, order=order),
         np.unravel_index(np.zeros((0,), np.int64), dims, order=order))
    same(ca.unravel_index(D(np.int64(size - 1), dev), dims, order=order),
         tuple(np.asarray(x) for x in np.unravel_index(size - 1, dims, order=order)))


@pytest.mark.parametrize("mode", ["wrap", "clip", ("wrap", "clip")])
def test_ravel_multi_index_modes(dev, mode):
    idx = (np.array([3, -1, 1]), np.array([4, 0, -6]))
    same(ca.ravel_multi_index(tuple(D(i, dev) for i in idx), (3, 4), mode=mode),
         np.ravel_multi_index(idx, (3, 4), mode=mode))


def test_ravel_unravel_errors(dev):
    raises_like(lambda: np.ravel_multi_index((np.array([3]), np.array([0])), (3, 4)),
                lambda: ca.ravel_multi_index((D(np.array([3]), dev),
                                              D(np.array([0]), dev)), (3, 4)))
    raises_like(lambda: np.ravel_multi_index((np.array([0]),), (3, 4)),
                lambda: ca.ravel_multi_index((D(np.array([0]), dev),), (3, 4)))
    raises_like(lambda: np.ravel_multi_index((np.array([1.0]), np.array([0])),
                                             (3, 4)),
                lambda: ca.ravel_multi_index((D(np.array([1.0]), dev),
                                              D(np.array([0]), dev)), (3, 4)))
    raises_like(lambda: np.unravel_index(np.array([12]), (3, 4)),
                lambda: ca.unravel_index(D(np.array([12]), dev), (3, 4)))
    raises_like(lambda: np.unravel_index(np.array([-1]), (3, 4)),
                lambda: ca.unravel_index(D(np.array([-1]), dev), (3, 4)))
    raises_like(lambda: np.unravel_index(np.array([1.0]), (3, 4)),
                lambda: ca.unravel_index(D(np.array([1.0]), dev), (3, 4)))
    raises_like(lambda: np.unravel_index(np.array([1]), (3, 4), order="K"),
                lambda: ca.unravel_index(D(np.array([1]), dev), (3, 4), order="K"))


# -- triangles -----------------------------------------------------------------


@pytest.mark.parametrize("N,M", [(3, None), (3, 5), (4, 2), (0, 3)])
@pytest.mark.parametrize("k", [0, 1, -2, 7])
@pytest.mark.parametrize("dtype", [float, np.int32, bool])
def test_tri(dev, N, M, k, dtype):
    same(ca.tri(N, M, k, dtype=dtype, device=dev), np.tri(N, M, k, dtype=dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (2, 3, 4), (5,), (0, 3)])
@pytest.mark.parametrize("k", [0, 1, -1, -5])
def test_tril_triu(dev, dtype, shape, k):
    h = data(shape, dtype)
    same(ca.tril(D(h, dev), k), np.tril(h, k))
    same(ca.triu(D(h, dev), k), np.triu(h, k))


@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.int64, np.complex128])
@pytest.mark.parametrize("k", [0, 2, -3, 2**62, -2**62, 2**40, -2**40, np.int64(1)])
def test_tril_triu_stacked_any_k(dev, dtype, k):
    # stacked (..., M, N), every dtype size (16-byte complex128), k far out of range
    h = data((2, 3, 5, 6), dtype) + 1
    same(ca.tril(D(h, dev), k), np.tril(h, k))
    same(ca.triu(D(h, dev), k), np.triu(h, k))


@pytest.mark.parametrize("k", [0, 1, -2])
def test_tril_triu_views(dev, k):
    # non-contiguous inputs: transposed, strided, negative strides, a broadcast
    # stack axis, the parts of a complex array; the result is a new C-ordered array
    h = data((4, 6, 7), np.float64, seed=3) + 0.5
    a = D(h, dev)
    for got_in, want_in in ((a.swapaxes(-1, -2), h.swapaxes(-1, -2)),
                            (a[:, ::2, 1::3], h[:, ::2, 1::3]),
                            (a[::-1, :, ::-1], h[::-1, :, ::-1]),
                            (a[1:2].swapaxes(0, 1), h[1:2].swapaxes(0, 1))):
        for f, g in ((ca.tril, np.tril), (ca.triu, np.triu)):
            r = f(got_in, k)
            same(r, g(want_in, k))
            assert r.flags.c_contiguous
    b = ca.broadcast_to(D(h[0], dev), (3, 6, 7))
    same(ca.tril(b, k), np.tril(np.broadcast_to(h[0], (3, 6, 7)), k))
    c = D(data((5, 9), np.complex64), dev)  # a float32 view: 4 of 8 bytes per element
    same(ca.tril(c.imag, k), np.tril(c.get().imag, k))
    same(ca.triu(c.real[1:], k), np.triu(c.get().real[1:], k))


def test_tril_triu_float_k_and_lists(dev):
    h = data((4, 5), np.float32)
    same(ca.tril(D(h, dev), 1.5), np.tril(h, 1.5))
    same(ca.triu(D(h, dev), -0.5), np.triu(h, -0.5))
    same(ca.tril([[1, 2], [3, 4]], -1), np.tril([[1, 2], [3, 4]], -1))
    same(ca.triu(D(np.arange(5), dev), 1), np.triu(np.arange(5), 1))
    with pytest.raises(TypeError):  # NumPy's type (its tri() gets no N)
        ca.tril(D(np.float64(2.0), dev))
    with pytest.raises(TypeError):
        ca.tril(D(h, dev), "1")
    for k in (2**80, -2**80):  # NumPy's arange(-k, M - k) overflows int64
        with pytest.raises(OverflowError):
            np.tril(h, k)
        with pytest.raises(OverflowError):
            ca.tril(D(h, dev), k)


@pytest.mark.parametrize("n,m", [(4, None), (3, 5), (5, 2), (0, None)])
@pytest.mark.parametrize("k", [0, 1, -1, 9])
def test_tri_indices(dev, n, m, k):
    same(ca.tril_indices(n, k, m, device=dev), np.tril_indices(n, k, m))
    same(ca.triu_indices(n, k, m, device=dev), np.triu_indices(n, k, m))
    h = np.zeros((n, n if m is None else m))
    same(ca.tril_indices_from(D(h, dev), k), np.tril_indices_from(h, k))
    same(ca.triu_indices_from(D(h, dev), k), np.triu_indices_from(h, k))


def test_tri_errors(dev):
    h = np.zeros((2, 2, 2))
    raises_like(lambda: np.tril_indices_from(h), lambda: ca.tril_indices_from(
        D(h, dev)))
    raises_like(lambda: np.triu_indices_from(h), lambda: ca.triu_indices_from(
        D(h, dev)))


# -- grids and sequences -------------------------------------------------------


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("n", [1, 2, 3])
def test_meshgrid(dev, indexing, sparse, n):
    xs = [np.arange(i + 2).astype(np.float32 if i else np.int16) for i in range(n)]
    same(ca.meshgrid(*[D(x, dev) for x in xs], indexing=indexing, sparse=sparse),
         np.meshgrid(*xs, indexing=indexing, sparse=sparse))
    same(ca.meshgrid(), np.meshgrid())


def test_meshgrid_errors(dev):
    raises_like(lambda: np.meshgrid([1], indexing="q"),
                lambda: ca.meshgrid(D([1], dev), indexing="q"))


@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize("num", [0, 1, 5])
@pytest.mark.parametrize("dtype", [None, np.float32, np.int64])
def test_logspace(dev, endpoint, num, dtype):
    same(ca.logspace(D(np.float64(0.5), dev), 3, num, endpoint, dtype=dtype),
         np.logspace(0.5, 3, num, endpoint, dtype=dtype), exact=dtype is not None
         and np.dtype(dtype).kind == "i")
    same(ca.logspace(D(np.float64(1), dev), 2, num, endpoint, base=2.0),
         np.logspace(1, 2, num, endpoint, base=2.0), exact=False)


def test_logspace_arrays(dev):
    s, e = np.array([0.0, 1.0]), np.array([2.0, 4.0])
    for axis in (0, 1, -1):
        same(ca.logspace(D(s, dev), D(e, dev), 4, axis=axis),
             np.logspace(s, e, 4, axis=axis), exact=False)
    same(ca.logspace(D(s, dev), D(e, dev), 3, base=D(np.array([2.0, 3.0]), dev)),
         np.logspace(s, e, 3, base=np.array([2.0, 3.0])), exact=False)


@pytest.mark.parametrize("start,stop", [(1, 1000), (-1, -1000), (2.0, 0.5),
                                        (1 + 1j, 10 + 10j), (1j, -1j)])
@pytest.mark.parametrize("num", [0, 1, 4])
@pytest.mark.parametrize("endpoint", [True, False])
def test_geomspace(dev, start, stop, num, endpoint):
    same(ca.geomspace(D(start, dev), stop, num, endpoint),
         np.geomspace(start, stop, num, endpoint), exact=False)


def test_geomspace_arrays_dtype(dev):
    s, e = np.array([1.0, 2.0]), np.array([100.0, 32.0])
    for axis in (0, -1):
        same(ca.geomspace(D(s, dev), D(e, dev), 5, axis=axis),
             np.geomspace(s, e, 5, axis=axis), exact=False)
    # the float values sit on integers (2**k); the cast truncates, so a GPU
    # pow one ulp above NumPy's (128.0 vs 127.99999) moves a value by one
    got = ca.geomspace(D(np.int64(1), dev), 256, 9, dtype=np.int32)
    want = np.geomspace(1, 256, 9, dtype=np.int32)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.get(), want, atol=0 if dev == "cpu" else 1, rtol=0)
    same(ca.geomspace(D(np.float32(1), dev), 8, 4),
         np.geomspace(np.float32(1), 8, 4), exact=False)
    raises_like(lambda: np.geomspace(0, 5), lambda: ca.geomspace(D(0, dev), 5))


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint8, np.float32,
                                   np.float64, np.complex64, np.bool_])
@pytest.mark.parametrize("N", [None, 0, 1, 4])
@pytest.mark.parametrize("increasing", [False, True])
def test_vander(dev, dtype, N, increasing):
    x = data((3,), dtype)
    same(ca.vander(D(x, dev), N, increasing), np.vander(x, N, increasing))
    e = np.zeros(0, dtype)
    same(ca.vander(D(e, dev), N, increasing), np.vander(e, N, increasing))


def test_vander_errors(dev):
    raises_like(lambda: np.vander(np.zeros((2, 2))),
                lambda: ca.vander(D(np.zeros((2, 2)), dev)))


# -- index objects -------------------------------------------------------------


def test_s_index_exp():
    assert ca.s_[1:3] == np.s_[1:3]
    assert ca.s_[1, ..., ::2] == np.s_[1, ..., ::2]
    assert ca.index_exp[1:3] == np.index_exp[1:3]
    assert ca.index_exp[2] == np.index_exp[2]


@pytest.mark.parametrize("key", [
    (slice(0, 3), slice(0, 2)),
    (slice(-1, 1, 0.5), slice(0, 2)),
    (slice(0, 1, 5j), slice(2, 4, 3j)),
    (slice(0, 5, 2),),
])
def test_mgrid_ogrid(dev, key):
    same(ca.mgrid[key], np.mgrid[key])
    same(ca.ogrid[key], tuple(np.ogrid[key]))
    same(ca.mgrid[key[0]], np.mgrid[key[0]])


def test_r_c(dev):
    a = np.array([1, 2, 3], np.int32)
    b = np.array([[1.5, 2.5]])
    x = D(a, dev)
    same(ca.r_[x, 0, x], np.r_[a, 0, a])
    same(ca.r_[x, 1.5], np.r_[a, 1.5])
    same(ca.r_[1:4, 0, D(np.array([7, 8]), dev)], np.r_[1:4, 0, np.array([7, 8])])
    same(ca.r_[-1:1:5j], np.r_[-1:1:5j])
    same(ca.r_["0,2", x, x], np.r_["0,2", a, a])
    same(ca.r_["0,2,0", x, x], np.r_["0,2,0", a, a])
    same(ca.r_["1,2,0", x, x], np.r_["1,2,0", a, a])
    same(ca.r_["-1", D(b, dev), D(b, dev)], np.r_["-1", b, b])
    same(ca.c_[x, x], np.c_[a, a])
    same(ca.c_[D(b, dev), 1, 2], np.c_[b, 1, 2])
    raises_like(lambda: np.r_[()], lambda: ca.r_[()])
    with pytest.raises(ValueError):
        ca.r_[x, "0"]


R_C_CASES = {
    "c_ slices": lambda m, A: m.c_[0:3, 4:7],
    "c_ 1d and 2d": lambda m, A: m.c_[A([[1, 2], [3, 4]]), A([5, 6])],
    "r_ bool scalar": lambda m, A: m.r_[True, A(np.array([1, 2], np.int8))],
    "r_ weak int": lambda m, A: m.r_[A(np.array([1, 2], np.int8)), 3],
    "r_ float scalar": lambda m, A: m.r_[1, 2.5],
    "r_ numpy scalar": lambda m, A: m.r_[np.float32(1), A(np.array([1, 2], np.int8))],
    "r_ '1'": lambda m, A: m.r_["1", A([[1], [2]]), A([[3], [4]])],
    "r_ '0,2,-1'": lambda m, A: m.r_["0,2,-1", A([1, 2]), A([3, 4])],
    "r_ '0,3,1'": lambda m, A: m.r_["0,3,1", A([[1, 2]]), A([[3, 4]])],
    "mgrid negative step": lambda m, A: m.mgrid[5:0:-2],
    "mgrid float step": lambda m, A: m.mgrid[0:1:0.25, 0:2],
    "mgrid count": lambda m, A: m.mgrid[-1:1:3j],
    "ogrid one slice": lambda m, A: m.ogrid[0:4],
}


@pytest.mark.parametrize("case", list(R_C_CASES))
def test_index_objects_more(dev, case):
    f = R_C_CASES[case]
    same(f(ca, lambda h: D(h, dev)), f(np, np.asarray))


def test_r_bad_directive(dev):
    raises_like(lambda: np.r_["abc", np.array([1])],
                lambda: ca.r_["abc", D(np.array([1]), dev)])


# -- NumPy's errors and conversions of ravel_multi_index, unravel_index, putmask --

def _on(xp, a, dev):
    return ca.asarray(np.asarray(a), device=dev) if xp is ca else np.asarray(a)


def _arg(xp, v, dev):
    """v for the call: Python ints and empty lists as they are (NumPy's special
    cases), anything else an array of xp on dev."""
    return v if isinstance(v, int) or (isinstance(v, list) and not v) else _on(xp, v, dev)


@pytest.mark.parametrize("order", ["C", "F", "c", "f", "A", "K", None, "X", 1])
def test_ravel_unravel_order(dev, order):
    agree(lambda xp: xp.unravel_index(_on(xp, [5, 7], dev), (3, 4), order=order))
    agree(lambda xp: xp.ravel_multi_index((_on(xp, [1, 2], dev), _on(xp, [3, 0], dev)),
                                          (3, 4), order=order))


@pytest.mark.parametrize("case", [
    ([True, False], (3, 4)), (np.array([1, 11], np.uint64), (3, 4)),
    ([1.0], (3, 4)), ([3, -2, 20], (3, 4)), ([3, 20, -2], (3, 4)),
    (np.array([2 ** 63], np.uint64), (3, 4)), ([], (3, 4)), ([0], (0, 4)),
    ([1], (2 ** 32, 2 ** 32)), (12, (3, 4)), (np.array([[3, 5], [7, 11]]), (3, 4))])
def test_unravel_index_indices(dev, case):
    idx, shape = case
    agree(lambda xp: xp.unravel_index(_arg(xp, idx, dev), shape))


@pytest.mark.parametrize("coords,dims", [
    (([True], [1]), (3, 4)), ((np.array([1], np.uint64), [1]), (3, 4)),
    (([1.0], [1]), (3, 4)), (([5], [1]), (3, 4)), (([1], [1]), (2 ** 32, 2 ** 31)),
    (([1], [1]), (2 ** 32, 2 ** 31 - 1)), (([], []), (3, 4))])
def test_ravel_multi_index_coords(dev, coords, dims):
    agree(lambda xp: xp.ravel_multi_index(tuple(_arg(xp, c, dev) for c in coords), dims))


@pytest.mark.parametrize("dtype,values", [
    ("i8", np.array([1.5, 2.5])), ("f8", np.array([1, 2])), ("f8", np.array([1 + 1j])),
    ("f4", np.array([1.1])), ("?", np.array([2])), ("i8", np.array(1.5)),
    ("i8", np.array([1], np.uint64)), ("c8", np.array([1.0])), ("f8", np.array([], float)),
    ("i8", 1.5), ("i1", 300), ("i8", np.float64(1.5)), ("i1", np.int64(300)),
    ("i1", [1, 300]), ("f4", 1.1), ("u1", -1), ("u1", [1, 2.5]), ("?", True),
    ("f8", 1 + 1j), ("i8", [])])
def test_putmask_value_casting(dev, dtype, values):
    """NumPy's putmask: an array of values must cast safely to a's dtype; scalars
    and sequences convert by value (OverflowError out of range)."""
    mask = np.array([1, 0, 1, 0, 1, 0], bool)

    def run(xp):
        a = _on(xp, np.arange(6).astype(dtype), dev)
        v = _on(xp, values, dev) if isinstance(values, np.ndarray) else values
        xp.putmask(a, _on(xp, mask, dev), v)
        return a
    agree(run)
