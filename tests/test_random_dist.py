"""cuarray.random's distributions against the exact distributions (SciPy):
Kolmogorov-Smirnov for the continuous ones, chi-square for the discrete ones,
moments; broadcasting, size and dtype; reproducibility and spawned streams; bad
parameters (NumPy's exceptions); the cpu device and a GPU give the same samples."""

import math

import numpy as np
import pytest
from scipy import stats

import cuarray as ca
from conftest import requires_gpu

N = 20000
ALPHA = 1e-4  # the seeds are fixed: a p-value this small means a wrong distribution


def draw(device, method, *args, seed=12345, size=N, **kw):
    g = ca.random.default_rng(seed)
    return getattr(g, method)(*args, size=size, device=device, **kw).get()


# method, args, the SciPy distribution
CONTINUOUS = [
    ("exponential", (2.0,), stats.expon(scale=2.0)),
    ("standard_exponential", (), stats.expon()),
    ("gumbel", (1.0, 2.0), stats.gumbel_r(loc=1.0, scale=2.0)),
    ("laplace", (1.0, 2.0), stats.laplace(loc=1.0, scale=2.0)),
    ("logistic", (1.0, 2.0), stats.logistic(loc=1.0, scale=2.0)),
    ("lognormal", (0.5, 0.7), stats.lognorm(s=0.7, scale=math.exp(0.5))),
    ("pareto", (3.0,), stats.lomax(c=3.0)),
    ("power", (2.5,), stats.powerlaw(a=2.5)),
    ("rayleigh", (2.0,), stats.rayleigh(scale=2.0)),
    ("weibull", (1.5,), stats.weibull_min(c=1.5)),
    ("standard_cauchy", (), stats.cauchy()),
    ("triangular", (0.0, 1.0, 3.0), stats.triang(c=1 / 3, loc=0.0, scale=3.0)),
    ("uniform", (-1.0, 3.0), stats.uniform(loc=-1.0, scale=4.0)),
    ("normal", (1.0, 3.0), stats.norm(loc=1.0, scale=3.0)),
    ("standard_gamma", (0.5,), stats.gamma(0.5)),
    ("standard_gamma", (3.7,), stats.gamma(3.7)),
    ("gamma", (2.5, 2.0), stats.gamma(2.5, scale=2.0)),
    ("beta", (0.5, 0.7), stats.beta(0.5, 0.7)),
    ("beta", (2.0, 5.0), stats.beta(2.0, 5.0)),
    ("chisquare", (3.0,), stats.chi2(3.0)),
    ("f", (5.0, 7.0), stats.f(5.0, 7.0)),
    ("standard_t", (4.0,), stats.t(4.0)),
    ("noncentral_chisquare", (3.0, 2.0), stats.ncx2(3.0, 2.0)),
    ("noncentral_chisquare", (0.5, 2.0), stats.ncx2(0.5, 2.0)),
    ("noncentral_f", (5.0, 7.0, 2.0), stats.ncf(5.0, 7.0, 2.0)),
    ("vonmises", (0.0, 2.0), stats.vonmises(2.0)),
    ("vonmises", (0.0, 0.3), stats.vonmises(0.3)),
    ("wald", (2.0, 3.0), stats.invgauss(mu=2.0 / 3.0, scale=3.0)),
]

DISCRETE = [
    ("poisson", (0.5,), stats.poisson(0.5)),
    ("poisson", (4.0,), stats.poisson(4.0)),
    ("poisson", (30.0,), stats.poisson(30.0)),
    ("poisson", (1000.0,), stats.poisson(1000.0)),
    ("binomial", (20, 0.3), stats.binom(20, 0.3)),
    ("binomial", (1000, 0.4), stats.binom(1000, 0.4)),
    ("binomial", (100, 0.9), stats.binom(100, 0.9)),
    ("negative_binomial", (3.0, 0.4), stats.nbinom(3.0, 0.4)),
    ("geometric", (0.2,), stats.geom(0.2)),
    ("hypergeometric", (30, 20, 15), stats.hypergeom(50, 30, 15)),
    ("hypergeometric", (500, 800, 600), stats.hypergeom(1300, 500, 600)),
    ("logseries", (0.8,), stats.logser(0.8)),
    ("zipf", (2.5,), stats.zipf(2.5)),
]


