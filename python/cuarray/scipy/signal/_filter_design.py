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

from ._util import back, device_of, host, scipy_signal

_NAMES = ["bilinear", "bilinear_zpk", "buttap", "butter", "buttord", "cheb1ap",
          "cheb1ord", "cheb2ap", "cheb2ord", "cheby1", "cheby2", "ellip", "ellipap",
          "ellipord", "firls", "firwin", "firwin2", "freqs", "freqs_zpk", "freqz",
          "freqz_sos", "freqz_zpk", "group_delay", "iircomb", "iirdesign", "iirfilter",
          "iirnotch", "iirpeak", "kaiser_atten", "kaiser_beta", "kaiserord", "lp2bp",
          "lp2bp_zpk", "lp2bs", "lp2bs_zpk", "lp2hp", "lp2hp_zpk", "lp2lp", "lp2lp_zpk",
          "normalize", "savgol_coeffs", "sos2tf", "sos2zpk", "sosfreqz", "tf2sos",
          "tf2zpk", "zpk2sos", "zpk2tf"]

__all__ = list(_NAMES)


def _host_design(name):
    """cuarray's name for SciPy's design function `name`: arguments to the host,
    array results back to the device. SciPy is imported on the first call, not
    when this module is."""
    def design(*args, **kwargs):
        dev = device_of(*args, *kwargs.values())
        fn = getattr(scipy_signal(), name)
        args = [host(a) for a in args]
        kwargs = {k: host(v) for k, v in kwargs.items()}
        return back(fn(*args, **kwargs), dev)

    design.__name__ = design.__qualname__ = name
    design.__module__ = __name__
    design.__doc__ = (f"SciPy's scipy.signal.{name} on the host, array results as "
                      "cuarray arrays on the default device or the inputs' (see "
                      "cuarray.scipy.signal._filter_design).")
    return design


for _name in _NAMES:
    globals()[_name] = _host_design(_name)
del _name
