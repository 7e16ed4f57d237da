"""scipy.fft's complex and real FFTs over cuarray.fft (one cuFFT plan per call on
a GPU), with SciPy's arguments and dtype rules.

The transforms are cuarray.fft's own (whose dtypes already are SciPy's for every
input but float16 into a complex-to-real transform, which SciPy computes in
float32); the n-dimensional Hermitian transforms are cuarray.fft's real ones on
the conjugate with the norm's direction swapped. ``overwrite_x`` is accepted and
never needed (results are new arrays), ``workers`` is checked as SciPy checks it
and ignored on a GPU (cuFFT uses the whole device), a non-None ``plan`` raises
NotImplementedError as SciPy and CuPy do. On the cpu device, with ``CPU_SCIPY``
on, scipy.fft itself runs on a zero-copy NumPy view and its result is wrapped
back; tests switch it off to run the GPU's compositions there.
"""

import operator

import numpy as np

from ... import _core
from ... import fft as _cafft

CPU_SCIPY = True

_NORMS = (None, "backward", "ortho", "forward")


def on_scipy(x):
    """Whether the call goes to scipy.fft (a cpu-device array, CPU_SCIPY on)."""
    return CPU_SCIPY and str(x.device) == "cpu"


def scipy_call(name, x, *args, **kw):
    """scipy.fft.<name> on a zero-copy view of the cpu array x, wrapped back."""
    import scipy.fft
    r = getattr(scipy.fft, name)(np.asarray(x), *args, **kw)
    return _core.asarray(r, device="cpu")


def check_array(x):
    if not isinstance(x, _core.ndarray):
        raise TypeError(f"cuarray.scipy.fft needs a cuarray.ndarray, not "
                        f"{type(x).__name__} (use cuarray.asarray to make one)")
    if x.ndim == 0:
        raise IndexError("tuple index out of range")   # SciPy's words for a 0-d input
    return x


def check_norm(norm):
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm!r}, should be "backward", '
                         '"ortho" or "forward"')
    return norm


def check_workers(workers):
    """SciPy's checks of workers (an integer, not zero), then ignored."""
    if workers is not None and operator.index(workers) == 0:
        raise ValueError("workers must not be zero")


def _check(x, norm, workers, plan):
    check_array(x)
    check_norm(norm)
    check_workers(workers)
    if plan is not None:
        raise NotImplementedError("Passing a precomputed plan is not yet supported "
                                  "by cuarray.scipy.fft functions")


def _real_single(x):
    # SciPy computes float16 in float32 (NumPy's pocketfft route would keep float16
    # through a complex-to-real transform)
    return x.astype("float32") if x.dtype == np.float16 else x


def _make(name, kind, axes_default):
    """A scipy.fft transform: ``kind`` is cuarray.fft's function (c2c, r2c or c2r)."""
    ca_fn = getattr(_cafft, name)
    c2r = name in ("irfft", "irfft2", "irfftn", "hfft", "hfft2", "hfftn")
    first = "n" if kind == "1d" else "s"

    def transform(x, n_or_s=None, ax=axes_default, norm=None, overwrite_x=False,
                  workers=None, *, plan=None):
        _check(x, norm, workers, plan)
        if on_scipy(x):
            return scipy_call(name, x, n_or_s, ax, norm, workers=workers)
        if c2r:
            x = _real_single(x)
        return ca_fn(x, n_or_s, ax, norm)

    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = (
        f"{name}(x, {first}=None, {'axis' if kind == '1d' else 'axes'}="
        f"{axes_default!r}, norm=None, overwrite_x=False, workers=None, *, plan=None)"
        f"\n\nscipy.fft.{name}: cuarray.fft.{name}"
        " with SciPy's dtypes (float32 and float16 give single precision);\n"
        "overwrite_x and workers are accepted and need nothing on a GPU.")
    return transform


fft = _make("fft", "1d", -1)
ifft = _make("ifft", "1d", -1)
rfft = _make("rfft", "1d", -1)
irfft = _make("irfft", "1d", -1)
hfft = _make("hfft", "1d", -1)
ihfft = _make("ihfft", "1d", -1)
fft2 = _make("fft2", "nd", (-2, -1))
ifft2 = _make("ifft2", "nd", (-2, -1))
rfft2 = _make("rfft2", "nd", (-2, -1))
irfft2 = _make("irfft2", "nd", (-2, -1))
fftn = _make("fftn", "nd", None)
ifftn = _make("ifftn", "nd", None)
rfftn = _make("rfftn", "nd", None)
irfftn = _make("irfftn", "nd", None)


def _swap(norm):
    return _cafft._swap_norm(norm)


def _hfftn(x, s, axes, norm):
    # hfftn is irfftn of the conjugate with the norm's direction swapped (the
    # Hermitian input's transform is real; the last of axes is the halved one)
    return _cafft.irfftn(_core.conjugate(_real_single(x)), s, axes, _swap(norm))


def _ihfftn(x, s, axes, norm):
    if x.dtype.kind == "c":
        raise TypeError("x must be a real sequence")
    r = _cafft.rfftn(x, s, axes, _swap(norm))
    return _core.conjugate(r, out=r)


def hfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *,
          plan=None):
    """scipy.fft.hfft2: the 2-D FFT of a Hermitian-symmetric signal (real output)."""
    return hfftn(x, s, axes, norm, overwrite_x, workers, plan=plan)


def hfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *,
          plan=None):
    """scipy.fft.hfftn: irfftn of the conjugate with the norm's direction swapped.

    The last of ``axes`` has s[-1] (default 2*(m - 1)) real outputs."""
    _check(x, norm, workers, plan)
    if on_scipy(x):
        return scipy_call("hfftn", x, s, axes, norm, workers=workers)
    return _hfftn(x, s, axes, norm)


def ihfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *,
           plan=None):
    """scipy.fft.ihfft2: the inverse of hfft2 (real input, half the last axis)."""
    return ihfftn(x, s, axes, norm, overwrite_x, workers, plan=plan)


def ihfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *,
           plan=None):
    """scipy.fft.ihfftn: the conjugate of rfftn with the norm's direction swapped."""
    _check(x, norm, workers, plan)
    if on_scipy(x):
        return scipy_call("ihfftn", x, s, axes, norm, workers=workers)
    return _ihfftn(x, s, axes, norm)
