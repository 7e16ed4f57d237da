"""max / min / argmax / argmin / nanmax / nanmin against NumPy around the host lane
loops (kernels/host/host_minmax.c, issue 15): every real dtype, lengths around the lane
width (4 vectors of 64 bytes: 256 int8 ... 32 float64) and the block size (16 KiB),
contiguous, strided (gathered into a buffer) and reversed runs, rows and columns,
NaN first / in the middle / last / at block edges, infinities, signed zeros,
integer extremes, and the errors of empty input. They run on both devices.

Which of -0.0 and +0.0 a max of mixed signed zeros returns depends on the order
the elements meet (NumPy's own answer changes with its SIMD width): those cases
compare values; the cases with one answer (all -0.0, -0.0 against negatives)
compare the sign too.
"""

import warnings

import numpy as np
import pytest

import cuarray as ca
from conftest import empty_reductions_raise

INTS = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
        np.uint64]
FLOATS = [np.float16, np.float32, np.float64]
REAL = INTS + FLOATS
FNS = ["max", "min", "argmax", "argmin"]
# around 4 lanes of 64 bytes for each width, and around a 16 KiB block
LENGTHS = [1, 2, 3, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 1000,
           2047, 2048, 2049, 4097, 16384 + 5]


def dev(x, device):
    return ca.asarray(np.array(x, copy=True), device=device)


def values(n, dtype, rng):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(n) < 0.5
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=n, endpoint=True, dtype=dtype)
    return (rng.standard_normal(n) * 100).astype(dtype)


def same(got, want, msg=""):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, (msg, got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want, err_msg=msg)


def check_all(x, c, fns=FNS, axis=None, msg=""):
    for fn in fns:
        same(getattr(ca, fn)(c, axis=axis).get(), getattr(np, fn)(x, axis=axis),
             f"{fn} {msg}")


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("n", LENGTHS)
def test_contiguous_lengths(device, dtype, n):
    rng = np.random.default_rng(n)
    x = values(n, dtype, rng)
    check_all(x, dev(x, device), FNS + ["nanmax", "nanmin"], msg=f"n={n}")


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("n", [31, 40, 257, 3000, 9000])
@pytest.mark.parametrize("step", [2, 3, -1, -5])
def test_strided_runs(device, dtype, n, step):
    rng = np.random.default_rng(n + 7)
    base = values(n * abs(step), dtype, rng)
    c = dev(base, device)
    check_all(base[::step], c[::step], FNS + ["nanmax", "nanmin"], msg=f"step={step}")


