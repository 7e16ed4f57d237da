"""The manipulation functions of python/cuarray/_manipulation.py against NumPy on both
devices: results, shapes and dtypes, axes (negative ones too), 0-d and empty inputs,
and NumPy's exception types for bad input."""

import numpy as np
import pytest

import cuarray as ca
from conftest import agree, requires_gpu, random_array

DEVICES = ["cpu", pytest.param("cuda:0", marks=requires_gpu)]
DTYPES = [np.bool_, np.int8, np.uint16, np.int64, np.float16, np.float32, np.float64,
          np.complex64]
NUM_DTYPES = [np.int8, np.int32, np.uint8, np.float32, np.float64, np.complex128]


@pytest.fixture(params=DEVICES)
def dev(request):
    return request.param


def same(got, want):
    """Equal values (NaNs equal), shape and dtype."""
    assert isinstance(got, ca.ndarray), type(got)
    g = got.get()
    want = np.asarray(want)
    assert g.shape == want.shape, (g.shape, want.shape)
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    np.testing.assert_array_equal(g, want)


def same_new(dev, fn, dtype, shape, *args):
    """ca.fn(x, *args) of a random array x equals np.fn's and owns its memory;
    returns (host input, device input)."""
    h = random_array(shape, dtype)
    x = ca.asarray(h, device=dev)
    got = getattr(ca, fn)(x, *args)
    same(got, getattr(np, fn)(h, *args))
    assert not ca.shares_memory(got, x)
    return h, x


def same_list(got, want):
    assert isinstance(got, (list, tuple)) and len(got) == len(want)
    for g, w in zip(got, want):
        same(g, w)


def both_raise(fn_ca, fn_np, exc=None):
    """NumPy raises; cuarray raises the same exception type."""
    with pytest.raises(Exception) as e_np:
        fn_np()
    with pytest.raises(type(e_np.value) if exc is None else exc):
        fn_ca()


SHAPES = [(), (0,), (5,), (3, 4), (2, 0, 3), (2, 3, 4)]


# -- atleast_* ---------------------------------------------------------------------

@pytest.mark.parametrize("shape", SHAPES + [(2, 1, 3, 2)])
@pytest.mark.parametrize("name", ["atleast_1d", "atleast_2d", "atleast_3d"])
def test_atleast(dev, shape, name):
    h = random_array(shape, np.float32)
    x = ca.asarray(h, device=dev)
    same(getattr(ca, name)(x), getattr(np, name)(h))
    got = getattr(ca, name)(x, x[...])
    assert isinstance(got, tuple)
    same_list(got, getattr(np, name)(h, h))
    same(getattr(ca, name)(3), getattr(np, name)(3))
    assert getattr(ca, name)() == getattr(np, name)()


# -- stacks ------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shapes", [[(), ()], [(3,), (2,)], [(2, 3), (2, 1)],
                                    [(2, 3, 1), (2, 2, 1)], [(0,), (4,)]])
def test_hstack(dev, dtype, shapes):
    hs = [random_array(s, dtype) for s in shapes]
    same(ca.hstack([ca.asarray(h, device=dev) for h in hs]), np.hstack(hs))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shapes", [[(), ()], [(3,), (3,)], [(2, 3), (3,)],
                                    [(2, 3, 4), (1, 3, 4)], [(0, 4), (4,)]])
def test_vstack(dev, dtype, shapes):
    hs = [random_array(s, dtype) for s in shapes]
    same(ca.vstack([ca.asarray(h, device=dev) for h in hs]), np.vstack(hs))
    same(ca.vstack(tuple(ca.asarray(h, device=dev) for h in hs)), np.vstack(hs))


@pytest.mark.parametrize("shapes", [[(), ()], [(3,), (3,)], [(2, 3), (2, 3)],
                                    [(2, 3, 4), (2, 3, 1)]])
def test_dstack_column_stack(dev, shapes):
    hs = [random_array(s, np.int16) for s in shapes]
    xs = [ca.asarray(h, device=dev) for h in hs]
    same(ca.dstack(xs), np.dstack(hs))
    if len(shapes[0]) <= 2:
        same(ca.column_stack(xs), np.column_stack(hs))


def test_stack_dtype_promotion_and_casting(dev):
    a = ca.asarray(np.arange(3, dtype=np.int8), device=dev)
    b = ca.asarray(np.ones(3, dtype=np.float32), device=dev)
    same(ca.hstack([a, b]), np.hstack([a.get(), b.get()]))
    same(ca.vstack([a, b], dtype=np.float64),
         np.vstack([a.get(), b.get()], dtype=np.float64))
    same(ca.hstack([a, [5, 6]]), np.hstack([a.get(), [5, 6]]))
    with pytest.raises(TypeError):
        ca.hstack([b, b], dtype=np.int32, casting="safe")


