"""Bit generators: cuarray's Philox4x32-10 and cuRAND's generators.

A Generator draws every distribution from its bit generator's 32-bit words.
``Philox`` (the default) is computed inside each distribution's kernel, on the
cpu device by the same code, so a seed gives the same numbers on every device.
cuRAND's generators (loaded on first use, never at import) fill a buffer of
words on the device (cuRAND's host generators on the cpu device) that the same
kernels then transform (kernels/random_dist.h).
"""

import numpy as _np

from .. import _core


def _sequence_of(key):
    return _np.random.SeedSequence(int(key))


def _seed_and_sequence(seed):
    """(Philox key or None for the C default, SeedSequence or None) from a seed."""
    if isinstance(seed, _np.random.SeedSequence):
        return int(seed.generate_state(1, _np.uint64)[0]), seed
    if seed is None:
        seq = _np.random.SeedSequence()
        return int(seq.generate_state(1, _np.uint64)[0]), seq
    if isinstance(seed, _core.Generator):
        raise TypeError("a Generator is not a seed; use its bit_generator or spawn()")
    return seed, None


class BitGenerator:
    """The base of cuarray.random's bit generators (NumPy's BitGenerator role)."""

    _external = False

    def __init__(self, seed=None):
        key, seq = _seed_and_sequence(seed)
        # validate the key as Generator would (TypeError / ValueError)
        _core.Generator(key)
        self._key = key
        self._seed_seq = seq

    @property
    def seed_seq(self):
        """The SeedSequence this bit generator was made from (one is derived from
        an int seed on first use)."""
        if self._seed_seq is None:
            self._seed_seq = _sequence_of(self._key)
        return self._seed_seq

    def spawn(self, n_children):
        """spawn(n_children): independent bit generators of the same kind."""
        return [type(self)(s) for s in self.seed_seq.spawn(n_children)]


class Philox(BitGenerator):
    """Philox(seed=None)

    cuarray's counter-based Philox4x32-10 (Salmon et al., SC'11), the default:
    block j of a stream is Philox4x32-10 of counter (offset + j) under the 64-bit
    key. Same numbers on the cpu device and every GPU for one seed.
    """

    @classmethod
    def _of(cls, gen):
        b = cls.__new__(cls)
        b._key = gen.state[0]
        b._seed_seq = gen._seq
        return b

    def __repr__(self):
        return f"Philox(key={self._key})"
