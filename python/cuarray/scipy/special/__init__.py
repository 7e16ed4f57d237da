"""cuarray.scipy.special: SciPy's special functions as cuarray ufuncs (issue 41).

Each function is a row of kernels/ops.def named ``_special_<name>`` (so the
top-level cuarray namespace never has it); its ufunc object shows SciPy's name
(``erf.__name__ == "erf"``), SciPy's loops in ``types`` and SciPy's result dtypes,
and pickles as ``cuarray.scipy.special.<name>``. The math is
kernels/shared/special_math.h's (and the headers it includes), the same code on
a GPU and on the cpu device. SciPy's functions that are not ufuncs (zeta,
polygamma, logsumexp, softmax, ...) are _compose.py's compositions.
"""

from ... import _core

_PREFIX = "_special_"
# rows `_special__<f>` (a second '_') are internal: parts of the functions of
# _compose.py (zeta's two ufuncs, the results of sici, shichi, ellipj)
_UFUNCS = {name[len(_PREFIX):]: u for name, u in _core._ops.items()
           if name.startswith(_PREFIX) and not name.startswith(_PREFIX + "_")}
globals().update(_UFUNCS)
# SciPy's alias: digamma is the ufunc psi
digamma = psi  # noqa: F821 (set from the table above)

from ._compose import (ellipj, lambertw, log_softmax, logsumexp,  # noqa: E402
                       multigammaln, polygamma, shichi, sici, softmax, sph_harm_y,
                       spherical_yn, zeta)

# SciPy's sinc is NumPy's (scipy.special.sinc is numpy.sinc): so is ours
from ..._statistics_extra import sinc  # noqa: E402

_FUNCTIONS = ["ellipj", "lambertw", "log_softmax", "logsumexp", "multigammaln",
              "polygamma", "shichi", "sici", "sinc", "softmax", "sph_harm_y", "spherical_yn",
              "zeta"]
__all__ = sorted([*_UFUNCS, "digamma", *_FUNCTIONS])
