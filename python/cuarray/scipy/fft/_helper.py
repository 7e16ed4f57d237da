"""scipy.fft's helpers: next_fast_len (SciPy's answers: pocketfft's good sizes),
fftfreq/rfftfreq (SciPy's xp/device arguments) and fftshift/ifftshift."""

import functools
import operator

from ... import fft as _cafft

# pocketfft's limit: (target - 1) must fit size_t's maximum over 11
_MAX_TARGET = (2**64 - 1) // 11 + 1
_SSIZE_MAX = 2**63 - 1


@functools.lru_cache
def next_fast_len(target, real=False):
    """The smallest n >= target that is 11-smooth (5-smooth if ``real``): the
    lengths pocketfft, and hence SciPy, calls fast; cuFFT is fast on all of them.

    0 gives 0; a negative target raises ValueError, a non-integer TypeError (the
    arguments must be hashable: the answers are cached, as SciPy's are)."""
    n = operator.index(target)
    if n > _SSIZE_MAX:
        raise OverflowError("Python int too large to convert to C ssize_t")
    if n < 0:
        raise ValueError("Target length must be positive")
    if n > _MAX_TARGET:
        raise ValueError(f"Target length is too large to perform an FFT: {n}")
    if n <= 6:
        return n
    odd = (3, 5) if real else (3, 5, 7, 11)
    best = 1 << (n - 1).bit_length()       # the power of two at or above n
    return _smallest(n, odd, 1, best)


def _smallest(n, primes, base, best):
    """The smallest base * (product of powers of primes) * 2^k >= n, below best:
    each odd part below best, completed by the least power of two that reaches n."""
    if not primes:
        x = base << max(0, (-(-n // base) - 1).bit_length())
        return min(best, x)
    p, rest = primes[0], primes[1:]
    while base < best:
        best = _smallest(n, rest, base, best)
        base *= p
    return best


def fftfreq(n, d=1.0, *, xp=None, device=None):
    """scipy.fft.fftfreq: [0, 1, ..., -(n//2), ..., -1] / (d*n), float64.

    With ``xp`` None (or cuarray) a cuarray array on ``device`` (default: the
    current device); another namespace goes to SciPy's rule (xp.fft.fftfreq)."""
    if xp is None or getattr(xp, "__name__", "") == "cuarray":
        return _cafft.fftfreq(n, d, device)
    import scipy.fft
    return scipy.fft.fftfreq(n, d, xp=xp, device=device)


def rfftfreq(n, d=1.0, *, xp=None, device=None):
    """scipy.fft.rfftfreq: [0, 1, ..., n//2] / (d*n), float64 (xp as fftfreq)."""
    if xp is None or getattr(xp, "__name__", "") == "cuarray":
        return _cafft.rfftfreq(n, d, device)
    import scipy.fft
    return scipy.fft.rfftfreq(n, d, xp=xp, device=device)


def fftshift(x, axes=None):
    """scipy.fft.fftshift: the zero frequency moved to the centre (cuarray.fft's)."""
    return _cafft.fftshift(x, axes)


def ifftshift(x, axes=None):
    """scipy.fft.ifftshift: the inverse of fftshift (cuarray.fft's)."""
    return _cafft.ifftshift(x, axes)
