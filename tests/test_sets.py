"""unique (and unique_all/counts/inverse/values), isin, intersect1d, union1d,
setdiff1d, setxor1d against NumPy on both devices."""

import numpy as np
import pytest

import cuarray as ca
from conftest import ALL_DTYPES
from test_sort import MODES, data, same, to_dev  # noqa: F401

SIZES = [0, 1, 9, 3000]


@pytest.fixture(params=MODES)
def dev(request):
    old = ca._core._sort_host_kernels(request.param == "cpu-kernels")
    yield "cpu" if request.param.startswith("cpu") else request.param
    ca._core._sort_host_kernels(old)


def same_nan(got, want):
    """Equal, NaNs equal, dtype and shape too."""
    same(got, want)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("n", SIZES)
def test_unique(dev, dtype, n, np_route):
    a = data((n,), dtype)
    x = to_dev(a, dev)
    same(ca.unique(x), np.unique(a))
    got = ca.unique(x, return_index=True, return_inverse=True, return_counts=True)
    want = np.unique(a, return_index=True, return_inverse=True, return_counts=True)
    for g, w in zip(got, want):
        same(g, w)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64,
                                   np.complex128])
def test_unique_equal_nan(dev, dtype, np_route):
    a = data((500,), dtype)
    x = to_dev(a, dev)
    for equal_nan in (True, False):
        got = ca.unique(x, return_counts=True, equal_nan=equal_nan)
        want = np.unique(a, return_counts=True, equal_nan=equal_nan)
        same(got[0], want[0])
        same(got[1], want[1])


def test_unique_2d_inverse_shape(dev, np_route):
    a = data((6, 7), np.int16)
    x = to_dev(a, dev)
    got = ca.unique(x, return_inverse=True)
    want = np.unique(a, return_inverse=True)
    same(got[1], want[1])
    np.testing.assert_array_equal(got[0].get()[got[1].get()], a)


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.float32])
def test_unique_axis(dev, axis, dtype):
    rng = np.random.default_rng(4)
    a = rng.integers(0, 2, size=(40, 3)).astype(dtype)
    if axis != 0:
        a = a.T.copy()
    a = np.ascontiguousarray(a)
    x = to_dev(a, dev)
    got = ca.unique(x, axis=axis, return_index=True, return_inverse=True,
                    return_counts=True)
    want = np.unique(a, axis=axis, return_index=True, return_inverse=True,
                     return_counts=True)
    same(got[0], want[0])
    same(got[1], want[1])
    np.testing.assert_array_equal(got[2].get().reshape(-1), want[2].reshape(-1))
    same(got[3], want[3])
    with pytest.raises(np.exceptions.AxisError):
        ca.unique(x, axis=2)


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.float64, np.complex64])
def test_unique_array_api(dev, dtype, np_route):
    a = data((200,), dtype)
    x = to_dev(a, dev)
    r = ca.unique_all(x)
    w = np.unique_all(a)
    same(r.values, np.sort(w.values))
    same(r.counts, w.counts[np.argsort(w.values, kind="stable")])
    np.testing.assert_array_equal(r.values.get()[r.inverse_indices.get()], a)
    np.testing.assert_array_equal(a[r.indices.get()], r.values.get())
    c = ca.unique_counts(x)
    same(c.counts, r.counts.get())
    inv = ca.unique_inverse(x)
    same(inv.inverse_indices, r.inverse_indices.get())
    same(ca.unique_values(x), r.values.get())


@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.int64, np.float32,
                                   np.float64, np.complex128])
@pytest.mark.parametrize("invert", [False, True])
def test_isin(dev, dtype, invert, np_route):
    rng = np.random.default_rng(9)
    e = data((30, 20), dtype, rng)
    t = data((77,), dtype, rng)
    same(ca.isin(to_dev(e, dev), to_dev(t, dev), invert=invert),
         np.isin(e, t, invert=invert))
    same(ca.isin(to_dev(e, dev), to_dev(t[:0], dev), invert=invert),
         np.isin(e, t[:0], invert=invert))


