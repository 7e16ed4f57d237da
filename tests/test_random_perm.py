"""Random permutations (issue 12): permutation / shuffle / choice without
replacement through one radix sort of 32-bit random keys with their positions,
then every run of tied keys shuffled by fresh keys (Generator._untie).

The seeds are fixed, so every statistic below is one deterministic number (the
same on the cpu device and a GPU: test_same_on_cpu_and_gpu); ALPHA is a bound no
correct uniform permutation comes near."""

import math

import numpy as np
import pytest
from scipy import stats

import cuarray as ca
from cuarray.random import _generator as G
from conftest import requires_gpu, requires_curand

ALPHA = 1e-4
SIZES = [0, 1, 2, 3, 4, 5, 7, 8, 31, 100, 1000, 2047, 2048, 2049, 4097, 65537,
         1 << 20]


def _is_perm(p, n):
    assert p.dtype == np.int64 and p.shape == (n,)
    np.testing.assert_array_equal(np.sort(p), np.arange(n))


@pytest.mark.parametrize("n", SIZES)
def test_permutation_is_a_permutation(device, n):
    g = ca.random.default_rng(n + 11)
    h = g.permutation(n, device=device).get()
    _is_perm(h, n)
    if n >= 8:
        assert not np.array_equal(h, np.arange(n))


def test_permutation_reproducible_and_seeded(device):
    a = ca.random.default_rng(42).permutation(5000, device=device).get()
    g = ca.random.default_rng(42)
    b = g.permutation(5000, device=device).get()
    np.testing.assert_array_equal(a, b)
    c = g.permutation(5000, device=device).get()  # the generator moved on
    assert not np.array_equal(b, c)
    d = ca.random.default_rng(43).permutation(5000, device=device).get()
    assert not np.array_equal(a, d)
    # the legacy RandomState and the module functions go through the same code
    e = ca.random.RandomState(7).permutation(300, device=device).get()
    np.testing.assert_array_equal(e, ca.random.RandomState(7).permutation(
        300, device=device).get())
    _is_perm(e, 300)


@requires_gpu
def test_same_on_cpu_and_gpu():
    """Philox words are the same on both devices, stable sorts are the same: so
    are the permutations, ties (about n^2 / 2^33 pairs, ~128 here) included."""
    n = 1 << 20
    a = ca.random.default_rng(5).permutation(n, device="cpu").get()
    b = ca.random.default_rng(5).permutation(n, device="cuda:0").get()
    np.testing.assert_array_equal(a, b)
    x = np.arange(3000.0).reshape(1000, 3)
    sa = ca.asarray(x, device="cpu")
    sb = ca.asarray(x, device="cuda:0")
    ca.random.default_rng(6).shuffle(sa)
    ca.random.default_rng(6).shuffle(sb)
    np.testing.assert_array_equal(sa.get(), sb.get())


def test_large_permutation_has_ties_and_stays_a_permutation(device):
    """2^20 32-bit keys tie in about 2^40 / 2^33 = 128 pairs: _untie runs."""
    n = 1 << 20
    g = ca.random.default_rng(2)
    keys = ca.random.default_rng(2)._words32(n, device).get()
    assert np.unique(keys).size < n  # this seed's keys do tie
    p = g.permutation(n, device=device).get()
    _is_perm(p, n)
    # the order is the keys' order; within a run of equal keys any order
    np.testing.assert_array_equal(keys[p], np.sort(keys))


def test_64_bit_key_path(device, monkeypatch):
    """Above 2^31 - 1 items the keys are 64-bit: the same code with a lower
    threshold gives a permutation too."""
    monkeypatch.setattr(G, "_PERM32_MAX", 100)
    for n in (101, 1000):
        p = ca.random.default_rng(n).permutation(n, device=device).get()
        _is_perm(p, n)


