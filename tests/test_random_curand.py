"""cuRAND's generators as cuarray.random bit generators: loaded on first use,
their words feed cuarray's transforms (NumPy's ranges, every distribution), on a
GPU and through cuRAND's host generators on the cpu device."""

import subprocess
import sys

import numpy as np
import pytest
from scipy import stats

import cuarray as ca
from conftest import requires_gpu, requires_curand

# MT19937's host generator takes ~30 s to initialize on this 2-core machine: the
# cpu-device tests leave it out, the GPU tests below take it.
PSEUDO = ["XORWOW", "MRG32k3a", "MTGP32", "Philox4_32_10"]
QUASI = ["Sobol32", "ScrambledSobol32", "Sobol64", "ScrambledSobol64"]
ALPHA = 1e-4


def gen(kind, seed=1234):
    return ca.random.Generator(getattr(ca.random, kind)(seed))


def test_curand_not_loaded_at_import():
    code = ("import cuarray, cuarray.random as r; r.XORWOW(1); "
            "print(cuarray._core.CurandGenerator.library_path())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "None"


@pytest.mark.parametrize("kind", PSEUDO)
@requires_curand
def test_pseudo_uniform_and_normal(device, kind):
    g = gen(kind)
    u = g.random(20000, device=device).get()
    assert u.dtype == np.float64 and u.min() >= 0 and u.max() < 1
    assert stats.kstest(u, "uniform").pvalue > ALPHA
    f = g.random(20000, dtype=np.float32, device=device).get()
    assert f.dtype == np.float32 and f.max() < 1
    assert stats.kstest(f.astype(np.float64), "uniform").pvalue > ALPHA
    z = g.standard_normal(20000, device=device).get()
    assert stats.kstest(z, "norm").pvalue > ALPHA
    x = g.gamma(2.5, size=20000, device=device).get()
    assert stats.kstest(x, stats.gamma(2.5).cdf).pvalue > ALPHA
    k = g.poisson(4.0, size=20000, device=device).get()
    assert abs(k.mean() - 4.0) < 6 * np.sqrt(4.0 / 20000)
    i = g.integers(0, 10, size=20000, device=device).get()
    assert i.min() == 0 and i.max() == 9
    assert stats.chisquare(np.bincount(i, minlength=10)).pvalue > ALPHA
    p = g.permutation(100, device=device).get()
    np.testing.assert_array_equal(np.sort(p), np.arange(100))


@pytest.mark.parametrize("kind", PSEUDO)
@requires_curand
def test_pseudo_reproducible_and_seeded(device, kind):
    a = gen(kind, 7).random(100, device=device).get()
    g = gen(kind, 7)
    b = g.random(100, device=device).get()
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(b, g.random(100, device=device).get())
    if kind != "MRG32k3a":  # (slow to initialize on the host)
        c = gen(kind, 8).random(100, device=device).get()
        assert not np.array_equal(a, c)


@requires_gpu
def test_mt19937_on_a_gpu():
    g = gen("MT19937")
    u = g.random(20000, device="cuda:0").get()
    assert u.min() >= 0 and u.max() < 1
    assert stats.kstest(u, "uniform").pvalue > ALPHA
    z = g.standard_normal(20000, device="cuda:0").get()
    assert stats.kstest(z, "norm").pvalue > ALPHA


@pytest.mark.parametrize("kind", QUASI)
@requires_curand
def test_quasi_low_discrepancy(device, kind):
    g = gen(kind)
    n = 4096
    for dt in (np.float64, np.float32):
        u = g.random(n, dtype=dt, device=device).get().astype(np.float64)
        assert u.min() >= 0 and u.max() < 1
        # a (0, 1)-sequence: n = 2**12 points put about n/64 in each of 64 bins;
        # pseudo-random points would scatter by sqrt(n/64) = 8
        counts = np.histogram(u, bins=64, range=(0, 1))[0]
        assert np.abs(counts - n / 64).max() <= 2, counts
    e = g.exponential(2.0, size=n, device=device).get()
    assert stats.kstest(e, stats.expon(scale=2.0).cdf).statistic < 0.01
    with pytest.raises(ValueError, match="quasi-random"):
        g.standard_normal(10, device=device)
    with pytest.raises(ValueError, match="quasi-random"):
        g.gamma(2.0, size=10, device=device)


@requires_curand
def test_sobol32_is_cuRANDs_sequence(device):
    """The first points of the one-dimensional Sobol sequence (van der Corput in
    base 2): 0, 1/2, 3/4, 1/4, ... in cuRAND's (Gray code) order."""
    w = ca.random.Sobol32().random_raw(8, device=device).get()
    u = w / 2.0**32
    assert sorted(u.tolist()) == sorted(np.arange(8) / 8)


@pytest.mark.parametrize("kind", [pytest.param("XORWOW", marks=requires_curand), "Sobol32"])
def test_spawn_and_repr(kind):
    g = gen(kind)
    kids = g.spawn(2)
    assert all(type(k.bit_generator).__name__ == kind for k in kids)
    assert kind in repr(g)
    if kind == "XORWOW":
        a, b = (k.random(1000, device="cpu").get() for k in kids)
        assert abs(np.corrcoef(a, b)[0, 1]) < 0.2


@requires_gpu
@pytest.mark.parametrize("kind", ["Sobol32", "Sobol64"])
def test_host_and_device_generators_agree(kind):
    """The Sobol sequences are the same on cuRAND's host and device generators."""
    h = getattr(ca.random, kind)(99).random_raw(1024, device="cpu").get()
    d = getattr(ca.random, kind)(99).random_raw(1024, device="cuda:0").get()
    np.testing.assert_array_equal(h, d)


@requires_gpu
def test_curand_on_a_stream():
    s = ca.cuda.Stream()
    g = gen("XORWOW")
    with s:
        x = g.random(1 << 20, device="cuda:0")
    s.synchronize()
    v = x.get()
    assert v.min() >= 0 and v.max() < 1 and abs(v.mean() - 0.5) < 0.01


@requires_curand
def test_bad_kind():
    with pytest.raises(ValueError):
        ca._core.CurandGenerator("NotAGenerator", "cpu")
