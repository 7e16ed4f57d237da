"""Bit generators: cuarray's Philox4x32-10 and cuRAND's generators.

A Generator draws every distribution from its bit generator's 32-bit words.
``Philox`` (the default) is computed inside each distribution's kernel, on the
cpu device by the same code, so a seed gives the same numbers on every device.
cuRAND's generators (loaded on first use, never at import) fill a buffer of
words on the device (cuRAND's host generators on the cpu device) that the same
kernels then transform (kernels/shared/random_dist.h).
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


# ---------------------------------------------------------------- cuRAND
class _Curand(BitGenerator):
    """A cuRAND generator as a bit generator: its raw words, generated on the
    device (cuRAND's host generator on the cpu device), feed cuarray's own
    transforms. cuRAND is loaded the first time words are needed."""

    _external = True
    _kind = None
    _quasi = False
    _wide = False

    def __init__(self, seed=None, offset=0):
        super().__init__(seed)
        self._offset = int(offset)
        self._gens = {}

    def __repr__(self):
        return f"{type(self).__name__}(seed={self._key})"

    def _gen(self, dev):
        key = dev.id
        g = self._gens.get(key)
        if g is None:
            seed = int(self._key) & (2**64 - 1)
            g = _core.CurandGenerator(self._kind, dev, seed, self._offset)
            self._gens[key] = g
        return g

    def _raw(self, n, dev):
        """n raw words of the generator (uint32, or uint64 for the 64-bit kinds)."""
        import cuarray as _ca
        out = _ca.empty(n, dtype=_np.uint64 if self._wide else _np.uint32, device=dev)
        if n:
            self._gen(dev).fill(out)
        return out

    def _uniform(self, shape, dtype, dev):
        """random()'s uniforms in [0, 1) (a 32-bit pseudo-random kind): the words
        are generated into the result and transformed there (one word per float32
        sample, two per float64, as _words' 'transform' layout), with no buffer
        of words and, above _UNIFORM_CHUNK samples, the transform of each chunk
        overlapping cuRAND's generation of the next (csrc/runtime/launch_rand.c)."""
        import cuarray as _ca
        out = _ca.empty(shape, dtype=dtype, device=dev)
        if out.size:
            self._gen(dev).fill_uniform(out, _uniform_chunk(out.size))
        return out

    def _words(self, kind, n, f32, dev):
        """The words of a call: `kind` 'transform' (4 float32 or 2 float64 samples
        per 4 words), 'normal' (Box-Muller pairs) or 'stream' (4 words per sample),
        for n samples."""
        import cuarray as _ca
        if kind == "stream":
            nwords = 4 * n
        else:
            nwords = 4 * -(-n // (4 if f32 else 2))
        if not self._quasi:
            return self._raw(nwords, dev)
        if kind != "transform":
            raise ValueError(
                f"{type(self).__name__} is quasi-random: it gives one low-discrepancy "
                "coordinate per sample, so only the inverse-transform distributions "
                "(random, uniform, integers, exponential, gumbel, laplace, logistic, "
                "pareto, power, rayleigh, weibull, standard_cauchy, triangular, "
                "geometric) can use it")
        if f32:  # one 32-bit word per sample
            w = self._raw(nwords, dev)
            return w if not self._wide else (w >> _np.uint64(32)).astype(_np.uint32)
        # float64: one (lo, hi) pair per sample
        npts = nwords // 2
        w = self._raw(npts, dev)
        if self._wide:
            lo = (w & _np.uint64(0xFFFFFFFF)).astype(_np.uint32)
            hi = (w >> _np.uint64(32)).astype(_np.uint32)
        else:
            lo, hi = _ca.zeros(npts, dtype=_np.uint32, device=dev), w
        return _ca.ascontiguousarray(_ca.stack([lo, hi], axis=-1).reshape(-1))

    def random_raw(self, size=None, *, device=None):
        """random_raw(size=None, *, device=None): the generator's raw words
        (uint32, or uint64 for the 64-bit Sobol kinds)."""
        import cuarray as _ca
        dev = _ca.cuda.Device(device) if device is not None else _ca.cuda.Device()
        shape = () if size is None else ((size,) if isinstance(size, int) else
                                         tuple(size))
        n = int(_np.prod(shape)) if shape else 1
        return self._raw(n, dev).reshape(shape)


# Samples per cuRAND call in _uniform: one call up to _UNIFORM_CHUNK samples;
# above, about _UNIFORM_CALLS equal calls (at least _UNIFORM_CHUNK // 2 samples
# each). Each call but the first overlaps its generation with the previous
# call's in-place transform (on a side stream), so the cost is the generation
# plus the last call's transform plus a fixed cost of cuRAND's per call (~5.6 us
# each on an H200: 16 calls of 2^22 words took 274 us, one call of 2^26 190 us).
# With k calls of 2^26 samples that is about 190 + 5.6 k + 150 / k us: flat near
# its minimum from 4 to 8 calls; 6 it is.
_UNIFORM_CHUNK = 1 << 23
_UNIFORM_CALLS = 6


def _uniform_chunk(n):
    """The samples per cuRAND call of _uniform for n samples (n: one call)."""
    if n <= _UNIFORM_CHUNK:
        return n
    c = max(_UNIFORM_CHUNK // 2, -(-n // _UNIFORM_CALLS))
    return -(-c // 4096) * 4096


def _curand_kind(name, doc, quasi=False, wide=False):
    cls = type(name, (_Curand,), {"_kind": name, "_quasi": quasi, "_wide": wide,
                                  "__doc__": doc, "__slots__": ()})
    return cls


XORWOW = _curand_kind("XORWOW", """XORWOW(seed=None, offset=0)

cuRAND's XORWOW (Marsaglia's xorshift with a Weyl sequence; CuPy's default).""")
MRG32k3a = _curand_kind("MRG32k3a", """MRG32k3a(seed=None, offset=0)

cuRAND's MRG32k3a (L'Ecuyer's combined multiple recursive generator).""")
MTGP32 = _curand_kind("MTGP32", """MTGP32(seed=None, offset=0)

cuRAND's MTGP32 (the Mersenne Twister for graphics processors).""")
MT19937 = _curand_kind("MT19937", """MT19937(seed=None, offset=0)

cuRAND's MT19937 (the Mersenne Twister).""")
Philox4_32_10 = _curand_kind("Philox4_32_10", """Philox4_32_10(seed=None, offset=0)

cuRAND's Philox4x32-10 (its own counter layout: not the numbers of cuarray's
Philox).""")
Sobol32 = _curand_kind("Sobol32", """Sobol32(seed=None, offset=0)

cuRAND's 32-bit Sobol sequence, one dimension (quasi-random: the seed is
ignored; offset skips points). Only inverse-transform distributions.""", quasi=True)
ScrambledSobol32 = _curand_kind("ScrambledSobol32", """ScrambledSobol32(seed=None,
offset=0)

cuRAND's scrambled 32-bit Sobol sequence, one dimension (quasi-random).""", quasi=True)
Sobol64 = _curand_kind("Sobol64", """Sobol64(seed=None, offset=0)

cuRAND's 64-bit Sobol sequence, one dimension (quasi-random; float64 samples get
all 53 bits).""", quasi=True, wide=True)
ScrambledSobol64 = _curand_kind("ScrambledSobol64", """ScrambledSobol64(seed=None,
offset=0)

cuRAND's scrambled 64-bit Sobol sequence, one dimension (quasi-random).""",
                                quasi=True, wide=True)

CURAND_GENERATORS = ("XORWOW", "MRG32k3a", "MTGP32", "MT19937", "Philox4_32_10",
                     "Sobol32", "ScrambledSobol32", "Sobol64", "ScrambledSobol64")
