"""random() through cuRAND's 32-bit pseudo-random generators (issue 12): the
words are generated into the result and transformed there in place (sample i
from word i in float32, from words 2i and 2i + 1 in float64), in chunks on a GPU
whose transforms overlap the next chunk's generation on a side stream
(csrc/runtime/launch_rand.c, CurandGenerator.fill_uniform). The expected values are
computed here from random_raw's words with the same calls."""

import numpy as np
import pytest
from scipy import stats

import cuarray as ca
from cuarray.random import _params as P
from cuarray.random._bitgen import _UNIFORM_CALLS, _UNIFORM_CHUNK, _uniform_chunk
from conftest import requires_gpu, requires_curand

# MRG32k3a and MT19937 take seconds to initialize on the host: their cpu-device
# paths are the same code as these.
KINDS = ["XORWOW", "Philox4_32_10", "MTGP32"]


def _u01_f32(w):
    return (w >> np.uint32(8)).astype(np.float32) * np.float32(2.0**-24)


def _u01_f64(lo, hi):
    x = (hi.astype(np.uint64) << np.uint64(32)) | lo.astype(np.uint64)
    return (x >> np.uint64(11)).astype(np.float64) * 2.0**-53


def _expected(kind, seed, n, dtype, device):
    """random(n, dtype)'s samples from the same cuRAND calls fill_uniform makes."""
    bg = getattr(ca.random, kind)(seed)
    f32 = np.dtype(dtype) == np.float32
    per, wps = (4, 1) if f32 else (2, 2)
    whole = n - n % per
    chunk = _uniform_chunk(n)
    if device == "cpu" or chunk >= whole:
        chunk = whole
    words = [bg.random_raw(min(chunk, whole - off) * wps, device=device).get()
             for off in range(0, whole, chunk)] if whole else []
    w = np.concatenate(words) if words else np.zeros(0, np.uint32)
    head = _u01_f32(w) if f32 else _u01_f64(w[0::2], w[1::2])
    if n == whole:
        return head
    t = bg.random_raw(4, device=device).get()
    tail = _u01_f32(t[: n - whole]) if f32 else _u01_f64(t[0:1], t[1:2])
    return np.concatenate([head, tail])


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@requires_curand
def test_uniform_is_the_words_transformed(device, kind, dtype):
    for n in (1, 2, 3, 4, 5, 8, 1000, 1001, 1003):
        got = ca.random.Generator(getattr(ca.random, kind)(n)).random(
            n, dtype=dtype, device=device).get()
        assert got.dtype == dtype and got.shape == (n,)
        np.testing.assert_array_equal(got, _expected(kind, n, n, dtype, device))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@requires_curand
def test_uniform_range_reproducible_and_seeded(device, dtype):
    n = 200003
    a = ca.random.Generator(ca.random.XORWOW(3)).random(n, dtype=dtype, device=device)
    g = ca.random.Generator(ca.random.XORWOW(3))
    b = g.random(n, dtype=dtype, device=device).get()
    np.testing.assert_array_equal(a.get(), b)
    assert b.min() >= 0 and b.max() < 1
    assert stats.kstest(b.astype(np.float64), "uniform").pvalue > 1e-4
    c = g.random(n, dtype=dtype, device=device).get()  # the stream moved on
    assert not np.array_equal(b, c)
    d = ca.random.Generator(ca.random.XORWOW(4)).random(n, dtype=dtype, device=device)
    assert not np.array_equal(b, d.get())
    # shapes, size=None, an empty size
    m = g.random((3, 5), dtype=dtype, device=device)
    assert m.shape == (3, 5) and m.dtype == dtype
    assert g.random(0, dtype=dtype, device=device).shape == (0,)
    s = g.random(dtype=dtype, device=device)
    assert 0 <= float(s) < 1


@requires_curand
def test_float32_never_reaches_one(device):
    """Words near 2^32 (cuRAND's own uniform rounds them to 1.0) give 1 - 2^-24."""
    g = ca.random.Generator(ca.random.XORWOW(11))
    x = g.random(1 << 20, dtype=np.float32, device=device).get()
    assert x.max() < 1 and x.max() <= np.float32(1 - 2.0**-24)


@requires_curand
def test_bad_fill_uniform_arguments():
    c = ca._core.CurandGenerator("XORWOW", "cpu", 1)
    with pytest.raises(ValueError):
        c.fill_uniform(ca.zeros(4, dtype=np.int32, device="cpu"), 0)
    with pytest.raises(ValueError):
        c.fill_uniform(ca.zeros((4, 4), device="cpu")[:, 0], 0)
    with pytest.raises(TypeError):
        c.fill_uniform(np.zeros(4), 0)
    q = ca._core.CurandGenerator("Sobol64", "cpu")
    with pytest.raises(ValueError):
        q.fill_uniform(ca.zeros(4, device="cpu"), 0)


