"""cuarray.random: reproducibility, distributions (moments, chi-square), ranges,
sizes and dtypes, bad input; the cpu device and a GPU give the same streams."""

import math

import numpy as np
import pytest

import cuarray as ca
from conftest import requires_gpu

FLOATS = [np.float32, np.float64]
INTS = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]


def chi2_ok(counts, probs):
    """Pearson's statistic below df + 5 sqrt(2 df) (about 5 sigma)."""
    counts = np.asarray(counts, dtype=np.float64)
    expected = counts.sum() * np.asarray(probs, dtype=np.float64)
    stat = float(((counts - expected) ** 2 / expected).sum())
    df = len(counts) - 1
    return stat < df + 5 * math.sqrt(2 * df), stat


# ------------------------------------------------------------------ reproducibility
def test_philox_known_answer(device):
    """Block 0 of seed 0 is Philox4x32-10(counter 0, key 0): Random123's vector."""
    g = ca.random.Generator(0)
    w = g.integers(0, 2**32, size=4, dtype=np.uint32, device=device).get()
    assert [int(x) for x in w] == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]


@pytest.mark.parametrize("method", ["random", "standard_normal", "normal", "uniform",
                                    "integers"])
def test_same_seed_same_numbers(device, method):
    args = (10,) if method == "integers" else ()
    kw = dict(size=(3, 5), device=device)
    a = getattr(ca.random.default_rng(42), method)(*args, **kw).get()
    b = getattr(ca.random.default_rng(42), method)(*args, **kw).get()
    c = getattr(ca.random.default_rng(43), method)(*args, **kw).get()
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


def test_successive_calls_differ_and_continue(device):
    g = ca.random.default_rng(7)
    a = g.random(9, device=device).get()
    b = g.random(9, device=device).get()
    assert not np.array_equal(a, b)
    # the stream is defined per Philox block: 9 float64 samples use 5 blocks,
    # so the second call starts at block 5 = sample 10 of one long call
    whole = ca.random.default_rng(7).random(20, device=device).get()
    np.testing.assert_array_equal(a, whole[:9])
    np.testing.assert_array_equal(b, whole[10:19])


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("method", ["random", "standard_normal"])
def test_prefix_property(device, dtype, method):
    """n samples are the first n of any longer call (odd sizes included)."""
    long = getattr(ca.random.default_rng(5), method)(33, dtype=dtype, device=device).get()
    for n in (1, 2, 3, 5, 7, 8, 31):
        short = getattr(ca.random.default_rng(5), method)(n, dtype=dtype,
                                                          device=device).get()
        np.testing.assert_array_equal(short, long[:n])


def test_state_roundtrip(device):
    g = ca.random.default_rng(11)
    g.random(5, device=device)
    st = g.state
    assert st == (11, 3)
    a = g.standard_normal(6, device=device).get()
    g.state = st
    np.testing.assert_array_equal(g.standard_normal(6, device=device).get(), a)
    g.seed(11)
    assert g.state == (11, 0)


def test_legacy_interface(device):
    with ca.Device(device):
        ca.random.seed(123)
        a = ca.random.random_sample((2, 3))
        ca.random.seed(123)
        b = ca.random.random((2, 3))
        np.testing.assert_array_equal(a.get(), b.get())
        assert ca.random.rand(2, 3).shape == (2, 3)
        assert ca.random.rand().shape == ()
        assert ca.random.randn(4).shape == (4,)
        assert ca.random.randn(4, dtype=np.float32).dtype == np.float32
        r = ca.random.randint(5, size=100).get()
        assert r.dtype == np.int64 and r.min() >= 0 and r.max() < 5
        r = ca.random.randint(-3, 3, size=(10,), dtype=np.int16).get()
        assert r.dtype == np.int16 and r.min() >= -3 and r.max() < 3
        assert ca.random.standard_normal(3).shape == (3,)
        assert ca.random.normal(1.0, 2.0, size=3).shape == (3,)
        assert ca.random.uniform(1.0, 2.0, size=3).shape == (3,)
        assert ca.random.get_random_state() is ca.random.get_random_state()
    rs = ca.random.RandomState(9)
    np.testing.assert_array_equal(rs.random_sample(5, device=device).get(),
                                  ca.random.Generator(9).random(5, device=device).get())
    assert isinstance(rs, ca.random.RandomState)
    assert ca.random.default_rng(rs) is rs


