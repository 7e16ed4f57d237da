"""Deferred element-wise work and its fusion (csrc/ops/fusion.c, kernels/gpu/ew_fuse.cuh).

On a GPU, element-wise calls on dense same-shape float32/float64/bool arrays may
return before their kernel is launched; a call that consumes such results runs
their programs inside its own kernel. None of this may be observable: every test
here compares with NumPy and with the same code run with deferral off, and checks
that the deferred work reaches the stream before anything that depends on it.
The cpu device never defers (its tests check exactly that).
"""


import numpy as np
import pytest

import cuarray as ca
from conftest import errors_in_threads, random_array, requires_gpu

_core = ca._core
GPU = pytest.param("cuda:0", marks=requires_gpu)


@pytest.fixture
def fusion():
    """Deferral from one element on (so small test arrays take the fused path),
    restored afterwards; yields a function returning the counters."""
    old = _core._fusion(1)["threshold"]
    yield lambda: _core._fusion()
    _core._fusion_flush()
    _core._fusion(old)


def _eager(fn, *args):
    """fn(*args) with deferral off: the reference for bit-identical results."""
    old = _core._fusion(0)["threshold"]
    try:
        return fn(*args).get()
    finally:
        _core._fusion(old)


def _delta(before, after, key):
    return after[key] - before[key]


# ----------------------------------------------------------------- the cpu device
def test_cpu_never_defers(fusion):
    a = ca.asarray(random_array((1000,), np.float32), device="cpu")
    s0 = fusion()
    r = ca.where(a > 0.5, a, a * 2)
    s1 = fusion()
    assert _delta(s0, s1, "deferred") == 0 and s1["pending"] == 0
    an = a.get()
    np.testing.assert_array_equal(r.get(), np.where(an > 0.5, an, an * 2))


# ----------------------------------------------------------------- the benchmark case
@pytest.mark.parametrize("device", [GPU])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [1, 3, 4, 5, 1000, 4099, 1 << 17])
def test_where_chain_fuses(device, dtype, n, fusion):
    an = random_array((n,), dtype)
    a = ca.asarray(an, device=device)
    s0 = fusion()
    r = ca.where(a > 0.5, a, a * 2)
    s1 = fusion()
    assert _delta(s0, s1, "deferred") == 3
    assert _delta(s0, s1, "skipped") == 2  # both temporaries fused, never launched
    assert s1["pending"] == 1
    got = r.get()  # the transfer launches it first
    s2 = fusion()
    assert s2["pending"] == 0 and _delta(s1, s2, "fused_launches") == 1
    want = np.where(an > 0.5, an, an * 2)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(got, _eager(lambda x: ca.where(x > 0.5, x, x * 2), a))


# ----------------------------------------------------------------- many programs
_F = [
    lambda a, b, c: a + b * c,
    lambda a, b, c: (a - b) / (c * c + 1),
    lambda a, b, c: ca.maximum(a, b) - ca.minimum(b, c),
    lambda a, b, c: ca.sqrt(ca.abs(a)) + ca.exp(-ca.abs(b)),
    lambda a, b, c: ca.where((a > 0) & (b < 0), c, -c),
    lambda a, b, c: ca.where(ca.isnan(a), 0.0, a) * 3.0 + 1.0,
    lambda a, b, c: ca.logical_or(a > b, ~(c <= 0.25)),
    lambda a, b, c: ca.hypot(a, b) + ca.arctan2(b, c) - ca.tanh(a),
    lambda a, b, c: ca.clip(a * 2 - b, -1.5, 2.5),
    lambda a, b, c: ((a + 1) * (b + 2) * (c + 3) + (a - 1) * (b - 2)) / 7.0,  # > 8 ops
    lambda a, b, c: a * 0.5 + b * 0.25 + c * 0.125 + a * b + b * c + 3.0,  # many constants
    lambda a, b, c: ca.copysign(ca.floor(a), b) + ca.signbit(c),
    lambda a, b, c: (a == b) | (b != c) ^ (a >= c),
    lambda a, b, c: ca.log1p(ca.abs(a)) ** 2 + ca.fmod(b, 3.0),
]


