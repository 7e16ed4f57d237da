"""RandomState and the legacy module functions (numpy.random's and cupy.random's
names), over the same kernels as Generator."""

import operator
import warnings

import numpy as _np

from .. import _core
from . import _params as P
from ._bitgen import _seed_and_sequence
from ._generator import (_choice, _CoreGenerator, _Distributions, _new_generator,
                         _norm_axis)

import cuarray as _ca


class RandomState(_Distributions, _CoreGenerator):
    """RandomState(seed=None)

    NumPy's (and CuPy's) legacy interface over cuarray's Philox4x32-10 stream:
    ``random_sample``, ``rand``, ``randn``, ``randint``, ``random_integers``,
    ``seed``, ``get_state``/``set_state`` and every legacy distribution (the same
    kernels as Generator's).
    """

    __slots__ = ("_seq", "_bitgen")

    def __new__(cls, seed=None):
        return _new_generator(cls, *_seed_and_sequence(seed), None)

    def __init__(self, seed=None):
        pass

    def seed(self, seed=None):
        """seed(seed=None): restart the stream from `seed` (None: fresh entropy)."""
        key, seq = _seed_and_sequence(seed)
        _CoreGenerator.seed(self, key)
        self._seq = seq

    def get_state(self):
        """get_state(): the (seed, offset) state of the Philox stream."""
        return self.state

    def set_state(self, state):
        """set_state(state): resume the stream at a get_state() value."""
        self.state = state

    def random_sample(self, size=None, dtype=_np.float64, *, device=None):
        """random_sample(size=None, dtype=float64, *, device=None): uniform [0, 1)."""
        return self.random(size, dtype, device=device)

    def rand(self, *size, dtype=_np.float64, device=None):
        """rand(d0, d1, ..., dtype=float64): uniform [0, 1) samples of that shape."""
        return self.random(size if size else None, dtype, device=device)

    def randn(self, *size, dtype=_np.float64, device=None):
        """randn(d0, d1, ..., dtype=float64): standard normal samples of that shape."""
        return self.standard_normal(size if size else None, dtype, device=device)

    def randint(self, low, high=None, size=None, dtype=int, *, device=None):
        """randint(low, high=None, size=None, dtype=int): integers in [low, high)
        ([0, low) without high), exactly uniform for scalar bounds."""
        from ._generator import Generator
        return Generator.integers(self, low, high, size, dtype, device=device)

    def random_integers(self, low, high=None, size=None, *, device=None):
        """random_integers(low, high=None, size=None): integers in [low, high]
        ([1, low] without high). Deprecated, as in NumPy: use randint."""
        if high is None:
            warnings.warn("This function is deprecated. Please call randint(1, {low} + 1) "
                          "instead".format(low=low), DeprecationWarning, stacklevel=2)
            low, high = 1, low
        else:
            warnings.warn("This function is deprecated. Please call randint({low}, "
                          "{high} + 1) instead".format(low=low, high=high),
                          DeprecationWarning, stacklevel=2)
        from ._generator import Generator
        return Generator.integers(self, low, high, size, _np.int64, True, device=device)

    def tomaxint(self, size=None, *, device=None):
        """tomaxint(size=None): integers in [0, sys.maxsize]."""
        return self.randint(0, _np.iinfo(_np.int64).max, size, _np.int64,
                            device=device)

    def permutation(self, x, *, device=None):
        """permutation(x): a random permutation of arange(x), or a copy of x
        shuffled along its first axis (random-key argsort)."""
        from ._generator import Generator
        return Generator.permutation(self, x, device=device)

    def shuffle(self, x):
        """shuffle(x): shuffle x in place along its first axis."""
        from ._generator import Generator
        return Generator.shuffle(self, x)

    def choice(self, a, size=None, replace=True, p=None, *, device=None):
        """choice(a, size=None, replace=True, p=None, *, device=None)

        Samples of arange(a) or of the 1-D a; methods as Generator.choice.
        """
        return _choice(self, a, size, replace, p, 0, device, RandomState)

    def hypergeometric(self, ngood, nbad, nsample, size=None, dtype=_np.int64, *,
                       device=None):
        """hypergeometric(ngood, nbad, nsample, size=None, dtype=int64, *,
        device=None): as Generator's, with the legacy nsample >= 1."""
        ns = P.as_param(nsample)
        if P._any(P._f(ns) < 1):
            raise ValueError("nsample < 1")
        return _Distributions.hypergeometric(self, ngood, nbad, ns, size, dtype,
                                             device=device)


_global = RandomState()


def get_random_state():
    """The process-wide RandomState behind the legacy functions."""
    return _global


def set_random_state(rs):
    """Make `rs` (a RandomState) the process-wide one."""
    global _global
    if not isinstance(rs, RandomState):
        raise TypeError("set_random_state takes a RandomState")
    _global = rs


def seed(seed=None):
    """Reseed the process-wide RandomState (None: fresh entropy)."""
    _global.seed(seed)


_LEGACY_FUNCTIONS = (
    "beta", "binomial", "bytes", "chisquare", "choice", "dirichlet", "exponential",
    "f", "gamma", "geometric", "gumbel", "hypergeometric", "laplace", "logistic",
    "lognormal", "logseries", "multinomial", "multivariate_normal",
    "negative_binomial", "noncentral_chisquare", "noncentral_f", "normal", "pareto",
    "permutation", "poisson", "power", "rand", "randint", "randn", "random",
    "random_integers", "random_sample", "rayleigh", "shuffle", "standard_cauchy",
    "standard_exponential", "standard_gamma", "standard_normal", "standard_t",
    "triangular", "uniform", "vonmises", "wald", "weibull", "zipf",
)


def _legacy(name, method):
    def f(*args, **kwargs):
        return getattr(_global, name)(*args, **kwargs)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = method.__doc__
    return f


for _name in _LEGACY_FUNCTIONS:
    globals()[_name] = _legacy(_name, getattr(RandomState, _name))

ranf = _legacy("random_sample", RandomState.random_sample)
ranf.__name__ = ranf.__qualname__ = "ranf"
sample = _legacy("random_sample", RandomState.random_sample)
sample.__name__ = sample.__qualname__ = "sample"
_LEGACY_FUNCTIONS = _LEGACY_FUNCTIONS + ("ranf", "sample")
__all__ = list(_LEGACY_FUNCTIONS)
