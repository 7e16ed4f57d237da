"""The permutation primitive (issue 12): _core._perm_sort(k, w, shift), one radix
sort over key bits [shift, 32) and a placement pass (kernels/shared/perm_impl.h), against
its definition computed by sorts (Generator._perm_generic: the stable order of
the keys k, each run of equal keys ordered by the slot words w), on crafted keys
that force ties, segments at the placement's limit and ties in w."""

import numpy as np
import pytest
from scipy import stats

import cuarray as ca
from cuarray import _core
from cuarray.random import _generator as G
from conftest import requires_gpu

ALPHA = 1e-4
SEG_MAX = 64  # CA_PERM_SEG_MAX


def _u32(x, device):
    return ca.asarray(np.asarray(x, dtype=np.uint32), device=device)


def _generic(k, w):
    """The definition, in NumPy: stable order of k, runs of equal keys by w."""
    k, w = np.asarray(k, dtype=np.uint32), np.asarray(w, dtype=np.uint32)
    order = np.argsort(k, kind="stable")
    sk = k[order]
    out = order.copy()
    starts = np.flatnonzero(np.concatenate([[True], sk[1:] != sk[:-1]]))
    ends = np.append(starts[1:], k.size)
    for a, b in zip(starts, ends):
        if b - a > 1:
            out[a:b] = order[a:b][np.argsort(w[a:b], kind="stable")]
    return out


def _check(k, w, shift, device, expect_tied=None):
    """_perm_sort(k, w, shift) is the definition, or says tied."""
    perm, tied = _core._perm_sort(_u32(k, device), _u32(w, device), shift)
    assert perm.dtype == np.int64 and perm.shape == (len(k),)
    assert tied.dtype == np.int32 and tied.shape == ()
    t = int(tied)
    if expect_tied is not None:
        assert t == expect_tied
    if not t:
        np.testing.assert_array_equal(perm.get(), _generic(k, w))
    return t


@pytest.mark.parametrize("n", [2, 3, 5, 7, 8, 31, 100, 1000, 2047, 2048, 2049, 4097,
                               65537, 1 << 20])
def test_random_words_match_the_definition(device, n):
    """Philox words (the keys of permutation(n)): at 2^20 about 128 tied pairs,
    so the w ordering runs; the result is the generic path's."""
    kw = ca.random.default_rng(n)._words32(2 * n, "cpu").get()
    k, w = kw[:n], kw[n:]
    shift = G._PERM_SHIFT
    _check(k, w, shift, device, expect_tied=0)
    g = ca.random.default_rng(n)
    gen = g._perm_generic(_u32(k, device), _u32(w, device)).get()
    np.testing.assert_array_equal(gen, _generic(k, w))