@pytest.mark.parametrize("dtype", INTS)
def test_integer_extremes_at_every_place(device, dtype):
    if dtype == np.bool_:
        lo, hi = False, True
    else:
        info = np.iinfo(dtype)
        lo, hi = info.min, info.max
    for n in (5, 64, 300, 5000):
        for pos in sorted({0, 1, n // 2, n - 2, n - 1}):
            x = np.full(n, hi if dtype == np.bool_ else (int(lo) + int(hi)) // 2, dtype)
            x[pos] = lo
            x[(pos + 1) % n] = hi
            check_all(x, dev(x, device), msg=f"n={n} pos={pos}")
            x[::7] = hi  # ties of the largest: the first position
            check_all(x, dev(x, device), msg=f"ties n={n} pos={pos}")


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64, np.int64])
def test_unsigned_and_wide_values(device, dtype):
    # values past 2^31 / 2^63 where a signed compare would order them wrongly
    rng = np.random.default_rng(5)
    info = np.iinfo(dtype)
    x = rng.integers(info.max // 2, info.max, size=5000, endpoint=True, dtype=dtype)
    x[1234] = info.max
    x[4321] = info.max // 2
    check_all(x, dev(x, device))
    check_all(x[::3], dev(x, device)[::3])


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", [1, 33, 65, 300, 2049, 4097, 9000])
def test_nan_positions(device, dtype, n):
    rng = np.random.default_rng(n)
    base = values(n, dtype, rng)
    places = sorted({0, n // 2, n - 1, min(2047, n - 1), min(2048, n - 1), min(4096, n - 1)})
    for pos in places:
        for extra in (None, n - 1):
            x = base.copy()
            x[pos] = np.nan
            if extra is not None:
                x[extra] = np.nan  # argmax: the first NaN counts
            c = dev(x, device)
            check_all(x, c, msg=f"nan at {pos}")
            check_all(x[::-1], c[::-1], msg=f"nan at {pos}, reversed")
            if n > 1:
                check_all(x[::2], c[::2], msg=f"nan at {pos}, step 2")
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                if n > 1 and not np.isnan(x).all():
                    for fn in ("nanmax", "nanmin", "nanargmax", "nanargmin"):
                        same(getattr(ca, fn)(c).get(), getattr(np, fn)(x), f"{fn} nan at {pos}")


@pytest.mark.parametrize("dtype", FLOATS)
def test_infinities_and_all_nan(device, dtype):
    n = 5000
    x = values(n, dtype, np.random.default_rng(3))
    for pos in (0, 100, 4095, n - 1):
        for v in (np.inf, -np.inf):
            y = x.copy()
            y[pos] = v
            check_all(y, dev(y, device), FNS + ["nanmax", "nanmin"], msg=f"{v} at {pos}")
    y = np.full(n, np.inf, dtype)
    check_all(y, dev(y, device), FNS + ["nanmax", "nanmin"], msg="all inf")
    y[7] = np.nan
    check_all(y, dev(y, device), FNS + ["nanmax", "nanmin"], msg="inf and a nan")
    for n in (1, 40, 5000):
        y = np.full(n, np.nan, dtype)
        c = dev(y, device)
        check_all(y, c)
        for fn in ("nanmax", "nanmin"):
            with pytest.warns(RuntimeWarning, match="All-NaN"):
                got = getattr(ca, fn)(c).get()
            assert np.isnan(got) and got.dtype == dtype
        with pytest.raises(ValueError):
            ca.nanargmax(c)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", [1, 7, 64, 65, 3000])
def test_signed_zeros(device, dtype, n):
    neg = np.full(n, -0.0, dtype)
    c = dev(neg, device)
    for fn in ("max", "min", "nanmax", "nanmin"):
        got = getattr(ca, fn)(c).get()
        assert got == 0 and np.signbit(got), fn  # all -0.0: -0.0
        got = getattr(ca, fn)(c[::-1]).get()
        assert got == 0 and np.signbit(got), fn
    pos = np.zeros(n, dtype)
    for fn in ("max", "min"):
        got = getattr(ca, fn)(dev(pos, device)).get()
        assert got == 0 and not np.signbit(got), fn
    if n > 1:
        y = np.full(n, -1.0, dtype)
        y[n // 2] = -0.0
        got = ca.max(dev(y, device)).get()
        assert got == 0 and np.signbit(got)  # -0.0 is the largest
        y = np.full(n, 1.0, dtype)
        y[n - 1] = -0.0
        got = ca.min(dev(y, device)).get()
        assert got == 0 and np.signbit(got)
        mixed = np.where(np.random.default_rng(n).random(n) < 0.5, -0.0, 0.0).astype(dtype)
        mixed[0] = -1
        c = dev(mixed, device)
        for fn in FNS:
            same(getattr(ca, fn)(c).get(), getattr(np, fn)(mixed), fn)  # values (and args)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.uint64, np.float32,
                                   np.float64, np.bool_])
@pytest.mark.parametrize("shape", [(7, 300), (33, 257), (3, 5000), (300, 3)])
def test_rows_and_columns(device, dtype, shape):
    rng = np.random.default_rng(shape[1])
    x = values(shape[0] * shape[1], dtype, rng).reshape(shape)
    if np.dtype(dtype).kind == "f":
        x[1, shape[1] // 2] = np.nan
        x[2, -1] = np.inf
    c = dev(x, device)
    for axis in (0, 1, None):
        check_all(x, c, axis=axis, msg=f"axis {axis}")
        check_all(x.T, c.T, axis=axis, msg=f"T axis {axis}")
        check_all(x[:, ::2], c[:, ::2], axis=axis, msg=f"::2 axis {axis}")


@pytest.mark.parametrize("dtype", REAL)
def test_empty_raises(device, dtype):
    c = ca.asarray(np.zeros(0, dtype), device=device)
    empty_reductions_raise(c)
    m = ca.asarray(np.zeros((0, 3), dtype), device=device)
    same(ca.max(m, axis=1).get(), np.zeros((0, 3), dtype).max(axis=1))
    with pytest.raises(ValueError, match="zero-size array"):
        ca.max(m, axis=0)


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.uint8])
def test_keepdims_and_out(device, dtype):
    x = values(6000, dtype, np.random.default_rng(9)).reshape(2, 3000)
    c = dev(x, device)
    same(ca.max(c, axis=1, keepdims=True).get(), np.max(x, axis=1, keepdims=True))
    out = ca.empty((2,), dtype=dtype, device=device)
    r = ca.min(c, axis=1, out=out)
    assert r is out
    same(out.get(), np.min(x, axis=1))


def test_bool_bytes_other_than_one():
    # a bool array whose bytes are 2 or 255 is true there, as NumPy's bool
    raw = np.zeros(3000, np.uint8)
    raw[[5, 700, 2999]] = [1, 2, 255]
    c = ca.asarray(raw.view(np.bool_), device="cpu")
    truth = raw != 0
    for fn in FNS:
        got = getattr(ca, fn)(c).get()
        assert got == getattr(np, fn)(truth), fn
    assert bool(ca.max(c[::3]).get()) == truth[::3].max()


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16, np.uint64, np.bool_])
def test_fmax_fmin_reduce(device, dtype):
    rng = np.random.default_rng(11)
    x = values(6 * 700, dtype, rng).reshape(6, 700)
    if np.dtype(dtype).kind == "f":
        x[0, 5] = np.nan
        x[2, :] = np.nan  # an all-NaN row: NaN, and no warning
        x[3, 0] = np.inf
        x[4, ::2] = np.nan
    c = dev(x, device)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for u in ("fmax", "fmin", "maximum", "minimum"):
            cu, nu = getattr(ca, u), getattr(np, u)
            same(cu.reduce(c).get(), nu.reduce(x), u)
            same(cu.reduce(c, axis=1).get(), nu.reduce(x, axis=1), u)
            same(cu.reduce(c, axis=None).get(), nu.reduce(x, axis=None), u)
            same(cu.reduce(c, axis=1, keepdims=True).get(), nu.reduce(x, axis=1, keepdims=True), u)
            same(cu.reduce(c[:, ::3], axis=1).get(), nu.reduce(x[:, ::3], axis=1), u)
            same(cu.reduce(c, axis=1, initial=0).get(), nu.reduce(x, axis=1, initial=0), u)
    for u in ("fmax", "fmin"):
        with pytest.raises(ValueError, match="zero-size array"):
            getattr(ca, u).reduce(ca.asarray(np.zeros(0, dtype), device=device))


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32,
                                   np.uint32, np.int64])