def test_stack_errors(dev):
    a = ca.asarray(np.zeros((2, 3)), device=dev)
    b = ca.asarray(np.zeros((3, 2)), device=dev)
    h, g = a.get(), b.get()
    both_raise(lambda: ca.vstack([a, b]), lambda: np.vstack([h, g]))
    both_raise(lambda: ca.hstack([a, b]), lambda: np.hstack([h, g]))
    both_raise(lambda: ca.dstack([a, b]), lambda: np.dstack([h, g]))
    both_raise(lambda: ca.column_stack([a, b]), lambda: np.column_stack([h, g]))
    both_raise(lambda: ca.hstack([]), lambda: np.hstack([]))
    both_raise(lambda: ca.vstack(x for x in [a]), lambda: np.vstack(x for x in [h]))


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.complex64])
@pytest.mark.parametrize("shape,vshape,axis", [((3, 4), (2, 4), 0), ((3, 4), (3, 1), 1),
                                               ((3, 4), (3, 2), -1), ((), (), None),
                                               ((2, 3), (5,), None), ((0,), (3,), 0)])
def test_append(dev, dtype, shape, vshape, axis):
    h, v = random_array(shape, dtype), random_array(vshape, np.float32)
    same(ca.append(ca.asarray(h, device=dev), ca.asarray(v, device=dev), axis=axis),
         np.append(h, v, axis=axis))
    same(ca.append(ca.asarray(h, device=dev), [1, 2], axis=None),
         np.append(h, [1, 2]))


def test_append_errors(dev):
    a = ca.asarray(np.zeros((2, 3)), device=dev)
    both_raise(lambda: ca.append(a, a, axis=2), lambda: np.append(a.get(), a.get(), 2))
    both_raise(lambda: ca.append(a, [1, 2], axis=0),
               lambda: np.append(a.get(), [1, 2], axis=0))


# -- splits ------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.bool_, np.int64, np.float32])
@pytest.mark.parametrize("ios", [1, 3, 4, 7, [2, 5], [0, 0, 3], [-2], [1, 10], []])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_array_split(dev, dtype, ios, axis):
    h = random_array((7, 6), dtype)
    x = ca.asarray(h, device=dev)
    same_list(ca.array_split(x, ios, axis=axis), np.array_split(h, ios, axis=axis))


def test_array_split_empty_and_errors(dev):
    h = np.zeros((0, 3), np.float32)
    x = ca.asarray(h, device=dev)
    same_list(ca.array_split(x, 2), np.array_split(h, 2))
    same_list(ca.array_split(x, 3, axis=1), np.array_split(h, 3, axis=1))
    both_raise(lambda: ca.array_split(x, 0), lambda: np.array_split(h, 0))
    both_raise(lambda: ca.array_split(x, 2, axis=2), lambda: np.array_split(h, 2, 2))
    same_list(ca.array_split(x, ca.asarray([1], device=dev), axis=1),
              np.array_split(h, [1], axis=1))


@pytest.mark.parametrize("ios", [2, 3, [1, 4]])
def test_split_family(dev, ios):
    h = random_array((6, 6, 6), np.int32)
    x = ca.asarray(h, device=dev)
    for axis in (0, 1, 2, -1):
        same_list(ca.split(x, ios, axis=axis), np.split(h, ios, axis=axis))
    same_list(ca.hsplit(x, ios), np.hsplit(h, ios))
    same_list(ca.vsplit(x, ios), np.vsplit(h, ios))
    same_list(ca.dsplit(x, ios), np.dsplit(h, ios))
    h1 = h[0, 0]
    same_list(ca.hsplit(ca.asarray(h1, device=dev), ios), np.hsplit(h1, ios))


def test_split_errors(dev):
    h = np.arange(12.0).reshape(3, 4)
    x = ca.asarray(h, device=dev)
    both_raise(lambda: ca.split(x, 2), lambda: np.split(h, 2))
    both_raise(lambda: ca.hsplit(x[0, 0], 2), lambda: np.hsplit(h[0, 0], 2))
    both_raise(lambda: ca.vsplit(x[0], 2), lambda: np.vsplit(h[0], 2))
    both_raise(lambda: ca.dsplit(x, 2), lambda: np.dsplit(h, 2))


# -- flips, rot90, roll, rollaxis ----------------------------------------------------

@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 4), (0, 2)])
def test_flips(dev, shape):
    h = random_array(shape, np.complex64)
    x = ca.asarray(h, device=dev)
    same(ca.fliplr(x), np.fliplr(h))
    same(ca.flipud(x), np.flipud(h))
    same(ca.flipud(x.reshape(-1)), np.flipud(h.reshape(-1)))
    both_raise(lambda: ca.fliplr(x.reshape(-1)), lambda: np.fliplr(h.reshape(-1)))
    both_raise(lambda: ca.flipud(ca.asarray(1, device=dev)), lambda: np.flipud(1))


@pytest.mark.parametrize("k", [-3, -1, 0, 1, 2, 3, 4, 5])
@pytest.mark.parametrize("axes", [(0, 1), (1, 0), (1, 2), (-1, 0), (2, -3)])
def test_rot90(dev, k, axes):
    h = random_array((2, 3, 4), np.int16)
    same(ca.rot90(ca.asarray(h, device=dev), k, axes), np.rot90(h, k, axes))


