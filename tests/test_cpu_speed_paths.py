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
import warnings

import numpy as np
import pytest

import cuarray as ca
from conftest import random_array, same_bits_on_one_and_two_threads

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


# ---- element-wise calls through NumPy's loops (cpu device, >= 4096 elements) ----------

NUMPY_ROWS = {  # csrc/ops/elementwise.c's ew_numpy_rows
    "exp": "efd", "exp2": "efd", "expm1": "efd", "log": "efd", "log2": "efd",
    "log10": "efd", "log1p": "efd", "sin": "ef", "cos": "ef", "tan": "efd",
    "arcsin": "efdD", "arccos": "efd", "arctan": "efd", "sinh": "efd", "cosh": "efd",
    "tanh": "efd", "arcsinh": "efdD", "arccosh": "efdD", "arctanh": "efd", "sqrt": "fdD",
    "cbrt": "efd", "rint": "fd", "floor": "fd", "ceil": "fd", "trunc": "fd",
    "square": "e", "reciprocal": "e", "negative": "e", "sign": "d", "absolute": "FD",
    "arctan2": "efd", "hypot": "e", "power": "efd", "logaddexp": "e", "remainder": "fd",
    "fmax": "fd", "fmin": "fd",
}  # and ldexp "fd" (an int exponent: test_ldexp_through_numpy)
ROW_CASES = [(op, c) for op, cs in NUMPY_ROWS.items() for c in cs]


def ew_input(dtype, n, rng, shift=0.0):
    dtype = np.dtype(dtype)
    x = rng.standard_normal(n) * 3 + shift
    if dtype.kind == "c":
        x = x + 1j * (rng.standard_normal(n) * 3)
    x = x.astype(dtype)
    x[:8] = np.array([0, -0.0, np.inf, -np.inf, np.nan, 1, -1, 0.5]).astype(dtype)
    return x


def ew_close(got, want, dtype, ulps, floor=None):
    """Equal for ulps=0 (NumPy's own loop on the cpu device); else within `ulps`
    relative to max(|want|, floor) (floor 1 on a GPU: absolute near zero)."""
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    ok = np.isnan(want) | (got == want)
    if ulps:
        fin = np.finfo(np.dtype(dtype))
        with np.errstate(all="ignore"):
            scale = np.maximum(np.abs(want), fin.tiny if floor is None else floor)
            ok |= np.abs(got - want) <= ulps * fin.eps * scale
    assert np.all(ok), (got[~ok][:5], want[~ok][:5])


@pytest.mark.parametrize("op,char", ROW_CASES)
def test_numpy_rows_match_numpy(device, op, char):
    rng = np.random.default_rng(abs(hash((op, char))) % 2**32)
    f, g = getattr(np, op), getattr(ca, op)
    floor = None if device == "cpu" else 1.0
    for n in (4096, 5000, 100):  # at, above and below the threshold
        ins = [ew_input(char, n, rng, 1.5 * k) for k in range(f.nin)]
        with np.errstate(all="ignore"):
            want = f(*ins)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # cuarray's element-wise ops never warn
            got = g(*[dev(x, device) for x in ins]).get()
        assert got.dtype == want.dtype
        if n < 4096 or device != "cpu":
            # the host loops (libm) or the GPU: NumPy's values to a few ulps
            ew_close(got, want, want.dtype, 64 if char == "e" else 16, floor)
        else:
            ew_close(got, want, want.dtype, 0)


@pytest.mark.parametrize("op,char", [("power", "f"), ("power", "d"), ("power", "e"),
                                     ("arctan2", "f"), ("remainder", "d"), ("fmax", "d"),
                                     ("fmin", "f"), ("hypot", "e")])
def test_numpy_rows_with_a_scalar(device, op, char):
    """A listed loop with a Python or NumPy scalar operand: NumPy's own loop on the
    cpu device (the scalar as a 0-d array of the loop's dtype), its bits and dtype."""
    rng = np.random.default_rng(5)
    x = np.abs(ew_input(char, 5000, rng)) + np.array(0.25, char)
    f, g = getattr(np, op), getattr(ca, op)
    for s in (2.5, -1.25, np.float32(0.75), 3):
        for args in ((x, s), (s, x)):
            with np.errstate(all="ignore"):
                want = f(*args)
            got = g(*[dev(v, device) if isinstance(v, np.ndarray) else v for v in args])
            got = got.get()
            assert got.dtype == want.dtype, (s, args is x)
            ew_close(got, want, want.dtype, 0 if device == "cpu" else 16,
                     None if device == "cpu" else 1.0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("itype", [np.int32, np.int64])
def test_ldexp_through_numpy(device, dtype, itype):
    """ldexp's mixed loops (fi->f, fl->f, ...): NumPy's values and dtypes with an
    exponent array or scalar, over- and underflow included."""
    rng = np.random.default_rng(9)
    x = ew_input(dtype, 5000, rng)
    e = rng.integers(-160, 160, 5000).astype(itype)
    for args in ((x, e), (x, itype(7)), (x, -3), (x[::2], e[1::2])):
        with np.errstate(all="ignore"):
            want = np.ldexp(*args)
        got = ca.ldexp(*[dev(v, device) if isinstance(v, np.ndarray) else v
                         for v in args]).get()
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int8, np.int32,
                                   np.uint64, np.complex64, np.bool_])
def test_scalar_power_fast_ops(device, dtype):
    """x ** 2, x ** -1, x ** 0.5 (and 2.0, -1.0): NumPy's values and dtypes, and
    its exceptions (integers to negative powers); in place too."""
    rng = np.random.default_rng(6)
    x = (rng.standard_normal(6000) * 5).astype(dtype)
    if np.dtype(dtype).kind == "f":
        x[:6] = np.array([0, -0.0, np.inf, -np.inf, np.nan, 1]).astype(dtype)
    a = dev(x, device)
    for e in (2, -1, 0.5, 2.0, -1.0, 3, True):
        try:
            with np.errstate(all="ignore"):
                want = x ** e
        except (ValueError, OverflowError) as ex:  # int ** -1; uint64 ** -1
            with pytest.raises(type(ex)):
                a ** e
            continue
        got = (a ** e).get()
        assert got.dtype == want.dtype, e
        # integer results are exact everywhere; int ** 0.5 is float64 from the
        # GPU's pow (within 2 ulp there), not a sqrt
        exact = device == "cpu" and np.dtype(dtype).kind != "c"
        if exact or want.dtype.kind in "biu":
            np.testing.assert_array_equal(got, want, err_msg=str(e))
        else:
            np.testing.assert_allclose(got, want, rtol=1e-2 if dtype == np.float16 else 1e-5,
                                       err_msg=str(e))
        if want.dtype == x.dtype:
            b = dev(x, device)
            b **= e
            np.testing.assert_array_equal(b.get(), got, err_msg=f"in place {e}")


