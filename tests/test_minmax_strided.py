"""max / min / argmax / argmin / nanmax / nanmin / fmax.reduce / fmin.reduce of strided
runs against NumPy (kernels/host/host_minmax.c's ca_hr_mms_* loops, issue 15).

On the cpu device a run whose elements are k * itemsize <= 16 bytes apart (not for
8-byte integers) is read as its whole span, first to last element, through lanes that
a table masks to the run's elements (the elements between them must never count:
NaN, inf and integer extremes are planted there); other strides take eight scalar
accumulators. Steps of both signs, 2 .. past the length, every real dtype, lengths
around the lanes (256 bytes) and the span step (k lanes), NaN / inf inside the run
(first, middle, last, in the scalar tail) and between its elements, runs of 2-D views,
zero strides (broadcasts) and empty runs. They run on both devices.
"""

import warnings

import numpy as np
import pytest

import cuarray as ca
from conftest import empty_reductions_raise
from test_minmax_lanes import values  # the lane tests' random values, every dtype

INTS = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
        np.uint64]
FLOATS = [np.float16, np.float32, np.float64]
REAL = INTS + FLOATS
FNS = ["max", "min", "argmax", "argmin"]
NANFNS = ["nanmax", "nanmin"]
STEPS = [2, 3, 4, 5, 8, 16, 17, 64, -1, -2, -3, -4, -8, -9]


def lengths(dtype):
    """Around 256 bytes of lanes and a few span steps of them."""
    w = 256 // np.dtype(dtype).itemsize
    return sorted({1, 2, 7, 8, 9, 15, 16, 17, 33, w - 1, w, w + 1, 2 * w + 3, 1000, 5003})


def same(got, want, msg=""):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, (msg, got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want, err_msg=msg)


def check(x, c, fns, axis=None, msg=""):
    for fn in fns:
        same(getattr(ca, fn)(c, axis=axis).get(), getattr(np, fn)(x, axis=axis),
             f"{fn} {msg}")


def check_ufuncs(x, c, msg=""):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for u in ("fmax", "fmin", "maximum", "minimum"):
            same(getattr(ca, u).reduce(c).get(), getattr(np, u).reduce(x), f"{u} {msg}")


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("step", STEPS)
def test_steps_and_lengths(device, dtype, step):
    rng = np.random.default_rng(abs(step) * 31 + np.dtype(dtype).num)
    for n in lengths(dtype):
        base = values(n * abs(step) + 3, dtype, rng)
        c = ca.asarray(base, device=device)
        for off in (0, 1):
            sl = slice(off, None, step) if step > 0 else slice(len(base) - 1 - off, None, step)
            x, v = base[sl][:n], c[sl][:n]
            msg = f"n={n} step={step} off={off}"
            check(x, v, FNS + (NANFNS if np.dtype(dtype).kind == "f" else []), msg=msg)
            check_ufuncs(x, v, msg)


@pytest.mark.parametrize("dtype", REAL)
def test_step_past_the_length(device, dtype):
    base = values(50, dtype, np.random.default_rng(4))
    c = ca.asarray(base, device=device)
    for step in (49, 50, 51, 1000, -50, -1000):
        check(base[::step], c[::step], FNS, msg=f"step={step}")
        check(base[3::step], c[3::step], FNS, msg=f"3::{step}")


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("step", [2, 3, 4, 7, 16, -2, -5])
def test_nan_and_inf_inside_the_run(device, dtype, step):
    n = 3000
    rng = np.random.default_rng(step + 100)
    base = values(n * abs(step), dtype, rng)
    for pos in (0, 1, 7, 63, 64, 1500, 2047, 2048, n - 2, n - 1):
        for v in (np.nan, np.inf, -np.inf):
            y = base.copy()
            y[::step][pos] = v
            if v != v:
                y[::step][min(pos + 5, n - 1)] = np.nan  # argmax: the first NaN
            c = ca.asarray(y, device=device)
            msg = f"{v} at {pos} step={step}"
            check(y[::step], c[::step], FNS, msg=msg)
            check(y[::step], c[::step], ["nanargmax", "nanargmin"], msg=msg)
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                check(y[::step], c[::step], NANFNS, msg=msg)
            check_ufuncs(y[::step], c[::step], msg)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("step", [2, 3, 4, 8, 16, -2, -4])
