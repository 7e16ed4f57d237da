"""argmax / argmin over runs of many 16 KiB blocks: the block holding the best is searched
for its first position once, after the value pass (not each time the best grows), so the
first position must come from the first block whose maximum is the final best, whatever
the later blocks hold (ties, NaN, growing values, strides of either sign)."""

import numpy as np
import pytest

import cuarray as ca

REAL = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
        np.float32, np.float64]
BLOCK = 16384  # kernels/host/host_reduce.h CA_HR_MM_BLOCK (bytes)


def base(n, dtype, rng):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return (rng.random(n) * 100 - 50).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -100), min(info.max, 100), size=n,
                        endpoint=True, dtype=dtype)


def extremes(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return dtype.type(1e4), dtype.type(-1e4)
    info = np.iinfo(dtype)
    return info.max, info.min


def check(c, x, msg):
    for fn in ("argmax", "argmin"):
        assert int(getattr(c, fn)()) == int(getattr(x, fn)()), (fn, msg)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("step", [1, 2, 3, -1, -2, 17])
def test_best_in_several_blocks(device, dtype, step):
    rng = np.random.default_rng(3)
    es = np.dtype(dtype).itemsize
    per = BLOCK // es  # elements per block when contiguous
    n = 6 * per + 37
    hi, lo = extremes(dtype)
    for places in ([5, 2 * per + 9, 4 * per], [per - 1, per, 5 * per + 3],
                   [0, 3 * per], [n - 1], [per + 7, per + 8], [2 * per, 2 * per - 1]):
        x = base(n * abs(step), dtype, rng)
        v = x[::step]
        for p in places:
            v[p] = hi
        for p in places[::-1]:
            v[(p + per // 2) % len(v)] = lo
        c = ca.asarray(x, device=device)[::step]
        check(c, v, (places, step))


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.int8, np.float64])
def test_growing_and_falling_runs(device, dtype):
    es = np.dtype(dtype).itemsize
    n = 5 * BLOCK // es + 11
    if np.dtype(dtype).kind == "f":
        x = np.arange(n, dtype=dtype)
    else:
        x = (np.arange(n) % (np.iinfo(dtype).max - 1)).astype(dtype)
    for v in (x, x[::-1], x[::2], x[::-3], np.repeat(x[: n // 64], 64)):
        check(ca.asarray(v, device=device), v, len(v))
    # every block a new best, the last one tied with the first element of a later block
    y = np.sort(x)
    y[-BLOCK // es:] = y[-1]
    check(ca.asarray(y, device=device), y, "tied tail")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_nan_after_a_pending_block(device, dtype):
    es = np.dtype(dtype).itemsize
    per = BLOCK // es
    rng = np.random.default_rng(9)
    for best, nan in ((3, per + 5), (per + 2, 3 * per), (2 * per - 1, 2 * per), (0, 4 * per - 1)):
        x = base(4 * per + 3, dtype, rng)
        x[best] = 1e4
        x[nan] = np.nan
        for v in (x, x[::-1], x[::2]):
            check(ca.asarray(v, device=device), v, (best, nan))
            assert int(ca.nanargmax(ca.asarray(v, device=device))) == int(np.nanargmax(v))
            assert int(ca.nanargmin(ca.asarray(v, device=device))) == int(np.nanargmin(v))
        x[nan] = 1e4  # and then a tie instead of the NaN
        check(ca.asarray(x, device=device), x, (best, nan, "tie"))


@pytest.mark.parametrize("dtype", [np.int16, np.int32, np.float32, np.uint64])
def test_rows_of_many_blocks(device, dtype):
    rng = np.random.default_rng(4)
    es = np.dtype(dtype).itemsize
    m = base(5 * (3 * BLOCK // es + 5), dtype, rng).reshape(5, -1)
    hi, lo = extremes(dtype)
    m[1, [10, 2 * BLOCK // es]] = hi
    m[2, -1] = hi
    m[3, [BLOCK // es, BLOCK // es + 1]] = lo
    c = ca.asarray(m, device=device)
    for axis in (1, None):
        for fn in ("argmax", "argmin"):
            got = np.asarray(getattr(c, fn)(axis=axis).get())
            np.testing.assert_array_equal(got, getattr(m, fn)(axis=axis), err_msg=fn)
    mt = m[:, ::-2]
    ct = c[:, ::-2]
    for fn in ("argmax", "argmin"):
        np.testing.assert_array_equal(np.asarray(getattr(ct, fn)(axis=1).get()),
                                      getattr(mt, fn)(axis=1))