def test_numpy_rows_out_views_broadcast_inplace(device):
    rng = np.random.default_rng(8)
    x = rng.standard_normal((128, 96)).astype(np.float32)
    y = rng.standard_normal((1, 96)).astype(np.float32)
    cx, cy = dev(x, device), dev(y, device)
    ulps, fl = (0, None) if device == "cpu" else (16, 1.0)
    with np.errstate(all="ignore"):
        ew_close(ca.arctan2(cx, cy).get(), np.arctan2(x, y), np.float32, ulps, fl)  # broadcast
        ew_close(ca.exp(cx.T).get(), np.exp(x.T), np.float32, ulps, fl)  # a transposed input
        big = np.zeros((128, 200), np.float32)
        cbig = dev(big, device)
        ca.exp(cx, out=cbig[:, 3:99])  # a strided out= view
        big[:, 3:99] = np.exp(x)
        ew_close(cbig.get(), big, np.float32, ulps, fl)
        cz = dev(x, device)
        ca.sin(cz, out=cz)  # in place
        ew_close(cz.get(), np.sin(x), np.float32, ulps, fl)
        cw = dev(x, device)
        ca.power(cw[:, ::-1], cw, out=cw)  # out overlaps a reversed input
        ew_close(cw.get(), np.power(x[:, ::-1], x), np.float32, ulps, fl)
        # mixed dtypes cast to the loop first: float32 + float64 runs the d loop
        xd = x.astype(np.float64)
        ew_close(ca.arctan2(cx, dev(xd, device)).get(), np.arctan2(x, xd), np.float64,
                 ulps, fl)
        # a Python scalar operand stays on the host loops (by value)
        ew_close(ca.power(cx, 2.5).get(), np.power(x, np.float32(2.5)), np.float32, 16, fl)


def test_numpy_rows_keep_the_callers_errstate(device):
    x = dev(np.full(8192, -1.0), device)
    with np.errstate(invalid="raise"):
        r = ca.log(x)  # no FloatingPointError: cuarray never warns or raises here
        assert np.geterr()["invalid"] == "raise"
    assert np.isnan(r.get()).all()


# ---- the thread pool: the same bits for any thread count --------------------------------

