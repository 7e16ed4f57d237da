"""Shape manipulation against NumPy, on every dtype and both devices."""

import numpy as np
import pytest
from numpy.exceptions import AxisError

import cuarray as ca
from conftest import ALL_DTYPES, random_array


def dev_array(x, device):
    return ca.array(np.array(x, copy=True), device=device)


def check_same(got, want):
    assert isinstance(got, ca.ndarray)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_array_equal(got.get(), want)


def shares(view, base):
    """Whether writing through `view` changes `base` (device-independent)."""
    if view.size == 0:
        return True
    before = base.get()
    view[(0,) * view.ndim] = 1 if view.dtype != np.bool_ else not bool(view.get().flat[0])
    changed = not np.array_equal(base.get(), before)
    return changed


def layouts(x, device):
    """(NumPy, cuarray) pairs of x in several layouts: contiguous, transposed,
    strided, reversed."""
    a = dev_array(x, device)
    out = [(x, a)]
    if x.ndim >= 1:
        out.append((x[::-1], a[::-1]))
        # the same values, every other row of a larger array
        big = np.repeat(x, 2, axis=0)
        out.append((big[::2], dev_array(big, device)[::2]))
    if x.ndim >= 2:
        out.append((x.T, a.T))
        out.append((x[:, ::-1].swapaxes(0, 1), a[:, ::-1].swapaxes(0, 1)))
    return out


# ---- reshape / ravel / flatten ------------------------------------------------------

RESHAPES = [(24,), (4, 6), (2, 3, 4), (-1,), (6, -1), (2, -1, 3), (1, 24, 1),
            (4, 1, 6), (2, 2, 2, 3), (3, 8)]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_reshape_every_dtype(device, dtype):
    x = random_array((2, 3, 4), dtype)
    for xn, a in layouts(x, device):
        for shape in RESHAPES:
            for order in ("C", "F", "A"):
                want = xn.reshape(shape, order=order)
                check_same(a.reshape(shape, order=order), want)
                check_same(ca.reshape(a, shape, order=order), want)
            check_same(a.reshape(*shape), xn.reshape(*shape))


def test_reshape_view_when_numpy_views(device):
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    cases = [
        (lambda t: t, (6, 4)), (lambda t: t, (24,)), (lambda t: t[:, :, ::2], (6, 2)),
        (lambda t: t.transpose(0, 2, 1), (2, 12)), (lambda t: t.T, (4, 6)),
        (lambda t: t[:, 1:], (4, 4)), (lambda t: t[::-1], (2, 12)),
        (lambda t: t[:, None], (2, 1, 12)),
    ]
    for f, shape in cases:
        a = dev_array(x, device)
        xv = f(x.copy())
        nv = xv.reshape(shape)
        numpy_view = np.shares_memory(nv, xv)
        v = f(a).reshape(shape)
        check_same(v, nv)
        assert (v.base is a) == numpy_view, (shape, numpy_view)
        assert shares(v, a) == numpy_view


def test_reshape_copy_argument(device):
    a = dev_array(np.arange(12.0).reshape(3, 4), device)
    v = a.reshape(4, 3, copy=False)
    assert v.base is a
    c = a.reshape(4, 3, copy=True)
    assert c.base is None and c.flags.owndata
    with pytest.raises(ValueError, match="copy"):
        a.T.reshape(12, copy=False)
    check_same(a.T.reshape(12), np.arange(12.0).reshape(3, 4).T.reshape(12))


def test_reshape_errors(device):
    a = dev_array(np.zeros((2, 3)), device)
    for shape in [(4,), (4, -1), (-1, -1), (5, 0), (7,), (0, -1)]:
        with pytest.raises(ValueError):
            np.zeros((2, 3)).reshape(shape)
        with pytest.raises(ValueError):
            a.reshape(shape)
    with pytest.raises(ValueError, match="'K'"):
        a.reshape(6, order="K")
    with pytest.raises(TypeError):
        a.reshape(2.0, 3)
    with pytest.raises(TypeError):
        a.reshape()
    z = dev_array(np.zeros((0, 3)), device)
    check_same(z.reshape(3, 0), np.zeros((3, 0)))
    check_same(z.reshape(-1, 6), np.zeros((0, 6)))
    check_same(dev_array(np.float64(5), device).reshape(1, 1), np.full((1, 1), 5.0))
    check_same(dev_array(np.ones(1), device).reshape(()), np.ones(()))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_ravel_flatten_every_dtype(device, dtype):
    x = random_array((3, 4, 5), dtype)
    for xn, a in layouts(x, device):
        for order in ("C", "F", "A", "K"):
            check_same(a.ravel(order), xn.ravel(order))
            check_same(ca.ravel(a, order=order), np.ravel(xn, order=order))
            f = a.flatten(order)
            check_same(f, xn.flatten(order))
            assert f.base is None


