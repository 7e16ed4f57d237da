"""Split row reductions finished in one launch (kernels/gpu/reduce_impl.cuh,
ticket_finish): on a GPU, a whole-array or long-row reduction big enough to be
split over several blocks has each block write its partial and take a ticket from
a per-output counter; the block that takes the last ticket combines the partials
and puts the counter back to 0 for the next launch on the stream (csrc/memory/memory.c,
ca_memory_tickets: one set of counters per stream).

A wrong combine shows as a wrong value; a counter not put back to 0 shows on the
NEXT call on the stream, whose last block then never sees the last ticket and
never writes its result: so the tests run many reductions back to back, on
changing data, into out= arrays prefilled with a sentinel, on one and on two
streams. Sizes sit around the split boundaries (a split needs 32768 elements;
chunks are multiples of 64; 4 * SMs blocks at most, 528 on an H200, reached at
528 * 16384 elements). The cpu device runs the same checks on the host loops.
References are NumPy in float64 (or exact: integer sums, products of powers of
two, max/min/arg positions with many ties).
"""

import warnings

import numpy as np
import pytest

import cuarray as ca
from conftest import ALL_DTYPES, requires_gpu

GPU = pytest.param("cuda:0", marks=requires_gpu)

# around: no split / the smallest split (S = 2) / chunk rounding / the full grid
# on an H200 (528 * 16384 = 8650752) / past it
SPLIT_SIZES = [16383, 16384, 32767, 32768, 32769, 49153, 100003, (1 << 20) + 1,
               8650752 - 1, 8650752, 8650752 + 17, 9000011]
DTYPE_SIZES = [40009, 3000017]


def dev(x, device):
    return ca.asarray(np.array(x, copy=True), device=device)