def test_permutation_of_arrays(device):
    """An array argument: a copy gathered along axis 0 (or `axis`) in the order
    of permutation(len), the same generator state giving the same order."""
    x = np.arange(60.0).reshape(10, 3, 2)
    a = ca.asarray(x, device=device)
    q = ca.random.default_rng(3).permutation(a).get()
    order = ca.random.default_rng(3).permutation(10, device=device).get()
    np.testing.assert_array_equal(q, x[order])
    np.testing.assert_array_equal(a.get(), x)  # the argument is not touched
    v = ca.asarray(np.arange(17, dtype=np.int32), device=device)
    w = ca.random.default_rng(4).permutation(v).get()
    assert w.dtype == np.int32
    np.testing.assert_array_equal(np.sort(w), np.arange(17))
    r = ca.random.default_rng(5).permutation(a, axis=1).get()
    order = ca.random.default_rng(5).permutation(3, device=device).get()
    np.testing.assert_array_equal(r, x[:, order])
    lst = ca.random.default_rng(6).permutation([1.5, 2.5, 3.5], device=device).get()
    assert sorted(lst.tolist()) == [1.5, 2.5, 3.5]
    e = ca.random.default_rng(7).permutation(ca.asarray(np.zeros((0, 4)), device=device))
    assert e.shape == (0, 4)


def test_permutation_bad_arguments(device):
    g = ca.random.default_rng(1)
    with pytest.raises(ValueError):
        g.permutation(-1, device=device)
    with pytest.raises(IndexError):  # NumPy's AxisError (an IndexError too)
        g.permutation(ca.asarray(3.0, device=device))
    with pytest.raises(ValueError, match="quasi-random"):
        ca.random.Generator(ca.random.Sobol32()).permutation(10, device=device)


def test_shuffle_in_place(device):
    x = np.arange(40.0).reshape(10, 4)
    a = ca.asarray(x.copy(), device=device)  # (zero-copy of x on the cpu device)
    buf = a.data.ptr if device != "cpu" else None
    assert ca.random.default_rng(8).shuffle(a) is None
    order = ca.random.default_rng(8).permutation(10, device=device).get()
    np.testing.assert_array_equal(a.get(), x[order])  # rows moved whole
    if buf is not None:
        assert a.data.ptr == buf  # in place
    b = ca.asarray(np.arange(12.0).reshape(3, 4), device=device)
    ca.random.default_rng(9).shuffle(b, axis=1)
    order = ca.random.default_rng(9).permutation(4, device=device).get()
    np.testing.assert_array_equal(b.get(), np.arange(12.0).reshape(3, 4)[:, order])
    one = ca.asarray(np.array([5.0]), device=device)
    ca.random.default_rng(1).shuffle(one)
    assert one.get().tolist() == [5.0]
    empty = ca.asarray(np.zeros(0), device=device)
    ca.random.default_rng(1).shuffle(empty)
    assert empty.shape == (0,)
    n = np.arange(1000)
    ca.random.default_rng(2).shuffle(n)
    np.testing.assert_array_equal(np.sort(n), np.arange(1000))
    with pytest.raises(TypeError):
        ca.random.default_rng(1).shuffle(ca.asarray(1.0, device=device))


def test_first_position_is_uniform(device):
    """Which item lands first (and where each lands) over 2000 permutations of
    5: a chi-square test of each 5-bin histogram, deterministic for the seed."""
    g = ca.random.default_rng(2024)
    trials, n = 2000, 5
    where = np.zeros((n, n), dtype=np.int64)  # where[item, position]
    for _ in range(trials):
        p = g.permutation(n, device=device).get()
        where[p, np.arange(n)] += 1
    for row in list(where) + list(where.T):
        assert row.sum() == trials
        assert stats.chisquare(row).pvalue > ALPHA, where


def test_all_orders_equally_often(device):
    """All 24 orders of 4 items from permutation(4), equally often."""
    g = ca.random.default_rng(77)
    trials = 2400
    code = np.empty(trials, dtype=np.int64)
    for t in range(trials):
        p = g.permutation(4, device=device).get()
        code[t] = p @ np.array([64, 16, 4, 1])
    _, counts = np.unique(code, return_counts=True)
    assert counts.size == 24
    assert stats.chisquare(counts).pvalue > ALPHA


