"""The cpu device's fast host paths against NumPy (issue 15): column reductions
(a vector of accumulators per row of the input), the contiguous-run copies of the
run loops, the 16-lane max/min/argmax/argmin blocks, and the float32 sum's
pairwise accuracy. They run on both devices (the GPU answers the same questions).

Exact results (integers, max, min, arg, any, all, and float sums compared with a
float64 reference within a few units of the output's rounding) must match NumPy;
the shapes are chosen to cross the walks' edges: widths past a tile (8192
outputs), row counts that are not multiples of the 8-row groups, lane blocks
(1024 elements) with a remainder, negative and non-unit strides.
"""

import itertools

import numpy as np
import pytest

import cuarray as ca
from conftest import random_array

FNS = ["sum", "prod", "mean", "max", "min", "argmax", "argmin", "var", "std", "any", "all"]
DTYPES = [np.bool_, np.int8, np.int32, np.uint64, np.float16, np.float32, np.float64,
          np.complex64]


def dev(x, device):
    return ca.asarray(np.array(x, copy=True), device=device)


def axes_of(ndim):
    out = [None]
    for r in range(1, ndim + 1):
        out += list(itertools.combinations(range(ndim), r))
    return out


def numpy_ref(fn, x, axis):
    """NumPy's result; float sums and their statistics from float64 (complex128)."""
    if fn in ("argmax", "argmin"):
        return getattr(np, fn)(x, axis=axis)
    if fn in ("sum", "mean", "var", "std", "prod") and x.dtype.kind in "fc":
        wide = np.complex128 if x.dtype.kind == "c" else np.float64
        want = getattr(np, fn)(x, axis=axis)
        exact = getattr(np, fn)(x.astype(wide), axis=axis)
        return np.asarray(exact).astype(np.asarray(want).dtype)
    return getattr(np, fn)(x, axis=axis)


def check(fn, x, c, axis):
    want = numpy_ref(fn, x, axis)
    got = getattr(ca, fn)(c, axis=axis).get()
    assert got.dtype == np.asarray(want).dtype, (fn, axis, got.dtype, want.dtype)
    assert got.shape == np.shape(want), (fn, axis)
    if got.dtype.kind in "fc" and fn not in ("max", "min"):
        eps = np.finfo(got.dtype).eps
        scale = np.abs(numpy_ref("sum", np.abs(x), axis)) if fn in ("sum", "mean") else 1.0
        if fn == "mean":
            n = x.size if axis is None else np.prod([x.shape[a] for a in np.atleast_1d(axis)])
            scale = scale / max(n, 1)
        if fn == "prod":
            scale = np.abs(want)
        tol = 8 * eps * (np.abs(want) + scale) + (np.finfo(got.dtype).tiny if fn != "prod" else 0)
        if fn in ("var", "std"):
            tol = 64 * eps * (np.abs(want) + 1.0)
        want = np.asarray(want)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=f"{fn} {axis}")
        ok = np.isnan(want) | (np.abs(got - want) <= tol)
        assert np.all(ok), (fn, axis, got[~ok] if got.ndim else got, want[~ok] if want.ndim else want)
    else:
        np.testing.assert_array_equal(got, want, err_msg=f"{fn} {axis}")


def small_values(shape, dtype, rng):
    x = random_array(shape, dtype, rng)
    if np.dtype(dtype).kind in "fc":
        x = (x / 16).astype(dtype)  # products stay finite
    return x


# ---- every reduction over every axis layout ------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fn", FNS)
def test_every_axis_of_3d(device, fn, dtype):
    rng = np.random.default_rng(3)
    x = small_values((5, 19, 23), dtype, rng)
    c = dev(x, device)
    for axis in axes_of(3):
        if fn in ("argmax", "argmin") and isinstance(axis, tuple):
            continue
        check(fn, x, c, axis)


