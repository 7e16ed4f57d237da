"""cuarray.scipy.signal.windows and get_window against SciPy: every window, every
length 0..12, symmetric and periodic, on each device."""

import warnings

import numpy as np
import pytest
import scipy.signal as ss
import scipy.signal.windows as sw

import cuarray as ca
import cuarray.scipy.signal as cs
import cuarray.scipy.signal.windows as cw

PARAMS = {"kaiser": (3.0,), "chebwin": (50,), "gaussian": (2.5,),
          "general_gaussian": (1.5, 3.0), "general_hamming": (0.6,),
          "general_cosine": ([0.5, 0.3, 0.2],), "tukey": (0.3,),
          "kaiser_bessel_derived": (4.0,), "taylor": (5, 35)}
NAMES = [n for n in cw.__all__ if n != "get_window"]


def _same(got, want):
    assert isinstance(got, ca.ndarray)
    g = got.get()
    assert g.shape == want.shape and g.dtype == want.dtype
    np.testing.assert_allclose(g, want, rtol=1e-12, atol=1e-14)


def _outcome(fn):
    try:
        return fn(), None
    except Exception as e:      # the error type is what is compared
        return None, type(e)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("sym", [True, False])
def test_window(device, name, sym):
    args = PARAMS.get(name, ())
    kw = {} if name == "general_cosine" else {"device": device}
    for M in range(13):
        want, werr = _outcome(lambda: getattr(sw, name)(M, *args, sym=sym))
        got, gerr = _outcome(lambda: getattr(cw, name)(M, *args, sym=sym, **kw))
        assert werr == gerr, (M, werr, gerr)
        if want is not None:
            _same(got, want)
            if name != "general_cosine":
                assert got.device == device


@pytest.mark.parametrize("params", [dict(alpha=0), dict(alpha=1), dict(alpha=0.99)])
def test_tukey_limits(params):
    _same(cw.tukey(9, **params), sw.tukey(9, **params))


def test_exponential_center_and_errors():
    _same(cw.exponential(8, 2, 3.0, False), sw.exponential(8, 2, 3.0, False))
    with pytest.raises(ValueError):
        cw.exponential(8, 2, 3.0, True)
    for bad in (-1, 2.5):
        with pytest.raises(ValueError):
            sw.hann(bad)
        with pytest.raises(ValueError):
            cw.hann(bad)


def test_chebwin_warns():
    with pytest.warns(UserWarning):
        cw.chebwin(10, 30)


WINDOWS = ["hann", "hamming", "boxcar", "triang", "blackman", "bartlett", "flattop",
           "parzen", "bohman", "blackmanharris", "nuttall", "barthann", "cosine",
           "lanczos", "tukey", "taylor", "exponential", "rect", "ham", "tri", "sinc",
           ("kaiser", 4.0), ("gaussian", 2.0), ("general_gaussian", 1.5, 2.0),
           ("chebwin", 60), ("tukey", 0.8), ("general_hamming", 0.7),
           ("general_cosine", [0.5, 0.5]), ("exponential", None, 2.0), 6.5,
           ("kbd", 3.0)]


@pytest.mark.parametrize("window", WINDOWS, ids=str)
@pytest.mark.parametrize("fftbins", [True, False])
@pytest.mark.parametrize("Nx", [1, 8, 9])
def test_get_window(device, window, fftbins, Nx):
    want, werr = _outcome(lambda: ss.get_window(window, Nx, fftbins))
    got, gerr = _outcome(lambda: cs.get_window(window, Nx, fftbins, device=device))
    assert werr == gerr
    if want is not None:
        _same(got, want)


@pytest.mark.parametrize("window", ["kaiser", "nope", (), ("nope", 1), [1, 2], "gaussian"],
                         ids=str)
def test_get_window_errors(window):
    with pytest.raises(Exception) as want:
        ss.get_window(window, 8)
    with pytest.raises(want.type):
        cw.get_window(window, 8)