@requires_gpu
@pytest.mark.parametrize("seed", [0, 1, 2**63 + 12345])
def test_cpu_and_gpu_give_the_same_stream(seed):
    for dtype in FLOATS:
        c = ca.random.Generator(seed).random(1001, dtype=dtype, device="cpu").get()
        g = ca.random.Generator(seed).random(1001, dtype=dtype, device="cuda:0").get()
        np.testing.assert_array_equal(c, g)
        c = ca.random.Generator(seed).uniform(-2, 5, 1001, dtype=dtype, device="cpu").get()
        g = ca.random.Generator(seed).uniform(-2, 5, 1001, dtype=dtype,
                                              device="cuda:0").get()
        np.testing.assert_array_equal(c, g)
        c = ca.random.Generator(seed).normal(1, 3, 1001, dtype=dtype, device="cpu").get()
        g = ca.random.Generator(seed).normal(1, 3, 1001, dtype=dtype, device="cuda:0").get()
        rtol = 1e-5 if dtype == np.float32 else 1e-13
        np.testing.assert_allclose(c, g, rtol=rtol, atol=rtol)
    for lo, hi, dt in [(0, 10, np.int64), (-5, 2**40, np.int64), (0, 2**64, np.uint64),
                       (0, 3 * 2**30, np.uint32), (-100, 100, np.int8), (0, 2, np.bool_)]:
        c = ca.random.Generator(seed).integers(lo, hi, 999, dtype=dt, device="cpu").get()
        g = ca.random.Generator(seed).integers(lo, hi, 999, dtype=dt, device="cuda:0").get()
        np.testing.assert_array_equal(c, g)


# ------------------------------------------------------------------ distributions
@pytest.mark.parametrize("dtype", FLOATS, ids=lambda t: np.dtype(t).name)
def test_uniform_moments_and_histogram(device, dtype):
    x = ca.random.default_rng(1).random(200_000, dtype=dtype, device=device).get()
    assert x.dtype == dtype
    assert x.min() >= 0.0 and x.max() < 1.0
    assert abs(x.mean() - 0.5) < 5 * math.sqrt(1 / 12 / x.size)
    assert abs(x.var() - 1 / 12) < 0.002
    counts, _ = np.histogram(x, bins=50, range=(0, 1))
    ok, stat = chi2_ok(counts, np.full(50, 1 / 50))
    assert ok, stat


def test_uniform_low_high(device):
    x = ca.random.default_rng(2).uniform(-3.0, 5.0, 100_000, device=device).get()
    assert x.min() >= -3.0 and x.max() < 5.0
    assert abs(x.mean() - 1.0) < 5 * 8 / math.sqrt(12 * x.size)
    assert abs(x.var() - 64 / 12) < 0.1


def test_float32_uniform_never_one(device):
    """24 random bits times 2**-24: the largest value is 1 - 2**-24."""
    x = ca.random.default_rng(3).random(1 << 24, dtype=np.float32, device=device).get()
    assert x.max() < 1.0
    assert x.min() >= 0.0
    assert x.max() >= 1.0 - 2.0**-20
    # every value is a multiple of 2**-24
    assert np.all(x * np.float32(2**24) == np.floor(x * np.float32(2**24)))


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda t: np.dtype(t).name)
def test_normal_moments_and_histogram(device, dtype):
    x = ca.random.default_rng(4).standard_normal(200_000, dtype=dtype, device=device).get()
    assert x.dtype == dtype and np.all(np.isfinite(x))
    n = x.size
    assert abs(x.mean()) < 5 / math.sqrt(n)
    assert abs(x.var() - 1.0) < 5 * math.sqrt(2 / n)
    assert abs((x ** 3).mean()) < 5 * math.sqrt(15 / n)
    assert abs((x ** 4).mean() - 3.0) < 5 * math.sqrt(96 / n)
    edges = np.linspace(-3, 3, 25)
    cdf = np.array([0.5 * (1 + math.erf(e / math.sqrt(2))) for e in edges])
    probs = np.concatenate([[cdf[0]], np.diff(cdf), [1 - cdf[-1]]])
    counts = np.histogram(x, bins=np.concatenate([[-np.inf], edges, [np.inf]]))[0]
    ok, stat = chi2_ok(counts, probs)
    assert ok, stat


