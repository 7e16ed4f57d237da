"""The copy family through the Python API (astype, copy, ascontiguousarray,
asfortranarray, fill), on both devices: on a GPU these run kernels/gpu/copy.cu, on the
cpu device kernels/host/host_copy.c. Compared with NumPy (and, for the float -> int cases
NumPy leaves undefined, with the rule kernels/scalar.h documents).
"""

import numpy as np
import pytest

import cuarray as ca
from conftest import ALL_DTYPES, requires_gpu
from test_copy_kernels import assert_same, expected_cast, source

PAIRS = [(d, s) for d in ALL_DTYPES for s in ALL_DTYPES]
NAME = lambda t: np.dtype(t).name  # noqa: E731


def on(device, a):
    return ca.asarray(a, device=device)


def host(x):
    return x.get()


def sliceable(x):
    try:
        x[::1]
    except TypeError:
        pytest.skip("basic indexing is not in this build yet")


@pytest.mark.parametrize("ddt,sdt", PAIRS, ids=NAME)
def test_astype_every_pair(device, ddt, sdt):
    """Contiguous casts (vector bodies plus scalar heads/tails: odd lengths), and a
    transposed source (the strided cast kernel)."""
    rng = np.random.default_rng(11)
    for shape in [(1001,), (37, 45), ()]:
        a = source(sdt, shape, rng)
        x = on(device, a)
        y = x.astype(ddt)
        assert y.dtype == np.dtype(ddt) and y.device == x.device
        assert_same(host(y), expected_cast(a, ddt))
        if len(shape) == 2:
            yt = x.T.astype(ddt, order="C")
            assert_same(host(yt), expected_cast(a.T, ddt))


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=NAME)
def test_large_contiguous_copy_and_cast(device, dt):
    """Sizes where every vector width, the head and the tail all matter."""
    rng = np.random.default_rng(5)
    for n in (1, 15, 17, 4097, 1_000_003):
        a = source(dt, (n,), rng)
        x = on(device, a)
        assert_same(host(x.copy()), a)
        for other in (np.float16, np.float32, np.int64, np.complex128, np.bool_):
            assert_same(host(x.astype(other)), expected_cast(a, other))


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=NAME)
def test_transposed_copies(device, dt):
    """Same-dtype transposes (the tiled kernel on a GPU), with partial tiles and a
    batch dimension, in every order NumPy accepts."""
    rng = np.random.default_rng(9)
    for shape in [(130, 97), (3, 130, 97), (64, 64), (9, 300), (2, 3, 70, 33)]:
        a = source(dt, shape, rng)
        x = on(device, a)
        t = x.T
        np.testing.assert_array_equal(host(ca.ascontiguousarray(t)), np.ascontiguousarray(a.T))
        np.testing.assert_array_equal(host(ca.asfortranarray(x)), np.asfortranarray(a))
        for order in "CFAK":
            c = t.copy(order=order)
            ref = a.T.copy(order=order)
            assert c.strides == ref.strides, order
            np.testing.assert_array_equal(host(c), ref)


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=NAME)
def test_fill(device, dt):
    rng = np.random.default_rng(4)
    for value in (source(dt, (), rng)[()], np.zeros((), dt)[()], np.ones((), dt)[()]):
        for shape in [(1001,), (17, 23), (), (0, 3)]:
            x = ca.empty(shape, dtype=dt, device=device)
            x.fill(value)
            np.testing.assert_array_equal(host(x), np.full(shape, value, dt))
            # a transposed view fills the same memory
            if len(shape) == 2:
                x.T.fill(value)
                np.testing.assert_array_equal(host(x), np.full(shape, value, dt))


def test_float_to_int_edge_values(device):
    """NaN, inf and out-of-range floats give the documented values on both devices."""
    x = np.array([np.nan, np.inf, -np.inf, 300.0, -1.0, -129.5, 3e9, -3e9, 1e19, 2e19,
                  -1e19, 70000.5, 2.0**63, -2.0**63, 0.5, -0.5], dtype=np.float64)
    for src in (x, x.astype(np.float32), x.astype(np.float16),
                x.astype(np.complex128), x.astype(np.complex64)):
        for dt in ALL_DTYPES[1:9]:
            assert_same(host(on(device, src).astype(dt)), expected_cast(src, dt))


@pytest.mark.parametrize("nbytes", [1, 15, 4096, 4096 * 2 + 1, 3 * 4096 + 37, 200_003])
def test_contiguous_copy_offsets(device, nbytes):
    """Same-bits contiguous copies at every alignment of the source (and so every
    word width), sizes at and around whole blocks, plus a destination view that
    is misaligned like its source (a byte head before the first 16-byte word)."""
    rng = np.random.default_rng(nbytes)
    h = rng.integers(0, 256, size=nbytes + 40, dtype=np.uint8)
    x = on(device, h)
    sliceable(x)
    for off in range(18):
        np.testing.assert_array_equal(host(x[off:off + nbytes].copy()), h[off:off + nbytes])
    y = on(device, np.zeros(nbytes + 40, np.uint8))
    for off in (0, 3, 16, 21):
        y[off:off + nbytes] = x[off:off + nbytes]
        ref = np.zeros(nbytes + 40, np.uint8)
        ref[off:off + nbytes] = h[off:off + nbytes]
        np.testing.assert_array_equal(host(y), ref)
        y[...] = on(device, np.zeros(nbytes + 40, np.uint8))