def data(n, dtype, rng, ties=False):
    """Values in a small range: floats uniform in (-1, 1) (or integers in
    [-50, 50] with many ties), ints in [-50, 50], bools half true."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(n) < 0.5
    if dtype.kind == "u":
        return rng.integers(0, 100, n).astype(dtype)
    if dtype.kind == "i":
        return rng.integers(-50, 51, n).astype(dtype)
    if ties:
        re = rng.integers(-50, 51, n).astype(np.float64)
    else:
        re = rng.uniform(-1, 1, n)
    if dtype.kind == "c":
        im = rng.integers(-50, 51, n) if ties else rng.uniform(-1, 1, n)
        return (re + 1j * im).astype(dtype)
    return re.astype(dtype)


def close(got, want, scale, rtol):
    """got (cuarray) against want (NumPy, the float64 reference cast to NumPy's
    result dtype): same shape and dtype; |got - want| <= rtol * (|want| + scale)."""
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    g = got.get()
    if want.dtype.kind not in "fc":
        np.testing.assert_array_equal(g, want)
        return
    err = np.abs(g.astype(np.complex128) - want.astype(np.complex128))
    lim = rtol * (np.abs(want.astype(np.complex128)) + np.asarray(scale, np.float64))
    assert (err <= lim + np.finfo(want.dtype).tiny).all(), (g, want, err, lim)


def exact(got, want):
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_array_equal(got.get(), want)


def rtol_of(dtype):
    """float16/float32 results accumulate in a wider type: a few ulps of the result;
    float64 ones accumulate in float64 over millions of terms: 256 ulps (a lost or
    doubled partial among hundreds would still be off by far more)."""
    dtype = np.dtype(dtype)
    if dtype.kind in "fc" and np.finfo(dtype).eps < 1e-10:
        return 256 * np.finfo(dtype).eps
    if dtype.kind in "fc":
        return 16 * np.finfo(dtype).eps
    return 256 * np.finfo(np.float64).eps


def check_sums(a, x, axis=None, keepdims=False):
    """sum, mean and the 2-norm of a (cuarray) against float64 references of x."""
    x64 = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
    scale = np.abs(x64).sum(axis=axis, keepdims=keepdims)
    want = np.sum(x, axis=axis, keepdims=keepdims)
    w64 = np.sum(x64, axis=axis, keepdims=keepdims)
    close(a.sum(axis=axis, keepdims=keepdims), w64.astype(want.dtype)
          if want.dtype.kind in "fc" else want, scale, rtol_of(want.dtype))
    n = x.size // max(want.size, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        wm = np.mean(x, axis=axis, keepdims=keepdims)
    close(a.mean(axis=axis, keepdims=keepdims),
          (w64 / n).astype(wm.dtype), scale / n, rtol_of(wm.dtype))
    if x.dtype.kind in "fc" and axis is None and not keepdims:
        wn = np.linalg.norm(x[:4])  # NumPy's result dtype (a float16 norm overflows)
        close(ca.linalg.norm(a), np.asarray(np.linalg.norm(x64)).astype(wn.dtype), 0.0,
              rtol_of(wn.dtype))


def check_orders(a, x, axis=None, keepdims=False):
    """max, min, argmax, argmin (exact; arg forms on one axis or all)."""
    kw = dict(axis=axis, keepdims=keepdims)
    exact(a.max(**kw), np.max(x, **kw))
    exact(a.min(**kw), np.min(x, **kw))
    if axis is None or isinstance(axis, int):
        exact(a.argmax(**kw), np.argmax(x, **kw))
        exact(a.argmin(**kw), np.argmin(x, **kw))


# ---- one output, sizes around the split boundaries ---------------------------------------

@pytest.mark.parametrize("n", SPLIT_SIZES)
def test_split_sizes_float32(device, n):
    rng = np.random.default_rng(n)
    x = data(n, np.float32, rng)
    a = dev(x, device)
    check_sums(a, x)
    check_orders(a, x)
    xt = data(n, np.float32, rng, ties=True)  # the first of many equal maxima
    at = dev(xt, device)
    check_orders(at, xt)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        wv = np.var(x.astype(np.float64))
    close(a.var(), np.float32(wv), 0.0, 64 * np.finfo(np.float32).eps)
    close(a.std(), np.float32(np.sqrt(wv)), 0.0, 64 * np.finfo(np.float32).eps)
    # any / all with the one deciding element in the last block's chunk
    z = np.zeros(n, np.float32)
    z[n - 3] = 1.0
    exact(dev(z, device).any(), np.any(z))
    o = np.ones(n, np.float32)
    o[n - 3] = 0.0
    exact(dev(o, device).all(), np.all(o))
    exact(dev(o, device).any(), np.any(o))
    exact(dev(z, device).all(), np.all(z))


@pytest.mark.parametrize("n", SPLIT_SIZES[2::3])
def test_split_sizes_layouts(device, n):
    """Strided (no 16-byte loads), reversed and misaligned (a scalar head) views."""
    rng = np.random.default_rng(n + 1)
    big = data(2 * n + 1, np.float64, rng, ties=True)
    b = dev(big, device)
    for xv, av in ((big[: 2 * n : 2], b[: 2 * n : 2]), (big[::-1][:n], b[::-1][:n]),
                   (big[1 : n + 1], b[1 : n + 1])):
        check_sums(av, xv)
        check_orders(av, xv)


@pytest.mark.parametrize("n", DTYPE_SIZES)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_split_every_dtype(device, dtype, n):
    rng = np.random.default_rng(7 + n)
    x = data(n, dtype, rng)
    a = dev(x, device)
    check_sums(a, x)
    check_orders(a, x)
    xt = data(n, dtype, rng, ties=True)
    check_orders(dev(xt, device), xt)
    exact(a.any(), np.any(x))
    exact(a.all(), np.all(x))
    one = np.ones(n, dtype)
    one[n // 2 + 1] = 0
    exact(dev(one, device).all(), np.all(one))
    exact(dev(one, device).any(), np.any(one))


def _pow2_data(n, dtype, rng):
    """Mostly ones, a few 2, 1/2 and -1 (integers: 3 and -1): every product order
    gives the same exact value (integers wrap the same way in any order)."""
    dtype = np.dtype(dtype)
    x = np.ones(n, dtype)
    pos = rng.choice(n, 16, replace=False)
    if dtype == np.bool_:
        return x
    if dtype.kind in "iu":
        x[pos[:12]] = 3
        if dtype.kind == "i":
            x[pos[12:]] = -1
        return x
    x[pos[:6]] = 2
    x[pos[6:10]] = 0.5
    x[pos[10:13]] = -1
    return x


@pytest.mark.parametrize("n", [40009, 8650752 + 17])
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_split_prod_exact(device, dtype, n):
    rng = np.random.default_rng(3)
    x = _pow2_data(n, dtype, rng)
    exact(dev(x, device).prod(), np.prod(x))
    if np.dtype(dtype).kind in "fc":
        y = x.copy()
        y[rng.choice(n, 5, replace=False)] = np.nan
        exact(ca.nanprod(dev(y, device)), np.nanprod(y))


@pytest.mark.parametrize("n", [40009, 1000003, 8650752 + 17])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64,
                                   np.complex128])
def test_split_nan_forms(device, dtype, n):
    rng = np.random.default_rng(5)
    # ties (integers in [-50, 50]) where the sums stay far from float16's range
    x = data(n, dtype, rng, ties=np.dtype(dtype) != np.float16)
    x[rng.choice(n, n // 100, replace=False)] = np.nan
    a = dev(x, device)
    x64 = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
    want = np.nansum(x[:4])  # NumPy's result dtype
    close(ca.nansum(a), np.asarray(np.nansum(x64)).astype(want.dtype),
          np.nansum(np.abs(x64)), rtol_of(want.dtype))
    if np.dtype(dtype).kind == "f":
        exact(ca.nanmax(a), np.nanmax(x))
        exact(ca.nanmin(a), np.nanmin(x))
        exact(ca.nanargmax(a), np.nanargmax(x))
        exact(ca.nanargmin(a), np.nanargmin(x))
        # NaN propagates through max and is the first position of argmax
        exact(a.max(), np.max(x))
        exact(a.argmax(), np.argmax(x))
        exact(a.argmin(), np.argmin(x))
        wm = np.nanmean(x[:4])
        close(ca.nanmean(a), np.asarray(np.nanmean(x64)).astype(wm.dtype),
              np.nanmean(np.abs(x64)), rtol_of(wm.dtype))


def test_argmax_first_of_ties_in_different_blocks(device):
    n = 8650752 + 17
    x = np.zeros(n, np.float32)
    for first, second in ((5, n - 2), (n // 3, n // 3 + 70000), (n - 9, n - 1)):
        y = x.copy()
        y[first] = y[second] = 7.0
        y[first + 1] = y[second - 1] = -7.0
        a = dev(y, device)
        assert int(a.argmax()) == first
        assert int(a.argmin()) == first + 1
        y[second] = np.nan
        y[n - 1] = np.nan
        a = dev(y, device)
        assert int(a.argmax()) == second
        assert int(ca.nanargmax(a)) == first


# ---- exact known sums ---------------------------------------------------------------------

def test_exact_large_sums(device):
    n = (1 << 26) if device != "cpu" else (1 << 23)
    exact(dev(np.ones(n, np.float32), device).sum(), np.float32(n))
    m = (1 << 24) + 5
    r = np.arange(m, dtype=np.int64)
    want = m * (m - 1) // 2
    assert int(dev(r, device).sum()) == want
    assert float(dev(r.astype(np.float64), device).sum()) == float(want)  # < 2^53: exact
    assert int(dev(r.astype(np.uint32), device).sum()) == want
    assert int(dev(np.ones(m, np.bool_), device).sum()) == m
    assert int(dev((r % 251).astype(np.uint8), device).sum()) == int((r % 251).sum())


# ---- several outputs: long rows, axis and keepdims ------------------------------------------

ROW_CASES = [((3, 100003), 1), ((2, 5, 70001), -1), ((4, 1 << 20), 1), ((1, 9000011), 1),
             ((9000011, 1), 0), ((2, 3, 40009), (1, 2)), ((7, 2, 50000), (0, 2))]


@pytest.mark.parametrize("shape,axis", ROW_CASES)
@pytest.mark.parametrize("keepdims", [False, True])
def test_long_rows(device, shape, axis, keepdims):
    rng = np.random.default_rng(sum(shape))
    x = data(int(np.prod(shape)), np.float32, rng, ties=True).reshape(shape)
    a = dev(x, device)
    check_sums(a, x, axis, keepdims)
    check_orders(a, x, axis, keepdims)
    exact(a.any(axis=axis, keepdims=keepdims), np.any(x, axis=axis, keepdims=keepdims))
    exact(a.all(axis=axis, keepdims=keepdims), np.all(x, axis=axis, keepdims=keepdims))
    if len(shape) >= 2 and shape[-1] > 1:
        # rows read with a stride: every other element of each row
        xs, as_ = x[..., ::2], a[..., ::2]
        check_sums(as_, xs, axis, keepdims)
        check_orders(as_, xs, axis, keepdims)


def test_long_rows_transposed(device):
    rng = np.random.default_rng(12)
    x = data(3 * 200003, np.float64, rng).reshape(200003, 3)
    a = dev(x, device)
    check_sums(a.T, x.T, 1)
    check_orders(a.T, x.T, 1)


# ---- back to back: the counters go back to 0 ------------------------------------------------

def test_back_to_back_same_stream(device):
    """Many split reductions in a row on one stream, each on new data, each into
    an out= array holding a sentinel: a counter left non-zero by one call would
    leave the next call's result unwritten."""
    rng = np.random.default_rng(21)
    sizes = [40009, 9000011, 100003, 8650752, 32768, 1000003]
    xs = [data(n, np.float64, rng, ties=True) for n in sizes]
    arrs = [dev(x, device) for x in xs]
    outs, wants = [], []
    for rep in range(4):
        for k, (x, a) in enumerate(zip(xs, arrs)):
            o = ca.full((), -12345.0, dtype=np.float64, device=device)
            a.sum(out=o)
            outs.append(o)
            wants.append(np.sum(x))
            m = ca.full((), -12345.0, dtype=np.float64, device=device)
            a.max(out=m)
            outs.append(m)
            wants.append(np.max(x))
            i = ca.full((), -1, dtype=np.int64, device=device)
            a.argmin(out=i)
            outs.append(i)
            wants.append(np.argmin(x))
    for o, w in zip(outs, wants):
        g = o.get()
        if isinstance(w, np.floating):
            assert abs(g - w) <= 1e-9 * (abs(w) + 1e6), (g, w)
        else:
            assert g == w, (g, w)


