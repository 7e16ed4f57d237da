"""Linear time-invariant systems and small polynomial routines (SciPy's
scipy.signal): the lti/dlti classes and StateSpace, TransferFunction,
ZerosPolesGain; their responses (impulse, step, lsim, bode, freqresp and the
discrete dimpulse, dstep, dlsim, dbode, dfreqresp), conversions (abcd_normalize,
ss2tf, ss2zpk, tf2ss, zpk2ss, cont2discrete), place_poles, partial fractions
(residue, residuez, invres, invresz, unique_roots), findfreqs, band_stop_obj,
gammatone, minimum_phase.

Choice: host math, as _filter_design's: systems are a few coefficients (small
matrices, polynomial roots, eigenvalue placement), where a device gains nothing.
The functions take cuarray or NumPy arrays (a system may be a tuple of them) and
return their array results as cuarray arrays on the inputs' device (the default
device when none is a cuarray array). lsim and dlsim simulate a given input
signal on the host too (the signal is copied; these systems' state is a few
values and SciPy's solvers are matrix-exponential steps). The classes are SciPy's
own: constructing one through cuarray.scipy.signal copies cuarray arguments to
the host, isinstance checks accept SciPy's instances, and their attributes and
methods are NumPy's (host objects).
"""

from ._filter_design import _host_design
from ._util import host, scipy_signal

_FUNCS = ["abcd_normalize", "band_stop_obj", "bode", "cont2discrete", "dbode",
          "dfreqresp", "dimpulse", "dlsim", "dstep", "findfreqs", "freqresp",
          "gammatone", "impulse", "invres", "invresz", "lsim", "minimum_phase",
          "place_poles", "residue", "residuez", "ss2tf", "ss2zpk", "step", "tf2ss",
          "unique_roots", "zpk2ss"]
_CLASSES = ["StateSpace", "TransferFunction", "ZerosPolesGain", "dlti", "lti"]

__all__ = list(_FUNCS)      # the classes come through the package __getattr__


for _name in _FUNCS:
    globals()[_name] = _host_design(_name, __name__, "a few coefficients")
del _name

_CLASS_CACHE = {}


def lti_class(name):
    """SciPy's class `name` behind a constructor that copies cuarray arguments to
    the host; isinstance accepts SciPy's instances (made on first use, so SciPy
    is imported only then)."""
    if name in _CLASS_CACHE:
        return _CLASS_CACHE[name]
    base = getattr(scipy_signal(), name)

    class _Meta(type(base)):
        def __instancecheck__(cls, obj):
            return isinstance(obj, base)

        def __subclasscheck__(cls, sub):
            return issubclass(sub, base)

    def __new__(cls, *system, **kwargs):
        return base(*[host(s) for s in system], **{k: host(v) for k, v in kwargs.items()})

    cls = _Meta(name, (base,), {"__new__": __new__, "__module__": "cuarray.scipy.signal",
                                "__doc__": f"SciPy's scipy.signal.{name} (a host object; "
                                           "cuarray arguments are copied to the host)."})
    _CLASS_CACHE[name] = cls
    return cls
