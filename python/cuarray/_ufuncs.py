"""Element-wise functions: NumPy's names over cuarray._core's C implementations.

Every op of kernels/ops.def is a C function of cuarray._core (argument parsing,
type resolution and the launch all in C); this module only gathers the public
names and NumPy's aliases. `_core._ops` maps each table op to its function,
including the bare element-wise forms of real/imag/round/angle/clip/where whose
public versions (views, decimals=, deg=, None bounds, where(cond)) differ.
"""

from . import _core
from ._generated_ops import NAMES as _TABLE_NAMES

# The public functions: every op of the table under its NumPy name (ops whose
# name starts with '_' are parts of functions with two results: frexp) ...
_SPECIAL = {"real", "imag", "round", "angle", "clip", "where"}
_PUBLIC = [name for name in _TABLE_NAMES if not name.startswith("_")]
globals().update({name: getattr(_core, name) for name in _PUBLIC if name not in _SPECIAL})
# ... the ones with a richer signature than the bare op ...
real = _core.real
imag = _core.imag
round = _core.round  # noqa: A001  (NumPy's name)
angle = _core.angle
clip = _core.clip
where = _core.where
# ... and NumPy's aliases.
true_divide = _core.divide
mod = _core.remainder
abs = _core.absolute  # noqa: A001
conj = _core.conjugate
around = _core.round
degrees = _core.rad2deg
radians = _core.deg2rad

__all__ = sorted(_PUBLIC + ["true_divide", "mod", "abs", "conj", "around", "degrees",
                            "radians"])