def test_bincount_length_and_negatives(device, dtype):
    # bincount sizes its output from one max pass (the values read as unsigned:
    # a negative one reads as 2^(bits-1) or more)
    rng = np.random.default_rng(2)
    hi = 1 if dtype == np.bool_ else min(int(np.iinfo(dtype).max), 3000)
    x = rng.integers(0, hi, size=5000, endpoint=True).astype(dtype)
    for y in (x, x[::2], x[:1]):
        same(ca.bincount(dev(y, device)).get(), np.bincount(y))
        same(ca.bincount(dev(y, device), minlength=5000).get(), np.bincount(y, minlength=5000))
    if dtype != np.bool_:
        top = np.array([np.iinfo(dtype).max] if np.iinfo(dtype).max < 1 << 17 else [hi], dtype)
        same(ca.bincount(dev(top, device)).get(), np.bincount(top))
    if np.dtype(dtype).kind == "i":
        for bad in (-1, np.iinfo(dtype).min):
            y = x.copy()
            y[1234] = bad
            with pytest.raises(ValueError, match="negative"):
                np.bincount(y)
            with pytest.raises(ValueError, match="negative"):
                ca.bincount(dev(y, device))


@pytest.mark.parametrize("dtype", INTS + [np.float32, np.float64])
@pytest.mark.parametrize("nrows", [1, 2, 3, 4, 5, 8, 9])
def test_column_row_groups(device, dtype, nrows):
    # column max/min: integer rows meet four at a time, then the remainder
    rng = np.random.default_rng(nrows)
    x = values(nrows * 70, dtype, rng).reshape(nrows, 70)
    if dtype != np.bool_ and np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        x[nrows - 1, 3] = info.max
        x[0, 4] = info.min
        x[nrows // 2, 5] = info.max
    elif np.dtype(dtype).kind == "f":
        x[nrows - 1, 3] = np.nan
        x[0, 4] = np.nan
        x[nrows // 2, 5] = np.inf
    c = dev(x, device)
    check_all(x, c, axis=0, msg=f"{nrows} rows")
    check_all(x[:, 1:], c[:, 1:], axis=0, msg=f"{nrows} rows, offset")
