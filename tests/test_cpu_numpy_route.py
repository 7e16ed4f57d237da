"""The cpu device hands unique, isin, histogram, histogram_bin_edges, quantile,
percentile, nanquantile, nanpercentile, nan_to_num, interp, convolve and correlate
to NumPy's own routines on zero-copy views where that was measured faster: which
cases go (a spy records NumPy's calls), and that the results are NumPy's bits as
cpu-device arrays of cuarray's types. The comparisons with NumPy on both routes
are in test_sets.py, test_statistics.py and test_statistics_extra.py (np_route)."""

import warnings

import numpy as np
import pytest

import cuarray as ca
from cuarray import _sets, _statistics, _statistics_extra
from conftest import requires_gpu

N = 1 << 14  # past every size threshold


@pytest.fixture
def spy(monkeypatch):
    """spy(name): wrap numpy.name so that each call is recorded; the record."""
    for mod in (_sets, _statistics, _statistics_extra):
        monkeypatch.setattr(mod, "CPU_NUMPY", True)
    record = []

    def watch(*names):
        for name in names:
            real = getattr(np, name)

            def spying(*args, _real=real, _name=name, **kw):
                record.append(_name)
                return _real(*args, **kw)

            monkeypatch.setattr(np, name, spying)
        return record

    return watch


def cpu(a):
    return ca.asarray(a, device="cpu")


def exact(got, want):
    """A cuarray array on the cpu device holding NumPy's result to the bit."""
    assert isinstance(got, ca.ndarray) and got.device.id < 0
    want = np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (got, want)
    assert np.asarray(got).tobytes() == want.tobytes()


def test_unique_routes(spy):
    rng = np.random.default_rng(1)
    f = rng.standard_normal(N).astype(np.float32)
    f[::7] = f[::5][:f[::7].size]
    ints = rng.integers(0, 50, N)  # few distinct values: NumPy's hash table
    wide = rng.integers(-2**40, 2**40, N)  # many: NumPy's sort (with counts)
    want = {k: np.unique(v, return_counts=True) for k, v in
            (("f", f), ("i", ints), ("w", wide))}
    rec = spy("unique")
    for k, v in (("f", f), ("i", ints), ("w", wide)):
        x = cpu(v)
        exact(ca.unique(x), want[k][0])
        r = ca.unique(x, return_counts=True)
        assert type(r) is tuple and len(r) == 2
        exact(r[0], want[k][0])
        exact(r[1], want[k][1])
        c = ca.unique_counts(x)
        assert type(c) is _sets.UniqueCountsResult
        exact(c.values, want[k][0])
        exact(c.counts, want[k][1])
        exact(ca.unique_values(x), want[k][0])
    assert rec == ["unique"] * 12
    # index or inverse asked for, small, complex, 2-byte integers: the composition
    x = cpu(ints)
    r = ca.unique(x, return_inverse=True, return_counts=True)
    np.testing.assert_array_equal(np.asarray(r[0])[np.asarray(r[1])], ints)
    ca.unique_all(x)
    ca.unique_inverse(x)
    ca.unique(cpu(f[:100]))
    ca.unique(cpu(f.astype(np.complex64)))
    ca.unique(cpu(ints.astype(np.int16)))
    ca.unique(cpu(ints.reshape(-1, 4)), axis=0)
    assert rec == ["unique"] * 12