@pytest.mark.parametrize("layout", ["C", "F", "T", "neg", "step", "swap"])
@pytest.mark.parametrize("fn", FNS)
def test_layouts(device, fn, layout):
    rng = np.random.default_rng(5)
    base = small_values((13, 21, 17), np.float64, rng)
    c0 = dev(base, device)
    if layout == "C":
        x, c = base, c0
    elif layout == "F":
        x = np.asfortranarray(base)
        c = ca.asarray(x, device=device)
    elif layout == "T":
        x, c = base.T, c0.T
    elif layout == "neg":
        x, c = base[::-1, :, ::-2], c0[::-1, :, ::-2]
    elif layout == "step":
        x, c = base[1::3, ::2, 2:], c0[1::3, ::2, 2:]
    else:
        x, c = base.transpose(1, 0, 2), c0.transpose(1, 0, 2)
    for axis in axes_of(3):
        if fn in ("argmax", "argmin") and isinstance(axis, tuple):
            continue
        check(fn, x, c, axis)


@pytest.mark.parametrize("shape", [(3, 9000), (9, 8193), (2, 16385), (17, 1), (1, 17),
                                   (1001, 3), (8, 5), (7, 5), (16, 130)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.bool_, np.complex128])
def test_column_tiles_and_row_groups(device, shape, dtype):
    """Column reductions: widths past one tile, rows not a multiple of 8."""
    rng = np.random.default_rng(11)
    x = small_values(shape, dtype, rng)
    c = dev(x, device)
    for fn in FNS:
        check(fn, x, c, 0)


def test_column_var_reads_each_outputs_mean(device):
    rng = np.random.default_rng(12)
    x = rng.standard_normal((37, 300)) + np.arange(300)  # a different mean per column
    c = dev(x, device)
    for ddof in (0, 1):
        np.testing.assert_allclose(ca.var(c, axis=0, ddof=ddof).get(),
                                   np.var(x, axis=0, ddof=ddof), rtol=1e-12)
        np.testing.assert_allclose(ca.std(c, axis=0, ddof=ddof).get(),
                                   np.std(x, axis=0, ddof=ddof), rtol=1e-12)


def test_column_argmax_first_of_ties(device):
    x = np.zeros((50, 40), np.float32)
    x[7, :] = 1
    x[30, :] = 1
    x[3, 5] = np.nan
    x[40, 5] = np.nan
    x[9, 6] = -np.inf
    c = dev(x, device)
    for fn in ("argmax", "argmin", "max", "min"):
        np.testing.assert_array_equal(getattr(ca, fn)(c, axis=0).get(),
                                      getattr(np, fn)(x, axis=0))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_column_nan_in_any_row_of_a_group(device, dtype):
    n = 19
    for r in range(n):
        x = np.arange(n * 6, dtype=dtype).reshape(n, 6)
        x[r, r % 6] = np.nan
        c = dev(x, device)
        for fn in ("max", "min", "sum", "argmax", "argmin", "any", "all"):
            np.testing.assert_array_equal(getattr(ca, fn)(c, axis=0).get(),
                                          getattr(np, fn)(x, axis=0), err_msg=f"{fn} {r}")


# ---- contiguous runs and the lane blocks -----------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [1, 7, 1023, 1024, 1025, 4096 + 17])
def test_lane_blocks_max_min_arg(device, dtype, n):
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n).astype(dtype)
    c = dev(x, device)
    for fn in ("max", "min", "argmax", "argmin"):
        assert getattr(ca, fn)(c).get() == getattr(np, fn)(x), fn


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_lane_blocks_specials(device, dtype):
    n = 5000
    cases = []
    base = np.random.default_rng(1).standard_normal(n).astype(dtype)
    for pos in (0, 5, 1023, 1024, 3000, n - 1):
        for val in (np.nan, np.inf, -np.inf):
            y = base.copy()
            y[pos] = val
            cases.append(y)
    y = base.copy()
    y[100] = np.nan
    y[2000] = np.nan  # the first NaN counts
    cases.append(y)
    y = base.copy()
    y[[10, 1500, 4000]] = 50  # ties: the first position
    cases.append(y)
    y = base.copy()
    y[[10, 1500]] = -50
    cases.append(y)
    cases.append(np.full(n, 2.5, dtype))  # all equal
    z = np.zeros(n, dtype)
    z[::3] = -0.0
    cases.append(z)
    for y in cases:
        c = dev(y, device)
        for fn in ("max", "min", "argmax", "argmin"):
            got, want = getattr(ca, fn)(c).get(), getattr(np, fn)(y)
            np.testing.assert_array_equal(got, want, err_msg=fn)