def _id(case):
    return f"{case[0]}{case[1]}"


def chi2_pvalue(x, dist):
    """Pearson's chi-square of integer samples against a pmf, cells with at least
    5 expected samples (the tails lumped)."""
    x = np.asarray(x)
    lo, hi = int(x.min()), int(x.max())
    ks = np.arange(lo, hi + 1)
    counts = np.bincount(x - lo, minlength=ks.size).astype(float)
    expected = dist.pmf(ks) * x.size
    below, above = dist.cdf(lo - 1) * x.size, dist.sf(hi) * x.size
    cells_o, cells_e = [], []
    acc_o, acc_e = 0.0, below
    for o, e in zip(counts, expected):
        acc_o += o
        acc_e += e
        if acc_e >= 5:
            cells_o.append(acc_o)
            cells_e.append(acc_e)
            acc_o = acc_e = 0.0
    cells_o[-1] += acc_o
    cells_e[-1] += acc_e + above
    o, e = np.array(cells_o), np.array(cells_e)
    stat = float(((o - e) ** 2 / e).sum())
    return stats.chi2.sf(stat, len(o) - 1)


# ----------------------------------------------------------------- distributions
@pytest.mark.parametrize("case", CONTINUOUS, ids=_id)
def test_continuous_ks_and_moments(device, case):
    method, args, dist = case
    x = draw(device, method, *args)
    assert x.dtype == np.float64 and x.shape == (N,)
    assert np.all(np.isfinite(x))
    assert stats.kstest(x, dist.cdf).pvalue > ALPHA
    mean, var = dist.stats(moments="mv")
    if np.isfinite(mean) and np.isfinite(var) and method not in ("standard_cauchy",):
        assert abs(x.mean() - mean) < 6 * math.sqrt(var / N)


@pytest.mark.parametrize("case", CONTINUOUS, ids=_id)
def test_continuous_float32(device, case):
    method, args, dist = case
    x = draw(device, method, *args, dtype=np.float32, size=8000)
    assert x.dtype == np.float32
    assert np.all(np.isfinite(x))
    assert stats.kstest(x.astype(np.float64), dist.cdf).pvalue > ALPHA


@pytest.mark.parametrize("case", DISCRETE, ids=_id)
def test_discrete_chi2_and_moments(device, case):
    method, args, dist = case
    x = draw(device, method, *args)
    assert x.dtype == np.int64 and x.shape == (N,)
    assert x.min() >= dist.support()[0]
    assert chi2_pvalue(x, dist) > ALPHA
    mean, var = dist.stats(moments="mv")
    if np.isfinite(var):
        assert abs(x.mean() - mean) < 6 * math.sqrt(var / N)


def test_support_edges(device):
    g = ca.random.default_rng(5)
    kw = dict(size=1000, device=device)
    assert np.all(g.random(dtype=np.float32, **kw).get() < 1)
    w = g.power(1e-3, **kw).get()
    assert np.all((w >= 0) & (w <= 1))
    assert np.all(g.weibull(0.0, **kw).get() == 0)
    assert np.all(g.standard_gamma(0.0, **kw).get() == 0)
    assert np.all(g.poisson(0.0, **kw).get() == 0)
    assert np.all(g.binomial(0, 0.5, **kw).get() == 0)
    assert np.all(g.binomial(7, 1.0, **kw).get() == 7)
    assert np.all(g.binomial(7, 0.0, **kw).get() == 0)
    assert np.all(g.geometric(1.0, **kw).get() == 1)
    assert np.all(g.logseries(0.0, **kw).get() == 1)
    assert np.all(g.negative_binomial(3, 1.0, **kw).get() == 0)
    h = g.hypergeometric(5, 0, 3, **kw).get()
    assert np.all(h == 3)
    v = g.vonmises(3.0, 0.0, **kw).get()
    assert np.all(np.abs(v) <= np.pi)
    v = g.vonmises(3.0, 1e7, **kw).get()
    assert np.all(np.abs(v) <= np.pi) and abs(np.median(v) - 3.0) < 0.01
    t = g.triangular(1.0, 1.0, 2.0, **kw).get()
    assert np.all((t >= 1) & (t <= 2))
    b = g.beta(1e-3, 1e-3, **kw).get()
    assert np.all((b >= 0) & (b <= 1))


