"""Strided sums, strided argmax / argmin of far-apart elements, the contiguous arg search
and the four-row float column max against NumPy (issue 15; cpu8's host loops).

- Sums of a[::k]: the pairwise float leaf has copies for elements 1, 2 and 4 items apart
  (gcc vectorises them) and the strided copy; integer sums of other strides under 64
  bytes run in four add chains, wider ones in one. The value must be NumPy's for integers (wrapping included) and the float64
  reference's for floats; on the cpu device a strided float sum is bit-identical to the
  sum of its contiguous copy (every copy of the leaf keeps the same lanes) and to itself
  with one host thread or two.
- argmax / argmin of runs whose elements are more than 64 bytes apart gather each block
  (4096 elements) into a buffer; the search of a block with a new best is a vectorised
  group test (ca_hr_find_*), also for contiguous runs: ties (first index), NaN (first
  NaN), block and group edges, both signs.
- m.max(axis=0) / min of floats fold four rows at a time with one NaN test: NaN in any
  of the four rows, in the remainder rows and in the first row.
They run on both devices.
"""

import math
import os
import subprocess
import sys

import numpy as np
import pytest

import cuarray as ca

INTS = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
        np.uint64]
FLOATS = [np.float16, np.float32, np.float64]
COMPLEX = [np.complex64, np.complex128]
SUM_STEPS = [1, 2, 3, 4, 5, 7, 8, 9, 16, 31, 64, -1, -2, -3, -4, -7]
SUM_LENGTHS = [1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 127, 128, 129, 255, 256, 257, 1000,
               4099]


def values(n, dtype, rng, big=False):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(n) < 0.5
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        if big:  # extremes: int64 / uint64 sums wrap, as NumPy's do
            return rng.integers(info.min, info.max, size=n, endpoint=True, dtype=dtype)
        return rng.integers(max(info.min, -1000), min(info.max, 1000), size=n,
                            endpoint=True, dtype=dtype)
    if dtype.kind == "c":
        return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype)
    return (rng.standard_normal(n) * 10).astype(dtype)


def strided(base, c, step, n, off=0):
    sl = slice(off, None, step) if step > 0 else slice(len(base) - 1 - off, None, step)
    return base[sl][:n], c[sl][:n]


def close_to_reference(got, x, msg):
    """A float sum against the float64 (complex128) reference: within an ulp of the
    result type, or the reference's own rounding for float16 and complex parts."""
    got = np.asarray(got)
    if x.dtype.kind == "c":
        ref = np.sum(x.astype(np.complex128))
        scale = np.sum(np.abs(x.astype(np.complex128)))
        tol = 8 * np.finfo(x.real.dtype).eps * max(scale, 1.0)
        assert abs(complex(got) - ref) <= tol, (msg, got, ref)
        return
    ref = math.fsum(x.astype(np.float64).tolist())
    rt = got.dtype.type
    scale = float(np.sum(np.abs(x.astype(np.float64))))
    tol = max(float(np.spacing(rt(abs(ref)))), 1e-12 * scale)
    if x.dtype == np.float16:  # accumulated in float32: its error, then rounded
        tol = max(float(np.spacing(np.float16(abs(ref)))), 4e-7 * scale)
    assert abs(float(got) - ref) <= tol, (msg, float(got), ref, tol)


@pytest.mark.parametrize("dtype", INTS + FLOATS + COMPLEX)
@pytest.mark.parametrize("step", SUM_STEPS)
def test_strided_sum(device, dtype, step):
    rng = np.random.default_rng(abs(step) * 7 + np.dtype(dtype).num)
    for n in SUM_LENGTHS:
        base = values(n * abs(step) + 2, dtype, rng, big=n % 2 == 1)
        c = ca.asarray(base, device=device)
        for off in (0, 1):
            x, v = strided(base, c, step, n, off)
            msg = f"n={n} step={step} off={off}"
            got = v.sum().get()
            want = x.sum()
            assert got.dtype == want.dtype, (msg, got.dtype, want.dtype)
            if np.dtype(dtype).kind in "biu":
                assert got == want, (msg, got, want)
                assert ca.nansum(v).get() == np.nansum(x), msg
                continue
            close_to_reference(got, x, msg)
            if device == "cpu":  # the same lanes in every copy of the leaf
                same_bits(got, v.copy().sum().get(), msg)
                same_bits(ca.nansum(v).get(), ca.nansum(v.copy()).get(), "nansum " + msg)
                same_bits(v.mean().get(), v.copy().mean().get(), "mean " + msg)
                if np.dtype(dtype).kind == "f" and n > 1:
                    same_bits(v.var().get(), v.copy().var().get(), "var " + msg)


