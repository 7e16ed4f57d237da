"""Generator: NumPy's Generator interface over cuarray's bit generators.

Every distribution is one kernel launch of the ``_dist`` primitive (csrc/ops/random.c
over kernels/shared/random_dist.h) on the current stream, or a short composition of
such draws with cuarray's array functions. The method each one uses is named in
its docstring.
"""

import operator
import warnings

import numpy as _np

import cuarray as _ca

from .. import _core
from . import _params as P
from ._params import _F32, _F64, _I64, _OPS

_CoreGenerator = _core.Generator


def _is_scalar(x):
    return isinstance(x, float)


class _Distributions:
    """The distributions shared by Generator and RandomState (a mixin over
    _core.Generator)."""

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
        if _is_scalar(loc) and _is_scalar(scale) and not ext:
            dt = P.float_dtype(dtype, "normal")
            return _CoreGenerator.normal(self, loc, scale, size, dt, device=device)
        return self._cont("normal", size, dtype, device, (loc, scale))

    def uniform(self, low=0.0, high=1.0, size=None, dtype=_np.float64, *, device=None):
        """uniform(low=0.0, high=1.0, size=None, dtype=float64, *, device=None)

        low + (high - low) U[0, 1); low and high broadcast.
        """
        low, high = P.as_param(low), P.as_param(high)
        ext = self._external() is not None
        if _is_scalar(low) and _is_scalar(high) and not ext:
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

    # ------------------------------------------------------------- permutations
    def _keys(self, shape, dev):
        """Random 64-bit sort keys (ties have probability n^2 / 2^65)."""
        return self._bits64(shape, dev, "a permutation")

    def _words32(self, n, dev, what="a permutation"):
        """n uniform 32-bit words (uint32): Philox, or the cuRAND generator's."""
        bg = self._external()
        if bg is None:
            return _CoreGenerator.integers(self, 0, 2**32, (n,), _np.uint32, device=dev)
        if bg._quasi:
            raise ValueError(f"{type(bg).__name__} is quasi-random: {what} needs "
                             "independent random keys")
        return bg._raw(n, dev)

    def _perm(self, n, dev):
        """A random permutation of arange(n) (int64), every one equally likely.

        Up to 2^31 - 1 items: 2n words from the bit generator, keys k = the
        first n and slot words w = the rest, and one _core._perm_sort, whose
        result is defined as the stable sort of the items by k with every run
        of equal keys then ordered by w at its slots (kernels/shared/perm_impl.h). When
        that is not enough (two equal keys with equal w, or a segment too long
        for the fast placement) the primitive says so and _perm_generic computes
        the same definition with sorts, and breaks the remaining ties with fresh
        words (_untie). Uniform: sorting i.i.d. keys gives every order of the
        items with distinct keys equally likely; given k (so given the runs and
        their slots), the w at those slots are i.i.d. and independent of k, so
        each run's order is uniform too, and _untie's later rounds are exact in
        the same way; so all n! permutations are equally likely (given ideal
        random bits). It is a function of the bit generator's words alone, so
        the same on the cpu device (the same primitive in host C) and a GPU.
        Beyond 2^31 - 1 items: 64-bit keys, one sort and _untie.
        """
        if n < 2:
            return _ca.arange(n, dtype=_I64, device=dev)
        if n > _PERM32_MAX:
            sk, perm = _sort_pairs(self._keys((n,), dev), 64)
            self._untie(sk, perm)
            return perm
        kw = self._words32(2 * n, dev)
        k, w = kw[:n], kw[n:]
        perm, tied = _core._perm_sort(k, w, _PERM_SHIFT)
        if bool(tied):  # about 2^-13 of the time at 2^26 items (n^2 / 2^65)
            perm = self._perm_generic(k, w)
        return perm

    def _perm_generic(self, k, w):
        """_perm's permutation from keys k and slot words w by sorts: the
        stable order of k, each run of equal keys ordered by w at its slots,
        then _untie's rounds on what still ties."""
        sk, perm = _sort_pairs(k, 32)
        self._untie(sk, perm, first=w)
        return perm

    def _untie(self, sk, perm, bits=32, first=None):
        """Shuffle, in place in perm, the entries of every run of equal keys in sk
        (sorted keys, perm the positions they came from), uniformly.

        Each round takes the slots whose key equals a neighbour's, gives each a
        random word r (the first round: first[slot] when `first` is given, n
        words indexed by slot; else and later: fresh `bits`-bit words, 32; fewer
        only in tests, to force more rounds) and sorts them by (run number, r)
        with (run, r) as one 64-bit key; runs stay where they are, their entries
        move to r's order. Slots whose (run, r) tie go to the next round, until
        none tie.
        """
        dev = sk.device
        keys, pos = sk, None  # pos: the positions in perm of the round's slots
        while keys.size > 1:
            eq = keys[1:] == keys[:-1]
            no = _ca.zeros(1, dtype=bool, device=dev)
            ep = _ca.concatenate([no, eq, no])
            slots = _ca.flatnonzero(ep[:-1] | ep[1:])
            m = int(slots.size)
            if m == 0:
                return
            if m > 2**32:
                raise ValueError(f"a permutation with {m} tied keys is out of range")
            kt = keys[slots]
            start = _ca.concatenate([_ca.ones(1, dtype=bool, device=dev),
                                     kt[1:] != kt[:-1]])
            run = (_ca.cumsum(start, dtype=_I64) - 1).astype(_np.uint64)
            if first is not None:
                r, first = first[slots], None
            else:
                r = self._words32(m, dev)
                if bits < 32:
                    r = r >> _np.uint32(32 - bits)
            ck = (run << _np.uint64(32)) | r.astype(_np.uint64)
            keys, order = _sort_pairs(ck, 32 + (m - 1).bit_length())
            p = slots if pos is None else pos[slots]
            perm[p] = perm[p[order]]
            pos = p

    def bytes(self, length):
        """bytes(length): `length` random bytes (uniform integers 0..255)."""
        length = operator.index(length)
        if length < 0:
            raise ValueError("negative dimensions are not allowed")
        if self._external() is not None:
            w = self._bits64((-(-length // 8),), P.resolve_device(None), "bytes")
            return w.get().tobytes()[:length]
        a = _CoreGenerator.integers(self, 0, 256, (length,), _np.uint8, device="cpu")
        return a.get().tobytes()


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


def _as_population(a, dev):
    """choice's `a`: an int (arange(a)) or an array."""
    if isinstance(a, (int, _np.integer)) and not isinstance(a, bool):
        return operator.index(a), None
    arr = a if isinstance(a, _ca.ndarray) else _ca.asarray(_np.asarray(a), device=dev)
    if arr.ndim == 0:
        n = int(arr)
        return n, None
    return arr.shape[0], arr


# ------------------------------------------------------------------ integers
def _mulhi64(x, r):
    """floor(x r / 2**64) for uint64 arrays x and r, in 32-bit halves."""
    m = _np.uint64(0xFFFFFFFF)
    s32 = _np.uint64(32)
    xh, xl = x >> s32, x & m
    rh, rl = r >> s32, r & m
    a, b, c = xh * rl, xl * rh, xl * rl
    carry = ((a & m) + (b & m) + (c >> s32)) >> s32
    return xh * rh + (a >> s32) + (b >> s32) + carry


def _int_bounds(x):
    if isinstance(x, _ca.ndarray):
        if x.dtype.kind not in "biu":
            raise TypeError("integer bounds are required")
        return x
    a = _np.asarray(x)
    if a.dtype.kind not in "biu" and a.dtype != object:
        raise TypeError("integer bounds are required")
    return a


def _array_integers(gen, low, high, size, dtype, endpoint, device):
    """integers with array bounds: low + floor(X r / 2**64), X uniform 64-bit and r
    = high - low (+ 1): each value's probability is off by at most r / 2**64."""
    dt = _np.dtype(dtype)
    if dt.kind not in "biu":
        raise TypeError(f"Unsupported dtype {dt!r} for integers")
    lo_min, hi_max = (0, 1) if dt == _np.bool_ else (_np.iinfo(dt).min, _np.iinfo(dt).max)
    low, high = _int_bounds(low), _int_bounds(high)
    last = high if endpoint else high - 1
    if P._any(low < lo_min):
        raise ValueError(f"low is out of bounds for {dt.name}")
    if P._any(last > hi_max):
        raise ValueError(f"high is out of bounds for {dt.name}")
    if P._any(last < low):
        raise ValueError("low > high" if endpoint else "low >= high")
    dev = P.resolve_device(device)
    shape = P.broadcast_shape(P.size_tuple(size), [low, high])

    def u64(v):
        a = _ca.asarray(v, device=dev).astype(_np.uint64)
        return _ca.broadcast_to(a, shape)

    lo_u, last_u = u64(low), u64(last)
    r = last_u - lo_u + _np.uint64(1)  # 0: the full 2**64 range
    x = gen._bits64(shape, dev)
    v = lo_u + _ca.where(r == _np.uint64(0), x, _mulhi64(x, r))
    if dt == _np.bool_:
        return v != _np.uint64(0)
    return v.astype(dt)


class Generator(_Distributions, _CoreGenerator):
    """Generator(bit_generator=None)

    NumPy's Generator interface. ``bit_generator`` is a seed (an int in
    [0, 2**64), None for fresh entropy, or a numpy.random.SeedSequence) or one of
    cuarray.random's bit generators: Philox (ours, the default: the same numbers
    on the cpu device and every GPU) or cuRAND's (XORWOW, MRG32k3a,
    Philox4_32_10, MTGP32, Sobol32, ScrambledSobol32, Sobol64, ScrambledSobol64),
    whose words feed the same transforms. ``state`` is ``(seed, offset)`` of the
    Philox stream. Every method takes ``device=`` (default: the current device)
    and queues its kernels on that device's current stream.
    """

    __slots__ = ("_seq", "_bitgen")

    def __new__(cls, bit_generator=None):
        from ._bitgen import BitGenerator, _seed_and_sequence
        bitgen = None
        if isinstance(bit_generator, BitGenerator):
            bitgen = bit_generator
            key, seq = bitgen._key, bitgen._seed_seq
        else:
            key, seq = _seed_and_sequence(bit_generator)
        self = _CoreGenerator.__new__(cls, key)
        self._seq = seq
        self._bitgen = bitgen
        return self

    def __init__(self, bit_generator=None):
        pass

    def __repr__(self):
        if self._bitgen is not None and self._bitgen._external:
            return f"Generator({self._bitgen!r})"
        return _CoreGenerator.__repr__(self)

    @property
    def bit_generator(self):
        """The bit generator: a Philox over this generator's (seed, offset), or
        the cuRAND generator it was made with."""
        from ._bitgen import Philox
        if self._bitgen is None:
            self._bitgen = Philox._of(self)
        return self._bitgen

    def spawn(self, n_children):
        """spawn(n_children): independent child Generators.

        Children are seeded from numpy.random.SeedSequence's spawn of this
        generator's seed sequence (one is made from the seed when it had none):
        each child gets its own 64-bit Philox key, hashed by SeedSequence, so
        children and parent never share a stream.
        """
        from ._bitgen import _sequence_of
        seq = self._seq
        if seq is None:
            seq = self._seq = _sequence_of(self.state[0])
        kids = seq.spawn(n_children)
        if self._bitgen is not None and self._bitgen._external:
            return [Generator(type(self._bitgen)(k)) for k in kids]
        return [Generator(k) for k in kids]

    def integers(self, low, high=None, size=None, dtype=_np.int64, endpoint=False, *,
                 device=None):
        """integers(low, high=None, size=None, dtype=int64, endpoint=False, *,
        device=None)

        Uniform integers in [low, high) ([low, high] with endpoint=True; [0, low)
        without high). Scalar bounds: exactly uniform (Lemire's method). Array
        bounds broadcast: low + floor(X r / 2**64) for uniform 64-bit X, each value
        within r / 2**64 of its probability.
        """
        def scalar(v):
            return v is None or isinstance(v, (int, _np.integer)) or (
                isinstance(v, _np.ndarray) and v.ndim == 0 and v.dtype.kind in "biu")

        if scalar(low) and scalar(high) and self._external() is None:
            return _CoreGenerator.integers(self, low if not isinstance(
                low, _np.ndarray) else int(low), high if not isinstance(
                high, _np.ndarray) else int(high), size, dtype, endpoint, device=device)
        if high is None:
            low, high = 0, low
        return _array_integers(self, low, high, size, dtype, endpoint, device)

    def permutation(self, x, axis=0, *, device=None):
        """permutation(x, axis=0, *, device=None)

        A random permutation of arange(x), or a copy of x shuffled along `axis`
        (a gather of its slices): one radix sort of random 32-bit keys with their
        positions (64-bit keys above 2^31 - 1 items), every run of tied keys then
        shuffled by fresh random keys until none tie, so every permutation is
        equally likely. x as an integer must be >= 0.
        """
        if isinstance(x, (int, _np.integer)) and not isinstance(x, bool):
            n = operator.index(x)
            if n < 0:
                raise ValueError("negative dimensions are not allowed")
            return self._perm(n, P.resolve_device(device))
        arr = x if isinstance(x, _ca.ndarray) else _ca.asarray(x, device=device)
        if arr.ndim == 0:
            raise _np.exceptions.AxisError("x must be an integer or at least "
                                           "1-dimensional")
        ax = _norm_axis(axis, arr.ndim)
        perm = self._perm(arr.shape[ax], arr.device)
        return _ca.take(arr, perm, axis=ax)

    def shuffle(self, x, axis=0):
        """shuffle(x, axis=0): shuffle x in place along `axis` (a cuarray or NumPy
        array, or a mutable sequence), by a random-key permutation."""
        if isinstance(x, _ca.ndarray):
            if x.ndim == 0:
                raise TypeError("shuffle requires an array of at least one dimension")
            ax = _norm_axis(axis, x.ndim)
            perm = self._perm(x.shape[ax], x.device)
            x[...] = _ca.take(x, perm, axis=ax)
            return None
        if isinstance(x, _np.ndarray):
            if x.ndim == 0:
                raise TypeError("shuffle requires an array of at least one dimension")
            ax = _norm_axis(axis, x.ndim)
            perm = self._perm(x.shape[ax], "cpu").get()
            x[...] = _np.take(x, perm, axis=ax)
            return None
        if axis != 0:
            raise NotImplementedError("Axis argument is only supported on ndarray "
                                      "objects")
        items = list(x)
        perm = self._perm(len(items), "cpu").get()
        for i, j in enumerate(perm):
            x[i] = items[j]
        return None

    def permuted(self, x, *, axis=None, out=None):
        """permuted(x, *, axis=None, out=None)

        x with every slice along `axis` shuffled independently (all elements when
        axis is None): one argsort of random keys per slice, a take_along_axis.
        """
        arr = x if isinstance(x, _ca.ndarray) else _ca.asarray(x)
        if axis is None:
            flat = _ca.ravel(arr)
            perm = self._perm(flat.size, arr.device)
            res = flat[perm].reshape(arr.shape)
        else:
            ax = _norm_axis(axis, arr.ndim)
            keys = self._keys(arr.shape, arr.device)
            order = _ca.argsort(keys, axis=ax, kind="stable")
            res = _ca.take_along_axis(arr, order, axis=ax)
        if out is None:
            return res
        if tuple(out.shape) != tuple(arr.shape):
            raise ValueError("out must have the same shape as x")
        out[...] = res
        return out

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True, *,
               device=None):
        """choice(a, size=None, replace=True, p=None, axis=0, shuffle=True, *,
        device=None)

        Samples of arange(a) or of a's entries along `axis`. With replacement:
        uniform integers, or with p the inverse CDF (searchsorted of uniforms in
        cumsum(p)). Without: the first entries of a random-key permutation, or with
        p the Efraimidis-Spirakis keys E / p (the order in which exponential races
        end, which is NumPy's sequential draw without replacement).
        """
        return _choice(self, a, size, replace, p, axis, device, _np.random.Generator)

    def multivariate_hypergeometric(self, colors, nsample, size=None,
                                    method="marginals", *, device=None):
        """multivariate_hypergeometric(colors, nsample, size=None,
        method='marginals', *, device=None)

        Conditional hypergeometrics color by color (method 'marginals' or
        'count', the same distribution): x_j = hypergeometric(colors[j],
        sum(colors[j+1:]), nsample - x_0 - ... - x_{j-1}).
        """
        if method not in ("count", "marginals"):
            raise ValueError('method must be "count" or "marginals".')
        col = _np.asarray(colors.get() if isinstance(colors, _ca.ndarray) else colors)
        if col.ndim != 1:
            raise ValueError("colors must be a one-dimensional sequence of "
                             "nonnegative integers")
        if col.dtype.kind not in "iu" and col.size:
            raise ValueError("colors must be a one-dimensional sequence of "
                             "nonnegative integers")
        col = col.astype(_np.int64)
        if _np.any(col < 0):
            raise ValueError("colors must be a one-dimensional sequence of "
                             "nonnegative integers")
        total = int(col.sum())
        ns = operator.index(nsample)
        if ns < 0:
            raise ValueError("nsample must be nonnegative.")
        if ns > total:
            raise ValueError("nsample must not exceed the total count (sum of colors)")
        size = P.size_tuple(size) or ()
        dev = P.resolve_device(device)
        left = _ca.full(size, float(ns), dtype=_F64, device=dev)
        rest = total
        cols = []
        for j in range(col.size - 1):
            rest -= int(col[j])
            x = self._sample("hypergeometric", size, _I64, dev,
                             (float(col[j]), float(rest), left))
            cols.append(x)
            left = left - x
        cols.append(left.astype(_I64))
        return _ca.stack(cols, axis=-1)


_PERM32_MAX = 2**31 - 1  # the longest permutation sorted with 32-bit keys


# The key bits _perm_sort leaves to its placement pass: the radix sort orders
# bits [shift, 32) (one pass per 8 bits) and the placement orders each segment of
# equal high bits by the full key. 0: measured on the H200 at 2^26 items (session
# 8), shift 0 (4 passes, segments of equal keys only) took 3.10 ms, shift 8 (3
# passes, segments of ~4) 8.62 ms and shift 16 10.3 ms: the placement's scan of a
# segment costs far more than the radix pass it saves. On the cpu device both took
# the same time at 2^22. The tests pass other shifts to _perm_sort directly.
_PERM_SHIFT = 0


def _sort_pairs(keys, bits):
    """(sorted keys, int64 positions that sort them, stably) of 1-D keys whose
    values fit `bits` bits: one radix sort of (key, position) pairs on a GPU; on
    the cpu device NumPy's stable argsort and a gather (cheaper there than
    NumPy sorting the keys a second time). The same arrays either way."""
    if keys.device.id < 0:
        perm = _core._sort_bits(keys, bits, 1)
        return keys[perm], perm
    return _core._sort_bits(keys, bits, 2)


def _norm_axis(axis, ndim):
    ax = operator.index(axis)
    if not -ndim <= ax < ndim:
        raise _np.exceptions.AxisError(axis, ndim)
    return ax + ndim if ax < 0 else ax


def _choice(gen, a, size, replace, p, axis, device, kind):
    """choice for Generator (kind np.random.Generator) and RandomState."""
    dev = P.resolve_device(device)
    legacy = kind is not _np.random.Generator
    if isinstance(a, (int, _np.integer)) and not isinstance(a, bool):
        pop, arr = operator.index(a), None
        shape = P.size_tuple(size)
        if pop < 0 or (pop == 0 and (shape is None or _np.prod(shape) != 0)):
            raise ValueError("a must be a positive integer unless no samples are "
                             "taken" if not legacy else "a must be greater than 0 "
                             "unless no samples are taken")
    else:
        arr = a if isinstance(a, _ca.ndarray) else _ca.asarray(_np.asarray(a), device=dev)
        if arr.ndim == 0:
            raise ValueError("a must be a sequence or an integer, not a 0-d array"
                             if not legacy else "a must be 1-dimensional or an "
                             "integer")
        if legacy and arr.ndim != 1:
            raise ValueError("a must be 1-dimensional")
        axis = _norm_axis(axis, arr.ndim)
        pop = arr.shape[axis]
        dev = arr.device
    shape = P.size_tuple(size)
    k = 1 if shape is None else int(_np.prod(shape))
    if pop == 0 and k != 0:
        raise ValueError(("'a'" if legacy else "a") + " cannot be empty unless no "
                         "samples are taken")
    pv = None
    if p is not None:
        pv = _np.asarray(p.get() if isinstance(p, _ca.ndarray) else p, dtype=_F64)
        if pv.ndim != 1:
            raise ValueError("p must be 1-dimensional")
        if pv.size != pop:
            raise ValueError("'a' and 'p' must have same size" if legacy else
                             "a and p must have same size")
        if _np.any(_np.isnan(pv)):
            raise ValueError("Probabilities contain NaN")
        if _np.any(pv < 0):
            raise ValueError(("p" if legacy else "P") + "robabilities are not "
                             "non-negative")
        if abs(float(pv.sum()) - 1.0) > _np.sqrt(_np.finfo(_F64).eps):
            raise ValueError("probabilities do not sum to 1" if legacy else
                             "Probabilities do not sum to 1. See Notes section of "
                             "docstring for more information.")
    out_shape = () if shape is None else shape
    if replace:
        if pv is not None:
            cdf = _np.cumsum(pv)
            cdf /= cdf[-1]
            u = gen.random(out_shape, device=dev)
            idx = _ca.searchsorted(_ca.asarray(cdf, device=dev), u, side="right")
            idx = _ca.minimum(idx, pop - 1)
        else:
            idx = Generator.integers(gen, 0, max(pop, 1), out_shape, _np.int64,
                                     device=dev)
    else:
        if k > pop:
            raise ValueError("Cannot take a larger sample than population when "
                             + ("replace is False" if not legacy else
                                "'replace=False'"))
        if pv is not None:
            if int(_np.count_nonzero(pv)) < k:
                raise ValueError("Fewer non-zero entries in p than size")
            e = gen.standard_exponential((pop,), device=dev)
            keys = e / _ca.asarray(pv, device=dev)
            idx = _ca.argsort(keys, kind="stable")[:k]
        else:
            idx = gen._perm(pop, dev)[:k]
        idx = idx.reshape(out_shape)
    if arr is None:
        return idx
    return _ca.take(arr, idx, axis=axis)