@pytest.mark.parametrize("device", [GPU])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("k", range(len(_F)))
def test_programs_match_eager_and_numpy(device, dtype, k, fusion):
    f = _F[k]
    rng = np.random.default_rng(k)
    ns = [random_array((37, 129), dtype, rng) for _ in range(3)]
    ns[0][0, :5] = [np.nan, np.inf, -np.inf, -0.0, 0.0]
    xs = [ca.asarray(x, device=device) for x in ns]
    got = f(*xs).get()
    ref = _eager(f, *xs)
    # the same element functions run in the fused kernel: bit-identical
    np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("device", [GPU])
def test_programs_against_numpy(device, fusion):
    rng = np.random.default_rng(5)
    an, bn = random_array((4096,), np.float32, rng), random_array((4096,), np.float32, rng)
    a, b = ca.asarray(an, device=device), ca.asarray(bn, device=device)
    with np.errstate(all="ignore"):
        cases = [
            (lambda x, y: x * 2 + y, lambda x, y: x * 2 + y),
            (lambda x, y: ca.where(x > y, x - y, ca.sqrt(ca.abs(y))),
             lambda x, y: np.where(x > y, x - y, np.sqrt(np.abs(y)))),
            (lambda x, y: (x > 0) & (y > 0), lambda x, y: (x > 0) & (y > 0)),
            (lambda x, y: ca.exp(x / 10) * y - 1.0, lambda x, y: np.exp(x / 10) * y - 1.0),
        ]
        for mine, ref in cases:
            np.testing.assert_allclose(mine(a, b).get(), ref(an, bn), rtol=2e-6, atol=1e-6)


# ----------------------------------------------------------------- not observable
@pytest.mark.parametrize("device", [GPU])
def test_named_intermediate_keeps_its_value(device, fusion):
    an = random_array((5000,), np.float32)
    a = ca.asarray(an, device=device)
    c = a > 0.5
    d = a * 2
    r = ca.where(c, a, d)
    np.testing.assert_array_equal(r.get(), np.where(an > 0.5, an, an * 2))
    np.testing.assert_array_equal(c.get(), an > 0.5)
    np.testing.assert_array_equal(d.get(), an * 2)


@pytest.mark.parametrize("device", [GPU])
@pytest.mark.parametrize("write", ["setitem", "inplace", "out", "fill", "assign"])
def test_input_written_after_deferral(device, write, fusion):
    an = random_array((3000,), np.float32)
    a = ca.asarray(an, device=device)
    c = a * 2 + 1  # deferred, reads a
    assert fusion()["pending"] >= 1
    if write == "setitem":
        a[...] = 7
    elif write == "inplace":
        a += 100
    elif write == "out":
        ca.multiply(a, 0, out=a)
    elif write == "fill":
        a.fill(3)
    else:
        a[:] = ca.zeros_like(a)
    np.testing.assert_array_equal(c.get(), an * 2 + 1)


@pytest.mark.parametrize("device", [GPU])
def test_pending_output_as_out_and_inplace(device, fusion):
    an = random_array((2048,), np.float64)
    a = ca.asarray(an, device=device)
    c = a * 3
    c += 1  # in place on a pending array
    np.testing.assert_array_equal(c.get(), an * 3 + 1)
    d = a - 1
    ca.add(a, a, out=d)
    np.testing.assert_array_equal(d.get(), an + an)


@pytest.mark.parametrize("device", [GPU])
def test_views_and_reductions_of_pending(device, fusion):
    an = random_array((64, 64), np.float32)
    a = ca.asarray(an, device=device)
    c = a * 2 - 1
    v = c[::2, 1:]
    np.testing.assert_array_equal(v.get(), (an * 2 - 1)[::2, 1:])
    e = a / 3
    # a view of a pending array as an operand: not fused, still right
    np.testing.assert_array_equal((e[1:] + e[:-1]).get(), (an / 3)[1:] + (an / 3)[:-1])
    f = a + 0.25
    assert float(f.sum()) == pytest.approx(float((an + np.float32(0.25)).sum()), rel=1e-5)
    g = ca.sqrt(ca.abs(a))
    assert float(g[3, 4]) == np.sqrt(np.abs(an[3, 4]))
    h = ca.maximum(a, 0)
    np.testing.assert_array_equal(h.T.copy().get(), np.maximum(an, 0).T)