def same_bits(a, b, msg):
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), (msg, a, b)


def cpu_same(a, b, msg):
    """The cpu device's matmul against NumPy's: the same bits, float16 within 1 ulp
    (test_matmul_2d_is_numpys says why)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype == np.float16:
        assert b.dtype == np.float16, msg
        np.testing.assert_array_max_ulp(a, b, maxulp=1)
    else:
        same_bits(a, b, msg)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("step", [2, 4, 5, -2, -4])
def test_strided_sum_special_values(device, dtype, step):
    """NaN / inf at the leaf's lanes, its vector groups, the tail; and between the run's
    elements (never counted)."""
    n = 300
    for pos in (0, 1, 7, 8, 127, 128, 255, 299):
        for bad in (np.nan, np.inf, -np.inf):
            base = np.ones(n * abs(step) + 1, dtype=dtype)
            idx = np.arange(len(base))[slice(0, None, step) if step > 0 else
                                       slice(len(base) - 1, None, step)][:n]
            base[idx[pos]] = bad
            # between the run's elements: huge values that must not count
            mask = np.ones(len(base), bool)
            mask[idx] = False
            base[mask] = np.inf
            c = ca.asarray(base, device=device)
            x, v = strided(base, c, step, n)
            got, want = v.sum().get(), x.sum()
            np.testing.assert_array_equal(got, want, err_msg=f"pos={pos} bad={bad}")
            np.testing.assert_array_equal(ca.nansum(v).get(), np.nansum(x))
    base = np.full(64 * abs(step), np.inf, dtype=dtype)
    base[::abs(step)] = 1.5
    c = ca.asarray(base, device=device)
    assert float(c[::abs(step)].sum().get()) == 96.0


@pytest.mark.parametrize("dtype", [np.int64, np.uint64, np.int32, np.uint8])
def test_strided_int_sum_wraps(device, dtype):
    info = np.iinfo(dtype)
    for step in (3, 5, 9, -5):
        base = np.full(1001 * abs(step), info.max, dtype=dtype)
        c = ca.asarray(base, device=device)
        for n in (4, 5, 7, 1000, 1001):
            x, v = strided(base, c, step, n)
            assert v.sum().get() == x.sum(), (step, n)


def test_strided_sum_2d(device):
    rng = np.random.default_rng(3)
    for dtype in (np.float32, np.float64, np.int64, np.int32):
        m = values(37 * 515, dtype, rng).reshape(37, 515)
        c = ca.asarray(m, device=device)
        for k in (2, 3, 4, 7, -2):
            for sl in ((slice(None), slice(None, None, k)),
                       (slice(None, None, 2), slice(None, None, k))):
                x, v = m[sl], c[sl]
                got, want = v.sum(axis=1).get(), x.sum(axis=1)
                assert got.dtype == want.dtype
                if np.dtype(dtype).kind == "f":  # against the float64 reference
                    ref = x.astype(np.float64).sum(axis=1)
                    tol = 2 * np.finfo(dtype).eps * np.abs(x.astype(np.float64)).sum(axis=1)
                    assert (np.abs(got - ref) <= tol).all(), (k, sl)
                    close_to_reference(v.sum().get(), x.ravel(), f"k={k} {sl}")
                else:
                    np.testing.assert_array_equal(got, want)
                    assert v.sum().get() == x.sum()
        # a zero stride (broadcast) sums one element n times
        b = np.broadcast_to(m[0, :1], (1000,))
        v = ca.broadcast_to(c[0, :1], (1000,))
        if np.dtype(dtype).kind == "f":
            np.testing.assert_allclose(v.sum().get(), b.sum(), rtol=1e-6)
        else:
            assert v.sum().get() == b.sum()


_THREADS_SCRIPT = r"""
import os
os.environ["CUARRAY_DEVICE"] = "cpu"
import numpy as np, cuarray as ca
rng = np.random.default_rng(11)
x = ca.asarray(rng.standard_normal((1 << 24) + 77).astype(np.float32))
y = ca.asarray(rng.integers(-2**31, 2**31, (1 << 24) + 5, dtype=np.int32))
out = []
for k in (1, 2, 4, 3):
    out.append(x[::k].sum().get().tobytes().hex())
    out.append(x[::k].mean().get().tobytes().hex())
    out.append(x[::-k].argmax().get().tobytes().hex())