def test_argmax_rows_contiguous(device):
    rng = np.random.default_rng(2)
    x = rng.standard_normal((33, 3000)).astype(np.float32)
    x[4, 2999] = 100
    x[5, 0] = np.nan
    x[6, 1024] = np.inf
    c = dev(x, device)
    for fn in ("argmax", "argmin", "max", "min"):
        np.testing.assert_array_equal(getattr(ca, fn)(c, axis=1).get(),
                                      getattr(np, fn)(x, axis=1))
        np.testing.assert_array_equal(getattr(ca, fn)(c[:, ::-1], axis=1).get(),
                                      getattr(np, fn)(x[:, ::-1], axis=1))


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.int64, np.uint64])
def test_integer_sums_contiguous_wrap(device, dtype):
    info = np.iinfo(dtype)
    x = np.full(3001, info.max, dtype)
    c = dev(x, device)
    np.testing.assert_array_equal(ca.sum(c).get(), np.sum(x))
    m = x[:3000].reshape(30, 100)
    cm = dev(m, device)
    for axis in (0, 1):
        np.testing.assert_array_equal(ca.sum(cm, axis=axis).get(), np.sum(m, axis=axis))
        np.testing.assert_array_equal(ca.prod(cm, axis=axis).get(), np.prod(m, axis=axis))


# ---- float32 sums stay accurate --------------------------------------------------------

def test_float32_sum_pairwise_accuracy(device):
    n = 1 << 24
    x = np.full(n, 0.1, np.float32)
    c = dev(x, device)
    exact = float(n) * float(np.float32(0.1))
    got = float(ca.sum(c).get())
    assert abs(got - exact) <= 2 * np.spacing(np.float32(exact)), got
    got1 = ca.sum(c.reshape(256, n // 256), axis=1).get()
    assert np.all(np.abs(got1 - exact / 256) <= np.spacing(np.float32(exact / 256)))


def test_float32_column_sum_accuracy(device):
    rows = 100003
    x = np.full((rows, 24), 0.1, np.float32)
    x[::2] = 1e4
    c = dev(x, device)
    exact = x.astype(np.float64).sum(axis=0)
    got = ca.sum(c, axis=0).get()
    assert np.all(np.abs(got - exact) <= np.spacing(exact.astype(np.float32)))
    got_mean = ca.mean(c, axis=0).get()
    assert np.all(np.abs(got_mean - exact / rows) <= 2 * np.spacing((exact / rows).astype(np.float32)))


def test_empty_and_keepdims(device):
    x = np.zeros((0, 5), np.float32)
    c = dev(x, device)
    np.testing.assert_array_equal(ca.sum(c, axis=0).get(), np.sum(x, axis=0))
    np.testing.assert_array_equal(ca.sum(c, axis=1).get(), np.sum(x, axis=1))
    y = np.arange(60.0).reshape(3, 4, 5)
    cy = dev(y, device)
    np.testing.assert_array_equal(ca.sum(cy, axis=(0, 2), keepdims=True).get(),
                                  np.sum(y, axis=(0, 2), keepdims=True))
    np.testing.assert_array_equal(ca.max(cy, axis=1, keepdims=True).get(),
                                  np.max(y, axis=1, keepdims=True))
