"""cuarray.scipy.signal: SciPy's scipy.signal on cuarray arrays (the names SciPy
1.17 and CuPy's cupyx.scipy.signal share; this round: windows, waveforms,
convolution, Hilbert, detrend, resample and filter design).

Windows, waveforms and convolutions are compositions of cuarray operations that
run on the arrays' device (on the cpu device the array functions hand off to
SciPy on zero-copy views: each module's CPU_SCIPY flag). Filter design is host
math on a few coefficients and runs SciPy's own routine (see _filter_design.py).
"""

from . import windows
from ._filter_design import *  # noqa: F401,F403
from ._filter_design import __all__ as _design_all
from ._signaltools import *  # noqa: F401,F403
from ._signaltools import __all__ as _tools_all
from ._waveforms import *  # noqa: F401,F403
from ._waveforms import __all__ as _wave_all
from .windows import get_window

__all__ = sorted(["get_window", "windows", *_design_all, *_tools_all, *_wave_all])


def __getattr__(name):
    # SciPy's warning class itself, so filters on it catch the warnings the
    # host design routines raise
    if name == "BadCoefficients":
        from ._util import scipy_signal
        return scipy_signal().BadCoefficients
    raise AttributeError(f"module 'cuarray.scipy.signal' has no attribute {name!r}")