@requires_gpu
def test_huge_contiguous_copy():
    """More 16-byte words than one pass of the copy's largest grid covers (2^28):
    the grid-stride loop must pick up the rest. About 9 GiB of GPU memory."""
    n = (1 << 30) + 1029  # uint32: 4 GiB + a tail that is not a whole word
    x = ca.arange(n, dtype=np.uint32, device="cuda:0")
    y = x.copy()
    assert bool((y == x).all())
    np.testing.assert_array_equal(host(y[-2000:]), np.arange(n - 2000, n, dtype=np.uint32))
    del x, y


# ---- layouts that need basic indexing (skipped until it lands) -----------------------

@pytest.mark.parametrize("dt", ALL_DTYPES, ids=NAME)
def test_strided_and_negative(device, dt):
    rng = np.random.default_rng(8)
    a = source(dt, (2000,), rng)
    x = on(device, a)
    sliceable(x)
    for key in (slice(None, None, 2), slice(None, None, -1), slice(None, None, -3),
                slice(1, None), slice(3, -5)):
        v, r = x[key], a[key]
        np.testing.assert_array_equal(host(v.copy()), r.copy())
        np.testing.assert_array_equal(host(ca.ascontiguousarray(v)), r)
        for other in (np.float16, np.float64, np.int32, np.complex64):
            assert_same(host(v.astype(other)), expected_cast(r, other))
    m = source(dt, (40, 50), rng)
    y = on(device, m)
    for key in ((slice(None, None, -1), slice(None, None, 2)), (slice(1, None), slice(None, -1))):
        np.testing.assert_array_equal(host(y[key].copy()), m[key])
        np.testing.assert_array_equal(host(y[key].T.copy()), m[key].T.copy())


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=NAME)
def test_assignment_broadcast_and_overlap(device, dt):
    rng = np.random.default_rng(2)
    a = source(dt, (30, 40), rng)
    x = on(device, a.copy())
    sliceable(x)
    row = source(dt, (40,), rng)
    x[...] = on(device, row)
    np.testing.assert_array_equal(host(x), np.broadcast_to(row, (30, 40)))
    # overlapping source and destination (csrc copies through a temporary)
    b = a.copy()
    y = on(device, a.copy())
    y[1:] = y[:-1]
    b[1:] = b[:-1]
    np.testing.assert_array_equal(host(y), b)
    # a strided destination
    z = on(device, np.zeros((30, 40), dt))
    z[::2, ::-1] = on(device, a[::2])
    ref = np.zeros((30, 40), dt)
    ref[::2, ::-1] = a[::2]
    np.testing.assert_array_equal(host(z), ref)
    z[:, 1:].fill(a[0, 0])
    ref[:, 1:] = a[0, 0]
    np.testing.assert_array_equal(host(z), ref)


def _views(xp, dtype, device):
    """CuPy's astype-strides sources and a few more views: (1, 2, 3), reversed
    rows, swapped axes, a broadcast, a step and a transposed step."""
    base = np.arange(24).astype(dtype)
    other = np.empty((2, 3, 2), dtype=dtype)
    if xp is ca:
        base, other = on(device, base), on(device, other)
    return [base[:6].reshape(1, 2, 3), base[:6].reshape(2, 3)[::-1, :],
            xp.swapaxes(base.reshape(2, 3, 4), 1, 0),
            xp.broadcast_arrays(base[:2], other)[0],
            base.reshape(2, 3, 4)[:, ::2, ::-1], base.reshape(4, 6)[::2, 1:].T]


@pytest.mark.parametrize("sdt", [np.bool_, np.int16, np.float16, np.float64,
                                 np.complex64])
@pytest.mark.parametrize("ddt", [np.int8, np.uint32, np.float32, np.complex128])
@pytest.mark.parametrize("order", ["K", "A", "C", "F"])
@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
def test_astype_strides(device, sdt, ddt, order):
    """astype's result layout is NumPy's for every source layout and order
    (strides and values), with copy=False keeping the very array where NumPy does."""
    for v, w in zip(_views(np, sdt, device), _views(ca, sdt, device)):
        assert w.strides == v.strides
        for dt in (ddt, sdt):
            with np.errstate(all="ignore"):
                r = v.astype(dt, order=order)
            c = w.astype(dt, order=order)
            assert c.strides == r.strides and c.dtype == r.dtype
            np.testing.assert_array_equal(host(c), r)
            same = v.astype(dt, order=order, copy=False) is v
            assert (w.astype(dt, order=order, copy=False) is w) == same