def test_large_binomial_and_poisson_means(device):
    g = ca.random.default_rng(9)
    x = g.binomial(10**12, 0.25, size=4000, device=device).get()
    sd = math.sqrt(10**12 * 0.25 * 0.75)
    assert abs(x.mean() - 0.25e12) < 6 * sd / math.sqrt(4000)
    assert abs(x.std() / sd - 1) < 0.1
    y = g.poisson(1e10, size=4000, device=device).get()
    assert abs(y.mean() - 1e10) < 6 * 1e5 / math.sqrt(4000)


# ------------------------------------------------------------------ broadcasting
def test_broadcast_parameters(device):
    g = ca.random.default_rng(3)
    loc = np.array([0.0, 10.0, 100.0])
    scale = np.array([[1.0], [2.0]])
    x = g.normal(loc, scale, size=(4000, 2, 3), device=device).get()
    assert x.shape == (4000, 2, 3)
    np.testing.assert_allclose(x.mean(axis=0), np.broadcast_to(loc, (2, 3)), atol=0.2)
    np.testing.assert_allclose(x.std(axis=0), np.broadcast_to(scale, (2, 3)), rtol=0.1)
    y = g.gamma(ca.asarray([[1.0], [5.0]], device=device), [1.0, 2.0, 3.0],
                device=device)
    assert y.shape == (2, 3)
    z = g.poisson([[1.0, 50.0]], size=(3000, 2), device=device).get()
    np.testing.assert_allclose(z.mean(axis=0), [1.0, 50.0], rtol=0.05)
    u = g.uniform([0.0, 10.0], [1.0, 20.0], size=(2000, 2), device=device).get()
    assert np.all((u[:, 0] >= 0) & (u[:, 0] < 1) & (u[:, 1] >= 10) & (u[:, 1] < 20))
    b = g.binomial([10, 20], [[0.5], [0.1]], device=device).get()
    assert b.shape == (2, 2)
    h = g.hypergeometric([10, 20], 5, [3, 4], size=(100, 2), device=device).get()
    assert h.shape == (100, 2) and np.all(h[:, 0] <= 3) and np.all(h[:, 1] <= 4)
    # size must be the broadcast shape (or broadcast the parameters to it)
    with pytest.raises(ValueError):
        g.normal(loc, 1.0, size=(2,), device=device)
    with pytest.raises(ValueError):
        g.normal([1.0, 2.0], [1.0, 2.0, 3.0], device=device)


def test_array_parameters_match_scalar_ones(device):
    """An array parameter of equal entries gives the scalar call's numbers."""
    for method, args in [("gamma", (2.5, 2.0)), ("exponential", (2.0,)),
                         ("poisson", (4.0,)), ("normal", (1.0, 2.0))]:
        a = draw(device, method, *args, size=999)
        b = draw(device, method, *[np.full(999, v) for v in args], size=999)
        np.testing.assert_array_equal(a, b)


def test_integers_array_bounds(device):
    g = ca.random.default_rng(4)
    x = g.integers([0, 10, -5], [5, 12, 5], size=(6000, 3), device=device).get()
    assert x.dtype == np.int64
    for j, (lo, hi) in enumerate([(0, 5), (10, 12), (-5, 5)]):
        assert x[:, j].min() == lo and x[:, j].max() == hi - 1
        counts = np.bincount(x[:, j] - lo)
        assert chi2_pvalue(x[:, j] - lo, stats.randint(0, hi - lo)) > ALPHA, counts
    y = g.integers(0, [3, 255], size=(500, 2), dtype=np.uint8, endpoint=True,
                   device=device).get()
    assert y.dtype == np.uint8 and y[:, 0].max() == 3
    with pytest.raises(ValueError):
        g.integers([0, 5], [1, 5], device=device)
    with pytest.raises(ValueError):
        g.integers(0, [10, 300], dtype=np.uint8, device=device)