def test_chunk_plan():
    assert _uniform_chunk(5) == 5
    assert _uniform_chunk(_UNIFORM_CHUNK) == _UNIFORM_CHUNK
    for n in (1 << 26, 1 << 28, 6 * _UNIFORM_CHUNK + 1):
        c = _uniform_chunk(n)
        assert c % 4096 == 0 and -(-n // c) == _UNIFORM_CALLS
    c = _uniform_chunk(_UNIFORM_CHUNK + 1)
    assert c == _UNIFORM_CHUNK // 2


@requires_gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_chunked_uniform_on_a_gpu(dtype):
    """Above _UNIFORM_CHUNK samples: several cuRAND calls, each chunk transformed
    on the side stream; a last chunk of 4 (float32) or 2 samples and a tail."""
    n = 3 * (1 << 22) + (5 if dtype == np.float32 else 3)
    assert _uniform_chunk(n) < n
    got = ca.random.Generator(ca.random.XORWOW(21)).random(n, dtype=dtype,
                                                           device="cuda:0")
    np.testing.assert_array_equal(got.get(), _expected("XORWOW", 21, n, dtype, "cuda:0"))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@requires_curand
def test_unaligned_output(device, dtype):
    """An output that is not 16-byte aligned (a view one element in) takes the
    in-place conversion's word-by-word kernel on a GPU: the same numbers, the
    element before it untouched; chunked above _UNIFORM_CHUNK samples."""
    dev = P.resolve_device(device)
    sizes = (4, 1001, 4099) + ((_UNIFORM_CHUNK + 7,) if device != "cpu" else ())
    for n in sizes:
        base = ca.zeros(n + 1, dtype=dtype, device=device)
        out = base[1:]
        ca.random.XORWOW(31)._gen(dev).fill_uniform(out, _uniform_chunk(n))
        np.testing.assert_array_equal(out.get(), _expected("XORWOW", 31, n, dtype, device))
        assert base[:1].get()[0] == 0


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@requires_curand
def test_chunk_boundaries(device, dtype):
    """Sizes around the one-call limit and around whole chunks of the chunked
    plan (a last chunk of one block, a tail of fewer): the words of the same
    calls, transformed; all in [0, 1)."""
    per = 4 if dtype == np.float32 else 2
    c = _uniform_chunk(_UNIFORM_CHUNK + 1)
    sizes = [_UNIFORM_CHUNK - 1, _UNIFORM_CHUNK, _UNIFORM_CHUNK + 1,
             2 * c + per, 2 * c + per + 1] if device != "cpu" else [4097, 4100]
    for n in sizes:
        got = ca.random.Generator(ca.random.XORWOW(n)).random(
            n, dtype=dtype, device=device).get()
        np.testing.assert_array_equal(got, _expected("XORWOW", n, n, dtype, device))
        assert got.min() >= 0 and got.max() < 1


@requires_gpu
def test_chunked_uniform_on_a_stream():
    """The caller's stream waits for the side stream: work queued on it right
    after random() sees every sample."""
    n = 1 << 25
    want = _expected("XORWOW", 8, n, np.float32, "cuda:0")
    s = ca.cuda.Stream(non_blocking=True)
    g = ca.random.Generator(ca.random.XORWOW(8))
    with s:
        x = g.random(n, dtype=np.float32, device="cuda:0")
        y = x * np.float32(2)
        total = y.sum(dtype=np.float64)
    s.synchronize()
    np.testing.assert_array_equal(y.get(), want * np.float32(2))
    assert float(total) == pytest.approx(float(want.astype(np.float64).sum() * 2),
                                         rel=1e-12)
    # two generators, one after the other on the legacy stream
    a = ca.random.Generator(ca.random.XORWOW(8)).random(n, dtype=np.float32,
                                                        device="cuda:0")
    b = ca.random.Generator(ca.random.XORWOW(9)).random(n, dtype=np.float32,
                                                        device="cuda:0")
    np.testing.assert_array_equal(a.get(), want)
    assert not np.array_equal(a.get(), b.get())


@requires_gpu
def test_other_distributions_unchanged_beside_it():
    """The word-buffer path of the other distributions still works after
    random() advanced the generator (and on its own stream order)."""
    g = ca.random.Generator(ca.random.XORWOW(5))
    u = g.random(1 << 24, dtype=np.float32, device="cuda:0")
    z = g.standard_normal(1 << 20, device="cuda:0").get()
    assert stats.kstest(z, "norm").pvalue > 1e-4
    e = g.exponential(2.0, size=1 << 20, device="cuda:0").get()
    assert stats.kstest(e, stats.expon(scale=2.0).cdf).pvalue > 1e-4
    h = u.get()
    assert h.min() >= 0 and h.max() < 1
