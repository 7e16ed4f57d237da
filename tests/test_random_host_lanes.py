"""The cpu device's random loops: Philox blocks sixty-four lanes at a time and the
distributions in fixed pieces on the host pool (kernels/host/host_philox.h, host_random.c,
host_random_dist.c). The words are checked against Philox4x32-10 written here in NumPy
(the stream's definition, kernels/shared/random_impl.h); every method gives the same bits on
one host thread and on two."""

import numpy as np
import pytest

import cuarray as ca
from conftest import same_bits_on_one_and_two_threads

M0, M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
W0, W1 = 0x9E3779B9, 0xBB67AE85
LO32 = np.uint64(0xFFFFFFFF)


def philox_blocks(seed, blocks, attempt=0):
    """Philox4x32-10 of counters (lo32(b), hi32(b), attempt, 0) for each b in blocks,
    key (lo32(seed), hi32(seed)): an (n, 4) uint32 array."""
    b = np.asarray(blocks, dtype=np.uint64)
    x, y = b & LO32, b >> np.uint64(32)
    z = np.full_like(b, attempt)
    w = np.zeros_like(b)
    k0, k1 = seed & 0xFFFFFFFF, (seed >> 32) & 0xFFFFFFFF
    for _ in range(10):
        p0, p1 = x * M0, z * M1
        x, y, z, w = ((p1 >> np.uint64(32)) ^ y ^ np.uint64(k0), p1 & LO32,
                      (p0 >> np.uint64(32)) ^ w ^ np.uint64(k1), p0 & LO32)
        k0, k1 = (k0 + W0) & 0xFFFFFFFF, (k1 + W1) & 0xFFFFFFFF
    return np.stack([x, y, z, w], axis=1).astype(np.uint32)


SIZES = [1, 3, 63, 64, 65, 1000, (1 << 16) + 7, (1 << 17) + 129]