def _threaded_results(dtype):
    rng = np.random.default_rng(21)
    n = (1 << 23) + 4133  # past CA_HOST_PAR_MIN (2^23), not a multiple of the chunks
    x = (rng.standard_normal(n) * 100).astype(dtype)
    x[n // 3] = x.max() + 1  # a unique argmax away from a chunk edge
    a = ca.asarray(x, device="cpu")
    m = ca.asarray(x[: 2049 * 4096].reshape(2049, 4096), device="cpu")  # threaded
    out = [a.sum(), a.mean(), a.var(), a.max(), a.min(), a.argmax(), a.argmin(), a.any(),
           m.sum(axis=0), m.sum(axis=1), m.max(axis=0), m.argmax(axis=0), m.argmin(axis=1),
           m.var(axis=0), m.T.sum(axis=0), m[:, ::-1].sum(axis=1), ca.nansum(a),
           a + a, a * 2.5, ca.sqrt(ca.abs(a))]
    return [r.get() for r in out]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_results_do_not_depend_on_thread_count(host_threads, dtype):
    host_threads(1)
    one = _threaded_results(dtype)
    for n in (2, 3):
        host_threads(n)
        many = _threaded_results(dtype)
        for k, (p, q) in enumerate(zip(one, many)):
            assert p.dtype == q.dtype and p.shape == q.shape, k
            assert p.tobytes() == q.tobytes(), (n, k)


def _strided_results(x):
    """Strided runs whose elements are few but far apart: threaded by the memory
    they span (a stride of a cache line counts a line an element); columns of
    8-byte elements beside them (threaded by their count)."""
    a = ca.asarray(x, device="cpu")
    w = ca.asarray(x[: (1 << 22) + 3 * 1024].reshape(-1, 1024), device="cpu")
    out = [a[::32].sum(), a[::32].argmax(), a[::32].max(), a[::-17].argmin(),
           a[::3].sum(), a[::5].min(), w.max(axis=0), w.argmax(axis=0), w.sum(axis=0),
           w[:, ::2].sum(axis=0)]
    return [r.get() for r in out]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_strided_and_wide_runs_threaded_by_bytes(host_threads, dtype):
    rng = np.random.default_rng(23)
    x = (rng.standard_normal((1 << 24) + 77) * 100).astype(dtype)
    x[32 * 5001] = x.max() + 1  # a unique max of the [::32] run, away from the cuts
    one = same_bits_on_one_and_two_threads(host_threads, _strided_results, x)
    w = x[: (1 << 22) + 3 * 1024].reshape(-1, 1024)
    exact = {1: x[::32].argmax(), 2: x[::32].max(), 3: x[::-17].argmin(), 5: x[::5].min(),
             6: w.max(axis=0), 7: w.argmax(axis=0)}
    for k, ref in exact.items():
        np.testing.assert_array_equal(one[k], ref, err_msg=str(k))
    tol = {np.float32: 1e-6, np.float64: 1e-14, np.int64: 0}[dtype]
    for k, ref in ((0, x[::32]), (4, x[::3]), (8, w), (9, w[:, ::2])):
        ref = ref.astype(np.float64) if tol else ref
        np.testing.assert_allclose(one[k], ref.sum(axis=0), rtol=0,
                                   atol=tol * np.abs(ref).sum(axis=0).max())


def _slow_class_results(x):
    """ops.def's slow class (threaded from 2^15 elements): contiguous, 2-D, strided
    and broadcast operands, sizes around the threshold and the task share."""
    i = (np.abs(x) * 1e6).astype(np.int64) + 1
    f, fi = ca.asarray(x, device="cpu"), ca.asarray(i, device="cpu")
    g, gi = f.reshape(-1, 1000), fi.reshape(-1, 1000)
    out = [ca.gcd(fi, fi[::-1]), ca.lcm(fi[:32769], fi[1:32770] % 1000),
           ca.gcd(gi[:, ::3], gi[0, ::3]), ca.logaddexp(f, f[::-1]),
           ca.logaddexp2(g, g[:, :1]), ca.hypot(f[::2], f[1::2]), ca.i0(f[:40000]),
           ca.float_power(ca.abs(f), 0.7), ca.hypot(f.astype(np.float32), 3.0)]
    return [r.get() for r in out]


def test_slow_class_threads_sooner(host_threads):
    """The slow class's loops split from CA_HOST_PAR_MIN_SLOW elements: the same
    bits on one thread and on two, and NumPy's values."""
    x = np.random.default_rng(31).standard_normal(200_000)
    one = same_bits_on_one_and_two_threads(host_threads, _slow_class_results, x)
    host_threads(3)
    for k, (p, q) in enumerate(zip(one, _slow_class_results(x))):
        assert p.tobytes() == q.tobytes(), k
    i = (np.abs(x) * 1e6).astype(np.int64) + 1
    g, gi = x.reshape(-1, 1000), i.reshape(-1, 1000)
    want = [np.gcd(i, i[::-1]), np.lcm(i[:32769], i[1:32770] % 1000),
            np.gcd(gi[:, ::3], gi[0, ::3]), np.logaddexp(x, x[::-1]),
            np.logaddexp2(g, g[:, :1]), np.hypot(x[::2], x[1::2]), np.i0(x[:40000]),
            np.float_power(np.abs(x), 0.7), np.hypot(x.astype(np.float32), 3.0)]
    for k, (got, ref) in enumerate(zip(one, want)):
        assert got.dtype == ref.dtype, k
        if ref.dtype.kind == "i":
            np.testing.assert_array_equal(got, ref, err_msg=str(k))
        else:
            # i0 differs from NumPy's series by up to ~5 ulps (either way)
            np.testing.assert_allclose(got, ref, rtol=16 * np.finfo(ref.dtype).eps,
                                       err_msg=str(k))


def test_threaded_results_match_numpy(host_threads):
    host_threads(4)
    rng = np.random.default_rng(22)
    x = rng.random((1 << 23) + 5, dtype=np.float32)
    x[12345] = 2.0
    x[3000001] = -1.0
    a = ca.asarray(x, device="cpu")
    exact = x.astype(np.float64).sum()
    assert abs(float(a.sum().get()) - exact) <= 2 * np.spacing(np.float32(exact))
    assert a.argmax().get() == 12345 and a.argmin().get() == 3000001
    assert a.max().get() == 2.0 and a.min().get() == -1.0
    y = x.copy()
    y[777777] = np.nan
    b = ca.asarray(y, device="cpu")
    assert b.argmax().get() == 777777 and np.isnan(b.max().get())
    m = x[: 2048 * 4096].reshape(2048, 4096)
    cm = ca.asarray(m, device="cpu")
    np.testing.assert_allclose(cm.sum(axis=0).get(), m.astype(np.float64).sum(axis=0),
                               rtol=1e-6)
    np.testing.assert_array_equal(cm.argmax(axis=1).get(), m.argmax(axis=1))
    np.testing.assert_array_equal((a + a).get(), x + x)


def test_host_threads_setting(host_threads):
    assert host_threads() >= 1
    assert host_threads(3) == 3 and host_threads() == 3
    assert host_threads(0) >= 1  # back to the default
    with pytest.raises(ValueError):
        host_threads(-1)


# ---- NumPy's sort, partition and median on zero-copy views (the cpu device) ----
# The cpu device runs NumPy's own routine of the kind asked for, so results are
# NumPy's bit for bit (NaN payloads and the order of -0.0/+0.0 included).

ALL_DT = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32,
          np.int64, np.uint64, np.float16, np.float32, np.float64, np.complex64,
          np.complex128]
KINDS = [None, "quicksort", "heapsort", "mergesort", "stable"]