# --------------------------------------------------------------- dtype and size
def test_dtypes_and_sizes(device):
    g = ca.random.default_rng(0)
    assert g.gamma(2.0, device=device).shape == ()
    assert g.gamma(2.0, size=(2, 3), dtype=np.float32, device=device).dtype == np.float32
    assert g.poisson(3.0, size=5, dtype=np.int32, device=device).dtype == np.int32
    assert g.binomial(5, 0.5, size=0, device=device).shape == (0,)
    assert g.exponential(size=(0, 3), device=device).shape == (0, 3)
    with pytest.raises(TypeError):
        g.gamma(2.0, dtype=np.int32, device=device)
    with pytest.raises(TypeError):
        g.exponential(size=3, dtype=np.float16, device=device)
    x = g.gamma(2.0, size=7, device=device)
    assert x.device == ca.cuda.Device(device)


def test_prefix_property_of_stream_ops(device):
    for method, args in [("gamma", (0.7,)), ("poisson", (20.0,)), ("beta", (2.0, 3.0)),
                         ("binomial", (50, 0.5))]:
        a = draw(device, method, *args, size=37)
        b = draw(device, method, *args, size=100)
        np.testing.assert_array_equal(a, b[:37])


# ------------------------------------------------------------ reproducibility
ALL_METHODS = [(m, a) for m, a, _ in CONTINUOUS + DISCRETE]


@pytest.mark.parametrize("method,args", ALL_METHODS, ids=[f"{m}{a}" for m, a in
                                                           ALL_METHODS])
def test_seed_reproducibility(device, method, args):
    a = draw(device, method, *args, seed=7, size=50)
    b = draw(device, method, *args, seed=7, size=50)
    c = draw(device, method, *args, seed=8, size=50)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


def test_successive_calls_continue_the_stream(device):
    g = ca.random.default_rng(11)
    a = g.gamma(3.0, size=10, device=device).get()
    b = g.gamma(3.0, size=10, device=device).get()
    whole = ca.random.default_rng(11).gamma(3.0, size=20, device=device).get()
    np.testing.assert_array_equal(np.concatenate([a, b]), whole)


def test_spawned_generators_are_independent(device):
    g = ca.random.default_rng(2024)
    kids = g.spawn(3)
    assert len(kids) == 3 and all(isinstance(k, ca.random.Generator) for k in kids)
    xs = [k.standard_normal(20000, device=device).get() for k in kids]
    xs.append(g.standard_normal(20000, device=device).get())
    for i in range(len(xs)):
        for j in range(i):
            assert abs(np.corrcoef(xs[i], xs[j])[0, 1]) < 5 / math.sqrt(20000)
    # spawning again gives new children; the same seed spawns the same children
    again = g.spawn(1)[0].standard_normal(10, device=device).get()
    assert not np.array_equal(again, xs[0][:10])
    same = ca.random.default_rng(2024).spawn(3)[1].standard_normal(20000, device=device)
    np.testing.assert_array_equal(same.get(), xs[1])
    seq = np.random.SeedSequence(5)
    a = ca.random.default_rng(seq).random(5, device=device).get()
    b = ca.random.default_rng(np.random.SeedSequence(5)).random(5, device=device).get()
    np.testing.assert_array_equal(a, b)


# ------------------------------------------------------------- bad parameters
BAD = [
    ("normal", (0.0, -1.0)), ("exponential", (-1.0,)), ("gumbel", (0.0, -1.0)),
    ("laplace", (0.0, -1.0)), ("logistic", (0.0, -1.0)), ("lognormal", (0.0, -1.0)),
    ("pareto", (0.0,)), ("power", (-1.0,)), ("rayleigh", (-1.0,)), ("weibull", (-1.0,)),
    ("triangular", (2.0, 1.0, 3.0)), ("triangular", (0.0, 4.0, 3.0)),
    ("triangular", (1.0, 1.0, 1.0)), ("standard_gamma", (-1.0,)), ("gamma", (1.0, -1.0)),
    ("beta", (0.0, 1.0)), ("beta", (1.0, -1.0)), ("chisquare", (0.0,)),
    ("f", (1.0, 0.0)), ("standard_t", (0.0,)), ("noncentral_chisquare", (1.0, -1.0)),
    ("noncentral_f", (1.0, 1.0, -1.0)), ("vonmises", (0.0, -1.0)), ("wald", (0.0, 1.0)),
    ("wald", (1.0, 0.0)), ("poisson", (-1.0,)), ("poisson", (np.nan,)),
    ("poisson", (1e19,)), ("binomial", (-1, 0.5)), ("binomial", (10, 1.5)),
    ("binomial", (10, np.nan)), ("negative_binomial", (0.0, 0.5)),
    ("negative_binomial", (1.0, 0.0)), ("geometric", (0.0,)), ("geometric", (1.5,)),
    ("hypergeometric", (1, 1, 3)), ("hypergeometric", (-1, 1, 0)),
    ("logseries", (1.0,)), ("logseries", (-0.1,)), ("zipf", (1.0,)), ("zipf", (np.nan,)),
    ("exponential", ([1.0, -1.0],)), ("gamma", (np.array([[1.0], [-2.0]]),)),
]