def test_isin_routes(spy):
    rng = np.random.default_rng(2)
    e = rng.integers(0, 3000, (N // 64, 64))
    t = np.arange(0, 1000, 7)
    want = np.isin(e, t)
    want_inv = np.isin(e, t, invert=True)
    rec = spy("isin")
    exact(ca.isin(cpu(e), cpu(t)), want)
    exact(ca.isin(cpu(e), cpu(t), invert=True, assume_unique=True, kind="sort"),
          want_inv)
    exact(ca.in1d(cpu(e), cpu(t)), want.reshape(-1))
    exact(ca.isin(cpu(e), t), want)  # a list-like test array goes to the cpu device
    assert rec == ["isin"] * 4
    # floats, a wide test range (NumPy sorts), few elements: the composition
    ca.isin(cpu(e.astype(np.float64)), cpu(t.astype(np.float64)))
    ca.isin(cpu(e), cpu(np.array([0, 2**40])))
    ca.isin(cpu(e[:1]), cpu(t))
    assert rec == ["isin"] * 4
    with pytest.raises(ValueError):
        ca.isin(cpu(e), cpu(t), kind="hash")


def test_histogram_routes(spy):
    rng = np.random.default_rng(3)
    a = rng.standard_normal(N).astype(np.float32)
    w = rng.random(N)
    edges = np.array([-2.0, -0.5, 0.0, 0.1, 3.0])
    want = [np.histogram(a, 50), np.histogram(a, edges, weights=w),
            np.histogram(a, "auto", range=(-1, 1)), np.histogram(a, 7, density=True)]
    want_edges = np.histogram_bin_edges(a, "fd")
    want_w = np.histogram(a, 5, weights=w)[0]
    rec = spy("histogram", "histogram_bin_edges")
    got = [ca.histogram(cpu(a), 50), ca.histogram(cpu(a), cpu(edges), weights=cpu(w)),
           ca.histogram(cpu(a), "auto", range=(-1, 1)),
           ca.histogram(cpu(a), 7, density=True)]
    for g, wnt in zip(got, want):
        assert type(g) is tuple and len(g) == 2
        exact(g[0], wnt[0])
        exact(g[1], wnt[1])
    exact(ca.histogram_bin_edges(cpu(a), "fd"), want_edges)
    assert rec == ["histogram"] * 4 + ["histogram_bin_edges"]
    # weights of another shape but a's size: accepted, as by the composition
    g = ca.histogram(cpu(a), 5, weights=cpu(w.reshape(-1, 2)))
    exact(g[0], want_w)
    ca.histogram(cpu(a[:100]), 5)  # small: the composition
    assert rec.count("histogram") == 5
    with pytest.raises(TypeError):
        ca.histogram(cpu(a), "auto", weights=cpu(w))


@pytest.mark.parametrize("fn", ["quantile", "percentile", "nanquantile",
                                "nanpercentile"])
def test_quantile_routes(spy, fn):
    rng = np.random.default_rng(4)
    m = rng.standard_normal((4, N // 4)).astype(np.float32)  # rows past NAN_ROW_MIN
    m[1, ::3] = np.nan
    m[2] = np.nan  # an all-NaN row: NaN, no warning
    scale = 100 if "percentile" in fn else 1
    cases = [dict(q=0.3 * scale), dict(q=[0.1 * scale, 0.9 * scale], axis=1),
             dict(q=np.float64(0.5 * scale), axis=(0, 1), keepdims=True),
             dict(q=0.25 * scale, axis=1, method="nearest")]
    want = [getattr(np, fn)(m, **k) for k in cases]
    qs = [0.2 * scale, 0.7 * scale]
    want_out = getattr(np, fn)(m, qs, axis=1).astype(np.float32)
    rec = spy(fn)
    x = cpu(m)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # NumPy's all-NaN slice warning is held back
        got = [getattr(ca, fn)(x, **k) for k in cases]
    for g, w in zip(got, want):
        exact(g, w)
    assert rec == [fn] * len(cases)
    out = ca.empty((2, 4), dtype=np.float32, device="cpu")
    r = getattr(ca, fn)(x, qs, axis=1, out=out, overwrite_input=True)
    assert r is out
    exact(out, want_out)
    np.testing.assert_array_equal(np.asarray(x), m)  # the input is left as it was
    # short rows (nan- forms), few elements, weights: the composition
    n = len(rec)
    getattr(ca, fn)(cpu(m[:, :100]), 0.5 * scale)
    getattr(ca, fn)(cpu(m[::3, :300]), 0.5 * scale, axis=1,
                    weights=cpu(np.ones((2, 300))), method="inverted_cdf")
    if fn.startswith("nan"):
        getattr(ca, fn)(cpu(m.reshape(-1, 64)), 0.5 * scale, axis=1)
    assert len(rec) == n
    with pytest.raises(ValueError):
        getattr(ca, fn)(x, 2 * scale)


def test_nan_to_num_routes(spy):
    a = np.linspace(-1, 1, N).astype(np.float32)
    a[::5], a[1::7], a[2::11] = np.nan, np.inf, -np.inf
    c = (a + 1j * a[::-1]).astype(np.complex64)
    want = [np.nan_to_num(a), np.nan_to_num(a, nan=-1.5, posinf=9, neginf=-9),
            np.nan_to_num(c)]
    rec = spy("nan_to_num")
    exact(ca.nan_to_num(cpu(a)), want[0])
    exact(ca.nan_to_num(cpu(a), nan=-1.5, posinf=9, neginf=-9), want[1])
    exact(ca.nan_to_num(cpu(c)), want[2])
    x = cpu(a.copy())
    assert ca.nan_to_num(x, copy=False) is x
    exact(x, want[0])
    assert rec == ["nan_to_num"] * 4
    ca.nan_to_num(cpu(a[:10]))  # small: the composition
    ca.nan_to_num(cpu(np.arange(N)))  # integers: a copy
    assert rec == ["nan_to_num"] * 4


def test_interp_routes(spy):
    rng = np.random.default_rng(5)
    x = rng.uniform(-4, 4, N).astype(np.float32)
    xp, fp = np.linspace(-3, 3, 100), np.linspace(0, 1, 100)
    cfp = fp + 1j * fp[::-1]
    want = [np.interp(x, xp, fp), np.interp(x, xp, cfp, left=2j, right=-1),
            np.interp(2.5, xp, fp), np.interp(x, xp[::-1] % 2, fp, period=2)]
    rec = spy("interp")
    exact(ca.interp(cpu(x), cpu(xp), cpu(fp)), want[0])
    exact(ca.interp(cpu(x), xp, cpu(cfp), left=2j, right=-1), want[1])
    exact(ca.interp(2.5, cpu(xp), cpu(fp)), want[2])  # a 0-d array
    exact(ca.interp(cpu(x), cpu(xp[::-1] % 2), cpu(fp), period=2), want[3])
    assert rec == ["interp"] * 4
    for bad in (dict(xp=xp[:5]), dict(xp=xp[:0], fp=fp[:0]), dict(period=0)):
        k = dict(xp=xp, fp=fp)
        k.update(bad)
        with pytest.raises(ValueError):
            ca.interp(cpu(x), cpu(k["xp"]), cpu(k["fp"]), period=k.get("period"))
    assert rec == ["interp"] * 4


def test_convolve_correlate_routes(spy):
    rng = np.random.default_rng(6)
    a = rng.standard_normal(N).astype(np.float32)
    i = rng.integers(-9, 9, 5000)
    want = [np.convolve(a, a[:31]), np.correlate(a, a[:31]),
            np.correlate(a[:31], a, "same"), np.convolve(i, i[:40], "valid")]
    rec = spy("correlate")
    exact(ca.convolve(cpu(a), cpu(a[:31])), want[0])
    exact(ca.correlate(cpu(a), cpu(a[:31])), want[1])
    exact(ca.correlate(cpu(a[:31]), cpu(a), "same"), want[2])
    exact(ca.convolve(cpu(i), cpu(i[:40]), "valid"), want[3])
    assert rec == ["correlate"] * 4
    # long kernels: the composition's FFT is the faster
    assert not _statistics_extra._np_corr_faster(np.dtype(np.float32), 4095, 2048, 2048)
    ca.convolve(cpu(a[:2048]), cpu(a[:2048]))
    assert rec == ["correlate"] * 4
    with pytest.raises(ValueError):
        ca.correlate(cpu(a), cpu(a[:3]), mode="fuller")  # NumPy would take 'full'


def test_flag_off_runs_the_compositions(spy, monkeypatch):
    for mod in (_sets, _statistics, _statistics_extra):
        monkeypatch.setattr(mod, "CPU_NUMPY", False)
    rec = spy("unique", "isin", "histogram", "quantile", "nan_to_num", "interp",
              "correlate")
    a = np.linspace(0, 1, N)
    x = cpu(a)
    ca.unique(x)
    ca.isin(cpu(np.arange(N)), cpu(np.arange(5)))
    ca.histogram(x, 5)
    ca.quantile(x, 0.5)
    ca.nan_to_num(x)
    ca.interp(x, x, x)
    ca.convolve(x, x[:3])
    assert rec == []


@requires_gpu
def test_gpu_arrays_keep_the_compositions(spy):
    rec = spy("unique", "isin", "histogram", "quantile", "nan_to_num", "interp",
              "correlate")
    a = np.linspace(0, 1, N)
    x = ca.asarray(a, device="cuda:0")
    t = ca.arange(5, device="cuda:0")
    for r in (ca.unique(x), ca.isin(x.astype(np.int64), t),
              ca.histogram(x, 5)[0], ca.quantile(x, 0.5), ca.nan_to_num(x),
              ca.interp(x, x, x), ca.convolve(x, x[:3])):
        assert r.device == x.device
    assert rec == []
