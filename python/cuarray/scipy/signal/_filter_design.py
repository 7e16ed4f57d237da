"""Filter design (SciPy's scipy.signal filter design: IIR, FIR, conversions
between representations, frequency responses).

Choice: these run SciPy's own routine on the host and return cuarray arrays on
the default device (the coefficient arrays' device when cuarray arrays come in),
as CuPy's return device arrays of host math. They work on a handful of
coefficients (polynomial roots, elliptic functions, small least-squares
systems), where a device gains nothing and a rewrite would only add ways to
differ from SciPy; SciPy is the optional dependency `pip install cuarray[scipy]`,
and a missing SciPy raises an ImportError that says so. Scalars (orders, beta,
attenuations) come back as SciPy gives them.
"""

from ._util import back, host, scipy_signal

_NAMES = ["bilinear", "bilinear_zpk", "buttap", "butter", "buttord", "cheb1ap",
          "cheb1ord", "cheb2ap", "cheb2ord", "cheby1", "cheby2", "ellip", "ellipap",
          "ellipord", "firls", "firwin", "firwin2", "freqs", "freqs_zpk", "freqz",
          "freqz_sos", "freqz_zpk", "group_delay", "iircomb", "iirdesign", "iirfilter",
          "iirnotch", "iirpeak", "kaiser_atten", "kaiser_beta", "kaiserord", "lp2bp",
          "lp2bp_zpk", "lp2bs", "lp2bs_zpk", "lp2hp", "lp2hp_zpk", "lp2lp", "lp2lp_zpk",
          "normalize", "savgol_coeffs", "sos2tf", "sos2zpk", "sosfreqz", "tf2sos",
          "tf2zpk", "zpk2sos", "zpk2tf"]

__all__ = list(_NAMES)


def _host_design(name, module=__name__, what="a few coefficients"):
    """cuarray's name for SciPy's function `name`: arguments to the host, array
    results back to the inputs' device (the first cuarray array among them, in
    tuples too; the default device when none is). SciPy is imported on the first
    call, not when this module is."""
    def design(*args, **kwargs):
        dev = _device(list(args) + list(kwargs.values()))
        fn = getattr(scipy_signal(), name)
        args = [host(a) for a in args]
        kwargs = {k: host(v) for k, v in kwargs.items()}
        return _back(fn(*args, **kwargs), dev)

    design.__name__ = design.__qualname__ = name
    design.__module__ = module
    design.__doc__ = (f"SciPy's scipy.signal.{name} on the host ({what}), array "
                      "results as cuarray arrays on the inputs' or the default device "
                      f"(see {module}).")
    return design


def _device(args):
    import cuarray as _ca
    for a in args:
        if isinstance(a, _ca.ndarray):
            return a.device
        if isinstance(a, (tuple, list)):
            d = _device(a)
            if d is not None:
                return d
    return None


def _back(r, dev):
    """back() that also converts the arrays of SciPy's result objects (the
    place_poles Bunch: a dict with attribute access)."""
    if isinstance(r, dict) and hasattr(r, "__getattr__"):
        for k, v in list(r.items()):
            r[k] = back(v, dev)
        return r
    return back(r, dev)


for _name in _NAMES:
    globals()[_name] = _host_design(_name)
del _name
