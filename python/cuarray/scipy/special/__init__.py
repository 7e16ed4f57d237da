"""cuarray.scipy.special: SciPy's special functions as cuarray ufuncs (issue 41).

Each function is a row of kernels/ops.def named ``_special_<name>`` (so the
top-level cuarray namespace never has it); its ufunc object shows SciPy's name
(``erf.__name__ == "erf"``), SciPy's loops in ``types`` and SciPy's result dtypes,
and pickles as ``cuarray.scipy.special.<name>``. The math is
kernels/shared/special_math.h's, the same code on a GPU and on the cpu device.
"""

from ... import _core

_PREFIX = "_special_"
_UFUNCS = {name[len(_PREFIX):]: u for name, u in _core._ops.items()
           if name.startswith(_PREFIX)}
globals().update(_UFUNCS)
# SciPy's alias: digamma is the ufunc psi
digamma = psi  # noqa: F821 (set from the table above)

__all__ = sorted([*_UFUNCS, "digamma"])
