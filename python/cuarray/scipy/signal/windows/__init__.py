"""cuarray.scipy.signal.windows: SciPy's window functions on cuarray arrays
(see _windows.py)."""

from ._windows import *  # noqa: F401,F403
from ._windows import __all__  # noqa: F401