@pytest.mark.parametrize("bits", [32, 2, 1])
def test_untie_shuffles_runs_uniformly(device, bits):
    """_untie on keys made of T runs of 4 equal keys: each run's positions stay in
    the run, in one of the 24 orders, all equally often. With 1 or 2 random bits
    per round most runs still tie after the first round, so the later rounds run
    too."""
    T = 4800
    sk = ca.asarray(np.repeat(np.arange(T, dtype=np.uint32) * 7, 4), device=device)
    perm = ca.arange(4 * T, dtype=np.int64, device=device)
    ca.random.default_rng(bits)._untie(sk, perm, bits=bits)
    p = perm.get().reshape(T, 4) - 4 * np.arange(T)[:, None]
    np.testing.assert_array_equal(np.sort(p, axis=1), np.tile(np.arange(4), (T, 1)))
    code = p @ np.array([64, 16, 4, 1])
    _, counts = np.unique(code, return_counts=True)
    assert counts.size == 24
    assert stats.chisquare(counts).pvalue > ALPHA


def test_untie_one_long_run_and_no_ties(device):
    g = ca.random.default_rng(3)
    sk = ca.zeros(3000, dtype=np.uint32, device=device)
    perm = ca.arange(3000, dtype=np.int64, device=device)
    g._untie(sk, perm, bits=3)
    h = perm.get()
    _is_perm(h, 3000)
    assert not np.array_equal(h, np.arange(3000))
    # keys without ties: nothing moves
    sk = ca.arange(50, dtype=np.uint32, device=device)
    perm = ca.arange(50, dtype=np.int64, device=device)[::-1].copy()
    g._untie(sk, perm)
    np.testing.assert_array_equal(perm.get(), np.arange(50)[::-1])
    # a run at each end and runs of different lengths
    keys = np.array([0, 0, 0, 1, 2, 2, 3, 4, 4, 4, 4, 5, 5], dtype=np.uint32)
    perm = ca.arange(keys.size, dtype=np.int64, device=device)
    g._untie(ca.asarray(keys, device=device), perm, bits=1)
    h = perm.get()
    for k in np.unique(keys):
        idx = np.flatnonzero(keys == k)
        assert sorted(h[idx].tolist()) == idx.tolist()


def test_choice_without_replacement(device):
    g = ca.random.default_rng(12)
    x = g.choice(1000, size=600, replace=False, device=device).get()
    assert np.unique(x).size == 600 and x.min() >= 0 and x.max() < 1000
    a = ca.asarray(np.arange(50.0) * 2, device=device)
    y = g.choice(a, size=(5, 4), replace=False).get()
    assert y.shape == (5, 4) and np.unique(y).size == 20
    assert np.all(y % 2 == 0)
    # the first draw is uniform over the population
    firsts = np.array([g.choice(6, size=1, replace=False, device=device).get()[0]
                       for _ in range(1200)])
    assert stats.chisquare(np.bincount(firsts, minlength=6)).pvalue > ALPHA
    with pytest.raises(ValueError):
        g.choice(5, size=6, replace=False, device=device)


@pytest.mark.parametrize("kind", ["XORWOW", "Philox4_32_10"])
@requires_curand
def test_permutation_with_curand_generators(device, kind):
    g = ca.random.Generator(getattr(ca.random, kind)(5))
    p = g.permutation(4000, device=device).get()
    _is_perm(p, 4000)
    q = ca.random.Generator(getattr(ca.random, kind)(5)).permutation(
        4000, device=device).get()
    np.testing.assert_array_equal(p, q)
    a = ca.asarray(np.arange(30.0).reshape(10, 3), device=device)
    g.shuffle(a)
    h = a.get()
    np.testing.assert_array_equal(np.sort(h[:, 0]), np.arange(0, 30, 3))
    np.testing.assert_array_equal(h[:, 2] - h[:, 0], 2 * np.ones(10))


def test_tie_rate_matches_the_birthday_bound():
    """Why _untie exists: n 32-bit keys tie in about n^2 / 2^33 pairs."""
    n = 1 << 20
    keys = ca.random.default_rng(1)._words32(n, "cpu").get()
    pairs = n - np.unique(keys).size
    expect = n * n / 2.0**33
    assert abs(pairs - expect) < 6 * math.sqrt(expect), (pairs, expect)
