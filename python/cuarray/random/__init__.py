"""cuarray.random: random arrays on the current device, NumPy's and CuPy's names.

Two interfaces over the same kernels:

- ``Generator`` / ``default_rng(seed)``: NumPy's Generator API (every
  distribution, ``integers``, ``choice``, ``permutation``, ``permuted``,
  ``shuffle``, ``bytes``, ``spawn``), over a bit generator: ``Philox`` (ours, the
  default) or one of cuRAND's (``XORWOW``, ``MRG32k3a``, ``Philox4_32_10``,
  ``MTGP32``, ``Sobol32``, ``ScrambledSobol32``, ``Sobol64``,
  ``ScrambledSobol64``).
- The legacy functions (``seed``, ``rand``, ``randn``, ``randint``, every
  distribution, ...) and the ``RandomState`` class, drawing from one
  process-wide ``RandomState`` (``get_random_state()``/``set_random_state()``).

Philox is counter-based Philox4x32-10 (Salmon et al., SC'11), computed by
cuarray's own kernels on the GPU and by the same code on the host. Arrays are
made on the current device (or ``device=``), on its current stream, without
synchronizing. ``size=None`` returns a 0-d array, as CuPy does (NumPy returns a
Python scalar). ``dtype`` may be float32 or float64 for the continuous
distributions (float32 samples are computed in float32 for the transforms, in
float64 then rounded for the rejection methods), any integer dtype for the
discrete ones (int64 by default). Distribution parameters broadcast (NumPy's
rules, with ``size``), and bad ones raise NumPy's exceptions.

Same seed, same numbers -- on every device. For one seed, the cpu device and
every GPU produce bit-identical ``random``/``uniform``/``integers`` streams; the
other distributions agree to a few units in the last place (their log, exp, sin
come from different math libraries), and discrete ones equal except where such a
last-place difference flips a rejection test. The streams differ from NumPy's
and from cuRAND's.

How the words are used: transforms (uniform, normal, exponential, ...) take 4
float32 or 2 float64 samples per 128-bit Philox block, as ``random``; the
rejection methods give each sample its own stream (block offset + i, redrawn
with a nonzero third counter word), so the loops run inside the kernel.
"""

from ._bitgen import BitGenerator, Philox
from ._generator import Generator
from ._legacy import (RandomState, get_random_state, set_random_state, seed,
                      _LEGACY_FUNCTIONS)
from ._legacy import *  # noqa: F401,F403

__all__ = ["Generator", "default_rng", "BitGenerator", "Philox", "RandomState",
           "get_random_state", "set_random_state", "seed"] + list(_LEGACY_FUNCTIONS)


def default_rng(seed=None):
    """default_rng(seed=None)

    A new Generator: ``seed`` is None, an int in [0, 2**64), a
    numpy.random.SeedSequence or a bit generator; a Generator is returned as is.
    """
    if isinstance(seed, (Generator, RandomState)):
        return seed
    return Generator(seed)