def test_isin_mixed_dtypes(dev, np_route):
    e = np.array([1, 2, 3, 300, -1], np.int16)
    t = np.array([1.0, 3.0, 300.0, 2.5])
    same(ca.isin(to_dev(e, dev), to_dev(t, dev)), np.isin(e, t))
    same(ca.isin(to_dev(np.array([-0.0, np.nan]), dev), to_dev(np.array([0.0, np.nan]),
                                                                   dev)),
         np.isin(np.array([-0.0, np.nan]), np.array([0.0, np.nan])))


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.float32, np.float64])
def test_set_functions(dev, dtype, np_route):
    rng = np.random.default_rng(12)
    a = data((300,), dtype, rng)
    b = data((200,), dtype, rng)
    if a.dtype.kind == "f":
        a = a[~np.isnan(a)]
        b = b[~np.isnan(b)]
    x, y = to_dev(a, dev), to_dev(b, dev)
    same(ca.intersect1d(x, y), np.intersect1d(a, b))
    for g, w in zip(ca.intersect1d(x, y, return_indices=True),
                    np.intersect1d(a, b, return_indices=True)):
        same(g, w)
    same(ca.union1d(x, y), np.union1d(a, b))
    same(ca.setdiff1d(x, y), np.setdiff1d(a, b))
    same(ca.setxor1d(x, y), np.setxor1d(a, b))
    ua, ub = np.unique(a), np.unique(b)
    same(ca.intersect1d(to_dev(ua, dev), to_dev(ub, dev), assume_unique=True),
         np.intersect1d(ua, ub, assume_unique=True))
    same(ca.setdiff1d(to_dev(ua, dev), to_dev(ub, dev), assume_unique=True),
         np.setdiff1d(ua, ub, assume_unique=True))
    same(ca.setxor1d(to_dev(ua, dev), to_dev(ub, dev), assume_unique=True),
         np.setxor1d(ua, ub, assume_unique=True))
    e = a[:0]
    same(ca.intersect1d(to_dev(e, dev), y), np.intersect1d(e, b))
    same(ca.union1d(to_dev(e, dev), to_dev(e, dev)), np.union1d(e, e))
    same(ca.setxor1d(to_dev(e, dev), to_dev(e, dev)), np.setxor1d(e, e))


@pytest.mark.parametrize("shape,axis", [((3, 0), 0), ((0, 3), 0), ((3, 0), 1),
                                        ((0,), 0), ((2, 3, 0), 1)])
def test_unique_axis_empty(dev, shape, axis, np_route):
    a = np.zeros(shape, np.int32)
    got = ca.unique(to_dev(a, dev), axis=axis, return_index=True, return_inverse=True,
                    return_counts=True)
    want = np.unique(a, axis=axis, return_index=True, return_inverse=True,
                     return_counts=True)
    for g, w in zip(got, want):
        same(g, w)


RANGES = [(np.int64, 0, 1 << 20), (np.int64, -500, 500), (np.int32, -7, 3),
          (np.uint64, 2**64 - 300, 2**64 - 1), (np.uint32, 5, 6),
          (np.int64, -2**62, 2**62)]


@pytest.mark.parametrize("dtype,lo,hi", RANGES)
def test_unique_integer_range_sort(dev, dtype, lo, hi, np_route):
    """Past 2^16 integers, unique sorts only the key bits their range spans (GPU)."""
    rng = np.random.default_rng(13)
    a = rng.integers(lo, hi, size=(1 << 16) + 123, dtype=dtype, endpoint=True)
    x = to_dev(a, dev)
    for g, w in zip(ca.unique(x, return_index=True, return_inverse=True,
                              return_counts=True),
                    np.unique(a, return_index=True, return_inverse=True,
                              return_counts=True)):
        same(g, w)
    bits = max(((int(a.min()) ^ int(a.max())) & ((1 << (a.itemsize * 8)) - 1))
               .bit_length(), 1)
    same(ca._core._sort_bits(x, bits, False), np.sort(a))
    same(ca._core._sort_bits(x, bits, True), np.argsort(a, kind="stable"))
