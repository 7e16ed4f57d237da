"""cuarray.scipy.fft: scipy.fft's functions and signatures on cuarray arrays.

Compositions over cuarray.fft (cuFFT plans cached per device on a GPU): the
complex and real FFTs with SciPy's dtypes (float32 and float16 stay single
precision, integers become double), the Hermitian n-dimensional transforms, the
DCT/DST of types 1-4 and their n-dimensional forms by FFTs of reordered lines
(_realtransforms.py), the fast Hankel transform (FFTLog, _fftlog.py) and the
helpers. ``workers`` is accepted (checked as SciPy checks it, unused on a GPU),
``overwrite_x`` never needed, a non-None ``plan`` raises NotImplementedError.
Inputs must be cuarray arrays (TypeError otherwise, as CuPy's cupyx.scipy.fft).
On the cpu device scipy.fft itself runs on zero-copy views (``_basic.CPU_SCIPY``;
SciPy is then required).
"""

from ._basic import (fft, fft2, fftn, hfft, hfft2, hfftn, ifft, ifft2, ifftn, ihfft,
                     ihfft2, ihfftn, irfft, irfft2, irfftn, rfft, rfft2, rfftn)
from ._fftlog import fht, ifht
from ._helper import fftfreq, fftshift, ifftshift, next_fast_len, rfftfreq
from ._realtransforms import dct, dctn, dst, dstn, idct, idctn, idst, idstn

__all__ = [
    "dct", "dctn", "dst", "dstn", "fft", "fft2", "fftfreq", "fftn", "fftshift", "fht",
    "hfft", "hfft2", "hfftn", "idct", "idctn", "idst", "idstn", "ifft", "ifft2",
    "ifftn", "ifftshift", "ifht", "ihfft", "ihfft2", "ihfftn", "irfft", "irfft2",
    "irfftn", "next_fast_len", "rfft", "rfft2", "rfftfreq", "rfftn",
]
