"""a[mask] against NumPy where the cpu device compresses (kernels/host/host_index.c,
ca_mask_compress: one mask over the leading dims of a C-contiguous view; runs of
eight true bytes copied as blocks, other groups branch-free) and where it falls
back to offsets and a gather (strided views, a mask not in the leading position,
a non-contiguous mask). Every item size (1, 2, 4, 8, 16 bytes and wider blocks),
mask densities from none to all, true runs across the 8-byte groups, the last
true element anywhere, empty shapes. They run on both devices (a GPU always takes
the gather)."""

import numpy as np
import pytest

import cuarray as ca
from conftest import random_array

DTYPES = [np.bool_, np.int8, np.int16, np.float32, np.int64, np.float64, np.complex128]


def dev(x, device):
    return ca.asarray(np.array(x, copy=True), device=device)


def same(got, want):
    got = got.get()
    assert got.dtype == want.dtype and got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_array_equal(got, want)


def masks(n, rng):
    out = [np.zeros(n, bool), np.ones(n, bool), rng.random(n) < 0.5, rng.random(n) < 0.97]
    for pos in sorted({0, n // 2, n - 1}):
        m = np.zeros(n, bool)
        m[pos] = True
        out.append(m)
        out.append(~m)  # all true but one
    m = np.zeros(n, bool)
    m[3:3 + 37] = True  # a run that starts and ends inside 8-byte groups
    m[n - 9:] = True
    out.append(m)
    return out


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 7, 8, 9, 16, 63, 1000, 4099])
def test_1d_masks(device, dtype, n):
    rng = np.random.default_rng(n)
    x = random_array((n,), dtype, rng)
    c = dev(x, device)
    for m in masks(n, rng):
        cm = dev(m, device)
        same(c[cm], x[m])
        same(c[cm, ...], x[m, ...])


@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("inner", [(1,), (2,), (3,), (4, 5), (0,)])
def test_mask_over_leading_dims(device, dtype, inner):
    rng = np.random.default_rng(len(inner))
    n = 257
    x = random_array((n,) + inner, dtype, rng)
    c = dev(x, device)
    for m in masks(n, rng):
        cm = dev(m, device)
        same(c[cm], x[m])
        same(c[cm, :], x[m, :])


@pytest.mark.parametrize("dtype", [np.int16, np.float64])
def test_multi_dim_masks(device, dtype):
    rng = np.random.default_rng(3)
    x = random_array((13, 17, 3), dtype, rng)
    c = dev(x, device)
    for frac in (0.0, 0.3, 0.9, 1.0):
        m2 = rng.random((13, 17)) < frac
        same(c[dev(m2, device)], x[m2])
        m3 = rng.random((13, 17, 3)) < frac
        same(c[dev(m3, device)], x[m3])


def test_fallback_layouts(device):
    rng = np.random.default_rng(4)
    x = random_array((40, 30), np.float32, rng)
    c = dev(x, device)
    m30 = rng.random(30) < 0.6
    m40 = rng.random(40) < 0.6
    same(c[:, dev(m30, device)], x[:, m30])  # not the leading dims: the gather
    same(c[::2][dev(m40[:20], device)], x[::2][m40[:20]])  # a strided view
    same(c.T[dev(m30, device)], x.T[m30])  # a transposed view
    same(c[1:][dev(m40[1:], device)], x[1:][m40[1:]])  # an offset view (contiguous)
    mm = rng.random((40, 60)) < 0.5
    cmm = dev(mm, device)[:, ::2]  # a non-contiguous mask
    same(c[cmm], x[mm[:, ::2]])
    same(c[3, dev(m30, device)], x[3, m30])  # after an integer index


def test_empty_and_errors(device):
    x = np.zeros((0, 4), np.float32)
    same(dev(x, device)[dev(np.zeros(0, bool), device)], x[np.zeros(0, bool)])
    y = np.arange(10.0)
    c = dev(y, device)
    with pytest.raises(IndexError):
        c[dev(np.ones(9, bool), device)]
    with pytest.raises(IndexError):
        c[dev(np.ones(11, bool), device)]
    r = c[dev(y > 4, device)]
    r[0] = -1.0  # the result is a copy
    assert c.get()[5] == 5.0


def test_mask_bytes_other_than_one():
    # a bool array whose bytes are 2 or 255 still selects where nonzero
    raw = np.array([0, 2, 255, 1, 0, 0, 0, 7, 1, 1, 1, 1, 1, 1, 1, 1, 3], np.uint8)
    m = raw.view(np.bool_)
    x = np.arange(raw.size, dtype=np.int32)
    cm = ca.asarray(m, device="cpu")
    want = x[raw != 0]
    np.testing.assert_array_equal(ca.asarray(x, device="cpu")[cm].get(), want)
