"""SciPy's window functions (scipy.signal.windows) as cuarray arrays.

Each window is built on the requested device (``device=``, else the default one)
from arange/linspace and element-wise ops, with the formulas SciPy documents, in
float64 as SciPy's are. ``xp`` is accepted for SciPy's signature and ignored: the
namespace is cuarray. Taylor's coefficients (nbar - 1 of them) are host math.
"""

import math as _math
import operator as _operator
import warnings as _warnings

import numpy as _np

import cuarray as _ca

__all__ = ["barthann", "bartlett", "blackman", "blackmanharris", "bohman", "boxcar",
           "chebwin", "cosine", "exponential", "flattop", "gaussian", "general_cosine",
           "general_gaussian", "general_hamming", "get_window", "hamming", "hann",
           "kaiser", "kaiser_bessel_derived", "lanczos", "nuttall", "parzen", "taylor",
           "triang", "tukey"]

_F8 = _np.float64


def _len_guards(M):
    """SciPy's check of the length; True when the window is trivially all ones."""
    if int(M) != M or M < 0:
        raise ValueError("Window length M must be a non-negative integer")
    return M <= 1


def _ones(M, device):
    return _ca.ones((int(M),), dtype=_F8, device=device)


def _extend(M, sym):
    """A periodic window is a symmetric one of M + 1 points less its last."""
    return (M, False) if sym else (M + 1, True)


def _truncate(w, needed):
    return w[:-1] if needed else w


def _n(M, device):
    return _ca.arange(M, dtype=_F8, device=device)


def _windowed(formula):
    """Wrap formula(M, device, *params) with the length guards and sym handling."""
    def window(M, *params, sym=True, device=None):
        if _len_guards(M):
            return _ones(M, device)
        M, trunc = _extend(int(M), sym)
        return _truncate(formula(M, device, *params), trunc)
    return window


def _general_cosine(M, device, a):
    fac = _ca.linspace(-_math.pi, _math.pi, M, dtype=_F8, device=device)
    w = _ca.zeros((M,), dtype=_F8, device=device)
    for k, ak in enumerate(a):
        w = w + ak * _ca.cos(k * fac) if k else w + ak
    return w


def general_cosine(M, a, sym=True):
    """Generic weighted sum of cosine terms (scipy.signal.windows.general_cosine)."""
    a = [float(x) for x in _np.asarray(a.get() if isinstance(a, _ca.ndarray) else a)]
    return _windowed(_general_cosine)(M, a, sym=sym)


def _cosine_sum(coeffs, doc):
    def window(M, sym=True, *, xp=None, device=None):
        return _windowed(_general_cosine)(M, coeffs, sym=sym, device=device)
    window.__doc__ = doc
    return window


blackman = _cosine_sum([0.42, 0.50, 0.08], "Blackman window.")
nuttall = _cosine_sum([0.3635819, 0.4891775, 0.1365995, 0.0106411],
                      "Minimum 4-term Blackman-Harris window (Nuttall's).")
blackmanharris = _cosine_sum([0.35875, 0.48829, 0.14128, 0.01168],
                             "Minimum 4-term Blackman-Harris window.")
flattop = _cosine_sum([0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368],
                      "Flat top window.")
for _f, _name in ((blackman, "blackman"), (nuttall, "nuttall"),
                  (blackmanharris, "blackmanharris"), (flattop, "flattop")):
    _f.__name__ = _f.__qualname__ = _name


def general_hamming(M, alpha, sym=True, *, xp=None, device=None):
    """Generalized Hamming window: alpha - (1 - alpha) cos(2 pi n / (M - 1))."""
    return _windowed(_general_cosine)(M, [alpha, 1.0 - alpha], sym=sym, device=device)


def hamming(M, sym=True, *, xp=None, device=None):
    """Hamming window (general_hamming with alpha 0.54)."""
    return general_hamming(M, 0.54, sym, device=device)


def hann(M, sym=True, *, xp=None, device=None):
    """Hann window (general_hamming with alpha 0.5)."""
    return general_hamming(M, 0.5, sym, device=device)


def boxcar(M, sym=True, *, xp=None, device=None):
    """Boxcar (rectangular) window: all ones."""
    _len_guards(M)
    return _ones(M, device)