@pytest.mark.parametrize("method,args", BAD, ids=[f"{m}{a}" for m, a in BAD])
def test_bad_parameters_raise_like_numpy(device, method, args):
    with pytest.raises(ValueError):
        getattr(np.random.default_rng(0), method)(*args)
    with pytest.raises(ValueError):
        getattr(ca.random.default_rng(0), method)(*args, device=device)
    with pytest.raises(ValueError):
        getattr(ca.random.RandomState(0), method)(*args, device=device)


def test_bad_device_array_parameters(device):
    g = ca.random.default_rng(0)
    with pytest.raises(ValueError, match="scale < 0"):
        g.exponential(ca.asarray([1.0, -2.0], device=device), device=device)
    with pytest.raises(ValueError, match="p < 0, p > 1"):
        g.binomial(3, ca.asarray([0.5, 2.0], device=device), device=device)
    with pytest.raises(TypeError):
        g.gamma([1 + 2j])


# ------------------------------------------------------------------ multivariate
def test_multinomial(device):
    g = ca.random.default_rng(1)
    p = [0.2, 0.3, 0.5]
    x = g.multinomial(100, p, size=5000, device=device).get()
    assert x.shape == (5000, 3) and x.dtype == np.int64
    assert np.all(x.sum(axis=1) == 100)
    np.testing.assert_allclose(x.mean(axis=0), [20, 30, 50], atol=0.3)
    np.testing.assert_allclose(x.var(axis=0), [100 * q * (1 - q) for q in p], rtol=0.1)
    y = g.multinomial([10, 20], [0.5, 0.5], device=device).get()
    assert y.shape == (2, 2) and list(y.sum(axis=1)) == [10, 20]
    with pytest.raises(ValueError):
        g.multinomial(10, [0.7, 0.7, 0.1], device=device)
    with pytest.raises(ValueError):
        g.multinomial(10, [-0.1, 1.1], device=device)
    with pytest.raises(ValueError):
        np.random.default_rng(0).multinomial(10, [-0.1, 1.1])


def test_dirichlet(device):
    g = ca.random.default_rng(2)
    alpha = np.array([1.0, 2.0, 3.0])
    x = g.dirichlet(alpha, size=6000, device=device).get()
    assert x.shape == (6000, 3)
    np.testing.assert_allclose(x.sum(axis=1), 1.0, rtol=1e-12)
    np.testing.assert_allclose(x.mean(axis=0), alpha / alpha.sum(), atol=0.01)
    assert stats.kstest(x[:, 0], stats.beta(1.0, 5.0).cdf).pvalue > ALPHA
    small = g.dirichlet([0.01, 0.02, 0.05], size=4000, device=device).get()
    assert np.all(np.isfinite(small))
    np.testing.assert_allclose(small.sum(axis=1), 1.0, rtol=1e-12)
    np.testing.assert_allclose(small.mean(axis=0), np.array([1, 2, 5]) / 8, atol=0.03)
    with pytest.raises(ValueError):
        g.dirichlet([1.0, -1.0], device=device)