def test_repeated_results_are_bit_identical(device):
    rng = np.random.default_rng(22)
    x = data(9000011, np.float32, rng)
    a = dev(x, device)
    first = [a.sum().get(), ca.linalg.norm(a).get(), a.mean().get(), a.var().get()]
    for _ in range(5):
        again = [a.sum().get(), ca.linalg.norm(a).get(), a.mean().get(), a.var().get()]
        for f, g in zip(first, again):
            assert f.tobytes() == g.tobytes()


def test_float_of_results_back_to_back(device):
    """float() of a one-element result reads the mirror the final block writes."""
    rng = np.random.default_rng(23)
    for n in (40009, 9000011, 1000003, 8650752 + 17):
        x = data(n, np.float64, rng)
        a = dev(x, device)
        s = float(a.sum())
        assert abs(s - float(np.sum(x))) <= 1e-12 * float(np.abs(x).sum())
        assert float(a.max()) == float(np.max(x))
        assert int(a.argmax()) == int(np.argmax(x))


@pytest.mark.parametrize("device", [GPU])
def test_two_streams_interleaved(device):
    """Reductions queued on two streams at once, with no wait between them: each
    stream has its own counters."""
    rng = np.random.default_rng(24)
    sizes = [9000011, 40009, 8650752, 1000003]
    xs = [data(n, np.float64, rng, ties=True) for n in sizes]
    arrs = [dev(x, device) for x in xs]
    s1, s2 = ca.cuda.Stream(), ca.cuda.Stream()
    res = []
    for rep in range(6):
        for k, a in enumerate(arrs):
            s = s1 if (rep + k) % 2 == 0 else s2
            with s:
                res.append((k, "sum", a.sum()))
                res.append((k, "argmax", a.argmax()))
                res.append((k, "norm", ca.linalg.norm(a)))
    s1.synchronize()
    s2.synchronize()
    for k, what, r in res:
        x = xs[k]
        g = r.get()
        if what == "sum":
            assert abs(g - np.sum(x)) <= 1e-12 * np.abs(x).sum(), (k, g)
        elif what == "argmax":
            assert g == np.argmax(x), (k, g)
        else:
            want = np.linalg.norm(x)
            assert abs(g - want) <= 1e-12 * want, (k, g)


