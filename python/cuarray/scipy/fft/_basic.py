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
import os

import numpy as np

from ... import _core
from ... import fft as _cafft

CPU_SCIPY = True

_NORMS = (None, "backward", "ortho", "forward")


def on_scipy(x):
    """Whether the call goes to scipy.fft (a cpu-device array, CPU_SCIPY on);
    TypeError for anything but a cuarray array."""
    check_array(x)
    return CPU_SCIPY and str(x.device) == "cpu"


def scipy_call(name, x, *args, **kw):
    """scipy.fft.<name> on a zero-copy view of the cpu array x, wrapped back."""
    import scipy.fft
    r = getattr(scipy.fft, name)(np.asarray(x), *args, **kw)
    return _core.asarray(r, device="cpu")


def check_array(x, line=False):
    """x a cuarray array (TypeError), with an axis if a ``line`` transform takes it."""
    if not isinstance(x, _core.ndarray):
        raise TypeError(f"cuarray.scipy.fft needs a cuarray.ndarray, not "
                        f"{type(x).__name__} (use cuarray.asarray to make one)")
    if line and x.ndim == 0:
        raise IndexError("tuple index out of range")   # SciPy's words for a 0-d input
    return x


def check_norm(norm):
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm!r}, should be "backward", '
                         '"ortho" or "forward"')
    return norm


def check_workers(workers):
    """SciPy's checks of workers (an integer, not zero, not below -cpu_count),
    then ignored."""
    if workers is None:
        return
    w = operator.index(workers)
    if w == 0:
        raise ValueError("workers must not be zero")
    if w < -os.cpu_count():
        raise ValueError(f"workers value out of range; got {w}, must not be less "
                         f"than {-os.cpu_count()}")


def _check(x, norm, workers, plan, line=False):
    check_array(x, line)
    check_norm(norm)
    check_workers(workers)
    if plan is not None:
        raise NotImplementedError("Passing a precomputed plan is not yet supported "
                                  "by cuarray.scipy.fft functions")


def _real_single(x):
    # SciPy computes float16 in float32 (NumPy's pocketfft route would keep float16
    # through a complex-to-real transform)
    return x.astype("float32") if x.dtype == np.float16 else x


def _transform(name, x, n_or_s, ax, norm, workers, plan):
    """One scipy.fft transform: SciPy's own on the cpu device (CPU_SCIPY), else
    cuarray.fft's on float16 made float32 (SciPy's precision; cuarray.fft keeps
    float16 out of complex-to-real transforms and rounds ifft2's input to it)."""
    line = name in _ONE_D
    _check(x, norm, workers, plan, line)
    if on_scipy(x):
        return scipy_call(name, x, n_or_s, ax, norm, workers=workers)
    ax = ax if line else _last_axes(n_or_s, ax)
    if not line and no_axes(x, ax):
        return _nothing_to_transform(name, x)
    if not line and _cafft._repeats(x, ax):
        # numpy.fft transforms a repeated axis twice; SciPy refuses it
        raise ValueError("all axes must be unique")
    fn = _HERMITIAN.get(name) or getattr(_cafft, name)
    return fn(_real_single(x), n_or_s, ax, norm)


_ONE_D = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")


def no_axes(x, axes):
    """Whether an n-dimensional transform has no axis to transform."""
    return len(axes) == 0 if hasattr(axes, "__len__") else axes is None and x.ndim == 0


def _nothing_to_transform(name, x):
    # SciPy's: a complex transform over no axes is x itself, a real one an error
    if name in ("fftn", "ifftn", "fft2", "ifft2"):
        return x
    raise ValueError("at least 1 axis must be transformed")


def _last_axes(s, axes):
    """SciPy's default axes for a given s: the last len(s) (NumPy 2 deprecates
    leaving them None)."""
    if axes is None and s is not None and hasattr(s, "__len__"):
        return tuple(range(-len(s), 0))
    return axes


_DOC = ("\n\nscipy.fft.{0} over cuarray.fft, with SciPy's dtypes (float32 and float16 "
        "give single\nprecision); overwrite_x and workers are accepted and need "
        "nothing on a GPU.")


def _make_1d(name):
    def transform(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *,
                  plan=None):
        return _transform(name, x, n, axis, norm, workers, plan)
    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = (f"{name}(x, n=None, axis=-1, norm=None, overwrite_x=False, "
                         "workers=None, *, plan=None)" + _DOC.format(name))
    return transform


def _make_nd(name, axes_default):
    def transform(x, s=None, axes=axes_default, norm=None, overwrite_x=False,
                  workers=None, *, plan=None):
        return _transform(name, x, s, axes, norm, workers, plan)
    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = (f"{name}(x, s=None, axes={axes_default!r}, norm=None, "
                         "overwrite_x=False, workers=None, *, plan=None)" +
                         _DOC.format(name))
    return transform


fft = _make_1d("fft")
ifft = _make_1d("ifft")
rfft = _make_1d("rfft")
irfft = _make_1d("irfft")
hfft = _make_1d("hfft")
ihfft = _make_1d("ihfft")
fft2 = _make_nd("fft2", (-2, -1))
ifft2 = _make_nd("ifft2", (-2, -1))
rfft2 = _make_nd("rfft2", (-2, -1))
irfft2 = _make_nd("irfft2", (-2, -1))
fftn = _make_nd("fftn", None)
ifftn = _make_nd("ifftn", None)
rfftn = _make_nd("rfftn", None)
irfftn = _make_nd("irfftn", None)


def _swap(norm):
    return _cafft._swap_norm(norm)


def _hfftn(x, s, axes, norm):
    # hfftn is irfftn of the conjugate with the norm's direction swapped (the
    # Hermitian input's transform is real; the last of axes is the halved one)
    return _cafft.irfftn(_core.conjugate(_real_single(x)), s, _last_axes(s, axes),
                         _swap(norm))


def _ihfftn(x, s, axes, norm):
    if x.dtype.kind == "c":
        raise TypeError("x must be a real sequence")
    r = _cafft.rfftn(_real_single(x), s, _last_axes(s, axes), _swap(norm))
    return _core.conjugate(r, out=r)


_HERMITIAN = {"hfft2": _hfftn, "hfftn": _hfftn, "ihfft2": _ihfftn, "ihfftn": _ihfftn}
hfft2 = _make_nd("hfft2", (-2, -1))
hfftn = _make_nd("hfftn", None)
ihfft2 = _make_nd("ihfft2", (-2, -1))
ihfftn = _make_nd("ihfftn", None)