def test_multivariate_normal(device):
    g = ca.random.default_rng(3)
    mean = np.array([1.0, -2.0, 0.5])
    cov = np.array([[2.0, 0.5, 0.1], [0.5, 1.0, -0.3], [0.1, -0.3, 0.7]])
    for method in ("svd", "cholesky", "eigh"):
        x = g.multivariate_normal(mean, cov, size=20000, method=method,
                                  device=device).get()
        assert x.shape == (20000, 3)
        np.testing.assert_allclose(x.mean(axis=0), mean, atol=0.05)
        np.testing.assert_allclose(np.cov(x.T), cov, atol=0.06)
    with pytest.warns(RuntimeWarning):
        g.multivariate_normal([0, 0], [[1, 2], [2, 1]], device=device)
    with pytest.raises(ValueError):
        g.multivariate_normal([0, 0], [[1, 2], [2, 1]], check_valid="raise",
                              device=device)
    with pytest.raises(ValueError):
        g.multivariate_normal([0, 0, 0], np.eye(2), device=device)


def test_multivariate_hypergeometric(device):
    g = ca.random.default_rng(4)
    colors = [10, 5, 20]
    x = g.multivariate_hypergeometric(colors, 12, size=4000, device=device).get()
    assert x.shape == (4000, 3) and np.all(x.sum(axis=1) == 12)
    assert np.all(x <= np.array(colors))
    np.testing.assert_allclose(x.mean(axis=0), 12 * np.array(colors) / 35, atol=0.1)
    with pytest.raises(ValueError):
        g.multivariate_hypergeometric(colors, 40, device=device)


# ----------------------------------------------------- permutations and choice
def test_permutation_is_a_permutation(device):
    g = ca.random.default_rng(6)
    p = g.permutation(1000, device=device).get()
    assert p.dtype == np.int64
    np.testing.assert_array_equal(np.sort(p), np.arange(1000))
    assert not np.array_equal(p, np.arange(1000))
    a = ca.asarray(np.arange(24.0).reshape(6, 4), device=device)
    q = g.permutation(a).get()
    np.testing.assert_array_equal(np.sort(q[:, 0]), np.arange(0, 24, 4))
    np.testing.assert_array_equal(q[:, 1] - q[:, 0], np.ones(6))
    r = g.permutation(a, axis=1).get()
    np.testing.assert_array_equal(np.sort(r, axis=1), a.get())
    assert g.permutation(0, device=device).shape == (0,)


def test_permutations_are_uniform(device):
    """All 24 orders of 4 elements, equally often (permuted: one sort per row)."""
    g = ca.random.default_rng(8)
    rows = 24000
    x = ca.asarray(np.tile(np.arange(4), (rows, 1)), device=device)
    y = g.permuted(x, axis=1).get()
    np.testing.assert_array_equal(np.sort(y, axis=1), np.tile(np.arange(4), (rows, 1)))
    code = y @ np.array([64, 16, 4, 1])
    _, counts = np.unique(code, return_counts=True)
    assert counts.size == 24
    assert stats.chisquare(counts).pvalue > ALPHA
    flat = g.permuted(np.arange(10)).get()
    np.testing.assert_array_equal(np.sort(flat), np.arange(10))


def test_shuffle_in_place(device):
    g = ca.random.default_rng(9)
    a = ca.asarray(np.arange(20.0).reshape(10, 2), device=device)
    g.shuffle(a)
    h = a.get()
    np.testing.assert_array_equal(np.sort(h[:, 0]), np.arange(0, 20, 2))
    np.testing.assert_array_equal(h[:, 1] - h[:, 0], np.ones(10))
    n = np.arange(10)
    g.shuffle(n)
    np.testing.assert_array_equal(np.sort(n), np.arange(10))
    lst = list(range(8))
    ca.random.RandomState(1).shuffle(lst)
    assert sorted(lst) == list(range(8))
    with pytest.raises(TypeError):
        g.shuffle(ca.asarray(1.0, device=device))