@pytest.mark.parametrize("device", [GPU])
def test_new_streams_after_destroyed_ones(device):
    """A stream's counters go with it (memory.c): streams made and dropped in a
    loop, each running split reductions, never see another's counters."""
    rng = np.random.default_rng(25)
    x = data(9000011, np.float32, rng, ties=True)
    a = dev(x, device)
    want_sum = np.sum(x.astype(np.float64))
    for _ in range(40):
        s = ca.cuda.Stream()
        with s:
            r = a.sum()
            i = a.argmax()
        s.synchronize()
        assert abs(float(r.get()) - want_sum) <= 1e-6 * np.abs(x).sum()
        assert int(i.get()) == int(np.argmax(x))
        del s, r, i
    # more streams alive at once than the per-device table holds (32): the rest
    # take the two-launch path, with the same results bit for bit
    streams = [ca.cuda.Stream() for _ in range(40)]
    outs = []
    for s in streams:
        with s:
            outs.append(a.sum())
    for s in streams:
        s.synchronize()
    vals = {o.get().tobytes() for o in outs}
    assert len(vals) == 1, vals
    assert vals == {a.sum().get().tobytes()}


@pytest.mark.parametrize("device", [GPU])
def test_special_streams(device):
    """The legacy stream named explicitly shares the default's counters (NULL and
    cudaStreamLegacy are one stream); the per-thread default stream gets none (two
    launches); a non-blocking stream and a foreign handle (Stream(ptr=...)) get
    their own. The results are the same bit for bit on every one."""
    rng = np.random.default_rng(26)
    x = data(9000011, np.float32, rng)
    a = dev(x, device)
    ref = [a.sum().get().tobytes(), a.argmax().get().tobytes(),
           ca.linalg.norm(a).get().tobytes()]
    nb = ca.cuda.Stream(non_blocking=True)
    ca.cuda.Stream(null=True).synchronize()  # a non-blocking stream does not wait on it
    owner = ca.cuda.Stream()
    foreign = ca.cuda.Stream(ptr=owner.ptr, device_id=0)
    for s in (ca.cuda.Stream(null=True), ca.cuda.Stream(ptds=True), nb, foreign):
        for _ in range(3):
            with s:
                got = [a.sum(), a.argmax(), ca.linalg.norm(a)]
            s.synchronize()
            assert [g.get().tobytes() for g in got] == ref
    del foreign
    owner.synchronize()


