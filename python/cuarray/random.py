"""cuarray.random: random arrays on the current device, NumPy's and CuPy's names.

Two interfaces, one generator underneath:

- ``Generator`` / ``default_rng(seed)``: ``random``, ``standard_normal``,
  ``normal``, ``uniform``, ``integers`` (NumPy's Generator API).
- The legacy functions ``seed``, ``random``, ``random_sample``, ``rand``,
  ``randn``, ``standard_normal``, ``normal``, ``uniform``, ``randint``, and the
  ``RandomState`` class, drawing from one process-wide ``RandomState``
  (``get_random_state()``).

The generator is counter-based Philox4x32-10 (Salmon et al., SC'11), computed by
cuarray's own kernels on the GPU and by the same code on the host. Arrays are
made on the current device (or ``device=``), on its current stream, without
synchronizing. ``size=None`` returns a 0-d array, as CuPy does (NumPy returns a
Python scalar). ``dtype`` may be float32 or float64 for the float distributions,
bool or any integer dtype for ``integers``/``randint``; distribution parameters
are scalars.

Same seed, same numbers -- on every device. For one seed, the cpu device and
every GPU produce bit-identical ``random``/``uniform``/``integers`` streams;
``normal``/``standard_normal`` agree to a few units in the last place (their
log/sin/cos come from different math libraries). The streams differ from
NumPy's and from cuRAND's.

Guarantees: float32 ``random`` has 24 random bits and lies in [0, 1) (never
1.0); float64 has 53 bits; ``integers`` are exactly uniform (Lemire's method,
no modulo bias) for every range, including the full 64-bit one.
"""

import numpy as _np

from ._core import Generator as _CoreGenerator

__all__ = ["Generator", "default_rng", "RandomState", "get_random_state", "seed",
           "random", "random_sample", "rand", "randn", "standard_normal", "normal",
           "uniform", "randint"]


class Generator(_CoreGenerator):
    """Generator(seed=None)

    NumPy's Generator interface over cuarray's Philox4x32-10 stream. ``seed``
    is an int in [0, 2**64) or None (fresh entropy from the OS). ``state`` is
    ``(seed, offset)``: assigning a saved state resumes the stream there.
    """

    __slots__ = ()


def default_rng(seed=None):
    """A new Generator seeded with ``seed`` (a Generator is returned as is)."""
    if isinstance(seed, _CoreGenerator):
        return seed
    return Generator(seed)


class RandomState(_CoreGenerator):
    """RandomState(seed=None)

    NumPy's (and CuPy's) legacy interface over the same Philox4x32-10 stream as
    Generator: ``random_sample``, ``rand``, ``randn``, ``randint`` and the
    Generator methods.
    """

    __slots__ = ()

    random_sample = _CoreGenerator.random

    def rand(self, *size, dtype=_np.float64):
        """rand(d0, d1, ..., dtype=float64): uniform [0, 1) samples of that shape."""
        return self.random(size if size else None, dtype)

    def randn(self, *size, dtype=_np.float64):
        """randn(d0, d1, ..., dtype=float64): standard normal samples of that shape."""
        return self.standard_normal(size if size else None, dtype)

    def randint(self, low, high=None, size=None, dtype=int):
        """randint(low, high=None, size=None, dtype=int): integers in [low, high)."""
        return self.integers(low, high, size, dtype)


_global = RandomState()


def get_random_state():
    """The process-wide RandomState behind the legacy functions."""
    return _global


def seed(seed=None):
    """Reseed the process-wide RandomState (None: fresh entropy)."""
    _global.seed(seed)


random = _global.random
random_sample = _global.random_sample
rand = _global.rand
randn = _global.randn
standard_normal = _global.standard_normal
normal = _global.normal
uniform = _global.uniform
randint = _global.randint