def test_choice_with_replacement(device):
    g = ca.random.default_rng(10)
    x = g.choice(5, size=20000, device=device).get()
    assert chi2_pvalue(x, stats.randint(0, 5)) > ALPHA
    p = np.array([0.1, 0.0, 0.6, 0.3])
    y = g.choice(4, size=20000, p=p, device=device).get()
    counts = np.bincount(y, minlength=4)
    assert counts[1] == 0
    assert stats.chisquare(counts[[0, 2, 3]], 20000 * p[[0, 2, 3]]).pvalue > ALPHA
    arr = ca.asarray(np.array([[1, 2], [3, 4], [5, 6]]), device=device)
    z = g.choice(arr, size=(4, 5), device=device)
    assert z.shape == (4, 5, 2)
    w = g.choice(arr, size=3, axis=1, device=device)
    assert w.shape == (3, 3)
    assert g.choice(5, device=device).shape == ()


def test_choice_without_replacement(device):
    g = ca.random.default_rng(11)
    x = g.choice(50, size=50, replace=False, device=device).get()
    np.testing.assert_array_equal(np.sort(x), np.arange(50))
    y = g.choice(100, size=(3, 4), replace=False, device=device).get()
    assert y.shape == (3, 4) and np.unique(y).size == 12
    # weighted: (first, second) pairs have NumPy's sequential probabilities
    p = np.array([0.5, 0.3, 0.2])
    trials = 3000
    pairs = np.array([g.choice(3, size=2, replace=False, p=p, device=device).get()
                      for _ in range(trials)])
    assert np.all(pairs[:, 0] != pairs[:, 1])
    code = pairs[:, 0] * 3 + pairs[:, 1]
    counts = np.bincount(code, minlength=9)
    cells = [(i, j) for i in range(3) for j in range(3) if i != j]
    expect = [trials * p[i] * p[j] / (1 - p[i]) for i, j in cells]
    assert stats.chisquare([counts[i * 3 + j] for i, j in cells], expect).pvalue > ALPHA


@pytest.mark.parametrize("kind", ["gen", "legacy"])
def test_choice_bad_input(device, kind):
    g = ca.random.default_rng(0) if kind == "gen" else ca.random.RandomState(0)
    ref = np.random.default_rng(0) if kind == "gen" else np.random.RandomState(0)
    bad = [dict(a=0, size=1), dict(a=[], size=1), dict(a=3, size=5, replace=False),
           dict(a=3, p=[0.5, 0.6, -0.1]), dict(a=3, p=[0.5, 0.6, 0.1]),
           dict(a=3, size=3, replace=False, p=[1, 0, 0]), dict(a=3, p=[0.5, 0.5]),
           dict(a=-1)]
    for kw in bad:
        with pytest.raises(ValueError) as e_np:
            ref.choice(**kw)
        with pytest.raises(ValueError) as e_ca:
            g.choice(**kw, device=device)
        assert str(e_ca.value).lower()[:20] == str(e_np.value).lower()[:20], kw


# ---------------------------------------------------------------- legacy API
ISSUE_NAMES = """beta binomial bytes chisquare choice dirichlet exponential f gamma
geometric gumbel hypergeometric laplace logistic lognormal logseries multinomial
multivariate_normal negative_binomial noncentral_chisquare noncentral_f normal pareto
permutation poisson power rand randint randn random random_integers random_sample
ranf rayleigh sample shuffle standard_cauchy standard_exponential standard_gamma
standard_normal standard_t triangular uniform vonmises wald weibull zipf
get_random_state set_random_state seed""".split()


def test_every_legacy_function_exists():
    missing = [n for n in ISSUE_NAMES if not callable(getattr(ca.random, n, None))]
    assert not missing
    rs = ca.random.RandomState(0)
    gen = ca.random.default_rng(0)
    for n in ISSUE_NAMES[:-3]:
        if n not in ("ranf", "sample"):
            assert callable(getattr(rs, n)), n
    for n in ["integers", "permuted", "spawn", "bit_generator", "choice", "bytes",
              "multivariate_hypergeometric"]:
        assert hasattr(gen, n), n