def test_rot90_errors(dev):
    h = np.zeros((2, 3))
    x = ca.asarray(h, device=dev)
    for axes in [(0,), (0, 0), (0, 2), (0, -2), (0, 1, 2)]:
        both_raise(lambda: ca.rot90(x, 1, axes), lambda: np.rot90(h, 1, axes))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shift,axis", [(1, None), (-7, None), (0, None), (2, 0),
                                        (-1, -1), (13, 1), ((1, 2), (0, 1)),
                                        ((1, -1), (1, 1)), (3, (0, 1)), (0, 1)])
def test_roll(dev, dtype, shift, axis):
    h = random_array((3, 5), dtype)
    x = ca.asarray(h, device=dev)
    got = ca.roll(x, shift, axis)
    same(got, np.roll(h, shift, axis))
    assert not ca.shares_memory(got, x)


def test_roll_edge_cases(dev):
    for h in (np.arange(0.0), np.zeros((2, 0)), np.array(3.0)):
        x = ca.asarray(h, device=dev)
        same(ca.roll(x, 2), np.roll(h, 2))
    h = np.zeros((2, 0))
    same(ca.roll(ca.asarray(h, device=dev), 1, axis=1), np.roll(h, 1, axis=1))
    h = np.arange(6).reshape(2, 3)
    x = ca.asarray(h, device=dev)
    both_raise(lambda: ca.roll(x, 1, axis=2), lambda: np.roll(h, 1, axis=2))
    both_raise(lambda: ca.roll(x, (1, 2, 3), axis=(0, 1)),
               lambda: np.roll(h, (1, 2, 3), axis=(0, 1)))
    both_raise(lambda: ca.roll(x, [[1]], axis=[[0]]), lambda: np.roll(h, [[1]], [[0]]))


@pytest.mark.parametrize("axis", [0, 1, 3, -1, -4])
@pytest.mark.parametrize("start", [0, 1, 2, 4, -1, -4])
def test_rollaxis(dev, axis, start):
    h = random_array((2, 3, 4, 5), np.float32)
    same(ca.rollaxis(ca.asarray(h, device=dev), axis, start),
         np.rollaxis(h, axis, start))


def test_rollaxis_errors(dev):
    h = np.zeros((2, 3))
    x = ca.asarray(h, device=dev)
    both_raise(lambda: ca.rollaxis(x, 2), lambda: np.rollaxis(h, 2))
    both_raise(lambda: ca.rollaxis(x, 0, 3), lambda: np.rollaxis(h, 0, 3))
    both_raise(lambda: ca.rollaxis(x, 0, -3), lambda: np.rollaxis(h, 0, -3))


# -- tile, repeat, resize ------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (0, 2)])
@pytest.mark.parametrize("reps", [1, 3, 0, (2,), (2, 1), (1, 2, 2), (), (3, 0)])
def test_tile(dev, dtype, shape, reps):
    same_new(dev, "tile", dtype, shape, reps)


@pytest.mark.parametrize("reps", [2, 4, 8, 9, (5,), (1,), (0,)])
@pytest.mark.parametrize("shape", [(1024,), (3, 5), (2, 0), (2, 1, 3)])
def test_tile_last_axis(dev, shape, reps):
    # one rep on the last axis of a C-contiguous array: one joining launch
    for dtype in (np.float32, np.complex128, np.bool_):
        h, x = same_new(dev, "tile", dtype, shape, reps)
        if len(shape) > 1:
            same(ca.tile(x[:, ::-1], reps), np.tile(h[:, ::-1], reps))


def test_tile_errors(dev):
    h = np.arange(3)
    x = ca.asarray(h, device=dev)
    both_raise(lambda: ca.tile(x, -1), lambda: np.tile(h, -1))
    both_raise(lambda: ca.tile(x, 1.5), lambda: np.tile(h, 1.5))
    same(ca.tile([1, 2], 2).to_device(dev) if hasattr(ca.ndarray, "to_device")
         else ca.tile([1, 2], 2), np.tile([1, 2], 2))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,repeats,axis", [
    ((), 3, None), ((4,), 2, None), ((2, 3), 2, 0), ((2, 3), 3, -1), ((2, 3), 0, 1),
    ((2, 3), [1, 0, 2], 1), ((2, 3), [2, 1], -2), ((2, 3), [4], 1), ((0, 3), 2, 0),
    ((2, 3), 2, None), ((2, 3), [1, 2, 0, 1, 1, 3], None), ((0,), [], 0)])
def test_repeat(dev, dtype, shape, repeats, axis):
    h = random_array(shape, dtype)
    x = ca.asarray(h, device=dev)
    want = np.repeat(h, repeats, axis)
    got = ca.repeat(x, repeats, axis)
    same(got, want)
    assert not ca.shares_memory(got, x)
    r = np.asarray(repeats, dtype=np.int64)
    same(ca.repeat(x, ca.asarray(r, device=dev), axis), want)