def test_ravel_views(device):
    x = np.arange(12).reshape(3, 4)
    a = dev_array(x, device)
    assert a.ravel().base is a
    assert a.T.ravel("F").base is a
    assert a.T.ravel("K").base is a
    assert a[:, ::2].ravel().base is not a
    f = a.flatten()
    f[0] = 100
    assert a.get()[0, 0] == 0


# ---- axis permutations ------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_transpose_family_every_dtype(device, dtype):
    x = random_array((2, 3, 4), dtype)
    a = dev_array(x, device)
    check_same(a.transpose(), x.transpose())
    check_same(a.transpose(1, 0, 2), x.transpose(1, 0, 2))
    check_same(a.transpose((2, 0, 1)), x.transpose((2, 0, 1)))
    check_same(a.transpose([-1, 0, 1]), x.transpose([-1, 0, 1]))
    check_same(ca.transpose(a), np.transpose(x))
    check_same(ca.transpose(a, (0, 2, 1)), np.transpose(x, (0, 2, 1)))
    check_same(ca.permute_dims(a, (2, 1, 0)), np.permute_dims(x, (2, 1, 0)))
    check_same(a.swapaxes(0, 2), x.swapaxes(0, 2))
    check_same(ca.swapaxes(a, -1, 1), np.swapaxes(x, -1, 1))
    for src, dst in [(0, -1), (-1, 0), ((0, 1), (2, 0)), ([2], [1]), ((0, 1, 2), (2, 1, 0))]:
        check_same(ca.moveaxis(a, src, dst), np.moveaxis(x, src, dst))
    check_same(a.T, x.T)
    check_same(a.mT, np.swapaxes(x, -1, -2))
    for v in [a.transpose(), a.swapaxes(0, 1), ca.moveaxis(a, 0, 2)]:
        assert v.base is a


def test_axis_errors(device):
    a = dev_array(np.zeros((2, 3)), device)
    with pytest.raises(AxisError):
        a.swapaxes(0, 2)
    with pytest.raises(AxisError):
        ca.moveaxis(a, 3, 0)
    with pytest.raises(AxisError):
        a.transpose(0, 2)
    with pytest.raises(ValueError, match="repeated"):
        a.transpose(0, 0)
    with pytest.raises(ValueError, match="match"):
        a.transpose(0)
    with pytest.raises(ValueError, match="repeated"):
        ca.moveaxis(a, (0, 0), (0, 1))
    with pytest.raises(ValueError):
        ca.moveaxis(a, (0, 1), 0)
    with pytest.raises(AxisError):
        a.squeeze(2)
    with pytest.raises(AxisError):
        ca.expand_dims(a, 3)
    with pytest.raises(AxisError):
        ca.flip(a, -3)
    with pytest.raises(AxisError):
        ca.concatenate([a, a], axis=2)
    with pytest.raises(AxisError):
        ca.stack([a, a], axis=3)
    assert issubclass(AxisError, IndexError) and issubclass(AxisError, ValueError)


# ---- squeeze / expand_dims / flip -------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_squeeze_expand_flip_every_dtype(device, dtype):
    x = random_array((1, 3, 1, 4), dtype)
    a = dev_array(x, device)
    for axis in [None, 0, 2, (0, 2), -2, (-4,)]:
        check_same(a.squeeze(axis), x.squeeze(axis))
        check_same(ca.squeeze(a, axis=axis), np.squeeze(x, axis=axis))
    check_same(a.squeeze(), x.squeeze())
    for axis in [0, -1, 2, (0, 1), (0, -1), (1, 3, 5)]:
        check_same(ca.expand_dims(a, axis), np.expand_dims(x, axis))
    for axis in [None, 0, 1, -1, (1, 3), (0, 1, 2, 3)]:
        got = ca.flip(a, axis=axis)
        check_same(got, np.flip(x, axis=axis))
        assert got.base is a
    check_same(ca.flip(a), np.flip(x))
    y = random_array((5,), dtype)
    check_same(ca.flip(dev_array(y, device)[1:4]), np.flip(y[1:4]))


def test_squeeze_errors(device):
    a = dev_array(np.zeros((1, 3)), device)
    with pytest.raises(ValueError, match="size not equal to one"):
        a.squeeze(1)
    with pytest.raises(ValueError, match="repeated"):
        ca.expand_dims(a, (0, 0))
    with pytest.raises(ValueError, match="repeated"):
        ca.flip(a, (0, 0))


def test_flip_writes_through(device):
    x = np.arange(6).reshape(2, 3)
    a = dev_array(x, device)
    f = ca.flip(a, 1)
    f[0, 0] = 50
    assert a.get()[0, 2] == 50
    check_same(ca.flip(dev_array(np.zeros((0, 3)), device)), np.zeros((0, 3)))