def test_legacy_module_functions(device):
    ca.random.seed(5)
    a = ca.random.gamma(2.0, size=10, device=device).get()
    ca.random.seed(5)
    b = ca.random.gamma(2.0, size=10, device=device).get()
    np.testing.assert_array_equal(a, b)
    old = ca.random.get_random_state()
    try:
        rs = ca.random.RandomState(5)
        ca.random.set_random_state(rs)
        assert ca.random.get_random_state() is rs
        c = ca.random.gamma(2.0, size=10, device=device).get()
        np.testing.assert_array_equal(a, c)
    finally:
        ca.random.set_random_state(old)
    with pytest.raises(TypeError):
        ca.random.set_random_state(3)
    with pytest.warns(DeprecationWarning):
        r = ca.random.random_integers(1, 6, size=2000, device=device).get()
    assert r.min() == 1 and r.max() == 6
    assert len(ca.random.bytes(10)) == 10
    assert ca.random.ranf(3, device=device).shape == (3,)
    assert ca.random.sample(3, device=device).shape == (3,)
    st = ca.random.RandomState(1)
    s = st.get_state()
    u = st.poisson(5.0, 20, device=device).get()
    st.set_state(s)
    np.testing.assert_array_equal(u, st.poisson(5.0, 20, device=device).get())
    with pytest.raises(ValueError):
        st.hypergeometric(5, 5, 0, device=device)


# ------------------------------------------------------ the same on both devices
SAME = ([(c, np.float64) for c in CONTINUOUS + DISCRETE] +
        [(c, np.float32) for c in CONTINUOUS])


@requires_gpu
@pytest.mark.parametrize("case,dtype", SAME,
                         ids=[f"{_id(c)}-{np.dtype(t).name}" for c, t in SAME])
def test_cpu_and_gpu_give_the_same_samples(case, dtype):
    """Our Philox on both devices: transforms equal to a few units in the last
    place (libm vs CUDA's log/exp/sin), discrete samples equal except where such a
    difference flips a rejection test."""
    method, args, _ = case
    discrete = case in DISCRETE
    kw = {} if discrete else dict(dtype=dtype)
    c = draw("cpu", method, *args, size=4099, **kw)
    d = draw("cuda:0", method, *args, size=4099, **kw)
    assert c.dtype == d.dtype
    if discrete:
        assert np.mean(c == d) > 0.995
    else:
        close = np.isclose(c, d, rtol=1e-4 if dtype == np.float32 else 1e-9, atol=0)
        assert np.mean(close) > 0.995


@requires_gpu
def test_gpu_parameters_from_another_stream_and_pending_work():
    """Array parameters computed by deferred element-wise work on the GPU (fusion)
    reach the kernel: the launch layer flushes before it."""
    g = ca.random.default_rng(1)
    base = ca.asarray(np.linspace(1.0, 5.0, 1 << 20), device="cuda:0")
    lam = base * 2.0 + 1.0  # may be a pending (fused) array
    x = g.poisson(lam, device="cuda:0").get()
    ref = ca.random.default_rng(1).poisson((base * 2.0 + 1.0).get(), device="cuda:0")
    np.testing.assert_array_equal(x, ref.get())
    assert abs(x.mean() - 7.0) < 0.05


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda:0", marks=requires_gpu)])
@pytest.mark.parametrize("low,high", [(1.0, 0.0), ([0.0, 1.0], 0.5), (0.0, [1.0, -1.0]),
                                      (0.0, np.inf), (np.nan, 1.0), (0.0, [1.0, 2.0])])
def test_uniform_bounds_as_numpy(device, low, high):
    """Generator.uniform refuses high < low (ValueError) and a range that is not
    finite (OverflowError); RandomState.uniform takes high < low, as NumPy's."""
    def params(x):
        return ca.asarray(np.asarray(x), device=device) if isinstance(x, list) else x
    for np_gen, ca_gen in ((np.random.default_rng(0), ca.random.default_rng(0)),
                           (np.random.RandomState(0), ca.random.RandomState(0))):
        try:
            want = np_gen.uniform(low, high, size=2)
        except (ValueError, OverflowError) as e:
            with pytest.raises(type(e)):
                ca_gen.uniform(params(low), params(high), size=2, device=device)
            continue
        got = ca_gen.uniform(params(low), params(high), size=2, device=device)
        assert got.shape == want.shape and got.dtype == want.dtype
        lo, hi = np.broadcast_arrays(np.asarray(low, float), np.asarray(high, float))
        g = got.get()
        assert np.all((g >= np.minimum(lo, hi)) & (g <= np.maximum(lo, hi)))