def test_repeat_errors(dev):
    h = np.arange(6).reshape(2, 3)
    x = ca.asarray(h, device=dev)
    same(ca.repeat(x, [1.5, 2], 0), np.repeat(h, [1.5, 2], 0))
    same(ca.repeat(x, 1.5, 0), np.repeat(h, 1.5, 0))
    for reps, axis in [(-1, 0), ([1, -1], 0), ([1, 2], 1),
                       ([[1, 2]], 0), (2, 2), (2, -3)]:
        both_raise(lambda: ca.repeat(x, reps, axis), lambda: np.repeat(h, reps, axis))
    d = ca.asarray(np.array([1, -1]), device=dev)
    both_raise(lambda: ca.repeat(x, d, 0), lambda: np.repeat(h, [1, -1], 0))
    d = ca.asarray(np.array([1, 2]), device=dev)
    both_raise(lambda: ca.repeat(x, d, 1), lambda: np.repeat(h, [1, 2], 1))


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.float64])
@pytest.mark.parametrize("shape", [(), (5,), (2, 3), (0,)])
@pytest.mark.parametrize("new", [7, (2, 3), (3, 5), 0, (0, 4), (), (1,), (4, 1, 2)])
def test_resize(dev, dtype, shape, new):
    same_new(dev, "resize", dtype, shape, new)


def test_resize_errors(dev):
    x = ca.asarray(np.arange(3), device=dev)
    both_raise(lambda: ca.resize(x, (2, -1)), lambda: np.resize(np.arange(3), (2, -1)))


# -- trim_zeros ----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.float32, np.complex64])
@pytest.mark.parametrize("trim", ["fb", "f", "b", "BF"])
def test_trim_zeros(dev, dtype, trim):
    for h in ([0, 0, 1, 0, 2, 0, 0], [1, 2], [0, 0, 0], [], [3, 0, 0]):
        h = np.asarray(h, dtype=dtype)
        same(ca.trim_zeros(ca.asarray(h, device=dev), trim),
             np.trim_zeros(h, trim))
    h = np.zeros((4, 5), dtype)
    h[1, 2] = h[2, 3] = 1
    x = ca.asarray(h, device=dev)
    for axis in (None, 0, 1, -1, (0, 1)):
        same(ca.trim_zeros(x, trim, axis=axis), np.trim_zeros(h, trim, axis=axis))


def test_trim_zeros_errors(dev):
    h = np.array([0, 1, 0])
    x = ca.asarray(h, device=dev)
    both_raise(lambda: ca.trim_zeros(x, "x"), lambda: np.trim_zeros(h, "x"))
    both_raise(lambda: ca.trim_zeros(x, axis=1), lambda: np.trim_zeros(h, axis=1))


# -- delete, insert ------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("obj", [0, -1, 2, slice(1, None, 2), slice(None, None, -2),
                                 [0, 2], [-1, 0, 0], [], np.array([], dtype=np.int64),
                                 np.array([True, False, True, False])])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_delete(dev, dtype, obj, axis):
    h = random_array((4, 4), dtype)
    x = ca.asarray(h, device=dev)
    if axis is None and isinstance(obj, np.ndarray) and obj.dtype == bool:
        obj = np.resize(obj, 16)
    same(ca.delete(x, obj, axis), np.delete(h, obj, axis))
    if isinstance(obj, np.ndarray) and obj.size:
        same(ca.delete(x, ca.asarray(obj, device=dev), axis), np.delete(h, obj, axis))


def test_delete_edge_and_errors(dev):
    h = np.arange(12).reshape(3, 4)
    x = ca.asarray(h, device=dev)
    same(ca.delete(ca.asarray(np.array(5), device=dev), 0),
         np.delete(np.array(5), 0))
    for obj, axis in [(4, 0), (-5, 1), ([0, 7], 1), (np.array([True, False]), 0),
                      (0, 2), ([0.5], 0)]:
        both_raise(lambda: ca.delete(x, obj, axis), lambda: np.delete(h, obj, axis))


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.complex128, np.bool_])
@pytest.mark.parametrize("obj,values,axis", [
    (1, 9, None), (0, [7, 8], None), (16, [1, 2, 3], None), (-1, 5, 0),
    (2, [1, 2, 3, 4], 0), (2, [[1], [2], [3], [4]], 1), ([2], [[1, 2, 3, 4]], 0),
    (1, [[1, 2, 3, 4], [5, 6, 7, 8]], 0), ([1, 3], 0, 1), ([3, 1], [5, 6], -1),
    ([0, 0, 4], [1, 2, 3], 1), (slice(0, 4, 2), 9, 0), ([-1, -4], 2, 0),
    (4, 1.7, 1)])
def test_insert(dev, dtype, obj, values, axis):
    h = random_array((4, 4), dtype)
    x = ca.asarray(h, device=dev)
    want = np.insert(h, obj, values, axis)
    same(ca.insert(x, obj, values, axis), want)
    same(ca.insert(x, obj, ca.asarray(np.asarray(values), device=dev), axis), want)