@pytest.mark.parametrize("n", SIZES)
def test_words_and_uniforms_are_philox(n):
    seed = 2**40 + 99
    words = philox_blocks(seed, np.arange((n + 3) // 4)).reshape(-1)[:n]
    g = ca.random.default_rng(seed)
    np.testing.assert_array_equal(
        g.integers(0, 2**32, size=n, dtype=np.uint32, device="cpu").get(), words)
    w = philox_blocks(seed, np.arange((n + 3) // 4)).reshape(-1)[:n]
    f32 = ca.random.default_rng(seed).random(n, dtype=np.float32, device="cpu").get()
    np.testing.assert_array_equal(f32, (w >> 8).astype(np.float32) * np.float32(2.0**-24))
    p = philox_blocks(seed, np.arange((n + 1) // 2)).astype(np.uint64)
    pairs = np.stack([p[:, 1] << np.uint64(32) | p[:, 0], p[:, 3] << np.uint64(32) | p[:, 2]],
                     axis=1).reshape(-1)[:n]
    f64 = ca.random.default_rng(seed).random(n, device="cpu").get()
    np.testing.assert_array_equal(f64, (pairs >> np.uint64(11)).astype(np.float64) * 2.0**-53)


@pytest.mark.parametrize("n", [5, 4099, (1 << 17) + 3])
def test_integers_with_rejections_are_lemire_on_philox(n):
    """A range of 3 * 2^30 rejects a quarter of the first draws: the rejected samples
    redraw from attempt 1, 2, ... of their block and lane."""
    seed, rng = 12345, 3 * 2**30
    got = ca.random.default_rng(seed).integers(0, rng, size=n, dtype=np.int64,
                                               device="cpu").get()
    x = philox_blocks(seed, np.arange((n + 3) // 4)).reshape(-1)[:n].astype(np.uint64)
    m = x * np.uint64(rng)
    want = m >> np.uint64(32)
    thresh = (2**32 - rng) % rng
    redo = np.flatnonzero((m & LO32) < thresh)
    assert len(redo) > 0
    for i in redo:
        attempt = 0
        while (int(m[i]) & 0xFFFFFFFF) < thresh:
            attempt += 1
            xi = int(philox_blocks(seed, [i // 4], attempt)[0, i % 4])
            m[i] = np.uint64(xi * rng)
        want[i] = m[i] >> np.uint64(32)
    np.testing.assert_array_equal(got, want.astype(np.int64))


def _draws(n):
    g, c = ca.random.default_rng(77), {"device": "cpu"}
    out = [g.random(n, dtype=np.float32, **c), g.random(n, **c), g.uniform(-2, 3, n, **c),
           g.standard_normal(n, dtype=np.float32, **c), g.standard_normal(n, **c),
           g.normal(1.5, 2.0, n, **c), g.integers(0, 1000, n, dtype=np.int32, **c),
           g.integers(-5, 3 * 2**30, n, **c),
           g.integers(0, 3 * 2**62, n, dtype=np.uint64, **c),
           g.integers(0, 200, n, dtype=np.uint8, **c),
           g.standard_exponential(n, dtype=np.float32, **c),
           g.standard_exponential(n, **c), g.standard_gamma(2.5, n, dtype=np.float32, **c),
           g.standard_gamma(0.4, n, **c), g.poisson(4.0, n, **c),
           g.binomial(100, 0.3, n, **c), g.gumbel(0.0, 2.0, n, **c),
           g.lognormal(0.0, 1.0, n, **c), g.permutation(n, device="cpu")]
    return [np.asarray(a.get()) for a in out]


def test_same_bits_on_one_and_two_threads(host_threads):
    n = (1 << 18) + 37  # several pieces of every loop (the permutation's radix passes too)
    one = same_bits_on_one_and_two_threads(host_threads, _draws, n)
    assert np.all((one[0] >= 0) & (one[0] < 1)) and abs(one[4].mean()) < 0.02
    assert np.array_equal(np.sort(one[-1]), np.arange(n))


@pytest.mark.parametrize("n", [7, 4099, (1 << 17) + 3])
def test_float64_normals_are_box_muller_with_sinpi(n):
    """standard_normal(float64) pairs from block j: radius sqrt(-2 log u) with u from
    words 0-1, angle pi t with t = 2 v - 1 from words 2-3. The host's sin(pi t) and
    cos(pi t) (ca_sincospi_f64) are checked within 4 ulp of the radius against an
    80-bit reference."""
    seed = 31337
    got = ca.random.default_rng(seed).standard_normal(n, device="cpu").get()
    p = philox_blocks(seed, np.arange((n + 1) // 2)).astype(np.uint64)
    odd = lambda lo, hi: ((((hi << np.uint64(32)) | lo) >> np.uint64(12)) * np.uint64(2)
                          + np.uint64(1)).astype(np.float64) * 2.0**-53
    u, v = odd(p[:, 0], p[:, 1]), odd(p[:, 2], p[:, 3])
    radius = np.sqrt(-2.0 * np.log(u))
    pi = np.longdouble("3.14159265358979323846264338327950288")
    angle = pi * (2.0 * v - 1.0).astype(np.longdouble)
    ref = np.stack([radius * np.cos(angle), radius * np.sin(angle)], axis=1).reshape(-1)[:n]
    scale = np.repeat(radius, 2)[:n]
    assert np.all(np.abs(got - ref.astype(np.float64)) <= 4 * np.finfo(np.float64).eps * scale)


@pytest.mark.parametrize("n", [1, 63, 65, 5000, (1 << 15) + 11])
def test_gamma_lanes_give_the_scalar_streams_bits(n):
    """gamma(a, 2) runs its first attempt in lanes (host_random_dist.c's gamma_lanes);
    noncentral_chisquare(2a, 0) is 2 gamma(a) from the same sample streams, one sample
    at a time: the same bits, for shapes the lanes accept and shapes they hand on."""
    shapes = np.resize(np.array([2.5, 0.3, 1.0, 7.25, 1e6, 0.999, 1.5, 40.0, 1.0000001]), n)
    seed = 2024
    lanes = ca.random.default_rng(seed).gamma(ca.asarray(shapes, device="cpu"), 2.0,
                                              device="cpu").get()
    streams = ca.random.default_rng(seed).noncentral_chisquare(
        ca.asarray(2.0 * shapes, device="cpu"), 0.0, device="cpu").get()
    np.testing.assert_array_equal(lanes, streams)
    f32 = ca.random.default_rng(seed).standard_gamma(2.5, size=n, dtype=np.float32,
                                                     device="cpu").get()
    f64 = ca.random.default_rng(seed).standard_gamma(2.5, size=n, device="cpu").get()
    np.testing.assert_array_equal(f32, f64.astype(np.float32))
    assert np.all(f64 > 0) and (n < 1000 or abs(f64.mean() / 2.5 - 1) < 0.1)