# ---- broadcasting -----------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_broadcast_every_dtype(device, dtype):
    x = random_array((3, 1), dtype)
    a = dev_array(x, device)
    b = ca.broadcast_to(a, (2, 3, 4))
    check_same(b, np.broadcast_to(x, (2, 3, 4)))
    assert not b.flags.writeable
    assert b.base is a
    check_same(ca.broadcast_to(a, (3, 1)), x)
    y = random_array((4,), dtype)
    r = ca.broadcast_arrays(a, dev_array(y, device))
    w = np.broadcast_arrays(x, y)
    assert isinstance(r, tuple) and len(r) == 2
    for g, e in zip(r, w):
        check_same(g, e)
    same = ca.broadcast_arrays(a, a)
    assert same[0] is a


def test_broadcast_errors_and_shapes(device):
    a = dev_array(np.zeros((2, 3)), device)
    with pytest.raises(ValueError):
        ca.broadcast_to(a, (3, 3))
    with pytest.raises(ValueError):
        ca.broadcast_to(a, (3,))
    with pytest.raises(ValueError):
        ca.broadcast_to(a, (-1, 3))
    with pytest.raises(ValueError):
        ca.broadcast_arrays(a, dev_array(np.zeros(4), device))
    assert ca.broadcast_shapes((2, 1), (3,), ()) == np.broadcast_shapes((2, 1), (3,), ())
    assert ca.broadcast_shapes() == ()
    with pytest.raises(ValueError):
        ca.broadcast_shapes((2,), (3,))
    check_same(ca.broadcast_to(dev_array(np.float32(2), device), (2, 2)),
               np.full((2, 2), 2, np.float32))


# ---- concatenate / stack ----------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_concatenate_stack_every_dtype(device, dtype):
    x = random_array((2, 3), dtype)
    y = random_array((4, 3), dtype)
    z = random_array((2, 5), dtype)
    a, b, c = (dev_array(t, device) for t in (x, y, z))
    check_same(ca.concatenate([a, b]), np.concatenate([x, y]))
    check_same(ca.concatenate((a, c), axis=1), np.concatenate((x, z), axis=1))
    check_same(ca.concatenate([a, c], axis=-1), np.concatenate([x, z], axis=-1))
    check_same(ca.concatenate([a, b, c], axis=None), np.concatenate([x, y, z], axis=None))
    check_same(ca.concat([a, b]), np.concatenate([x, y]))
    check_same(ca.concatenate([a.T, c.T]), np.concatenate([x.T, z.T]))
    check_same(ca.concatenate([a[:, ::-1], b[::2]]), np.concatenate([x[:, ::-1], y[::2]]))
    check_same(ca.concatenate([a]), x)
    check_same(ca.concatenate([a, a[:0]]), x)
    for axis in (0, 1, 2, -1):
        check_same(ca.stack([a, a, a], axis=axis), np.stack([x, x, x], axis=axis))
    check_same(ca.stack([a.T, a.T]), np.stack([x.T, x.T]))


@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.float32, np.complex128])
def test_concatenate_pieces(device, dtype):
    # the one-launch join (C-contiguous inputs of the result's dtype): more inputs
    # than one launch takes, empty pieces between, inner axes, 3-d, odd row bytes
    rng = np.random.default_rng(11)
    xs = [random_array((2, k, 3), dtype, rng) for k in (1, 0, 4, 2, 0, 3, 1, 5, 2, 1, 7)]
    ds = [dev_array(x, device) for x in xs]
    for axis in (1, -2):
        check_same(ca.concatenate(ds, axis=axis), np.concatenate(xs, axis=axis))
    ys = [random_array((3, 2, k), dtype, rng) for k in (1, 3, 0, 2)]
    check_same(ca.concatenate([dev_array(y, device) for y in ys], axis=2),
               np.concatenate(ys, axis=2))
    check_same(ca.concatenate([dev_array(y, device) for y in ys], axis=None),
               np.concatenate(ys, axis=None))
    zs = [random_array((k,), dtype, rng) for k in (1023, 6, 1024, 5)]
    check_same(ca.hstack([dev_array(z, device) for z in zs]), np.hstack(zs))
    check_same(ca.vstack([dev_array(z[:5], device) for z in zs]), np.vstack([z[:5] for z in zs]))
    # a repeated input, a one-element piece, a piece at an odd offset
    z = random_array((7,), dtype, rng)
    a = dev_array(z, device)
    check_same(ca.concatenate([a, a, a[:1], a[3:]]), np.concatenate([z, z, z[:1], z[3:]]))
    # out= and mixed layouts take the general path, with the same answer
    x = random_array((4, 3), dtype, rng)
    a = dev_array(x, device)
    out = ca.empty((8, 3), dtype=dtype, device=device)
    r = ca.concatenate([a, a[::-1]], out=out)
    assert r is out
    check_same(out, np.concatenate([x, x[::-1]]))
    check_same(ca.concatenate([a, a.T.T[:, ::-1]], axis=1),
               np.concatenate([x, x[:, ::-1]], axis=1))