@pytest.mark.parametrize("shape,obj,axis", [((), [-2, 0], None), ((3,), [-4, 0], 0),
                                             ((0,), [0, -1], 0), ((1, 2), [2, -3], -1),
                                             ((3,), [3, -4, -4], 0)])
def test_insert_negative_indices_past_the_axis(dev, shape, obj, axis):
    # NumPy adds the axis length once and lets what is still negative count from the
    # end of the new axis (or fail as its assignment does)
    h = random_array(shape, np.int32)
    x = ca.asarray(h, device=dev)
    try:
        want = np.insert(h, obj, 7, axis)
    except Exception as e:
        with pytest.raises(type(e)):
            ca.insert(x, obj, 7, axis)
    else:
        same(ca.insert(x, obj, 7, axis), want)


def test_insert_edge_and_errors(dev):
    h = np.arange(6).reshape(2, 3)
    x = ca.asarray(h, device=dev)
    e = np.zeros((0,), np.float32)
    same(ca.insert(ca.asarray(e, device=dev), 0, 5), np.insert(e, 0, 5))
    same(ca.insert(ca.asarray(np.array(1.5), device=dev), 1, 2),
         np.insert(np.array(1.5), 1, 2))
    for obj, vals, axis in [(4, 1, 1), (-4, 1, 1), ([0, 5], 1, 1), ([[0]], 1, 1),
                            (0, 1, 2), ([0.5], 1, 0)]:
        both_raise(lambda: ca.insert(x, obj, vals, axis),
                   lambda: np.insert(h, obj, vals, axis))


# -- pad -----------------------------------------------------------------------------

PAD_MODES = ["constant", "edge", "reflect", "symmetric", "wrap", "linear_ramp",
             "maximum", "minimum", "mean", "median"]
WIDTHS = [0, 2, (1, 3), ((2, 7), (5, 3)), ((0, 1), (9, 0)), [[1, 12]]]


@pytest.mark.parametrize("dtype", NUM_DTYPES)
@pytest.mark.parametrize("mode", PAD_MODES)
@pytest.mark.parametrize("width", WIDTHS)
def test_pad(dev, dtype, mode, width):
    h = random_array((3, 4), dtype)
    x = ca.asarray(h, device=dev)
    if mode == "median" and dtype == np.complex128:
        return  # NumPy's median of complex numbers sorts; cuarray's rejects them
    want = np.pad(h, width, mode=mode)
    got = ca.pad(x, width, mode=mode)
    if mode in ("linear_ramp", "mean", "median") and dtype not in (np.int8,
                                                                  np.int32, np.uint8):
        np.testing.assert_allclose(got.get(), want, rtol=1e-6)
        assert got.dtype == want.dtype and got.shape == want.shape
    else:
        same(got, want)


@pytest.mark.parametrize("mode", ["reflect", "symmetric"])
@pytest.mark.parametrize("shape", [(1,), (2,), (5,), (3, 2)])
@pytest.mark.parametrize("width", [1, 4, 11, (0, 9)])
def test_pad_reflect_odd(dev, mode, shape, width):
    h = random_array(shape, np.float64)
    x = ca.asarray(h, device=dev)
    for rt in ("even", "odd"):
        np.testing.assert_allclose(ca.pad(x, width, mode, reflect_type=rt).get(),
                                   np.pad(h, width, mode, reflect_type=rt))


@pytest.mark.parametrize("mode", ["reflect", "symmetric"])
def test_pad_reflect_odd_wrapping_ints(dev, mode):
    # int8 arithmetic wraps, so only NumPy's own chunking of a wide pad (whole
    # periods of the original axis) gives NumPy's values
    h = (np.random.default_rng(5).standard_normal((4, 3)) * 60).astype(np.int8)
    x = ca.asarray(h, device=dev)
    for width in [((6, 7), (2, 9)), 13, (0, 11)]:
        same(ca.pad(x, width, mode, reflect_type="odd"),
             np.pad(h, width, mode, reflect_type="odd"))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.uint8, np.complex64])
@pytest.mark.parametrize("ev", [3.0, (-5.0, 4.0), [(-5.0, 4.0), (0.0, 1.0)]])
def test_pad_linear_ramp_arithmetic_dtype(dev, dtype, ev):
    # NumPy's linspace runs in float64 for one end value or one pair (NumPy
    # scalars) but in the array's dtype for a pair per axis (Python floats)
    h = (random_array((2, 3), np.float64) * 3).astype(dtype)
    x = ca.asarray(h, device=dev)
    got = ca.pad(x, [(3, 4), (4, 5)], "linear_ramp", end_values=ev)
    want = np.pad(h, [(3, 4), (4, 5)], "linear_ramp", end_values=ev)
    assert got.dtype == want.dtype
    tol = 2e-3 if dtype == np.float16 else 1e-5
    np.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol)
    h = np.arange(6, dtype=np.uint8).reshape(2, 3)
    same(ca.pad(ca.asarray(h, device=dev), 2, constant_values=-1.5),
         np.pad(h, 2, constant_values=-1.5))


