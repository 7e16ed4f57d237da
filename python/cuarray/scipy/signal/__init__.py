"""cuarray.scipy.signal: SciPy's scipy.signal on cuarray arrays (the names SciPy
1.17 and CuPy's cupyx.scipy.signal share).

Windows, waveforms, convolutions, recurrences (lfilter, sosfilt, filtfilt: a
blocked state-space form over matmuls), resampling, spectral analysis, peak
finding, rank filters and B-spline filters are compositions of cuarray
operations that run on the arrays' device (on the cpu device the array functions
hand off to SciPy on zero-copy views: each module's CPU_SCIPY flag). Filter
design, LTI systems and other few-coefficient routines are host math running
SciPy's own routines (see _filter_design.py and _ltisys.py).
"""

from . import windows
from ._filter_design import *  # noqa: F401,F403
from ._filter_design import __all__ as _design_all
from ._lfilter import *  # noqa: F401,F403
from ._lfilter import __all__ as _lfilter_all
from ._ltisys import _CLASSES as _lti_classes
from ._ltisys import _FUNCS as _lti_funcs
from ._ltisys import *  # noqa: F401,F403
from ._peaks import *  # noqa: F401,F403
from ._peaks import __all__ as _peaks_all
from ._rank import *  # noqa: F401,F403
from ._rank import __all__ as _rank_all
from ._signaltools import *  # noqa: F401,F403
from ._signaltools import __all__ as _tools_all
from ._spectral import *  # noqa: F401,F403
from ._spectral import __all__ as _spectral_all
from ._splines import *  # noqa: F401,F403
from ._splines import __all__ as _splines_all
from ._upfirdn import *  # noqa: F401,F403
from ._upfirdn import __all__ as _upfirdn_all
from ._waveforms import *  # noqa: F401,F403
from ._waveforms import __all__ as _wave_all
from .windows import get_window

__all__ = sorted(["get_window", "windows", *_design_all, *_tools_all, *_wave_all,
                  *_lfilter_all, *_lti_funcs, *_lti_classes, *_peaks_all, *_rank_all,
                  *_spectral_all, *_splines_all, *_upfirdn_all])


def __getattr__(name):
    # SciPy's warning class itself, so filters on it catch the warnings the
    # host design routines raise
    if name == "BadCoefficients":
        from ._util import scipy_signal
        return scipy_signal().BadCoefficients
    # the LTI classes are SciPy's, made on first use (SciPy stays optional)
    if name in _lti_classes:
        from ._ltisys import lti_class
        return lti_class(name)
    raise AttributeError(f"module 'cuarray.scipy.signal' has no attribute {name!r}")
