"""The distributions of cuarray.random's Generator and RandomState: every one is a
kernel launch of the ``_dist`` primitive (csrc/ops/random.c over
kernels/shared/random_dist.h) on the current stream, or a short composition of such
draws with cuarray's array functions; each docstring names its method. The
permutations and the Generator class itself are in _generator.py.
"""

import warnings

import numpy as _np

import cuarray as _ca

from .. import _core
from . import _params as P
from ._params import _F32, _F64, _I64, _OPS

_CoreGenerator = _core.Generator


def _is_scalar(x):
    return isinstance(x, float)


def _is_bf16(dtype):
    """dtype= names ml_dtypes' bfloat16: drawn in float32, then rounded once (a
    uniform in [0, 1) truncated, so it stays below 1)."""
    if isinstance(dtype, str):
        return dtype == "bfloat16"
    return getattr(dtype, "name", getattr(dtype, "__name__", None)) == "bfloat16"


class _Draws:
    """The distributions shared by Generator and RandomState (a mixin over
    _core.Generator); _generator._Distributions adds the permutations."""

    __slots__ = ()

    # ------------------------------------------------------------- the primitive
    def _external(self):
        bg = getattr(self, "_bitgen", None)
        return bg if bg is not None and bg._external else None

    def _words(self, op, n, dtype, device):
        """The words of a draw from a cuRAND bit generator, or None for Philox."""
        bg = self._external()
        if bg is None or n == 0:
            return None
        if op >= _OPS["gamma"]:
            kind = "stream"
        elif op in (_OPS["normal"], _OPS["lognormal"]):
            kind = "normal"
        else:
            kind = "transform"
        return bg._words(kind, n, dtype == _F32, device)

    def _bits64(self, shape, dev, what="integers"):
        """Uniform 64-bit words of `shape`: Philox, or the cuRAND generator's."""
        bg = self._external()
        if bg is None:
            return _CoreGenerator.integers(self, 0, 2**64, shape, _np.uint64, device=dev)
        n = 1
        for s in shape:
            n *= s
        if bg._quasi:
            if what != "integers":
                raise ValueError(f"{type(bg).__name__} is quasi-random: {what} needs "
                                 "independent random keys")
            w = bg._raw(n, dev)
            x = w if bg._wide else w.astype(_np.uint64) << _np.uint64(32)
        else:
            w = bg._raw(2 * n, dev).reshape(n, 2) if n else bg._raw(0, dev).reshape(0, 2)
            x = (w[:, 1].astype(_np.uint64) << _np.uint64(32)) | w[:, 0].astype(_np.uint64)
        return x.reshape(shape)

    def _sample(self, opname, size, dtype, device, params, checks=()):
        """Draw from op `opname` with `params` (raw values), after `checks`
        ((check, index, name) triples) on the prepared parameters."""
        size = P.size_tuple(size)
        vals = [P.as_param(p) for p in params]
        for check, i, name in checks:
            check(vals[i], name)
        shape = P.broadcast_shape(size, vals)
        dev = P.resolve_device(device)
        kvals = [P.device_param(v, shape, dev) for v in vals]
        kvals += [None] * (3 - len(kvals))
        op = _OPS[opname]
        n = 1
        for s in shape:
            n *= s
        words = self._words(op, n, dtype, dev)
        return self._dist(op, shape, dtype, kvals[0], kvals[1], kvals[2], words, dev)

    def _cont(self, opname, size, dtype, device, params, checks=(), name=None):
        if _is_bf16(dtype):
            r = self._sample(opname, size, _F32, device, params, checks)
            return r.astype(_ca.bfloat16)
        dt = P.float_dtype(dtype, name or opname)
        return self._sample(opname, size, dt, device, params, checks)

    def _disc(self, opname, size, dtype, device, params, checks=()):
        out = self._sample(opname, size, _I64, device, params, checks)
        dt = _np.dtype(dtype)
        if dt.kind not in "iu":
            raise TypeError(f"Unsupported dtype {dt!r} for {opname}")
        return out if dt == _I64 else out.astype(dt)

    # ------------------------------------------------------------ base streams
    def random(self, size=None, dtype=_np.float64, out=None, *, device=None):
        """random(size=None, dtype=float64, out=None, *, device=None)

        Uniform samples in [0, 1): 24 random bits for float32 (never 1.0), 53 for
        float64, as NumPy.
        """
        if _is_bf16(dtype):
            u = self.random(size, _F32, device=device)
            return _fill_out((u.view(_np.uint32) >> 16).astype(_np.uint16)
                             .view(_ca.bfloat16), out)
        dt = P.float_dtype(dtype, "random")
        bg = self._external()
        if bg is not None and not bg._quasi and not bg._wide:
            r = bg._uniform(P.size_tuple(size) or (), dt, P.resolve_device(device))
        elif bg is not None:
            r = self._sample("uniform", size, dt, device, (0.0, 1.0))
        else:
            r = _CoreGenerator.random(self, size, dt, device=device)
        return _fill_out(r, out)

    def standard_normal(self, size=None, dtype=_np.float64, out=None, *, device=None):
        """standard_normal(size=None, dtype=float64, out=None, *, device=None)

        Standard normal samples (Box-Muller on the bit generator's words).
        """
        if _is_bf16(dtype):
            r = self.standard_normal(size, _F32, device=device)
            return _fill_out(r.astype(_ca.bfloat16), out)
        dt = P.float_dtype(dtype, "standard_normal")
        if self._external() is not None:
            r = self._sample("normal", size, dt, device, (0.0, 1.0))
        else:
            r = _CoreGenerator.standard_normal(self, size, dt, device=device)
        return _fill_out(r, out)

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=_np.float64, *, device=None):
        """normal(loc=0.0, scale=1.0, size=None, dtype=float64, *, device=None)

        loc + scale * N(0, 1) (Box-Muller); loc and scale broadcast.
        """
        loc, scale = P.as_param(loc), P.as_param(scale)
        P.non_negative(scale, "scale")
        ext = self._external() is not None
        if _is_scalar(loc) and _is_scalar(scale) and not ext and not _is_bf16(dtype):
            dt = P.float_dtype(dtype, "normal")
            return _CoreGenerator.normal(self, loc, scale, size, dt, device=device)
        return self._cont("normal", size, dtype, device, (loc, scale))

    def uniform(self, low=0.0, high=1.0, size=None, dtype=_np.float64, *, device=None):
        """uniform(low=0.0, high=1.0, size=None, dtype=float64, *, device=None)

        low + (high - low) U[0, 1); low and high broadcast.
        """
        low, high = P.as_param(low), P.as_param(high)
        ext = self._external() is not None
        if _is_scalar(low) and _is_scalar(high) and not ext and not _is_bf16(dtype):
            dt = P.float_dtype(dtype, "uniform")
            return _CoreGenerator.uniform(self, low, high, size, dt, device=device)
        rng = _np.subtract(high, low) if not isinstance(high, _ca.ndarray) and \
            not isinstance(low, _ca.ndarray) else _ca.subtract(high, low)
        if not P._all(_ca.isfinite(rng) if isinstance(rng, _ca.ndarray)
                      else _np.isfinite(rng)):
            raise OverflowError("high - low range exceeds valid bounds")
        return self._cont("uniform", size, dtype, device, (low, rng))

    # ---------------------------------------------------------------- transforms
    def standard_exponential(self, size=None, dtype=_np.float64, method="inv", out=None,
                             *, device=None):
        """standard_exponential(size=None, dtype=float64, method='inv', out=None, *,
        device=None)

        Inverse transform, -log(U) with U in (0, 1]. method='zig' is accepted and
        also uses the inverse transform.
        """
        if method not in ("zig", "inv"):
            raise ValueError("'method' argument must be either 'zig' or 'inv'")
        r = self._cont("exponential", size, dtype, device, (1.0,),
                       name="standard_exponential")
        return _fill_out(r, out)

    def exponential(self, scale=1.0, size=None, dtype=_np.float64, *, device=None):
        """exponential(scale=1.0, size=None, dtype=float64, *, device=None)

        Inverse transform: -scale log(U).
        """
        return self._cont("exponential", size, dtype, device, (scale,),
                          ((P.non_negative, 0, "scale"),))

    def gumbel(self, loc=0.0, scale=1.0, size=None, dtype=_np.float64, *, device=None):
        """gumbel(loc=0.0, scale=1.0, size=None, dtype=float64, *, device=None)

        Inverse transform: loc - scale log(-log U), U in (0, 1).
        """
        return self._cont("gumbel", size, dtype, device, (loc, scale),
                          ((P.non_negative, 1, "scale"),))

    def laplace(self, loc=0.0, scale=1.0, size=None, dtype=_np.float64, *, device=None):
        """laplace(loc=0.0, scale=1.0, size=None, dtype=float64, *, device=None)

        Inverse transform (NumPy's): loc + scale log(2U) below U = 1/2, loc - scale
        log(2 - 2U) above.
        """
        return self._cont("laplace", size, dtype, device, (loc, scale),
                          ((P.non_negative, 1, "scale"),))

    def logistic(self, loc=0.0, scale=1.0, size=None, dtype=_np.float64, *,
                 device=None):
        """logistic(loc=0.0, scale=1.0, size=None, dtype=float64, *, device=None)

        Inverse transform: loc + scale log(U / (1 - U)).
        """
        return self._cont("logistic", size, dtype, device, (loc, scale),
                          ((P.non_negative, 1, "scale"),))

    def lognormal(self, mean=0.0, sigma=1.0, size=None, dtype=_np.float64, *,
                  device=None):
        """lognormal(mean=0.0, sigma=1.0, size=None, dtype=float64, *, device=None)

        exp(mean + sigma N(0, 1)), in one pass.
        """
        return self._cont("lognormal", size, dtype, device, (mean, sigma),
                          ((P.non_negative, 1, "sigma"),))

    def pareto(self, a, size=None, dtype=_np.float64, *, device=None):
        """pareto(a, size=None, dtype=float64, *, device=None)

        Pareto II (Lomax), NumPy's: expm1(E / a), E standard exponential.
        """
        return self._cont("pareto", size, dtype, device, (a,),
                          ((P.positive, 0, "a"),))

    def power(self, a, size=None, dtype=_np.float64, *, device=None):
        """power(a, size=None, dtype=float64, *, device=None)

        Inverse transform: U^(1/a), U in [0, 1).
        """
        return self._cont("power", size, dtype, device, (a,), ((P.positive, 0, "a"),))

    def rayleigh(self, scale=1.0, size=None, dtype=_np.float64, *, device=None):
        """rayleigh(scale=1.0, size=None, dtype=float64, *, device=None)

        Inverse transform: scale sqrt(-2 log U).
        """
        return self._cont("rayleigh", size, dtype, device, (scale,),
                          ((P.non_negative, 0, "scale"),))

    def weibull(self, a, size=None, dtype=_np.float64, *, device=None):
        """weibull(a, size=None, dtype=float64, *, device=None)

        Inverse transform: (-log U)^(1/a); 0 where a == 0 (NumPy's convention).
        """
        return self._cont("weibull", size, dtype, device, (a,),
                          ((P.non_negative, 0, "a"),))

    def standard_cauchy(self, size=None, dtype=_np.float64, *, device=None):
        """standard_cauchy(size=None, dtype=float64, *, device=None)

        Inverse transform: tan(pi (U - 1/2)), U in (0, 1).
        """
        return self._cont("standard_cauchy", size, dtype, device, ())

    def triangular(self, left, mode, right, size=None, dtype=_np.float64, *,
                   device=None):
        """triangular(left, mode, right, size=None, dtype=float64, *, device=None)

        Inverse transform of the piecewise-quadratic CDF (NumPy's formula).
        """
        vals = [P.as_param(v) for v in (left, mode, right)]
        lf, md, rt = (P._f(v) for v in vals)
        if P._any(lf > md):
            raise ValueError("left > mode")
        if P._any(md > rt):
            raise ValueError("mode > right")
        if P._any(lf == rt):
            raise ValueError("left == right")
        return self._cont("triangular", size, dtype, device, vals)

    def geometric(self, p, size=None, dtype=_np.int64, *, device=None):
        """geometric(p, size=None, dtype=int64, *, device=None)

        Trials to the first success (support 1, 2, ...), by inversion:
        ceil(log U / log1p(-p)).
        """
        return self._disc("geometric", size, dtype, device, (p,),
                          ((P.bounded_gt_0_1, 0, "p"),))

    # ------------------------------------------------------------- gamma family
    def standard_gamma(self, shape, size=None, dtype=_np.float64, out=None, *,
                       device=None):
        """standard_gamma(shape, size=None, dtype=float64, out=None, *, device=None)

        Marsaglia and Tsang's rejection method (2000), the loop inside the kernel;
        shape < 1 as gamma(shape + 1) U^(1/shape).
        """
        r = self._cont("gamma", size, dtype, device, (shape, 1.0),
                       ((P.non_negative, 0, "shape"),), name="standard_gamma")
        return _fill_out(r, out)

    def gamma(self, shape, scale=1.0, size=None, dtype=_np.float64, *, device=None):
        """gamma(shape, scale=1.0, size=None, dtype=float64, *, device=None)

        scale * standard_gamma(shape) (Marsaglia-Tsang, in the kernel).
        """
        return self._cont("gamma", size, dtype, device, (shape, scale),
                          ((P.non_negative, 0, "shape"), (P.non_negative, 1, "scale")))

    def beta(self, a, b, size=None, dtype=_np.float64, *, device=None):
        """beta(a, b, size=None, dtype=float64, *, device=None)

        Johnk's method when a, b <= 1, else X / (X + Y) of two Marsaglia-Tsang
        gammas; in the kernel.
        """
        return self._cont("beta", size, dtype, device, (a, b),
                          ((P.positive, 0, "a"), (P.positive, 1, "b")))

    def chisquare(self, df, size=None, dtype=_np.float64, *, device=None):
        """chisquare(df, size=None, dtype=float64, *, device=None)

        2 gamma(df / 2).
        """
        return self._cont("chisquare", size, dtype, device, (df,),
                          ((P.positive, 0, "df"),))

    def f(self, dfnum, dfden, size=None, dtype=_np.float64, *, device=None):
        """f(dfnum, dfden, size=None, dtype=float64, *, device=None)

        (chisquare(dfnum) / dfnum) / (chisquare(dfden) / dfden).
        """
        return self._cont("f", size, dtype, device, (dfnum, dfden),
                          ((P.positive, 0, "dfnum"), (P.positive, 1, "dfden")))

    def standard_t(self, df, size=None, dtype=_np.float64, *, device=None):
        """standard_t(df, size=None, dtype=float64, *, device=None)

        sqrt(df / 2) N / sqrt(gamma(df / 2)) (NumPy's).
        """
        return self._cont("standard_t", size, dtype, device, (df,),
                          ((P.positive, 0, "df"),))

    def noncentral_chisquare(self, df, nonc, size=None, dtype=_np.float64, *,
                             device=None):
        """noncentral_chisquare(df, nonc, size=None, dtype=float64, *, device=None)

        NumPy's: chisquare(df - 1) + (N + sqrt(nonc))^2 for df > 1, else a
        Poisson(nonc / 2) mixture of central chi-squares.
        """
        return self._cont("noncentral_chisquare", size, dtype, device, (df, nonc),
                          ((P.positive, 0, "df"), (P.non_negative, 1, "nonc")))

    def noncentral_f(self, dfnum, dfden, nonc, size=None, dtype=_np.float64, *,
                     device=None):
        """noncentral_f(dfnum, dfden, nonc, size=None, dtype=float64, *, device=None)

        (noncentral_chisquare(dfnum, nonc) / dfnum) / (chisquare(dfden) / dfden).
        """
        return self._cont("noncentral_f", size, dtype, device, (dfnum, dfden, nonc),
                          ((P.positive, 0, "dfnum"), (P.positive, 1, "dfden"),
                           (P.non_negative, 2, "nonc")))

    def vonmises(self, mu, kappa, size=None, dtype=_np.float64, *, device=None):
        """vonmises(mu, kappa, size=None, dtype=float64, *, device=None)

        Best and Fisher's rejection method (1979) with NumPy's small- and
        large-kappa branches; results in [-pi, pi].
        """
        return self._cont("vonmises", size, dtype, device, (mu, kappa),
                          ((P.non_negative, 1, "kappa"),))

    def wald(self, mean, scale, size=None, dtype=_np.float64, *, device=None):
        """wald(mean, scale, size=None, dtype=float64, *, device=None)

        Inverse Gaussian by Michael, Schucany and Haas's transformation (1976).
        """
        return self._cont("wald", size, dtype, device, (mean, scale),
                          ((P.positive, 0, "mean"), (P.positive, 1, "scale")))

    # ------------------------------------------------------------------ discrete
    def poisson(self, lam=1.0, size=None, dtype=_np.int64, *, device=None):
        """poisson(lam=1.0, size=None, dtype=int64, *, device=None)

        Inversion (sequential search of the CDF) for lam < 10, Hormann's PTRS
        transformed rejection (1993) above; in the kernel.
        """
        return self._disc("poisson", size, dtype, device, (lam,),
                          ((P.poisson_lam, 0, "lam"),))

    def binomial(self, n, p, size=None, dtype=_np.int64, *, device=None):
        """binomial(n, p, size=None, dtype=int64, *, device=None)

        Inversion for n min(p, 1-p) < 30, Hormann's BTRS transformed rejection
        (1993; a BTPE-class method) above; in the kernel. n is exact up to 2**53.
        """
        n, p = P.as_param(n), P.as_param(p)
        P.non_negative(n, "n")
        P.bounded_0_1(p, "p")
        return self._disc("binomial", size, dtype, device, (P.integral(n, "n"), p))

    def negative_binomial(self, n, p, size=None, dtype=_np.int64, *, device=None):
        """negative_binomial(n, p, size=None, dtype=int64, *, device=None)

        Gamma-Poisson mixture: poisson(gamma(n, (1 - p) / p)), in one kernel.
        """
        return self._disc("negative_binomial", size, dtype, device, (n, p),
                          ((P.positive_not_nan, 0, "n"), (P.bounded_gt_0_1, 1, "p")))

    def hypergeometric(self, ngood, nbad, nsample, size=None, dtype=_np.int64, *,
                       device=None):
        """hypergeometric(ngood, nbad, nsample, size=None, dtype=int64, *,
        device=None)

        Inversion from the mode outward (the pmf by its recurrence), O(standard
        deviation) steps per sample; counts exact up to 2**53.
        """
        vals = [P.as_param(v) for v in (ngood, nbad, nsample)]
        for v, name in zip(vals, ("ngood", "nbad", "nsample")):
            P.non_negative(v, name)
        vals = [P.integral(v, nm) for v, nm in zip(vals, ("ngood", "nbad", "nsample"))]
        g, b, s = (P._f(v) for v in vals)
        if P._any(g + b < s):
            raise ValueError("ngood + nbad < nsample")
        return self._disc("hypergeometric", size, dtype, device, vals)

    def logseries(self, p, size=None, dtype=_np.int64, *, device=None):
        """logseries(p, size=None, dtype=int64, *, device=None)

        Kemp's second accelerated generator (1981), as NumPy.
        """
        return self._disc("logseries", size, dtype, device, (p,),
                          ((P.bounded_lt_0_1, 0, "p"),))

    def zipf(self, a, size=None, dtype=_np.int64, *, device=None):
        """zipf(a, size=None, dtype=int64, *, device=None)

        Rejection from a Pareto envelope (Devroye), as NumPy.
        """
        return self._disc("zipf", size, dtype, device, (a,), ((P.gt_1, 0, "a"),))

    # -------------------------------------------------------------- multivariate
    def dirichlet(self, alpha, size=None, *, device=None):
        """dirichlet(alpha, size=None, *, device=None)

        Normalized gammas, gamma(alpha_i) / sum; when every alpha < 0.1, NumPy's
        stick-breaking with beta draws (gammas of tiny shapes underflow).
        """
        a = _host_vector(alpha, "alpha")
        if a.size == 0:
            raise ValueError("alpha must have at least one element")
        if _np.any(_np.isnan(a)) or _np.any(a < 0):
            raise ValueError("alpha < 0")
        size = P.size_tuple(size)
        shape = (size or ()) + a.shape
        dev = P.resolve_device(device)
        if a.max() < 0.1:
            return self._dirichlet_sticks(a, size or (), dev)
        g = self.standard_gamma(_ca.asarray(_np.broadcast_to(a, shape), device=dev),
                                device=dev)
        return g / g.sum(axis=-1, keepdims=True)

    def _dirichlet_sticks(self, a, size, dev):
        k = a.size
        rest = _np.cumsum(a[::-1])[::-1]
        left = _ca.ones(size, dtype=_F64, device=dev)
        cols = []
        for j in range(k - 1):
            if rest[j + 1] == 0 or a[j] == 0:
                x = _ca.full(size, 1.0 if rest[j + 1] == 0 else 0.0, dtype=_F64,
                             device=dev)
            else:
                x = self.beta(float(a[j]), float(rest[j + 1]), size=size, device=dev)
            cols.append(left * x)
            left = left * (1.0 - x)
        cols.append(left)
        return _ca.stack(cols, axis=-1)

    def multinomial(self, n, pvals, size=None, *, device=None):
        """multinomial(n, pvals, size=None, *, device=None)

        Conditional binomials, category by category: x_j = binomial(n - x_0 - ...
        - x_{j-1}, p_j / (1 - p_0 - ... - p_{j-1})), one kernel per category.
        """
        pv = _host_vector(pvals, "pvals")
        if pv.ndim != 1:
            raise ValueError("pvals must be a one-dimensional array")
        if _np.any(_np.isnan(pv)) or _np.any(pv < 0) or _np.any(pv > 1):
            raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
        if pv[:-1].sum() > 1.0 + 1e-12:
            raise ValueError("sum(pvals[:-1]) > 1.0")
        nv = P.as_param(n)
        P.non_negative(nv, "n")
        nv = P.integral(nv, "n")
        size = P.size_tuple(size)
        shape = P.broadcast_shape(size, [nv])
        dev = P.resolve_device(device)
        k = pv.size
        left = P.device_param(nv, shape, dev)
        if isinstance(left, float):
            left = _ca.full(shape, left, dtype=_F64, device=dev)
        mass = 1.0
        cols = []
        for j in range(k - 1):
            pj = min(max(pv[j] / mass, 0.0), 1.0) if mass > 0 else 0.0
            x = self._sample("binomial", shape, _I64, dev, (left, pj))
            cols.append(x)
            left = left - x
            mass -= pv[j]
        cols.append(left.astype(_I64))
        return _ca.stack(cols, axis=-1)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8,
                            *, method="svd", device=None):
        """multivariate_normal(mean, cov, size=None, check_valid='warn', tol=1e-8, *,
        method='svd', device=None)

        mean + N(0, I) A with A from the covariance's factorization on the host
        (NumPy's SVD, Cholesky or eigh of the small k x k matrix), the product on
        the device.
        """
        m = _host_vector(mean, "mean")
        c = _np.asarray(cov.get() if isinstance(cov, _ca.ndarray) else cov, dtype=_F64)
        if m.ndim != 1:
            raise ValueError("mean must be 1 dimensional")
        if c.ndim != 2 or c.shape[0] != c.shape[1]:
            raise ValueError("cov must be 2 dimensional and square")
        if m.shape[0] != c.shape[0]:
            raise ValueError("mean and cov must have same length")
        if check_valid not in ("warn", "raise", "ignore"):
            raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
        if method not in ("svd", "eigh", "cholesky"):
            raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
        if method == "cholesky":
            factor = _np.linalg.cholesky(c).T
        elif method == "eigh":
            s, u = _np.linalg.eigh(c)
            psd = not _np.any(s < -tol)
            factor = (u * _np.sqrt(_np.abs(s))).T
            _psd_report(psd, check_valid)
        else:
            u, s, vh = _np.linalg.svd(c)
            psd = _np.allclose(_np.dot(vh.T * s, vh), c, rtol=tol, atol=tol)
            factor = _np.sqrt(s)[:, None] * vh
            _psd_report(psd, check_valid)
        size = P.size_tuple(size)
        shape = (size or ()) + m.shape
        dev = P.resolve_device(device)
        z = self.standard_normal(shape, device=dev)
        return _ca.matmul(z, _ca.asarray(factor, device=dev)) + _ca.asarray(m, device=dev)


def _fill_out(r, out):
    if out is None:
        return r
    if tuple(out.shape) != tuple(r.shape):
        raise ValueError("size must match out.shape when used together")
    if out.dtype != r.dtype:
        raise TypeError(f"Supplied output array has the wrong type. Expected {r.dtype}, "
                        f"got {out.dtype}")
    out[...] = r
    return out


def _psd_report(psd, check_valid):
    if psd or check_valid == "ignore":
        return
    if check_valid == "warn":
        warnings.warn("covariance is not symmetric positive-semidefinite.",
                      RuntimeWarning, stacklevel=3)
    else:
        raise ValueError("covariance is not symmetric positive-semidefinite.")


def _host_vector(x, name):
    if isinstance(x, _ca.ndarray):
        x = x.get()
    a = _np.asarray(x, dtype=_F64)
    if a.ndim != 1:
        raise ValueError(f"{name} must be a one-dimensional array" if name != "mean"
                         else "mean must be 1 dimensional")
    return a