def test_pad_kwargs(dev):
    h = random_array((3, 4, 2), np.float32)
    x = ca.asarray(h, device=dev)
    for cv in (5, (1, 2), ((1, 2), (3, 4), (5, 6)), 2.5):
        same(ca.pad(x, 2, constant_values=cv), np.pad(h, 2, constant_values=cv))
    hi = random_array((3, 4), np.int32)
    xi = ca.asarray(hi, device=dev)
    same(ca.pad(xi, 2, constant_values=2.7), np.pad(hi, 2, constant_values=2.7))
    for ev in (5, (1, -2), ((1, 2), (30, 4))):
        same(ca.pad(xi, (2, 3), "linear_ramp", end_values=ev),
             np.pad(hi, (2, 3), "linear_ramp", end_values=ev))
    for mode in ("maximum", "minimum", "mean", "median"):
        for sl in (1, (1, 3), ((2, 1), (3, 9)), None):
            same(ca.pad(xi, 3, mode, stat_length=sl), np.pad(hi, 3, mode,
                                                              stat_length=sl))
    same(ca.pad(ca.asarray(np.array(4.0), device=dev), 0), np.pad(np.array(4.0), 0))
    for pw in ({1: (1, 2)}, {-1: 2}, {0: (3, 0), 1: 2}):
        same(ca.pad(x, pw), np.pad(h, pw))
    got = ca.pad(x, 1, mode="empty")
    assert got.shape == (5, 6, 4) and got.dtype == x.dtype
    np.testing.assert_array_equal(got.get()[1:-1, 1:-1, 1:-1], h)


def test_pad_empty_and_errors(dev):
    h = np.zeros((0, 3))
    x = ca.asarray(h, device=dev)
    same(ca.pad(x, 1), np.pad(h, 1))
    same(ca.pad(x, ((0, 0), (1, 1)), "edge"), np.pad(h, ((0, 0), (1, 1)), "edge"))
    both_raise(lambda: ca.pad(x, 1, "edge"), lambda: np.pad(h, 1, "edge"))
    g = np.arange(6.0).reshape(2, 3)
    y = ca.asarray(g, device=dev)
    for args, kw in [((1.5,), {}), ((-1,), {}), ((((1, 2), (3, 4), (5, 6)),), {}),
                     ((1, "nope"), {}), ((1, "edge"), {"constant_values": 3}),
                     ((1, "maximum"), {"stat_length": 0}),
                     ((1, "mean"), {"stat_length": -1})]:
        both_raise(lambda: ca.pad(y, *args, **kw), lambda: np.pad(g, *args, **kw))


# -- copyto --------------------------------------------------------------------------

@pytest.mark.parametrize("dst_t,src_t", [(np.float32, np.float64), (np.int64, np.int8),
                                          (np.complex64, np.float32),
                                          (np.int8, np.int8), (np.bool_, np.bool_)])
@pytest.mark.parametrize("src_shape", [(3, 4), (4,), (1, 4), ()])
def test_copyto(dev, dst_t, src_t, src_shape):
    d = random_array((3, 4), dst_t)
    s = random_array(src_shape, src_t)
    w = random_array((3, 4), np.bool_)
    for where in (True, w, w[0], False):
        x = ca.asarray(d, device=dev)
        wx = where if isinstance(where, bool) else ca.asarray(where, device=dev)
        assert ca.copyto(x, ca.asarray(s, device=dev), where=wx) is None
        want = d.copy()
        np.copyto(want, s, where=where)
        same(x, want)


@pytest.mark.parametrize("src_shape,dst_shape", [
    ((1, 1, 3, 4), (3, 4)), ((1, 3, 1), (3, 4)), ((1, 1), ()), ((1,), ()),
    ((1, 1, 4), (3, 4)), ((2, 1, 3, 4), (3, 4)), ((3, 1, 4), (3, 4)), ((5,), (3, 4)),
    ((1, 2), ())])
def test_copyto_leading_unit_axes(dev, src_shape, dst_shape):
    """NumPy's copyto drops a source's leading length-1 axes beyond the destination's
    (not the where mask's); else NumPy's broadcast error, in its words."""
    s = random_array(src_shape, np.float64)
    d = np.zeros(dst_shape)
    x = ca.zeros(dst_shape, device=dev)
    try:
        np.copyto(d, s)
    except ValueError as e:
        with pytest.raises(ValueError) as got:
            ca.copyto(x, ca.asarray(s, device=dev))
        assert str(got.value) == str(e)
    else:
        assert ca.copyto(x, ca.asarray(s, device=dev)) is None
        same(x, d)
    if len(src_shape) > len(dst_shape) and len(dst_shape):
        w = np.ones(src_shape, bool)
        with pytest.raises(ValueError) as want:
            np.copyto(d, s[0], where=w)
        with pytest.raises(ValueError) as got:
            ca.copyto(x, ca.asarray(s[0], device=dev), where=ca.asarray(w, device=dev))
        assert str(got.value) == str(want.value)