def test_concatenate_promotes(device):
    dts = [np.int8, np.uint8, np.int32, np.float16, np.float32, np.complex64, np.bool_]
    rng = np.random.default_rng(5)
    for d1 in dts:
        for d2 in dts:
            x = random_array((2, 2), d1, rng)
            y = random_array((1, 2), d2, rng)
            want = np.concatenate([x, y])
            check_same(ca.concatenate([dev_array(x, device), dev_array(y, device)]), want)
            x2 = random_array((2, 2), d2, rng)
            check_same(ca.stack([dev_array(x, device), dev_array(x2, device)]),
                       np.stack([x, x2]))
    x = random_array((2, 2), np.float64)
    check_same(ca.concatenate([dev_array(x, device)] * 2, dtype=np.float32),
               np.concatenate([x, x], dtype=np.float32))
    with pytest.raises(TypeError):
        ca.concatenate([dev_array(x, device)] * 2, dtype=np.int32)
    check_same(ca.concatenate([dev_array(x, device)] * 2, dtype=np.int32, casting="unsafe"),
               np.concatenate([x, x], dtype=np.int32, casting="unsafe"))
    out = ca.zeros((4, 2), dtype=np.float64, device=device)
    r = ca.concatenate([dev_array(x, device)] * 2, out=out)
    assert r is out
    check_same(out, np.concatenate([x, x]))


def test_concatenate_errors(device):
    a = dev_array(np.zeros((2, 3)), device)
    with pytest.raises(ValueError, match="must match exactly"):
        ca.concatenate([a, dev_array(np.zeros((2, 2)), device)])
    with pytest.raises(ValueError, match="same number of dimensions"):
        ca.concatenate([a, dev_array(np.zeros(3), device)])
    with pytest.raises(ValueError, match="zero-dimensional"):
        ca.concatenate([dev_array(np.float64(1), device)])
    with pytest.raises(ValueError, match="at least one"):
        ca.concatenate([])
    with pytest.raises(ValueError, match="same shape"):
        ca.stack([a, a.T])
    with pytest.raises(ValueError, match="at least one"):
        ca.stack([])
    with pytest.raises(TypeError):
        ca.concatenate([a, np.zeros((2, 3))])
    with pytest.raises(ValueError):
        ca.concatenate([a, a], out=ca.zeros((3, 3), device=device))


def test_mixed_devices_raise():
    if not ca.cuda.is_available():
        pytest.skip("needs a GPU")
    a = dev_array(np.zeros(3), "cpu")
    b = dev_array(np.zeros(3), "cuda:0")
    with pytest.raises(ValueError):
        ca.concatenate([a, b])
    with pytest.raises(ValueError):
        ca.stack([a, b])
    with pytest.raises(ValueError):
        ca.broadcast_arrays(a, b)


# ---- view(dtype) --------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_view_dtype_every_dtype(device, dtype):
    x = random_array((4, 8), dtype)
    a = dev_array(x, device)
    for to in ALL_DTYPES:
        try:
            want = x.view(to)
        except ValueError:
            with pytest.raises(ValueError):
                a.view(to)
            continue
        got = a.view(to)
        assert got.base is a
        if np.dtype(to).kind == "f" or np.dtype(to).kind == "c":
            # compare bit patterns (NaN payloads)
            np.testing.assert_array_equal(got.get().view(np.uint8), want.view(np.uint8))
            assert got.shape == want.shape
        else:
            check_same(got, want)
    check_same(a.view(), x.view())
    assert a.view(ca.ndarray).base is a


def test_view_dtype_rules(device):
    x = np.zeros((2, 4), np.int8)
    a = dev_array(x, device)
    assert a.view(np.int32).shape == (2, 1)
    assert a[:, :2].view(np.int16).shape == (2, 1)
    with pytest.raises(ValueError, match="contiguous"):
        a.T.view(np.int16)
    with pytest.raises(ValueError, match="divisor"):
        dev_array(np.zeros((4, 3), np.int8), device).view(np.int16)
    with pytest.raises(ValueError, match="0d"):
        dev_array(np.int32(1), device).view(np.int8)
    with pytest.raises(ValueError, match="aligned"):
        dev_array(np.zeros(9, np.int8), device)[1:].view(np.int64)
    with pytest.raises(TypeError):
        a.view("object")
    v = a.view(np.uint8)
    v[0, 0] = 7
    assert a.get()[0, 0] == 7