for k in (1, 2):
    out.append(y[::k].sum().get().tobytes().hex())
    out.append(y[::k].argmin().get().tobytes().hex())
print(" ".join(out))
"""


def test_strided_sums_same_with_one_or_two_threads():
    """Runs of 2^23+ elements (the host thread pool's threshold) and shorter ones: one
    thread and two give the same bits."""
    res = []
    for n in ("1", "2"):
        env = dict(os.environ, CUARRAY_HOST_THREADS=n)
        r = subprocess.run([sys.executable, "-c", _THREADS_SCRIPT], env=env,
                           capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stderr
        res.append(r.stdout.strip())
    assert res[0] == res[1]


# ---- argmax / argmin: far-apart runs (gathered blocks) and the contiguous search ------

REAL = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
        np.uint64, np.float32, np.float64]
ARG_LENGTHS = [1, 2, 31, 32, 33, 63, 64, 65, 511, 512, 513, 1025, 4095, 4096, 4097, 8195]


def far_steps(dtype):
    """Steps whose elements are 64 bytes apart (the scalar loop) and more (gathered)."""
    it = np.dtype(dtype).itemsize
    ks = {64 // it, 64 // it + 1, 72 // it + 1, 128 // it, 256 // it + 1, 1024 // it}
    return sorted(ks) + [-k for k in sorted(ks)]


def check_args(x, v, msg):
    for fn in ("argmax", "argmin"):
        got, want = getattr(v, fn)().get(), getattr(x, fn)()
        assert got.dtype == np.int64 and got == want, (fn, msg, got, want)


@pytest.mark.parametrize("dtype", REAL)
def test_far_strided_argmax(device, dtype):
    rng = np.random.default_rng(np.dtype(dtype).num)
    for step in far_steps(dtype):
        for n in ARG_LENGTHS:
            base = values(n * abs(step) + 1, dtype, rng, big=True)
            c = ca.asarray(base, device=device)
            x, v = strided(base, c, step, n)
            check_args(x, v, f"n={n} step={step}")


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("contiguous", [True, False])
def test_arg_ties_first_index(device, dtype, contiguous):
    """Few distinct values: the best value recurs in later blocks and groups; the first
    position wins. The block edges (4096 gathered elements; 16 KiB contiguous) and the
    search groups (256 bytes) are crossed."""
    rng = np.random.default_rng(5 + np.dtype(dtype).num)
    it = np.dtype(dtype).itemsize
    step = 1 if contiguous else 128 // it + 1
    blk = 16384 // it if contiguous else 4096
    w = 256 // it
    for n in (w - 1, w, w + 1, 3 * w + 5, blk - 1, blk, blk + 1, 2 * blk + 7):
        base = rng.integers(0, 3, n * step + 1).astype(dtype)
        c = ca.asarray(base, device=device)
        x, v = strided(base, c, step, n)
        check_args(x, v, f"n={n} step={step} 3 values")
        # the best only at chosen places: group and block edges, last
        for places in ((n - 1,), (w - 1, n - 1), (w, blk - 1), (blk - 1, blk), (blk,),
                       (0, n - 1)):
            places = [p for p in places if p < n]
            if not places:
                continue
            y = np.ones(n * step + 1, dtype=dtype)
            for p in places:
                y[p * step] = 7
                y[p * step + (1 if step > 1 else 0)] = 7  # also between elements
            y2 = y.copy()
            y2[[p * step for p in places]] = 0  # and the worst at the same places
            for arr in (y, y2):
                c = ca.asarray(arr, device=device)
                xs, vs = strided(arr, c, step, n)
                check_args(xs, vs, f"n={n} step={step} places={places}")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("step", [1, 17, 33, -17, -40])
def test_far_strided_argmax_nan_inf(device, dtype, step):
    n = 5000
    rng = np.random.default_rng(abs(step))
    for pos in (0, 1, 255, 511, 512, 1023, 1024, 4095, 4096, 4999):
        for bad in (np.nan, np.inf, -np.inf):
            base = values(n * abs(step) + 1, dtype, rng)
            c0 = ca.asarray(base, device=device)
            x, _ = strided(base, c0, step, n)
            idx = np.arange(len(base))[slice(0, None, step) if step > 0 else
                                       slice(len(base) - 1, None, step)][:n]
            base[idx[pos]] = bad
            if pos + 600 < n:
                base[idx[pos + 600]] = bad  # a second one: the first wins
            if pos + 4100 < n:
                base[idx[pos + 4100]] = bad  # and one in a later block
            c = ca.asarray(base, device=device)
            x, v = strided(base, c, step, n)
            check_args(x, v, f"pos={pos} bad={bad}")
            for fn in ("nanargmax", "nanargmin"):
                if np.isnan(bad):
                    continue
                assert getattr(ca, fn)(v).get() == getattr(np, fn)(x), (fn, pos)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_arg_signed_zeros_and_rows(device, dtype):
    """-0.0 and +0.0 tie (first wins); rows of a 2-D view far apart."""
    for n in (5, 300, 600, 5000):
        x = np.full(n, -1.0, dtype=dtype)
        x[n // 2] = -0.0
        x[n // 2 + 1] = 0.0
        x[n - 1] = 0.0
        c = ca.asarray(x, device=device)
        check_args(x, c, f"n={n} zeros")
        xs = np.repeat(x, 20)
        cs = ca.asarray(xs, device=device)
        check_args(xs[::20], cs[::20], f"n={n} zeros strided")
    rng = np.random.default_rng(8)
    m = values(700 * 40, dtype, rng).reshape(700, 40)
    c = ca.asarray(m, device=device)
    for fn in ("argmax", "argmin"):
        np.testing.assert_array_equal(getattr(c, fn)(axis=0).get(), getattr(m, fn)(axis=0))
        np.testing.assert_array_equal(getattr(c[::3], fn)(axis=0).get(),
                                      getattr(m[::3], fn)(axis=0))


# ---- column max / min of floats: four rows at a time -----------------------------------

@pytest.mark.filterwarnings("ignore:All-NaN slice")  # nanmax of a column of NaN (1 row)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("nrows", [1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 31])
def test_column_max_four_rows(device, dtype, nrows):
    rng = np.random.default_rng(nrows)
    it = np.dtype(dtype).itemsize
    for ncols in (1, 7, 256 // it - 1, 256 // it, 256 // it + 3, 1000):
        m = values(nrows * ncols, dtype, rng).reshape(nrows, ncols)
        c = ca.asarray(m, device=device)
        for fn in ("max", "min"):
            np.testing.assert_array_equal(getattr(c, fn)(axis=0).get(),
                                          getattr(m, fn)(axis=0), err_msg=f"{fn} {ncols}")
        # NaN / inf in each row (each place of the four, the remainder, the first row)
        for r in range(nrows):
            for bad in (np.nan, np.inf, -np.inf):
                mm = m.copy()
                mm[r, ncols // 2] = bad
                mm[r, ncols - 1] = bad
                if nrows > 1:
                    mm[(r + 1) % nrows, 0] = bad
                cm = ca.asarray(mm, device=device)
                for fn in ("max", "min"):
                    got, want = getattr(cm, fn)(axis=0).get(), getattr(mm, fn)(axis=0)
                    np.testing.assert_array_equal(got, want,
                                                  err_msg=f"{fn} r={r} bad={bad}")
                    np.testing.assert_array_equal(
                        getattr(ca, "nan" + fn)(cm, axis=0).get(),
                        getattr(np, "nan" + fn)(mm, axis=0))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_column_max_views_and_zeros(device, dtype):
    rng = np.random.default_rng(2)
    m = values(45 * 300, dtype, rng).reshape(45, 300)
    m[5:9, 10] = np.nan
    m[:, 20] = -0.0
    m[3, 20] = 0.0
    c = ca.asarray(m, device=device)
    for sl in ((slice(None), slice(None)), (slice(None, None, 2), slice(None)),
               (slice(None, None, -1), slice(None)), (slice(1, None, 3), slice(5, 290))):
        for fn in ("max", "min"):
            got, want = getattr(c[sl], fn)(axis=0).get(), getattr(m[sl], fn)(axis=0)
            np.testing.assert_array_equal(got, want, err_msg=f"{fn} {sl}")
    # a column of signed zeros compares by value
    assert float(c.max(axis=0).get()[20]) == 0.0


# ---- matmul on the cpu device: np.dot's routine where it is matmul's BLAS call and pays -

@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128,
                                   np.int32, np.float16])
def test_matmul_2d_is_numpys(device, dtype):
    """On the cpu device NumPy's own BLAS call, so the same bits; float16 excepted:
    NumPy's float16 loop sums in float32 in its own order, cuarray's through float32
    sgemm (csrc/ops/linalg.c numpy_matmul_half), and the float32 sums' last bits can move
    the float16 rounding by one unit in the last place (an H100 host's newer x86 did,
    at index 368 of a 64x64 product): at most 1 ulp there, bit for bit elsewhere."""
    rng = np.random.default_rng(6)
    shapes = [((64, 64), (64, 64)), ((2, 3), (3, 4)), ((5, 1), (1, 7)), ((1, 9), (9, 6)),
              ((8, 9), (9, 1)), ((3, 2), (2, 2)), ((33, 17), (17, 65)),
              # outputs either side of np.dot's size limits (csrc/ops/linalg.c dot_is_matmul)
              ((16, 8), (8, 16)), ((40, 30), (30, 60)), ((260, 24), (24, 260))]
    for sa, sb in shapes:
        a, b = values(math.prod(sa), dtype, rng).reshape(sa), \
            values(math.prod(sb), dtype, rng).reshape(sb)
        ca_, cb = ca.asarray(a, device=device), ca.asarray(b, device=device)
        got, want = (ca_ @ cb).get(), a @ b
        assert got.dtype == want.dtype and got.shape == want.shape
        if device == "cpu":  # NumPy's own BLAS call: the same bits
            cpu_same(got, want, f"{sa} {sb}")
        else:
            np.testing.assert_allclose(got, want, rtol=1e-2 if dtype == np.float16 else 1e-4,
                                       atol=1e-3)
    # the same array twice, its transpose, a strided view, out= of either kind
    m = values(48 * 48, dtype, rng).reshape(48, 48)
    c = ca.asarray(m, device=device)
    pairs = [(m, m, c, c), (m, m.T, c, c.T), (m[::2], m[:, :24], c[::2], c[:, :24]),
             (m[:, 1:], m[1:], c[:, 1:], c[1:])]
    for x, y, cx, cy in pairs:
        got, want = (cx @ cy).get(), x @ y
        if device == "cpu":
            cpu_same(got, want, "views")
        else:
            np.testing.assert_allclose(got, want, rtol=1e-2 if dtype == np.float16 else 1e-4,
                                       atol=1e-3)
    o = ca.empty((48, 48), dtype=dtype, device=device)
    r = ca.matmul(c, c[::-1].copy(), out=o)
    assert r is o
    want = m @ m[::-1]
    if device == "cpu":
        cpu_same(o.get(), want, "out=")
    o2 = ca.asarray(m.copy(), device=device)
    ca.matmul(o2, c, out=o2)  # out overlaps an operand
    if device == "cpu":
        cpu_same(o2.get(), m @ m, "out overlaps")
    if np.dtype(dtype).kind == "f" and dtype != np.float16:
        o3 = ca.empty((48, 48), dtype=np.complex128, device=device)
        ca.matmul(c, c, out=o3)  # out of another dtype (a cast)
        np.testing.assert_allclose(o3.get(), (m @ m).astype(np.complex128), rtol=1e-4)