def test_normal_loc_scale(device):
    x = ca.random.default_rng(5).normal(10.0, 0.5, size=(400, 250), device=device).get()
    assert x.shape == (400, 250)
    assert abs(x.mean() - 10.0) < 5 * 0.5 / math.sqrt(x.size)
    assert abs(x.std() - 0.5) < 0.01
    assert np.all(ca.random.default_rng(5).normal(3.0, 0.0, 10, device=device).get() == 3.0)


@pytest.mark.parametrize("lo,hi", [(0, 7), (-5, 5), (0, 256), (10, 11), (0, 3 * 2**30)])
def test_integers_histogram(device, lo, hi):
    n = 120_000
    x = ca.random.default_rng(6).integers(lo, hi, n, device=device).get()
    assert x.dtype == np.int64
    assert x.min() >= lo and x.max() < hi
    if hi - lo <= 256:
        counts = np.bincount(x - lo, minlength=hi - lo)
        if hi - lo > 1:
            ok, stat = chi2_ok(counts, np.full(hi - lo, 1 / (hi - lo)))
            assert ok, stat
    else:
        # an unbiased draw puts 1/3 below 2**30; a biased one would put 1/2
        counts = np.bincount(x // 2**30, minlength=3)
        ok, stat = chi2_ok(counts, [1 / 3] * 3)
        assert ok, stat


@pytest.mark.parametrize("dtype", INTS + [np.bool_], ids=lambda t: np.dtype(t).name)
def test_integers_full_dtype_range(device, dtype):
    info = np.iinfo(dtype) if dtype != np.bool_ else None
    lo, hi = (0, 1) if info is None else (int(info.min), int(info.max))
    g = ca.random.default_rng(8)
    x = g.integers(lo, hi, 5000, dtype=dtype, endpoint=True, device=device).get()
    assert x.dtype == dtype
    assert x.min() >= lo and x.max() <= hi
    # wide ranges reach both halves
    assert (x < (lo + hi) / 2).any() and (x > (lo + hi) / 2).any()
    y = g.integers(lo, hi + 1, 5000, dtype=dtype, device=device).get()
    assert y.min() >= lo and y.max() <= hi


@pytest.mark.parametrize("lo,hi,dt", [
    (-2**63, 2**63, np.int64), (2**63, 2**64, np.uint64), (-2**63, -2**63 + 3, np.int64),
    (2**64 - 5, 2**64, np.uint64), (-7, -2, np.int32), (-2**31, 2**31, np.int32),
    (0, 2**32, np.uint32), (0, 2**32 + 1, np.int64), (-1, 2**33, np.int64), (5, 6, np.int64),
])
def test_integers_ranges(device, lo, hi, dt):
    x = ca.random.default_rng(9).integers(lo, hi, 4001, dtype=dt, device=device).get()
    assert x.dtype == dt
    xs = [int(v) for v in x]
    assert min(xs) >= lo and max(xs) < hi
    if hi - lo > 4:
        assert len(set(xs)) > 3


def test_integers_single_argument(device):
    x = ca.random.default_rng(10).integers(3, size=1000, device=device).get()
    assert set(np.unique(x).tolist()) == {0, 1, 2}
    x = ca.random.default_rng(10).integers(3, size=1000, endpoint=True, device=device).get()
    assert set(np.unique(x).tolist()) == {0, 1, 2, 3}


# ------------------------------------------------------------------ sizes, dtypes, errors
@pytest.mark.parametrize("size,shape", [(None, ()), (0, (0,)), (5, (5,)), ((2, 3), (2, 3)),
                                        ((0, 4), (0, 4)), ((3, 1, 2), (3, 1, 2)),
                                        (np.int64(4), (4,))])
def test_sizes(device, size, shape):
    g = ca.random.default_rng(12)
    for method, args in [("random", ()), ("standard_normal", ()), ("normal", (0, 1)),
                         ("uniform", (0, 1)), ("integers", (0, 5))]:
        r = getattr(g, method)(*args, size=size, device=device)
        assert isinstance(r, ca.ndarray)
        assert r.shape == shape


def test_size_zero_uses_no_stream(device):
    g = ca.random.default_rng(13)
    g.random(0, device=device)
    g.integers(0, 5, size=(0, 3), device=device)
    assert g.state == (13, 0)


def test_dtypes(device):
    g = ca.random.default_rng(14)
    assert g.random(3, dtype=np.float32, device=device).dtype == np.float32
    assert g.random(3, dtype="float64", device=device).dtype == np.float64
    assert g.standard_normal(3, dtype="f4", device=device).dtype == np.float32
    assert g.normal(size=3, dtype=np.float32, device=device).dtype == np.float32
    assert g.uniform(size=3, dtype=np.float32, device=device).dtype == np.float32
    for dt in INTS + [np.bool_]:
        assert g.integers(0, 2, 3, dtype=dt, device=device).dtype == dt


def test_bad_input(device):
    g = ca.random.default_rng(15)
    with pytest.raises(ValueError):
        g.random(-1, device=device)
    with pytest.raises(ValueError):
        g.random((2, -3), device=device)
    with pytest.raises(TypeError):
        g.random(3, dtype=np.int32, device=device)
    with pytest.raises(TypeError):
        g.random(3, dtype=np.float16, device=device)
    with pytest.raises(TypeError):
        g.standard_normal(3, dtype=np.complex64, device=device)
    with pytest.raises(TypeError):
        g.integers(0, 3, dtype=np.float64, device=device)
    with pytest.raises(ValueError, match="low >= high"):
        g.integers(5, 5, device=device)
    with pytest.raises(ValueError, match="low >= high"):
        g.integers(5, 2, device=device)
    with pytest.raises(ValueError, match="low > high"):
        g.integers(5, 4, endpoint=True, device=device)
    with pytest.raises(ValueError, match="high <= 0"):
        g.integers(0, device=device)
    with pytest.raises(ValueError, match="out of bounds"):
        g.integers(-1, 5, dtype=np.uint8, device=device)
    with pytest.raises(ValueError, match="out of bounds"):
        g.integers(0, 300, dtype=np.int8, device=device)
    with pytest.raises(ValueError, match="out of bounds"):
        g.integers(0, 2**70, device=device)
    with pytest.raises(ValueError, match="out of bounds"):
        g.integers(-2**70, 0, device=device)
    with pytest.raises(TypeError):
        g.integers(0.5, 3, device=device)
    with pytest.raises(ValueError, match="scale < 0"):
        g.normal(0, -1, device=device)
    with pytest.raises(ValueError):  # array parameters broadcast with size
        g.normal([0, 1], 1, size=3, device=device)
    with pytest.raises(TypeError):
        g.normal(0, 1j, device=device)
    with pytest.raises(OverflowError):
        g.uniform(-1e308, 1e308, 3, device=device)
    with pytest.raises(TypeError):
        g.random(3, bogus=1)
    assert g.state == (15, 0)  # failed calls draw nothing


def test_bad_seeds():
    for bad in (-1, 2**64, -2**70):
        with pytest.raises(ValueError):
            ca.random.default_rng(bad)
        with pytest.raises(ValueError):
            ca.random.seed(bad)
    with pytest.raises(TypeError):
        ca.random.default_rng(1.5)
    with pytest.raises(TypeError):
        ca.random.default_rng("abc")
    assert ca.random.default_rng(2**64 - 1).state == (2**64 - 1, 0)
    assert ca.random.default_rng(np.uint32(5)).state == (5, 0)
    a = ca.random.default_rng(None).random(4, device="cpu").get()
    b = ca.random.default_rng(None).random(4, device="cpu").get()
    assert not np.array_equal(a, b)


def test_generator_repr_and_subclass():
    g = ca.random.default_rng(3)
    assert "Philox4x32-10" in repr(g) and "seed=3" in repr(g)
    assert isinstance(g, ca.random.Generator)


def test_default_device_is_current():
    x = ca.random.random(3)
    assert x.device == ca.empty(1).device
