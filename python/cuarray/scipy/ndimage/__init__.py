"""cuarray.scipy.ndimage: SciPy's scipy.ndimage on cuarray arrays (the names SciPy
1.17 and CuPy's cupyx.scipy.ndimage share), one file per group: _filters.py,
_interpolation.py, _morphology.py, _measurements.py, _fourier.py.

The filters, morphology, interpolation, labels and distance transforms run the
kernels of csrc/ops/ndimage.c (kernels/gpu/ndimage.cu, host_ndimage.c) in
float64, as SciPy computes; the statistics by labels and the Fourier filters
are compositions of cuarray operations. On the cpu device every function hands
off to SciPy on zero-copy views (each module's CPU_SCIPY flag); functions that
call a Python function per window (generic_filter, generic_filter1d,
labeled_comprehension's func) say what they do on a GPU in their docstrings.
"""

from ._filters import *  # noqa: F401,F403
from ._filters import __all__ as _filters_all
from ._fourier import *  # noqa: F401,F403
from ._fourier import __all__ as _fourier_all
from ._interpolation import *  # noqa: F401,F403
from ._interpolation import __all__ as _interp_all
from ._measurements import *  # noqa: F401,F403
from ._measurements import __all__ as _meas_all
from ._morphology import *  # noqa: F401,F403
from ._morphology import __all__ as _morph_all

__all__ = sorted([*_filters_all, *_fourier_all, *_interp_all, *_meas_all, *_morph_all])