@pytest.mark.parametrize("device", [GPU])
def test_exports_launch_first(device, fusion):
    an = random_array((4096,), np.float32)
    a = ca.asarray(an, device=device)
    c = a * 2
    c.__cuda_array_interface__
    assert fusion()["pending"] == 0
    d = a + 1
    d.data.ptr
    assert fusion()["pending"] == 0
    # exported memory is no longer read by deferred programs (someone else may write it)
    s0 = fusion()
    e = c * 3
    assert _delta(s0, fusion(), "deferred") == 0
    np.testing.assert_array_equal(e.get(), an * 2 * 3)


@pytest.mark.parametrize("device", [GPU])
def test_interop_sees_deferred_values(device, fusion):
    torch = pytest.importorskip("torch")
    cupy = pytest.importorskip("cupy")
    an = random_array((4096,), np.float32)
    a = ca.asarray(an, device=device)
    t = torch.as_tensor(ca.where(a > 0, a, -a), device="cuda")
    np.testing.assert_array_equal(t.cpu().numpy(), np.abs(an))
    c = cupy.asarray(a * 4 - 2)
    np.testing.assert_array_equal(cupy.asnumpy(c), an * 4 - 2)
    d = torch.from_dlpack(a / 2)
    np.testing.assert_array_equal(d.cpu().numpy(), an / 2)


@pytest.mark.parametrize("device", [GPU])
def test_unconsumed_pending_is_computed_when_dropped(device, fusion):
    an = random_array((4096,), np.float32)
    a = ca.asarray(an, device=device)
    out = ca.empty_like(a)
    s0 = fusion()
    a * 2  # dropped at once: its kernel is launched, not skipped
    s1 = fusion()
    assert _delta(s0, s1, "plain_launches") == 1 and _delta(s0, s1, "skipped") == 0
    ca.multiply(a, 2, out=out)
    np.testing.assert_array_equal(out.get(), an * 2)


@pytest.mark.parametrize("device", [GPU])
def test_sync_and_events_launch_first(device, fusion):
    a = ca.asarray(random_array((4096,), np.float32), device=device)
    c = a * 2
    ca.cuda.Device().synchronize()
    assert fusion()["pending"] == 0
    d = a * 3
    ev = ca.cuda.Event()
    ev.record()
    assert fusion()["pending"] == 0
    s = ca.cuda.Stream()
    with s:
        e = a * 4
    s.synchronize()
    assert fusion()["pending"] == 0
    del c, d, e


@pytest.mark.parametrize("device", [GPU])
def test_streams(device, fusion):
    an = random_array((8192,), np.float32)
    a = ca.asarray(an, device=device)
    s1, s2 = ca.cuda.Stream(), ca.cuda.Stream()
    with s1:
        c = a * 2
    with s2:
        # c belongs to another stream: not fused into this program
        s0 = fusion()
        s2.wait_event(s1.record())
        r = c + 1
        got = r.get()
    np.testing.assert_array_equal(got, an * 2 + 1)
    with s1:
        x = a - 1
    del s1  # the stream goes: its deferred work is launched before
    np.testing.assert_array_equal(x.get(), an - 1)
    del s0