def _triang(M, device):
    n = _ca.arange(1, (M + 1) // 2 + 1, dtype=_F8, device=device)
    if M % 2 == 0:
        w = (2 * n - 1.0) / M
        return _ca.concatenate([w, w[::-1]])
    w = 2 * n / (M + 1.0)
    return _ca.concatenate([w, w[-2::-1]])


def triang(M, sym=True, *, xp=None, device=None):
    """Triangular window (non-zero end points, unlike bartlett)."""
    return _windowed(_triang)(M, sym=sym, device=device)


def _parzen(M, device):
    n = _ca.arange(-(M - 1) / 2.0, (M - 1) / 2.0 + 0.5, 1.0, dtype=_F8, device=device)
    a = _ca.abs(n) / (M / 2.0)
    outer = 2 * (1 - a) ** 3
    inner = 1 - 6 * a ** 2 + 6 * a ** 3
    return _ca.where(_ca.abs(n) <= (M - 1) / 4.0, inner, outer)


def parzen(M, sym=True, *, xp=None, device=None):
    """Parzen window (piecewise cubic)."""
    return _windowed(_parzen)(M, sym=sym, device=device)


def _bohman(M, device):
    fac = _ca.abs(_ca.linspace(-1, 1, M, dtype=_F8, device=device)[1:-1])
    w = (1 - fac) * _ca.cos(_math.pi * fac) + 1.0 / _math.pi * _ca.sin(_math.pi * fac)
    zero = _ca.zeros((1,), dtype=_F8, device=device)
    return _ca.concatenate([zero, w, zero])


def bohman(M, sym=True, *, xp=None, device=None):
    """Bohman window."""
    return _windowed(_bohman)(M, sym=sym, device=device)


def _bartlett(M, device):
    n = _n(M, device)
    return _ca.where(n <= (M - 1) / 2.0, 2.0 * n / (M - 1), 2.0 - 2.0 * n / (M - 1))


def bartlett(M, sym=True, *, xp=None, device=None):
    """Bartlett (triangular, zero end points) window."""
    return _windowed(_bartlett)(M, sym=sym, device=device)


def _tukey(M, device, alpha):
    n = _n(M, device)
    width = int(_np.floor(alpha * (M - 1) / 2.0))
    rise = 0.5 * (1 + _ca.cos(_math.pi * (-1 + 2.0 * n / alpha / (M - 1))))
    fall = 0.5 * (1 + _ca.cos(_math.pi * (-2.0 / alpha + 1 + 2.0 * n / alpha / (M - 1))))
    w = _ca.where(n < width + 1, rise, 1.0)
    return _ca.where(n >= M - width - 1, fall, w)


def tukey(M, alpha=0.5, sym=True, *, xp=None, device=None):
    """Tukey (tapered cosine) window; alpha <= 0 is a boxcar, >= 1 a Hann window."""
    if _len_guards(M):
        return _ones(M, device)
    if alpha <= 0:
        return _ones(M, device)
    if alpha >= 1.0:
        return hann(M, sym=sym, device=device)
    return _windowed(_tukey)(M, alpha, sym=sym, device=device)


def _barthann(M, device):
    fac = _ca.abs(_n(M, device) / (M - 1.0) - 0.5)
    return 0.62 - 0.48 * fac + 0.38 * _ca.cos(2 * _math.pi * fac)


def barthann(M, sym=True, *, xp=None, device=None):
    """Modified Bartlett-Hann window."""
    return _windowed(_barthann)(M, sym=sym, device=device)


def _kaiser(M, device, beta):
    n = _n(M, device)
    alpha = (M - 1) / 2.0
    return _ca.i0(beta * _ca.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / float(_np.i0(beta))


def kaiser(M, beta, sym=True, *, xp=None, device=None):
    """Kaiser window: I0(beta sqrt(1 - (2n/(M-1) - 1)^2)) / I0(beta)."""
    return _windowed(_kaiser)(M, beta, sym=sym, device=device)


def kaiser_bessel_derived(M, beta, *, sym=True, xp=None, device=None):
    """Kaiser-Bessel derived window (for the MDCT): even M, symmetric only."""
    if not sym:
        raise ValueError("Kaiser-Bessel Derived windows are only defined for "
                         "symmetric shapes")
    if M < 1:
        return _ca.zeros((0,), dtype=_F8, device=device)
    if M % 2:
        raise ValueError("Kaiser-Bessel Derived windows are only defined for even "
                         "number of points")
    kw = kaiser(M // 2 + 1, beta, device=device)
    half = _ca.sqrt(_ca.cumsum(kw[:-1]) / _ca.sum(kw))
    return _ca.concatenate([half, half[::-1]])


def _gaussian(M, device, std):
    n = _n(M, device) - (M - 1.0) / 2.0
    return _ca.exp(-n ** 2 / (2 * std * std))


def gaussian(M, std, sym=True, *, xp=None, device=None):
    """Gaussian window of standard deviation std."""
    return _windowed(_gaussian)(M, std, sym=sym, device=device)


def _general_gaussian(M, device, p, sig):
    n = _n(M, device) - (M - 1.0) / 2.0
    return _ca.exp(-0.5 * _ca.abs(n / sig) ** (2 * p))


def general_gaussian(M, p, sig, sym=True, *, xp=None, device=None):
    """Generalized Gaussian window exp(-0.5 |n / sig|^(2p))."""
    return _windowed(_general_gaussian)(M, p, sig, sym=sym, device=device)


def _chebwin(M, device, at):
    order = M - 1.0
    beta = _np.cosh(1.0 / order * _np.arccosh(10 ** (abs(at) / 20.)))
    x = beta * _ca.cos(_math.pi * _n(M, device) / M)
    sign = 2 * (M % 2) - 1.0
    # Chebyshev polynomial of degree order at x, each branch on its own domain
    # (arguments clipped so the branch not taken stays finite)
    big = _ca.cosh(order * _ca.arccosh(_ca.maximum(_ca.abs(x), 1.0)))
    mid = _ca.cos(order * _ca.arccos(_ca.clip(x, -1.0, 1.0)))
    p = _ca.where(x > 1, big, _ca.where(x < -1, sign * big, mid))
    if M % 2:
        w = _ca.real(_ca.fft.fft(p))
        n = (M + 1) // 2
        w = w[:n]
        w = _ca.concatenate([w[n - 1:0:-1], w])
    else:
        p = p * _ca.exp(1j * _math.pi / M * _n(M, device))
        w = _ca.real(_ca.fft.fft(p))
        n = M // 2 + 1
        w = _ca.concatenate([w[n - 1:0:-1], w[1:n]])
    return w / _ca.max(w)


def chebwin(M, at, sym=True, *, xp=None, device=None):
    """Dolph-Chebyshev window of side-lobe attenuation at dB (an FFT of the
    Chebyshev polynomial's samples)."""
    if abs(at) < 45:
        _warnings.warn("This window is not suitable for spectral analysis for "
                       "attenuation values lower than about 45dB because the "
                       "equivalent noise bandwidth of a Chebyshev window does not "
                       "grow monotonically with increasing sidelobe attenuation "
                       "when the attenuation is smaller than about 45 dB.",
                       UserWarning, stacklevel=2)
    return _windowed(_chebwin)(M, at, sym=sym, device=device)


def _cosine(M, device):
    return _ca.sin(_math.pi / M * (_n(M, device) + 0.5))


def cosine(M, sym=True, *, xp=None, device=None):
    """Simple cosine (sine) window."""
    return _windowed(_cosine)(M, sym=sym, device=device)


def exponential(M, center=None, tau=1., sym=True, *, xp=None, device=None):
    """Exponential (Poisson) window exp(-|n - center| / tau)."""
    if sym and center is not None:
        raise ValueError("If sym==True, center must be None.")
    if _len_guards(M):
        return _ones(M, device)
    M, trunc = _extend(int(M), sym)
    if center is None:
        center = (M - 1) / 2
    w = _ca.exp(-_ca.abs(_n(M, device) - center) / tau)
    return _truncate(w, trunc)


def _taylor_coefficients(nbar, sll):
    """Taylor's F_m, m = 1..nbar-1 (host math: nbar - 1 numbers)."""
    B = 10 ** (sll / 20)
    A = _np.arccosh(B) / _np.pi
    s2 = nbar ** 2 / (A ** 2 + (nbar - 0.5) ** 2)
    ma = _np.arange(1, nbar, dtype=_F8)
    m2 = ma ** 2
    Fm = _np.empty(nbar - 1)
    for i in range(nbar - 1):
        sign = 1 if i % 2 == 0 else -1
        numer = sign * _np.prod(1 - m2[i] / s2 / (A ** 2 + (ma - 0.5) ** 2))
        denom = 2 * _np.prod(1 - m2[i] / m2[:i]) * _np.prod(1 - m2[i] / m2[i + 1:])
        Fm[i] = numer / denom
    return ma, Fm


def _taylor(M, device, nbar, sll, norm):
    ma, Fm = _taylor_coefficients(nbar, sll)

    def W(n):
        w = 1.0
        for m, f in zip(ma, Fm):
            w = w + 2 * float(f) * _ca.cos(2 * _math.pi * float(m) * (n - M / 2. + 0.5) / M)
        return w

    w = W(_n(M, device))
    if isinstance(w, float):       # nbar == 1: no terms
        w = _ones(M, device)
    if norm:
        centre = W(_ca.asarray([(M - 1) / 2], dtype=_F8, device=device))
        w = w / (centre if isinstance(centre, float) else centre[0])
    return w


def taylor(M, nbar=4, sll=30, norm=True, sym=True, *, xp=None, device=None):
    """Taylor window (radar): nbar nearly constant side lobes sll dB down."""
    return _windowed(_taylor)(M, nbar, sll, norm, sym=sym, device=device)


def _lanczos(M, device):
    def right(n):
        return _ca.sinc(2. * _ca.arange(n, M, dtype=_F8, device=device) / (M - 1) - 1.0)
    # built from its right half so it is exactly symmetric
    if M % 2 == 0:
        wh = right(M / 2)
        return _ca.concatenate([wh[::-1], wh])
    wh = right((M + 1) / 2)
    one = _ca.ones((1,), dtype=_F8, device=device)
    return _ca.concatenate([wh[::-1], one, wh])


def lanczos(M, *, sym=True, xp=None, device=None):
    """Lanczos (sinc) window."""
    return _windowed(_lanczos)(M, sym=sym, device=device)


# SciPy's names for get_window: (aliases, function, whether parameters are needed)
_WINDOWS = [
    (("barthann", "brthan", "bth"), barthann, False),
    (("bartlett", "bart", "brt"), bartlett, False),
    (("blackman", "black", "blk"), blackman, False),
    (("blackmanharris", "blackharr", "bkh"), blackmanharris, False),
    (("bohman", "bman", "bmn"), bohman, False),
    (("boxcar", "box", "ones", "rect", "rectangular"), boxcar, False),
    (("chebwin", "cheb"), chebwin, True),
    (("cosine", "halfcosine"), cosine, False),
    (("exponential", "poisson"), exponential, None),
    (("flattop", "flat", "flt"), flattop, False),
    (("gaussian", "gauss", "gss"), gaussian, True),
    (("general cosine", "general_cosine"), general_cosine, True),
    (("general gaussian", "general_gaussian", "general gauss", "general_gauss", "ggs"),
     general_gaussian, True),
    (("general hamming", "general_hamming"), general_hamming, True),
    (("hamming", "hamm", "ham"), hamming, False),
    (("hann", "han"), hann, False),
    (("kaiser", "ksr"), kaiser, True),
    (("kaiser bessel derived", "kaiser_bessel_derived", "kbd"), kaiser_bessel_derived, True),
    (("lanczos", "sinc"), lanczos, False),
    (("nuttall", "nutl", "nut"), nuttall, False),
    (("parzen", "parz", "par"), parzen, False),
    (("taylor", "taylorwin"), taylor, None),
    (("triangle", "triang", "tri"), triang, False),
    (("tukey", "tuk"), tukey, None),
]
_BY_NAME = {alias: (f, needs) for names, f, needs in _WINDOWS for alias in names}


def get_window(window, Nx, fftbins=True, *, xp=None, device=None):
    """A window of length Nx by name, (name, params...) tuple, or kaiser beta
    (a number); periodic (fftbins, the default) or symmetric."""
    sym = not fftbins
    try:
        beta = float(window)
    except (TypeError, ValueError):
        pass
    else:
        return kaiser(Nx, beta, sym, device=device)
    if isinstance(window, tuple):
        name, args = window[0], window[1:]
    elif isinstance(window, str):
        name, args = window, ()
    else:
        raise ValueError(f"Parameter window={window!r} must be a tuple, a string or "
                         "a float!")
    for suffix, s in (("_periodic", False), ("_symmetric", True)):
        if isinstance(name, str) and name.endswith(suffix) and \
                name[:-len(suffix)] in _BY_NAME:
            # SciPy 1.17's names that fix the symmetry (whatever fftbins says)
            name, sym = name[:-len(suffix)], s
    if name == "dpss":
        raise ValueError("dpss is not in cuarray.scipy.signal.windows (not in "
                         "cupyx.scipy's list).")
    if name not in _BY_NAME:
        raise ValueError("Unknown window type.")
    f, needs = _BY_NAME[name]
    if needs and not args:
        raise ValueError(f"The '{name}' window needs one or more parameters "
                         "-- pass a tuple.")
    # general_cosine alone has no device parameter in SciPy's signature
    extra = {} if f is general_cosine else {"device": device}
    return f(Nx, *args, sym=sym, **extra)