def test_copyto_casting_and_errors(dev):
    d = np.zeros((2, 3), np.int32)
    x = ca.asarray(d.copy(), device=dev)  # a copy: on cpu asarray would share d
    f = ca.asarray(np.ones((2, 3)), device=dev)
    both_raise(lambda: ca.copyto(x, f), lambda: np.copyto(d, np.ones((2, 3))))
    ca.copyto(x, f, casting="unsafe")
    np.copyto(d, np.ones((2, 3)), casting="unsafe")
    same(x, d)
    both_raise(lambda: ca.copyto(x, f.astype(np.int64), casting="safe"),
               lambda: np.copyto(d, np.ones((2, 3), np.int64), casting="safe"))
    both_raise(lambda: ca.copyto(x, f, casting="bogus"),
               lambda: np.copyto(d, np.ones((2, 3)), casting="bogus"))
    both_raise(lambda: ca.copyto(x, f[:, :2], casting="unsafe"),
               lambda: np.copyto(d, np.ones((2, 2)), casting="unsafe"))
    both_raise(lambda: ca.copyto(x, 1.5), lambda: np.copyto(d, 1.5))
    both_raise(lambda: ca.copyto(x, 7, where=ca.asarray(np.array([1, 0, 1]),
                                                        device=dev)),
               lambda: np.copyto(d, 7, where=np.array([1, 0, 1])))
    both_raise(lambda: ca.copyto([1, 2], 3), lambda: np.copyto([1, 2], 3))
    ca.copyto(x, 7, where=[True, False, True])
    np.copyto(d, 7, where=[True, False, True])
    same(x, d)
    ca.copyto(x, [[1, 2, 3]])
    np.copyto(d, [[1, 2, 3]])
    same(x, d)


# -- require, asanyarray, asarray_chkfinite ------------------------------------------

def test_require(dev):
    h = random_array((3, 4), np.float32)
    x = ca.asarray(h, device=dev)
    assert ca.require(x) is x
    assert ca.require(x, requirements="C") is x
    f = ca.require(x, requirements=["F", "A"])
    assert f.flags.f_contiguous and not ca.shares_memory(f, x)
    same(f, h)
    assert ca.require(x, np.float64).dtype == np.float64
    v = x[:, ::2]
    c = ca.require(v, requirements=["C_CONTIGUOUS", "W"])
    assert c.flags.c_contiguous
    same(c, h[:, ::2])
    o = ca.require(v, requirements="O")
    assert o.flags.owndata
    same(o, h[:, ::2])
    same(ca.require(x, requirements="E"), h)
    with pytest.raises(ValueError):
        ca.require(x, requirements="CF")
    with pytest.raises(KeyError):
        ca.require(x, requirements="Z")
    with pytest.raises(KeyError):
        np.require(h, requirements="Z")


@pytest.mark.parametrize("dtype", [np.int32, np.float16, np.float64, np.complex64])
def test_asanyarray_chkfinite(dev, dtype):
    h = random_array((3,), dtype)
    x = ca.asarray(h, device=dev)
    assert ca.asanyarray(x) is x
    wide = np.complex128 if h.dtype.kind == "c" else np.float64
    same(ca.asanyarray(x, dtype=wide), np.asanyarray(h, dtype=wide))
    same(ca.asarray_chkfinite(x), np.asarray_chkfinite(h))
    same(ca.asarray_chkfinite([1, 2]), np.asarray_chkfinite([1, 2]))
    if h.dtype.kind in "fc":
        for bad in (np.inf, np.nan, -np.inf):
            hb = h.copy()
            hb[1] = bad
            both_raise(lambda: ca.asarray_chkfinite(ca.asarray(hb, device=dev)),
                       lambda: np.asarray_chkfinite(hb))


# -- memory overlap ------------------------------------------------------------------

def test_shares_memory(dev):
    h = np.zeros((6, 8), np.float32)
    x = ca.asarray(h, device=dev)
    views = [(..., ...), (slice(3), slice(3, None)),
             ((slice(None), slice(None, None, 2)), (slice(None), slice(1, None, 2))),
             (0, 2), (slice(None, None, -1), 1), ((slice(2, 4), 3), (slice(1, 5), 3)),
             (slice(0), ...), ((slice(1, 5), 2), (slice(None, None, 2),) * 2),
             ((slice(None), slice(None, None, -3)), (slice(None), 1))]
    for i, j in views:
        f, g = (lambda a, i=i: a[i]), (lambda a, j=j: a[j])
        assert ca.shares_memory(f(x), g(x)) == np.shares_memory(f(h), g(h))
        assert ca.shares_memory(f(x).T, g(x)) == np.shares_memory(f(h).T, g(h))
        assert ca.may_share_memory(f(x), g(x)) == np.may_share_memory(f(h), g(h))
        assert ca.may_share_memory(f(x), g(x), max_work=None) == \
            np.may_share_memory(f(h), g(h), max_work=None)
    y = x.copy()
    assert not ca.shares_memory(x, y) and not ca.may_share_memory(x, y)
    assert not ca.shares_memory(x, [1, 2])
    if dev == "cpu":  # asarray of a NumPy array is zero-copy on the cpu device
        assert ca.shares_memory(x, h) == np.shares_memory(np.asarray(x), h)
    else:
        assert not ca.shares_memory(x, h)
    assert not ca.shares_memory(x, h.copy())