@pytest.mark.parametrize("device", [GPU])
def test_not_deferred_cases(device, fusion):
    an = random_array((4097,), np.float32)
    a = ca.asarray(an, device=device)
    i = ca.asarray(np.arange(4097, dtype=np.int32), device=device)
    h = a.astype(np.float16)
    s0 = fusion()
    results = [a[1:] * 2,          # misaligned view
               a * i,              # int32 -> float64 cast
               h * 2,              # float16: no family
               a[::2] + 1,         # strided
               a.reshape(1, -1) + a.reshape(-1, 1)[:3],  # broadcast
               ]
    assert _delta(s0, fusion(), "deferred") == 0
    np.testing.assert_array_equal(results[0].get(), an[1:] * 2)
    np.testing.assert_array_equal(results[1].get(), an * np.arange(4097, dtype=np.int32))
    np.testing.assert_array_equal(results[3].get(), an[::2] + 1)


@pytest.mark.parametrize("device", [GPU])
def test_mixed_families_and_limits(device, fusion):
    rng = np.random.default_rng(3)
    fn = random_array((1000,), np.float32, rng)
    dn = random_array((1000,), np.float64, rng)
    f, d = ca.asarray(fn, device=device), ca.asarray(dn, device=device)
    np.testing.assert_array_equal(((f * 2) + (d * 2)).get(), (fn * 2) + (dn * 2))
    np.testing.assert_array_equal(((f > 0) & (d > 0)).get(), (fn > 0) & (dn > 0))
    leaves = [ca.asarray(random_array((1000,), np.float32, rng), device=device)
              for _ in range(6)]
    r = leaves[0]
    for x in leaves[1:]:
        r = r * 0.5 + x
    want = leaves[0].get()
    for x in leaves[1:]:
        want = want * np.float32(0.5) + x.get()
    np.testing.assert_array_equal(r.get(), want)


@pytest.mark.parametrize("device", [GPU])
def test_threads(device, fusion):
    def work(seed):
        an = random_array((5000,), np.float32, np.random.default_rng(seed))
        a = ca.asarray(an, device=device)
        for _ in range(50):
            r = ca.where(a > 0.5, a, a * 2).get()
            np.testing.assert_array_equal(r, np.where(an > 0.5, an, an * 2))

    errors = errors_in_threads(work, [(s,) for s in range(4)])
    assert not errors, errors


@pytest.mark.parametrize("device", [GPU])
def test_pool_returns_to_baseline(device, fusion):
    pool = ca.get_default_memory_pool()
    a = ca.asarray(random_array((1 << 16,), np.float32), device=device)
    ca.cuda.Device().synchronize()
    used = pool.used_bytes()
    for _ in range(20):
        r = ca.where(a > 0.5, a, a * 2)
        c = a > 0
        del r, c
    ca.cuda.Device().synchronize()
    assert fusion()["pending"] == 0
    assert pool.used_bytes() == used


def test_threshold_argument():
    old = _core._fusion()["threshold"]
    try:
        with pytest.raises(ValueError):
            _core._fusion(-1)
        assert _core._fusion(123)["threshold"] == old
        assert _core._fusion()["threshold"] == 123
    finally:
        _core._fusion(old)


@pytest.mark.parametrize("device", [GPU])
def test_small_arrays_not_deferred_by_default(device):
    a = ca.asarray(random_array((1024,), np.float32), device=device)
    th = _core._fusion()["threshold"]
    assert th > 1024
    s0 = _core._fusion()
    (a * 2).get()
    assert _delta(s0, _core._fusion(), "deferred") == 0


# ----------------------------------------------------------------- fused sums
def _chain(a, b, c, d, e):
    return (a * b + c) * d - e


@pytest.mark.parametrize("device", [GPU])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(1,), (3,), (5,), (31,), (64,), (1000,), (1024,),
                                   (1027,), (2048,), (32, 32), (2049,), (4096,)])