def sort_data(shape, dtype, seed=5):
    """Random data with many ties; floats with NaNs of both signs, ±0, ±inf."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        info = np.iinfo(dt)
        v = rng.integers(max(info.min, -50), min(info.max, 50), size=shape,
                         endpoint=True).astype(dt)
        if v.size > 3:
            v.flat[:2] = [info.min, info.max]
        return v
    if dt.kind == "f":
        v = (rng.integers(-40, 40, size=shape) / 8.0).astype(dt)
        specials = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0], dt)
        pick = rng.random(shape) < 0.2
        v[pick] = rng.choice(specials, size=int(pick.sum()))
        return v
    part = np.float32 if dt == np.complex64 else np.float64
    out = np.empty(shape, dt)
    out.real = sort_data(shape, part, seed)
    out.imag = sort_data(shape, part, seed + 1)
    return out


def bits(x):
    """The exact bytes of x (NaN payloads and zero signs show)."""
    x = np.ascontiguousarray(x)
    return x.view(np.uint8) if x.dtype != np.bool_ else x


def same_bits(got, want):
    got = got.get()
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(bits(got), bits(want))


@pytest.mark.parametrize("dtype", ALL_DT)
@pytest.mark.parametrize("kind", KINDS)
def test_numpy_sort_kinds_1d(dtype, kind):
    for n in (0, 1, 2, 17, 300, 5000):
        a = sort_data((n,), dtype, seed=n)
        x = ca.asarray(a, device="cpu")
        same_bits(ca.sort(x, kind=kind), np.sort(a, kind=kind))
        same_bits(ca.argsort(x, kind=kind), np.argsort(a, kind=kind))
        y = x.copy()
        y.sort(kind=kind)
        b = a.copy()
        b.sort(kind=kind)
        same_bits(y, b)
        same_bits(x.argsort(kind=kind), a.argsort(kind=kind))


@pytest.mark.parametrize("dtype", [np.int16, np.uint32, np.int64, np.float16, np.float32,
                                   np.float64, np.complex64])
@pytest.mark.parametrize("kind", KINDS)
def test_numpy_sort_axes_and_layouts(dtype, kind):
    a = sort_data((6, 40, 33), dtype)
    x = ca.asarray(a, device="cpu")
    views = [(a, x), (a[:, ::-1, ::2], x[:, ::-1, ::2]), (a.transpose(2, 0, 1),
             x.transpose(2, 0, 1)), (a[::-2, 3:], x[::-2, 3:])]
    for av, xv in views:
        for axis in (None, 0, 1, 2, -1):
            same_bits(ca.sort(xv, axis=axis, kind=kind), np.sort(av, axis=axis, kind=kind))
            same_bits(ca.argsort(xv, axis=axis, kind=kind),
                      np.argsort(av, axis=axis, kind=kind))


def test_numpy_sort_rows_and_stable_flag():
    a = sort_data((4096, 256), np.float32)
    x = ca.asarray(a, device="cpu")
    same_bits(ca.sort(x, axis=-1), np.sort(a, axis=-1))
    same_bits(ca.argsort(x, axis=0), np.argsort(a, axis=0))
    for stable in (True, False):
        same_bits(ca.sort(x, stable=stable), np.sort(a, stable=stable))
        same_bits(ca.argsort(x, axis=0, stable=stable), np.argsort(a, axis=0, stable=stable))
    # stable: ties keep their input order
    t = np.random.default_rng(1).integers(0, 3, size=20000).astype(np.float64)
    i = ca.argsort(ca.asarray(t, device="cpu"), kind="stable").get()
    assert all((np.diff(i[t[i] == v]) > 0).all() for v in (0, 1, 2))
    # descending stays on the host kernels (NumPy has none): stable reverse order
    d = ca.argsort(ca.asarray(t, device="cpu"), descending=True).get()
    assert (np.diff(t[d]) <= 0).all()
    assert all((np.diff(d[t[d] == v]) > 0).all() for v in (0, 1, 2))


@pytest.mark.parametrize("dtype", ALL_DT)
def test_numpy_partition(dtype):
    a = sort_data((7, 301), dtype)
    x = ca.asarray(a, device="cpu")
    for kth in (0, 5, -1, 150, [3, 100, -20], (0, 300)):
        for axis in (-1, None):
            same_bits(ca.partition(x, kth, axis=axis), np.partition(a, kth, axis=axis))
            same_bits(ca.argpartition(x, kth, axis=axis), np.argpartition(a, kth, axis=axis))
    same_bits(ca.partition(x, 3, axis=0), np.partition(a, 3, axis=0))
    same_bits(ca.argpartition(x[:, ::-3], 2, axis=0), np.argpartition(a[:, ::-3], 2, axis=0))
    y = x.copy()
    y.partition([1, 4], axis=0)
    b = a.copy()
    b.partition([1, 4], axis=0)
    same_bits(y, b)
    same_bits(x.argpartition(10), a.argpartition(10))
    with pytest.raises(ValueError):
        ca.partition(x, 301)
    with pytest.raises(TypeError):
        ca.partition(x, 1.5)


@pytest.mark.parametrize("dtype", ALL_DT)
def test_numpy_median(dtype):
    a = sort_data((5, 6, 7), dtype)
    x = ca.asarray(a, device="cpu")
    for axis in (None, 0, 1, -1, (0, 2), (0, 1, 2)):
        for keepdims in (False, True):
            with np.errstate(all="ignore"):
                want = np.median(a, axis=axis, keepdims=keepdims)
            got = ca.median(x, axis=axis, keepdims=keepdims)
            assert isinstance(got, ca.ndarray) and got.device == x.device
            same_bits(got, np.asarray(want))
    with np.errstate(all="ignore"):
        want = np.median(a[::-1, :, ::2], axis=1)
    same_bits(ca.median(x[::-1, :, ::2], axis=1), want)
    out = ca.empty(want.shape, dtype=want.dtype, device="cpu")
    assert ca.median(x[::-1, :, ::2], axis=1, out=out) is out
    same_bits(out, want)


def test_numpy_median_edges():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for v in ([np.inf, -np.inf], [np.nan, 1.0], [-0.0, 0.0], [0.0, -0.0, -0.0], [1.0],
                  [np.inf, np.inf], [3, 1, 2, 2]):
            a = np.array(v)
            with np.errstate(all="ignore"):
                want = np.median(a)
            same_bits(ca.median(ca.asarray(a, device="cpu")), np.asarray(want))
        # empty: NaN without a warning (unchanged)
        r = ca.median(ca.asarray(np.zeros((0, 3)), device="cpu"), axis=0)
        assert r.shape == (3,) and np.isnan(r.get()).all()
    big = np.random.default_rng(2).random(1 << 20, dtype=np.float32)
    same_bits(ca.median(ca.asarray(big, device="cpu")), np.asarray(np.median(big)))


# ---- gather / scatter / mask host loops: innermost runs, row blocks, prefetch ----

IDX_DT = [np.bool_, np.int8, np.float16, np.float32, np.float64, np.complex128]


def idx_data(shape, dtype, seed=3):
    from conftest import random_array
    return random_array(shape, dtype, np.random.default_rng(seed))


@pytest.mark.parametrize("dtype", IDX_DT)
def test_gather_runs_and_rows(device, dtype):
    rng = np.random.default_rng(4)
    a = idx_data((300, 70), dtype)
    x = ca.asarray(a, device=device)
    i = rng.integers(-300, 300, size=517)
    ci = ca.asarray(i, device=device)
    np.testing.assert_array_equal(x[ci].get(), a[i])                 # rows, contiguous
    np.testing.assert_array_equal(x[:, ::-2][ci].get(), a[:, ::-2][i])  # rows, strided
    np.testing.assert_array_equal(x[:, ci[:40] % 70].get(), a[:, i[:40] % 70])
    i2 = rng.integers(0, 70, size=(9, 11))
    np.testing.assert_array_equal(x[ci[:9, None] % 300, ca.asarray(i2, device=device)].get(),
                                  a[i[:9, None] % 300, i2])
    flat = a.reshape(-1)
    j = rng.integers(-flat.size, flat.size, size=5000)               # past the prefetch
    np.testing.assert_array_equal(x.reshape(-1)[ca.asarray(j, device=device)].get(), flat[j])
    np.testing.assert_array_equal(x.reshape(-1)[ca.asarray(j[::-3], device=device)].get(),
                                  flat[j[::-3]])
    np.testing.assert_array_equal(x[ca.asarray(np.array(7), device=device)].get(), a[7])
    for bad in (300, -301):
        with pytest.raises(IndexError, match=f"index {bad} is out of bounds"):
            x[ca.asarray(np.array([0, 5, bad, 2]), device=device)]


@pytest.mark.parametrize("dtype", IDX_DT)
def test_scatter_runs_and_rows(device, dtype):
    rng = np.random.default_rng(5)
    a = idx_data((200, 33), dtype)
    v = idx_data((200, 33), dtype, seed=9)
    perm = rng.permutation(200)
    x = ca.asarray(a, device=device)
    x[ca.asarray(perm, device=device)] = ca.asarray(v, device=device)
    b = a.copy()
    b[perm] = v
    np.testing.assert_array_equal(x.get(), b)
    # rows of a strided view, a broadcast value row, a scalar
    x[:, ::3][ca.asarray(perm[:50], device=device)] = ca.asarray(v[0, ::3], device=device)
    b[:, ::3][perm[:50]] = v[0, ::3]
    np.testing.assert_array_equal(x.get(), b)
    x[ca.asarray(perm[50:90] - 200, device=device)] = v[1, 0]
    b[perm[50:90] - 200] = v[1, 0]
    np.testing.assert_array_equal(x.get(), b)
    flat = b.reshape(-1)
    y = x.reshape(-1)
    j = rng.permutation(flat.size)[:3000]
    w = idx_data((3000,), dtype, seed=11)
    y[ca.asarray(j, device=device)] = ca.asarray(w, device=device)
    flat[j] = w
    np.testing.assert_array_equal(y.get(), flat)
    # an out-of-range index anywhere: IndexError, nothing written
    before = y.get()
    with pytest.raises(IndexError, match="index 6600 is out of bounds"):
        y[ca.asarray(np.array([3, 6600, 1]), device=device)] = w[:3]
    np.testing.assert_array_equal(y.get(), before)


def test_scatter_repeats_last_wins_cpu():
    a = np.zeros(1000, np.float32)
    i = np.random.default_rng(6).integers(0, 50, size=4000)
    v = np.arange(4000, dtype=np.float32)
    x = ca.asarray(a, device="cpu")
    x[ca.asarray(i, device="cpu")] = ca.asarray(v, device="cpu")
    a[i] = v
    np.testing.assert_array_equal(x.get(), a)


@pytest.mark.parametrize("dtype", [np.int8, np.float16, np.float32, np.float64,
                                   np.complex128])
def test_long_random_runs_on_threads(host_threads, dtype):
    """A gather of one run of 2^18+ random indices runs on the pool in pieces:
    NumPy's result with one thread or several, negative indices, the first
    out-of-range index reported; the scatter beside it (a band of the target per
    thread, each walking the whole run) likewise, repeats last-wins."""
    rng = np.random.default_rng(31)
    n = (1 << 18) + 1001
    a = idx_data((n,), dtype, seed=12)
    i = rng.integers(-n, n, size=n + 333)
    i[: n // 2] = rng.integers(0, 64, size=n // 2)  # many repeats, across the bands
    w = idx_data((i.size,), dtype, seed=13)
    for th in (1, 2, 3):
        host_threads(th)
        x, ci = ca.asarray(a, device="cpu"), ca.asarray(i, device="cpu")
        np.testing.assert_array_equal(x[ci].get(), a[i])
        np.testing.assert_array_equal(x[ci[::-2]].get(), a[i[::-2]])
        b = a.copy()
        b[i] = w
        x[ci] = ca.asarray(w, device="cpu")
        np.testing.assert_array_equal(x.get(), b)
        x[ci] = w[7]  # a scalar value
        b[i] = w[7]
        np.testing.assert_array_equal(x.get(), b)
        bad = i.copy()
        bad[n - 5], bad[n + 7] = n + 3, -n - 9
        with pytest.raises(IndexError, match=f"index {n + 3} is out of bounds"):
            x[ca.asarray(bad, device="cpu")]
        before = x.get()
        with pytest.raises(IndexError, match=f"index {n + 3} is out of bounds"):
            x[ca.asarray(bad, device="cpu")] = ca.asarray(w, device="cpu")
        np.testing.assert_array_equal(x.get(), before)


@pytest.mark.parametrize("dtype", IDX_DT)
@pytest.mark.parametrize("shape", [(5000,), (37, 41), (3, 1, 64), (6, 7, 9)])
def test_mask_take_and_fill(device, dtype, shape):
    rng = np.random.default_rng(7)
    a = idx_data(shape, dtype)
    x = ca.asarray(a, device=device)
    for p in (0.0, 0.5, 0.97, 1.0):
        m = rng.random(shape) < p
        if len(shape) > 1:
            m[0] = True          # a full run
            m[-1] = False        # an empty one
        cm = ca.asarray(m, device=device)
        np.testing.assert_array_equal(x[cm].get(), a[m])
        y = ca.asarray(a, device=device)
        fill = idx_data((1,), dtype, seed=13)[0]
        y[cm] = fill
        b = a.copy()
        b[m] = fill
        np.testing.assert_array_equal(y.get().view(np.uint8), b.view(np.uint8))
    if len(shape) > 1:
        m = rng.random(shape) < 0.5
        xs = x[..., ::-2]
        ms = m[..., ::-2]
        np.testing.assert_array_equal(xs[ca.asarray(ms, device=device)].get(), a[..., ::-2][ms])
        y = ca.asarray(a, device=device)
        y[..., ::2][ca.asarray(np.ascontiguousarray(m[..., ::2]), device=device)] = 0
        b = a.copy()
        b[..., ::2][m[..., ::2]] = 0
        np.testing.assert_array_equal(y.get(), b)
        # a mask over the leading axes: rows
        mr = rng.random(shape[:1]) < 0.5
        np.testing.assert_array_equal(x[ca.asarray(mr, device=device)].get(), a[mr])


@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.float16, np.float32, np.complex64])
def test_tril_triu_layouts(device, dtype):
    a = sort_data((3, 37, 29), dtype)
    x = ca.asarray(a, device=device)
    for av, xv in ((a, x), (a[1], x[1]), (a[1].T, x[1].T), (a[:, ::-2, 3:], x[:, ::-2, 3:]),
                   (a[0, 0], x[0, 0])):
        for k in (0, 2, -3, 100, -100):
            same_bits(ca.tril(xv, k), np.tril(av, k))
            same_bits(ca.triu(xv, k), np.triu(av, k))


def test_from_dlpack_numpy_fast_path():
    """Exact NumPy arrays skip the device query: same results as the protocol."""
    for dtype in ALL_DT:
        a = sort_data((4, 6), dtype)
        for v in (a, a[:, ::-2], a.T, a[1], a[0, 0, ...], a[:0]):
            x = ca.from_dlpack(v)
            assert x.device == ca.asarray(v, device="cpu").device
            same_bits(x, np.asarray(v))
            if v.size:
                assert np.shares_memory(np.asarray(x), v)
    r = np.arange(5.0)
    r.flags.writeable = False
    x = ca.from_dlpack(r)
    assert not x.flags.writeable
    with pytest.raises(ValueError):
        x[0] = 1.0
    c = ca.from_dlpack(np.arange(5.0), copy=True)
    assert not np.shares_memory(np.asarray(c), r)
    with pytest.raises(BufferError):
        ca.from_dlpack(np.array(["a"]))
    with pytest.raises(BufferError):
        ca.from_dlpack(np.arange(3, dtype=">i4"))

    class Sub(np.ndarray):
        pass
    s = np.arange(4.0).view(Sub)
    same_bits(ca.from_dlpack(s), np.arange(4.0))


def test_from_dlpack_numpy_direct_view():
    """A writeable aligned NumPy array is wrapped without a capsule: the same
    zero-copy view, writes seen both ways, the array kept alive by the result."""
    v = np.arange(12.0).reshape(3, 4)[:, ::-2]
    for kw in ({}, {"device": "cpu"}, {"copy": False}, {"device": "cpu", "copy": None}):
        x = ca.from_dlpack(v, **kw)
        assert x.device == ca.Device("cpu") and x.flags.writeable
        x[1, 0] = -7.0
        assert v[1, 0] == -7.0
        v[2, 1] = 99.0
        assert float(x[2, 1].get()) == 99.0
    x = ca.from_dlpack(np.arange(6, dtype=np.int16) * 3)  # the only reference is x's
    same_bits(x, np.arange(6, dtype=np.int16) * 3)
    # strides that are not whole elements, and unaligned data: the protocol decides
    raw = np.zeros(13, dtype=np.uint8)
    odd = np.ndarray((3,), dtype=np.int32, buffer=raw, offset=0, strides=(3,))
    with pytest.raises(BufferError):
        ca.from_dlpack(odd)
    unaligned = np.ndarray((3,), dtype=np.int32, buffer=raw, offset=1)
    unaligned[:] = [1, 2, 3]
    try:
        got = ca.from_dlpack(unaligned).get()
    except BufferError:
        pass
    else:
        np.testing.assert_array_equal(got, [1, 2, 3])


def _column_ops(xp, a):
    """The order-free column reductions of `a` through namespace xp (cuarray or NumPy)."""
    out = [a.max(axis=0), a.min(axis=0), xp.nanmax(a, axis=0), xp.nanmin(a, axis=0),
           (a > 0).any(axis=0), (a > -1e30).all(axis=0)]
    if a.dtype.kind in "iu":
        out.append(a.sum(axis=0))
    if a.ndim == 3:
        out += [a.max(axis=(0, 1)), a.min(axis=(1, 0))]
    return out


def _column_results(m):
    return [r.get() for r in _column_ops(ca, ca.asarray(m, device="cpu"))]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.int16, np.uint8])
@pytest.mark.parametrize("shape", [(4099, 1024), (8, 1030, 257), (2, 5000, 3001)])
def test_column_rows_split_between_threads(host_threads, dtype, shape):
    """One line of columns of at least 8 MiB (host_reduce.c reduce_columns_by_rows):
    its rows in four pieces, folded on the pool and combined in order; the same bits
    with one thread or two, NumPy's values, NaN from any piece, integer sums that
    wrap as NumPy's do."""
    rng = np.random.default_rng(shape[-1])
    if np.dtype(dtype).kind == "f":
        m = (rng.standard_normal(shape) * 1000).astype(dtype)
    else:
        info = np.iinfo(dtype)
        m = rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=dtype)
    if m.nbytes < (1 << 23):  # below the split: make it wide enough by repetition
        m = np.concatenate([m] * (-(-(1 << 23) // m.nbytes)), axis=0)
    flat = m.reshape(-1, m.shape[-1])
    rows = flat.shape[0]
    if m.dtype.kind == "f":  # NaN in the first and the last piece, -inf, +inf
        flat[1, 3] = flat[rows - 2, 5] = np.nan
        flat[rows // 2, 7] = np.inf
        flat[rows // 4 + 1, 9] = -np.inf
    else:
        info = np.iinfo(dtype)
        flat[rows - 1, 0], flat[rows // 2, 1] = info.max, info.min
    one = same_bits_on_one_and_two_threads(host_threads, _column_results, m)
    for k, (got, ref) in enumerate(zip(one, _column_ops(np, m))):
        np.testing.assert_array_equal(got, ref, err_msg=str(k))


# ---- three-input ops with scalar operands (tools/gen_ops.py scalar_patterns) ----

@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int64, np.float16, np.float32,
                                   np.float64, np.complex64])
def test_three_input_scalar_loops(device, dtype):
    # clip with scalar bounds (the (2, 3) loop), one scalar bound (the (2,) and
    # (3,) loops), where with a scalar branch, and the strided fallback; NaN in
    # the value propagates, bounds compare plainly; ties keep NumPy's operand
    rng = np.random.default_rng(11)
    x = random_array((3001,), dtype, rng)
    if np.dtype(dtype).kind in "fc":
        x[::97] = np.nan
        x[5] = -0.0
    lo, hi = (x.real if np.dtype(dtype).kind == "c" else x)[[7, 11]]
    lo, hi = sorted([v for v in (lo, hi)], key=lambda v: (np.isnan(v), v))
    lo = np.asarray(lo, dtype)[()] if not np.isnan(lo) else np.asarray(0, dtype)[()]
    hi = np.asarray(hi, dtype)[()] if not np.isnan(hi) else np.asarray(1, dtype)[()]
    hi_arr = np.full_like(x, hi)
    X = dev(x, device)
    cases = [
        (lambda m, a: m.clip(a, lo, hi), x),
        (lambda m, a: m.clip(a, lo, dev(hi_arr, device) if m is ca else hi_arr), x),
        (lambda m, a: m.clip(a, dev(hi_arr, device) * 0 + lo if m is ca else hi_arr * 0 + lo,
                             hi), x),
        (lambda m, a: m.where(a.real > 0 if m is ca else a.real > 0, a, lo), x),
        (lambda m, a: m.where(a.real > 0, lo, a), x),
        (lambda m, a: m.clip(a[::3], lo, hi), x),  # strided value: the general loop
    ]
    for k, (fn, ref_in) in enumerate(cases):
        got = fn(ca, X)
        want = fn(np, ref_in)
        assert got.dtype == want.dtype, k
        np.testing.assert_array_equal(got.get(), want, err_msg=f"case {k}")
        if np.dtype(dtype).kind == "f":  # -0.0 / +0.0 ties: NumPy's sign
            np.testing.assert_array_equal(np.signbit(got.get()), np.signbit(want))


@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.uint32, np.float16, np.float32,
                                   np.complex128])
def test_outer_matches_numpy(device, dtype):
    # the cpu device's outer is a broadcast multiply (a GPU's a K = 1 GEMM)
    rng = np.random.default_rng(4)
    a = random_array((37,), dtype, rng)
    b = random_array((2, 3, 5), dtype, rng)  # flattened, as NumPy
    want = np.outer(a, b)
    got = ca.outer(dev(a, device), dev(b, device))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got.get(), want, rtol=1e-3 if dtype == np.float16 else 1e-6)
    out = ca.empty(want.shape, dtype=want.dtype, device=device)
    assert ca.outer(dev(a, device), dev(b[::-1], device), out=out) is out
    np.testing.assert_allclose(out.get(), np.outer(a, b[::-1]),
                               rtol=1e-3 if dtype == np.float16 else 1e-6)


INT_TYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
             np.uint64]