@pytest.mark.parametrize("name", ["vstack", "hstack", "dstack", "column_stack"])
def test_stack_of_one_array(dev, name):
    # NumPy iterates an array argument over its first axis
    h = random_array((2, 3), np.int32)
    same(getattr(ca, name)(ca.asarray(h, device=dev)), getattr(np, name)(h))


@pytest.mark.parametrize("name,args", [
    ("append", ([1, 2],)), ("delete", (0,)), ("insert", (0, 5)), ("roll", (1,)),
    ("pad", (1,)), ("tile", (2,)), ("repeat", (2,)), ("resize", (4,)),
    ("rot90", ()), ("flipud", ())])
def test_results_are_new_or_views_as_numpy(dev, name, args):
    h = random_array((3, 2), np.float64)
    x = ca.asarray(h, device=dev)
    got = getattr(ca, name)(x, *args)
    want = getattr(np, name)(h, *args)
    same(got, want)
    assert ca.may_share_memory(got, x) == np.may_share_memory(want, h)


def test_block(dev):
    rng = np.random.default_rng(5)
    A, B = rng.random((2, 2)), rng.random((2, 1))
    C = rng.integers(0, 9, (1, 3))
    v = rng.random(3).astype(np.float32)
    a, b, c = (ca.asarray(x, device=dev) for x in (A, B, C))
    w = ca.asarray(v, device=dev)
    same(ca.block([[a, b], [c]]), np.block([[A, B], [C]]))
    same(ca.block([w, 1]), np.block([v, 1]))
    same(ca.block([w, w]), np.block([v, v]))
    same(ca.block([[w], [w]]), np.block([[v], [v]]))
    same(ca.block([[[a]], [[a]]]), np.block([[[A]], [[A]]]))
    same(ca.block(a), np.block(A))
    same(ca.block([a]), np.block([A]))
    assert ca.block([[a, b], [c]]).device == a.device
    with pytest.raises(ValueError, match="List depths are mismatched"):
        ca.block([[a, b], c])
    with pytest.raises(ValueError, match=r"List at arrays\[1\] cannot be empty"):
        ca.block([[a, b], []])
    with pytest.raises(ValueError, match="cannot be empty"):
        ca.block([])
    with pytest.raises(TypeError, match="is a tuple"):
        ca.block((a, b))
    with pytest.raises(ValueError):
        ca.block([a, c])  # shapes do not line up along the first axis


@pytest.mark.parametrize("reps", [
    1.5, [1.5, 1, 1], np.float64(2), np.array(2.0), np.uint64(2), np.array(2, np.uint64),
    np.array([1, 2, 3], np.uint64), np.array([1, 2, 3], np.uint32), True,
    np.array([True, False, True]), -1, [1, -1, 1], np.int8(-1), "2", None, 1 + 0j,
    np.array([1, 2, 3], np.float32), [-1], np.array([-1]), np.array(-1),
    np.array([1, 2, 3], np.int8), 2, [2], np.array([1, -1, 1])])
def test_repeat_counts(dev, reps):
    """repeat's counts as NumPy takes them: arrays cast safely to intp, scalars and
    lists convert by value; NumPy's messages for negative counts."""
    x = np.arange(3.0)

    def cnt(xp):
        return ca.asarray(reps, device=dev) if xp is ca and isinstance(reps, np.ndarray) \
            else reps
    agree(lambda xp: xp.repeat(ca.asarray(x, device=dev) if xp is ca else x, cnt(xp)))
    agree(lambda xp: (ca.asarray(x, device=dev) if xp is ca else x).repeat(cnt(xp)))
    agree(lambda xp: xp.repeat(ca.asarray(x.reshape(3, 1), device=dev) if xp is ca
                               else x.reshape(3, 1), cnt(xp), axis=0))


def test_row_stack_deprecated(dev):
    x = np.arange(6.0).reshape(2, 3)
    with pytest.warns(DeprecationWarning, match="row_stack"):
        got = ca.row_stack([ca.asarray(x, device=dev), ca.asarray(x[0], device=dev)])
    # NumPy 2.5 removed row_stack (deprecated since 2.0); CuPy keeps it, so
    # cuarray does, with NumPy 2.x's warning, and vstack is its reference
    same(got, np.vstack([x, x[0]]))
    with pytest.warns(DeprecationWarning):
        same(ca.row_stack((ca.asarray(x, device=dev),), dtype=np.float32),
             np.vstack((x,), dtype=np.float32))