def test_sum_of_pending_is_bit_identical(device, dtype, shape, fusion):
    """The sum (and mean) of a deferred chain runs in the chain's own launch up to
    2048 elements, and gives the plain sum's bits at every size."""
    ns = [random_array(shape, dtype) for _ in range(5)]
    xs = [ca.asarray(x, device=device) for x in ns]
    n = int(np.prod(shape))
    reds = [(lambda t: t.sum(), lambda t: t.sum()), (lambda t: t.mean(), lambda t: t.mean()),
            (lambda t: ca.sum(t, keepdims=True), lambda t: np.sum(t, keepdims=True))]
    for red, np_red in reds:
        s0 = fusion()
        r = red(_chain(*xs))
        fused = _delta(s0, fusion(), "fused_sums")
        # one element is no row for the plan (its size-1 dim is dropped): plain
        assert fused == (1 if 2 <= n <= 2048 else 0)
        want = _eager(lambda *a: red(_chain(*a)), *xs)
        assert r.dtype == want.dtype and r.shape == want.shape
        assert np.asarray(r.get()).tobytes() == np.asarray(want).tobytes()  # the bits
        ref = np_red(_chain(*[x.astype(np.float64) for x in ns]))
        np.testing.assert_allclose(r.get(), ref, rtol=1e-5 if dtype == np.float32 else 1e-12,
                                   atol=1e-5)
        # the mirrored one-element result reads back without another launch
        assert float(r.reshape(())) == float(want.reshape(()))


@pytest.mark.parametrize("device", [GPU])
def test_fused_sum_leaves_the_operand_usable(device, fusion):
    an, bn = random_array((1000,), np.float32), random_array((1000,), np.float32)
    a, b = ca.asarray(an, device=device), ca.asarray(bn, device=device)
    t = a * b + 1
    s0 = fusion()
    s = t.sum()
    assert _delta(s0, fusion(), "fused_sums") == 1
    assert fusion()["pending"] == 1  # t itself is still deferred
    u = t - 2  # and can still be fused into later work
    np.testing.assert_array_equal(u.get(), an * bn + 1 - 2)
    np.testing.assert_array_equal(t.get(), an * bn + 1)
    assert s.get() == np.float32(_eager(lambda x, y: (x * y + 1).sum(), a, b))
    # an input written after the fused sum: the deferred t still sees the old values
    v = a + 0.5
    w = v.sum()
    a[...] = 0
    np.testing.assert_array_equal(v.get(), an + np.float32(0.5))
    assert w.get() == np.float32(_eager(lambda x: (x + 0.5).sum(), ca.asarray(an, device=device)))


@pytest.mark.parametrize("device", [GPU])
def test_sums_not_fused(device, fusion):
    """Whatever the fused sum does not take runs the plain reduction, right."""
    an = random_array((1000,), np.float32)
    a = ca.asarray(an, device=device)
    cases = [
        (lambda: (a > 0.5).sum(), lambda: (an > 0.5).sum()),            # bool: int64 sum
        (lambda: (a * 2).sum(dtype=np.float64), lambda: (an * 2).sum(dtype=np.float64)),
        (lambda: (a * 2).reshape(10, 100).sum(axis=1), lambda: (an * 2).reshape(10, 100).sum(axis=1)),
        (lambda: (a * 2).prod(), lambda: (an * 2).prod()),
        (lambda: (a * 2).var(), lambda: (an * 2).var()),
        (lambda: (a * 2)[1:].sum(), lambda: (an * 2)[1:].sum()),
    ]
    for got, want in cases:
        s0 = fusion()
        r = got()
        assert _delta(s0, fusion(), "fused_sums") == 0
        np.testing.assert_allclose(r.get(), want(), rtol=1e-5)


@pytest.mark.parametrize("device", [GPU])
def test_fused_sum_on_another_stream(device, fusion):
    an = random_array((1024,), np.float32)
    a = ca.asarray(an, device=device)
    t = a * 3  # deferred on the default stream
    s = ca.cuda.Stream()
    with s:
        u = a - 1  # deferred on s
        r = u.sum()
        s0 = fusion()
        r2 = t.sum()  # t's stream is not current: the plain reduction
        assert _delta(s0, fusion(), "fused_sums") == 0
    s.synchronize()
    assert r.get() == np.float32(_eager(lambda x: (x - 1).sum(), a))
    assert r2.get() == np.float32(_eager(lambda x: (x * 3).sum(), a))