def test_elements_between_never_count(device, dtype, step):
    # the span walk reads the elements between the run's: extremes planted there
    n = 2000
    kind = np.dtype(dtype).kind
    if kind == "f":
        fills = [np.nan, np.inf, -np.inf]
    elif kind == "b":
        fills = [True, False]
    else:
        info = np.iinfo(dtype)
        fills = [info.max, info.min]
    rng = np.random.default_rng(step + 7)
    for fill in fills:
        base = np.full(n * abs(step), fill, dtype)
        run = values(n, dtype, rng)
        if kind in "iu" and kind != "b":
            run = np.clip(run, np.iinfo(dtype).min + 1, np.iinfo(dtype).max - 1).astype(dtype)
        base[::step] = run
        c = ca.asarray(base, device=device)
        msg = f"fill={fill} step={step}"
        check(base[::step], c[::step], FNS + (NANFNS if kind == "f" else []), msg=msg)
        check_ufuncs(base[::step], c[::step], msg)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("step", [2, 3, 9, -4])
def test_all_nan_and_all_inf_runs(device, dtype, step):
    for n in (1, 40, 300, 5000):
        base = np.zeros(n * abs(step), dtype)
        base[::step] = np.nan
        c = ca.asarray(base, device=device)
        check(base[::step], c[::step], FNS, msg=f"all nan n={n}")
        check_ufuncs(base[::step], c[::step], f"all nan n={n}")
        for fn in NANFNS:
            with pytest.warns(RuntimeWarning, match="All-NaN"):
                got = getattr(ca, fn)(c[::step]).get()
            assert np.isnan(got) and got.dtype == dtype
        with pytest.raises(ValueError):
            ca.nanargmax(c[::step])
        for v in (np.inf, -np.inf):
            base[::step] = v
            c = ca.asarray(base, device=device)
            check(base[::step], c[::step], FNS + NANFNS, msg=f"all {v} n={n}")
            check_ufuncs(base[::step], c[::step], f"all {v} n={n}")


@pytest.mark.parametrize("dtype", INTS)
@pytest.mark.parametrize("step", [2, 3, 5, 16, -3])
def test_integer_extremes_and_ties(device, dtype, step):
    if dtype == np.bool_:
        lo, hi, mid = False, True, True
    else:
        info = np.iinfo(dtype)
        lo, hi, mid = info.min, info.max, (int(info.min) + int(info.max)) // 2
    for n in (9, 300, 4000):
        for pos in sorted({0, 1, n // 2, n - 2, n - 1}):
            base = np.full(n * abs(step), mid, dtype)
            run = base[::step]
            run[pos] = lo
            run[(pos + 1) % n] = hi
            c = ca.asarray(base, device=device)
            check(base[::step], c[::step], FNS, msg=f"n={n} pos={pos}")
            run[::7] = hi  # ties: the first position
            c = ca.asarray(base, device=device)
            check(base[::step], c[::step], FNS, msg=f"ties n={n} pos={pos}")


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.uint64, np.float32,
                                   np.float64, np.bool_])
@pytest.mark.parametrize("step", [2, 3, 8, -2])
def test_rows_of_2d_views(device, dtype, step):
    rng = np.random.default_rng(step + 50)
    x = values(37 * 900, dtype, rng).reshape(37, 900)
    if np.dtype(dtype).kind == "f":
        x[3, ::step][100] = np.nan
        x[5, 1] = np.nan  # between the run's elements for odd steps
        x[6, ::step][-1] = np.inf
    c = ca.asarray(x, device=device)
    for axis in (1, None):
        check(x[:, ::step], c[:, ::step], FNS, axis=axis, msg=f"axis {axis}")
        check(x[::2, ::step], c[::2, ::step], FNS, axis=axis, msg=f"::2 axis {axis}")
    check(x.T[::step], c.T[::step], FNS, axis=0, msg="T axis 0")


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.float64, np.uint64])
def test_zero_stride_runs(device, dtype):
    x = values(70, dtype, np.random.default_rng(8))
    if np.dtype(dtype).kind == "f":
        x[9] = np.nan
    b = np.broadcast_to(x[:, None], (70, 300))
    c = ca.broadcast_to(ca.asarray(x, device=device)[:, None], (70, 300))
    check(b, c, FNS, axis=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        check(b, c, NANFNS if np.dtype(dtype).kind == "f" else ["max"], axis=1)


@pytest.mark.parametrize("dtype", REAL)
def test_empty_strided_raises(device, dtype):
    c = ca.asarray(values(10, dtype, np.random.default_rng(1)), device=device)
    for v in (c[5:5:2], c[::-3][4:]):
        assert v.size == 0
        empty_reductions_raise(v)