@pytest.mark.parametrize("dtype", INT_TYPES)
def test_int_floor_divide_by_scalar(device, dtype):
    # the host's multiply-and-shift division (kernels/host/host_intdiv.h) for one
    # divisor >= 1; 0 and negative divisors keep the plain loop
    info = np.iinfo(dtype)
    rng = np.random.default_rng(7)
    x = rng.integers(info.min, info.max, 5003, dtype=dtype, endpoint=True)
    x[:6] = [info.min, info.max, 0, 1, info.max - 1, info.min + 1]
    c = dev(x, device)
    divisors = [1, 2, 3, 7, 10, 64, 127, info.max, info.max - 1, info.max // 2 + 1,
                info.max // 3] + list(rng.integers(1, info.max, 12, dtype=dtype))
    if info.min < 0:
        divisors += [-1, -7, info.min]
    for d in divisors:
        d = dtype(d)
        with np.errstate(all="ignore"):
            want_q, want_r = x // d, x % d
        np.testing.assert_array_equal((c // d).get(), want_q, err_msg=f"{d}")
        np.testing.assert_array_equal((c % d).get(), want_r, err_msg=f"{d}")
        q, r = divmod(c[1::2], d)  # strided: the general loop
        np.testing.assert_array_equal(q.get(), want_q[1::2])
        np.testing.assert_array_equal(r.get(), want_r[1::2])


@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.float64, np.complex128])
def test_gather_branch_free_loop(device, dtype):
    # take's checked loop: wrapped negatives, every stride, and an out-of-range
    # index anywhere in the run (first one reported, as NumPy)
    rng = np.random.default_rng(8)
    x = random_array((1000,), dtype, rng)
    c = dev(x, device)
    idx = rng.integers(-1000, 1000, 4099)
    np.testing.assert_array_equal(c[dev(idx, device)].get(), x[idx])
    np.testing.assert_array_equal(c[dev(idx, device)[::3]].get(), x[idx[::3]])
    m = random_array((40, 50), dtype, rng)
    mi = rng.integers(-50, 50, (7, 9))
    np.testing.assert_array_equal(dev(m, device)[:, dev(mi, device)].get(), m[:, mi])
    np.testing.assert_array_equal(dev(m, device)[::-2][dev(mi[:, :3], device) % 20].get(),
                                  m[::-2][mi[:, :3] % 20])
    # the cpu device reports the first bad index, as NumPy; a GPU's threads race
    first = "1000" if device == "cpu" else "(1000|-1001)"
    for where in (0, 2048, 4097):
        bad = idx.copy()
        bad[where] = 1000
        bad[-1] = -1001
        with pytest.raises(IndexError, match=f"index {first} is out of bounds"):
            c[dev(bad, device)]


def test_float32_column_sum_groups_of_eight(device):
    # eight rows are added in float32 before the float64 accumulator: within
    # a few roundings of the exact column sums on data with cancellation
    rng = np.random.default_rng(9)
    x = (rng.standard_normal((4099, 33)) * 10.0 ** rng.integers(-3, 4, (4099, 33)))
    x = x.astype(np.float32)
    exact = x.astype(np.float64).sum(axis=0)
    bound = 4 * np.finfo(np.float32).eps * np.abs(x.astype(np.float64)).sum(axis=0)
    got = ca.sum(dev(x, device), axis=0).get().astype(np.float64)
    assert np.all(np.abs(got - exact) <= bound + np.spacing(np.abs(exact).astype(np.float32)))


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("n", [1, 15, 16, 17, 511, 512, 513, 5000])
def test_backward_runs(device, dtype, n):
    # operands walking backwards go through buffers a chunk (512) at a time on
    # the cpu device; copies of reversed views take a constant-stride loop
    x = (np.arange(n) * 3 - 7).astype(dtype)
    y = (np.arange(n)[::-1] * 2 + 1).astype(dtype)
    X, Y = dev(x, device), dev(y, device)
    np.testing.assert_array_equal((X[::-1] + Y).get(), x[::-1] + y)
    np.testing.assert_array_equal((X[::-1] * Y[::-1]).get(), x[::-1] * y[::-1])
    np.testing.assert_array_equal(ca.flip(X).copy().get(), x[::-1])
    out, want = ca.zeros(n, dtype=dtype, device=device), np.zeros(n, dtype)
    ca.multiply(X, Y[::-1], out=out[::-1])
    np.multiply(x, y[::-1], out=want[::-1])
    np.testing.assert_array_equal(out.get(), want)
    z, w = X.copy(), x.copy()
    ca.add(z, 1, out=z[::-1])  # overlapping: NumPy's answer
    np.add(w, 1, out=w[::-1])
    np.testing.assert_array_equal(z.get(), w)
    m = np.arange(n * 3).reshape(3, n).astype(dtype)
    M = dev(m, device)
    np.testing.assert_array_equal((M[:, ::-1] - M).get(), m[:, ::-1] - m)
    np.testing.assert_array_equal(ca.ascontiguousarray(M[::-1, ::-1]).get(), m[::-1, ::-1])


def test_float32_to_float16_every_rounding_case(device):
    # the host's F16C conversion (where the CPU has it) and the portable one give
    # NumPy's bits: ties to even, subnormals, overflow to inf, NaN payloads
    # (a signaling NaN comes out quiet on both paths, as the GPU's)
    edges = [np.arange(0x33000000 - 512, 0x38800000 + 512, 37, dtype=np.uint32),
             np.arange(0x477FE000 - 512, 0x477FF000 + 512, dtype=np.uint32),
             np.array([0, 0x7F800000, 0x7FC00001, 0x7FFFFFFF, 0x3F800000], np.uint32),
             np.random.default_rng(10).integers(0, 2**32, 1 << 16, dtype=np.uint64)
             .astype(np.uint32)]
    bits = np.concatenate(edges + [e | np.uint32(0x80000000) for e in edges])
    x = bits.view(np.float32)
    quiet = np.isnan(x)
    with np.errstate(all="ignore"):
        want = x.astype(np.float16).view(np.uint16)
    want = np.where(quiet, want | np.uint16(0x0200), want)
    if device != "cpu":  # a GPU's NaN payloads are its own: NaN is all that counts
        want = np.where(quiet, np.uint16(0x7E00), want)
    X = dev(x, device)

    def half_bits(a, q):
        h = a.astype(ca.float16).get()
        return np.where(q, np.uint16(0x7E00), h.view(np.uint16)) if device != "cpu" \
            else h.view(np.uint16)
    np.testing.assert_array_equal(half_bits(X, quiet), want)
    strided = dev(np.repeat(x, 2), device)[::2]
    np.testing.assert_array_equal(half_bits(strided, quiet), want)
    np.testing.assert_array_equal(half_bits(X[3:], quiet[3:]), want[3:])
    if device != "cpu":
        assert np.isnan(X.astype(ca.float16).get()[quiet]).all()


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_clip_ties_and_nan_bounds(device, dtype):
    # clip keeps the value on a tie (clip(-0.0, 0.0, 1) is -0.0, as NumPy's
    # scalar-bounds and float16 loops), a NaN value stays NaN, a NaN bound makes
    # every element NaN; scalar bounds (their own host loop), array bounds and a
    # strided value. NumPy's float32/float64 loop for array bounds returns the
    # bound on a tie instead: its signs are not compared there.
    x = np.array([-0.0, 0.0, -0.0, 0.0, 0.5, -2.0, 2.0, np.nan, 1.0, -1.0] * 7, dtype)
    X = dev(x, device)
    for lo, hi in [(0.0, 1.0), (-0.0, 1.0), (-1.0, -0.0), (-1.0, 0.0), (-0.0, 0.0),
                   (0.0, -0.0), (np.nan, 1.0), (0.0, np.nan), (1.0, -1.0)]:
        lo_, hi_ = np.asarray(lo, dtype)[()], np.asarray(hi, dtype)[()]
        cases = [(ca.clip(X, lo_, hi_), np.clip(x, lo_, hi_)),
                 (ca.clip(X, dev(np.full_like(x, lo), device), hi_),
                  np.clip(x, np.full_like(x, lo), hi_)),
                 (ca.clip(X[::3], lo_, hi_), np.clip(x[::3], lo_, hi_))]
        for k, (got, want) in enumerate(cases):
            got = got.get()
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got, want, err_msg=f"{lo}, {hi}")
            if k == 1 and dtype != np.float16:
                want = np.clip(x, lo_, hi_)  # the value's sign, as the other loops
            np.testing.assert_array_equal(np.signbit(got), np.signbit(want),
                                          err_msg=f"{lo}, {hi}")


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_spacing_edges(device, dtype):
    # spacing from the magnitude's bits: exact, with the value's sign (+ for -0.0),
    # inf at the largest finite value, NaN for inf and NaN; subnormals included
    fi = np.finfo(dtype)
    rng = np.random.default_rng(12)
    with np.errstate(all="ignore"):  # float16 overflows to inf: one more edge
        x = np.concatenate([
            rng.standard_normal(3000) * 10.0 ** rng.integers(-30, 30, 3000),
            [0.0, -0.0, np.inf, -np.inf, np.nan, fi.max, -fi.max, fi.tiny, -fi.tiny,
             fi.smallest_subnormal, -fi.smallest_subnormal,
             fi.tiny - fi.smallest_subnormal, 1.0, -1.0, 2.0, 0.75, fi.eps]]).astype(dtype)
        want = np.spacing(x)
        got = ca.spacing(dev(x, device)).get()
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64])
def test_round_decimals_one_pass(device, dtype):
    # float32/float64 round with decimals in one loop (_round_up/_round_down),
    # float16 and complex in NumPy's three passes; the same bits as NumPy's
    # passes: halfway cases, overflow of the scaled value, NaN, inf, -0.0
    rng = np.random.default_rng(13)
    big = np.finfo(np.float16 if dtype == np.float16 else np.float32).max
    x = np.concatenate([rng.standard_normal(2000) * 10.0 ** rng.integers(-4, 6, 2000),
                        [0.125, -0.125, 0.375, 2.5, -2.5, 1.005, 0.0, -0.0, np.nan,
                         np.inf, -np.inf, big, -big, 1e-30, 123456.789]])
    with np.errstate(all="ignore"):
        x = x.astype(dtype)
        if np.dtype(dtype).kind == "c":
            x = x + 1j * x[::-1]
        X = dev(x, device)
        for d in [-3, -1, 1, 2, 3, 7]:
            want = np.round(x, d)
            got = ca.round(X, d).get()
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got, want, err_msg=str(d))
            # the signs of zeros; not of NaNs (x86 makes negative ones, a GPU
            # positive ones: float16's 10^7 is inf, and inf / inf is NaN)
            keep = ~np.isnan(want.real)
            np.testing.assert_array_equal(np.signbit(got.real)[keep],
                                          np.signbit(want.real)[keep])
            out = ca.empty_like(X)
            assert ca.round(X, d, out=out) is out
            np.testing.assert_array_equal(out.get(), want)
        if dtype == np.float32:  # out= of another dtype: NumPy's passes in out's type
            want = np.round(x, 2, out=np.empty(x.shape, np.float64))
            out = ca.empty(x.shape, dtype=ca.float64, device=device)
            np.testing.assert_allclose(ca.round(X, 2, out=out).get(), want, rtol=1e-6)