def _ngpus():
    try:
        return ca.cuda.device_count()
    except Exception:
        return 0


@pytest.mark.skipif(_ngpus() < 2, reason="needs two GPUs")
def test_two_devices():
    """Each device has its own counters: split reductions alternating between two
    GPUs, queued without waits."""
    rng = np.random.default_rng(27)
    xs = [data(n, np.float64, rng, ties=True) for n in (9000011, 40009, 1000003)]
    per = {d: [ca.asarray(x, device=d) for x in xs] for d in ("cuda:0", "cuda:1")}
    res = []
    for rep in range(4):
        for d in ("cuda:0", "cuda:1"):
            for k, a in enumerate(per[d]):
                res.append((k, a.sum(), a.argmin()))
    for k, s, i in res:
        assert float(s.get()) == float(np.sum(xs[k]))  # integers: exact in float64
        assert int(i.get()) == int(np.argmin(xs[k]))


# ---- small, empty and unsplit reductions still take the other paths --------------------------

@pytest.mark.parametrize("n", [0, 1, 2, 31, 255, 256, 257, 2049, 16383])
def test_small_sizes(device, n):
    rng = np.random.default_rng(n)
    x = data(n, np.float32, rng, ties=True)
    a = dev(x, device)
    exact(a.sum(), np.sum(x.astype(np.float64)).astype(np.float32))  # small ints: exact
    exact(a.any(), np.any(x))
    exact(a.all(), np.all(x))
    if n:
        check_orders(a, x)
    e = dev(np.zeros((n, 0), np.float32), device)
    exact(e.sum(axis=1), np.zeros(n, np.float32))