@pytest.mark.parametrize("shift", [0, 8, 16, 24])
@pytest.mark.parametrize("n", [2, 9, 257, 5000])
def test_forced_ties_in_short_segments(device, shift, n):
    """Segments of about 4 entries (the high bits), each with only 4 low values:
    most keys tie with another of their segment; the placement orders the
    segment by the full key and each run of equal keys by w."""
    rng = np.random.default_rng(shift * 1000 + n)
    nseg = max(1, min(n // 4, (1 << (32 - shift)) - 1))
    seg = rng.integers(0, nseg, n, dtype=np.uint64)
    low = rng.integers(0, 4, n, dtype=np.uint64)
    k = ((seg << np.uint64(shift)) | low).astype(np.uint32) if shift else \
        rng.integers(0, max(1, n // 2), n).astype(np.uint32)
    w = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    # a segment may exceed SEG_MAX only for tiny nseg; none do at these sizes
    assert _check(k, w, shift, device) == 0


def test_all_keys_equal_up_to_the_segment_limit(device):
    rng = np.random.default_rng(3)
    for n in (2, 63, SEG_MAX):
        k = np.full(n, 12345, dtype=np.uint32)
        w = rng.permutation(n).astype(np.uint32) * 3  # distinct
        _check(k, w, 0, device, expect_tied=0)
    # one segment of SEG_MAX + 1 (equal keys, or distinct keys of equal high bits)
    k = np.full(SEG_MAX + 1, 7, dtype=np.uint32)
    _check(k, np.arange(SEG_MAX + 1), 0, device, expect_tied=1)
    _check(np.arange(SEG_MAX + 1), np.zeros(SEG_MAX + 1), 8, device, expect_tied=1)
    _check(np.arange(SEG_MAX), np.zeros(SEG_MAX), 8, device, expect_tied=0)
    # long segments elsewhere than at the start: a long one in the middle
    k = np.concatenate([np.arange(10) << 8, np.full(100, 20 << 8),
                        np.arange(30, 40) << 8]).astype(np.uint32)
    _check(k, np.arange(k.size), 8, device, expect_tied=1)


def test_ties_in_w(device):
    # equal keys with equal w: tied
    _check([5, 5, 9], [1, 1, 0], 0, device, expect_tied=1)
    _check([9, 5, 5], [4, 4, 0], 16, device, expect_tied=1)  # key 5 at slots 0, 1
    # equal w for different keys does not matter
    _check([3, 1, 2, 0], [0, 0, 0, 0], 0, device, expect_tied=0)
    _check([4, 4, 1], [2, 2, 7], 0, device, expect_tied=0)  # key 4 at slots 1, 2
    # few w values: most runs tie in w
    rng = np.random.default_rng(5)
    k = rng.integers(0, 50, 2000).astype(np.uint32)
    _check(k, rng.integers(0, 2, 2000), 0, device, expect_tied=1)


def test_run_order_is_uniform(device):
    """Four equal keys: the order is w's, so over random w all 24 orders come
    equally often (chi-square, deterministic for the seed)."""
    rng = np.random.default_rng(11)
    trials = 2400
    ks = _u32(np.full(4, 99), device)
    code = np.empty(trials, dtype=np.int64)
    for t in range(trials):
        w = rng.integers(0, 2**32, 4, dtype=np.uint64).astype(np.uint32)
        perm, tied = _core._perm_sort(ks, _u32(w, device), 0)
        assert int(tied) == 0
        code[t] = perm.get() @ np.array([64, 16, 4, 1])
    _, counts = np.unique(code, return_counts=True)
    assert counts.size == 24
    assert stats.chisquare(counts).pvalue > ALPHA


def test_keys_and_words_are_not_modified(device):
    rng = np.random.default_rng(1)
    k = rng.integers(0, 2**32, 3000, dtype=np.uint64).astype(np.uint32)
    w = rng.integers(0, 2**32, 3000, dtype=np.uint64).astype(np.uint32)
    ka, wa = _u32(k, device), _u32(w, device)
    _core._perm_sort(ka, wa, 16)
    np.testing.assert_array_equal(ka.get(), k)
    np.testing.assert_array_equal(wa.get(), w)
    # views (the halves of one draw, as _perm passes them)
    kw = _u32(np.concatenate([k, w]), device)
    perm, tied = _core._perm_sort(kw[:3000], kw[3000:], 16)
    assert int(tied) == 0
    np.testing.assert_array_equal(perm.get(), _generic(k, w))


def test_perm_sort_bad_arguments(device):
    k = _u32(np.arange(10), device)
    with pytest.raises(ValueError):
        _core._perm_sort(k, _u32(np.arange(9), device), 0)  # sizes differ
    with pytest.raises(ValueError):
        _core._perm_sort(k.astype(np.int32), k, 0)
    with pytest.raises(ValueError):
        _core._perm_sort(k, k, 25)
    with pytest.raises(ValueError):
        _core._perm_sort(k, k, -1)
    with pytest.raises(ValueError):
        _core._perm_sort(k[:1], k[:1], 0)  # fewer than 2
    with pytest.raises(ValueError):
        _core._perm_sort(k.reshape(2, 5), k.reshape(2, 5), 0)
    with pytest.raises(ValueError):
        _core._perm_sort(k[::2], k[::2], 0)  # not contiguous
    with pytest.raises(TypeError):
        _core._perm_sort(k, k)
    other = "cuda:0" if device == "cpu" else "cpu"
    if ca.cuda.device_count() > 0:
        with pytest.raises(ValueError):
            _core._perm_sort(k, _u32(np.arange(10), other), 0)


def test_perm_shift():
    # shift 0 (measured, see _PERM_SHIFT); the other shifts stay covered by the
    # tests that pass them to _perm_sort directly
    assert G._PERM_SHIFT == 0


@pytest.mark.parametrize("n", [2, 3, 1000, 4097, 1 << 20])
def test_permutation_is_the_definition_of_its_words(device, n):
    """permutation(n) = the generic path on the generator's 2n words."""
    kw = ca.random.default_rng(n + 3)._words32(2 * n, device)
    g = ca.random.default_rng(n + 3)
    expect = g._perm_generic(kw[:n], kw[n:]).get()
    np.testing.assert_array_equal(
        ca.random.default_rng(n + 3).permutation(n, device=device).get(), expect)


def test_fallback_when_the_placement_gives_up(device, monkeypatch):
    """A shift far too high for n (segments of ~120 entries, over SEG_MAX): the
    primitive says tied and _perm takes the generic path, with the same result
    as the generic path on the same words."""
    n = 30000
    monkeypatch.setattr(G, "_PERM_SHIFT", 24)
    kw = ca.random.default_rng(8)._words32(2 * n, device)
    _, tied = _core._perm_sort(kw[:n], kw[n:], 24)
    assert int(tied) == 1
    p = ca.random.default_rng(8).permutation(n, device=device).get()
    expect = ca.random.default_rng(8)._perm_generic(kw[:n], kw[n:]).get()
    np.testing.assert_array_equal(p, expect)
    np.testing.assert_array_equal(np.sort(p), np.arange(n))


@requires_gpu
def test_perm_sort_same_on_cpu_and_gpu():
    rng = np.random.default_rng(4)
    for n, shift, hi in ((5000, 8, 2**12), (100000, 16, 2**20), (70, 0, 3),
                         (1 << 20, 8, 2**32)):
        k = rng.integers(0, hi, n, dtype=np.uint64).astype(np.uint32)
        w = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
        a, ta = _core._perm_sort(_u32(k, "cpu"), _u32(w, "cpu"), shift)
        b, tb = _core._perm_sort(_u32(k, "cuda:0"), _u32(w, "cuda:0"), shift)
        assert int(ta) == int(tb)
        if not int(ta):
            np.testing.assert_array_equal(a.get(), b.get())


@requires_gpu
def test_perm_sort_on_a_user_stream():
    """The primitive runs on the current stream: work queued after it on the
    same non-blocking stream sees the permutation."""
    n = 1 << 22
    kw = ca.random.default_rng(9)._words32(2 * n, "cuda:0")
    expect = _generic(kw[:n].get(), kw[n:].get())
    s = ca.cuda.Stream(non_blocking=True)
    with s:
        perm, tied = _core._perm_sort(kw[:n], kw[n:], G._PERM_SHIFT)
        twice = perm * 2
    s.synchronize()
    assert int(tied) == 0
    np.testing.assert_array_equal(twice.get(), 2 * expect)
