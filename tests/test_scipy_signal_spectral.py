"""cuarray.scipy.signal's spectral analysis against SciPy: periodogram, welch,
csd, coherence, spectrogram, stft, istft, check_COLA, check_NOLA, lombscargle,
vectorstrength (both routes on the cpu device, see signal_helpers). Tolerances:
float64 1e-9 relative to the largest value (batched FFTs sum in another order
than pocketfft), float32 2e-4 (angles: 1e-3, near +-pi a float32 phase flips
within rounding)."""

import warnings

import numpy as np
import pytest
import scipy.signal as ss

import cuarray.scipy.signal as cs

from conftest import random_array
from signal_helpers import dev, near, near_all, route, same_error  # noqa: F401


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Input data is complex")
        warnings.filterwarnings("ignore", "nperseg ?= ?[0-9]+ is greater")
        yield


DTYPES = [np.float32, np.float64, np.complex64, np.complex128, np.int32]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("kw", [dict(nperseg=100), dict(nperseg=64, noverlap=10, nfft=100),
                                dict(nperseg=64, average="median", detrend="linear"),
                                dict(window="hamming", scaling="spectrum", nperseg=50),
                                dict(nperseg=32, detrend=False, return_onesided=False)])
def test_welch_csd(route, device, dtype, kw):
    x, y = random_array((2, 700), dtype), random_array((2, 700), dtype, np.random.default_rng(3))
    near_all(cs.welch(dev(x, device), **kw), ss.welch(x, **kw))
    near_all(cs.welch(dev(x.T, device), axis=0, **kw), ss.welch(x.T, axis=0, **kw))
    near_all(cs.csd(dev(x, device), dev(y, device), **kw), ss.csd(x, y, **kw))


@pytest.mark.parametrize("dtype", DTYPES)
def test_periodogram_coherence(route, device, dtype):
    x, y = random_array((3, 256), dtype), random_array((3, 256), dtype, np.random.default_rng(3))
    near_all(cs.periodogram(dev(x, device)), ss.periodogram(x))
    near_all(cs.periodogram(dev(x, device), 10.0, "hann", 200, scaling="spectrum"),
             ss.periodogram(x, 10.0, "hann", 200, scaling="spectrum"))
    near_all(cs.periodogram(dev(x, device), nfft=300, axis=-1), ss.periodogram(x, nfft=300))
    if np.dtype(dtype).kind != "c":
        near_all(cs.coherence(dev(x, device), dev(y, device), nperseg=64),
                 ss.coherence(x, y, nperseg=64))


@pytest.mark.parametrize("mode", ["psd", "complex", "magnitude", "angle", "phase"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_spectrogram(route, device, mode, dtype):
    x = random_array((2, 500), dtype)
    want = ss.spectrogram(x, nperseg=64, mode=mode)
    rtol = 1e-3 if mode in ("angle", "phase") and dtype == np.float32 else None
    check = near_angles if mode == "angle" else near_all
    check(cs.spectrogram(dev(x, device), nperseg=64, mode=mode), want, rtol)
    check(cs.spectrogram(dev(x.T, device), 2.0, ("tukey", 0.5), 50, 20, axis=0, mode=mode),
          ss.spectrogram(x.T, 2.0, ("tukey", 0.5), 50, 20, axis=0, mode=mode), rtol)


def near_angles(got, want, rtol):
    """spectrogram's (f, t, angles) with the angles compared modulo 2 pi: a real
    bin (DC, Nyquist) is +-pi by the sign of a rounding-sized imaginary part."""
    near_all(got[:2], want[:2], rtol)
    g = got[2].get()
    w = np.asarray(want[2])
    diff = np.mod(g.astype(np.float64) - w + np.pi, 2 * np.pi) - np.pi
    near((w + diff).astype(w.dtype), w, rtol)
    assert g.dtype == w.dtype


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("kw", [dict(nperseg=64), dict(nperseg=64, noverlap=40),
                                dict(nperseg=50, noverlap=13, nfft=80, boundary="even"),
                                dict(nperseg=32, boundary=None, padded=False, scaling="psd"),
                                dict(nperseg=40, boundary="odd", detrend="constant")])
def test_stft_istft(route, device, dtype, kw):
    x = random_array((2, 400), dtype)
    want = ss.stft(x, **kw)
    got = cs.stft(dev(x, device), **kw)
    near_all(got, want)
    ikw = {k: v for k, v in kw.items() if k in ("nperseg", "noverlap", "nfft")}
    ikw["input_onesided"] = np.dtype(dtype).kind != "c"
    ikw["boundary"] = kw.get("boundary", "zeros") is not None
    if kw.get("scaling") == "psd":
        ikw["scaling"] = "psd"
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "NOLA condition failed")
        near_all(cs.istft(dev(want[2], device), **ikw), ss.istft(want[2], **ikw))
        Z = np.moveaxis(want[2], (-1, -2), (0, 1))
        near_all(cs.istft(dev(Z, device), time_axis=0, freq_axis=1, **ikw),
                 ss.istft(Z, time_axis=0, freq_axis=1, **ikw))


def test_spectral_errors(route, device):
    x = np.ones(100)
    xd = dev(x, device)
    for kw in [dict(nperseg=0), dict(nperseg=10, noverlap=10), dict(nperseg=10, nfft=5),
               dict(scaling="nope"), dict(average="nope", nperseg=20), dict(window=np.ones((2, 2)))]:
        same_error(lambda: ss.welch(x, **kw), lambda: cs.welch(xd, **kw))
    same_error(lambda: ss.spectrogram(x, mode="nope"), lambda: cs.spectrogram(xd, mode="nope"))
    same_error(lambda: ss.stft(x, boundary="nope"), lambda: cs.stft(xd, boundary="nope"))
    same_error(lambda: ss.stft(x, scaling="nope"), lambda: cs.stft(xd, scaling="nope"))
    Z = ss.stft(x, nperseg=16)[2]
    for kw in [dict(time_axis=0, freq_axis=0), dict(nperseg=0), dict(noverlap=20)]:
        same_error(lambda: ss.istft(Z, **kw), lambda: cs.istft(dev(Z, device), **kw))
    same_error(lambda: ss.istft(np.ones(4)), lambda: cs.istft(dev(np.ones(4), device)))


def test_empty_and_short(route, device):
    near_all(cs.welch(dev(np.zeros((2, 0)), device)), ss.welch(np.zeros((2, 0))))
    x = random_array((30,), np.float64)
    near_all(cs.welch(dev(x, device)), ss.welch(x))           # nperseg cut to 30
    near_all(cs.welch(dev(x, device), average="nope"), ss.welch(x, average="nope"))


@pytest.mark.parametrize("window", ["hann", ("tukey", 0.3), "boxcar", "hamming"])
@pytest.mark.parametrize("nperseg,noverlap", [(64, 32), (64, 48), (50, 10), (16, 0)])
def test_cola_nola(device, window, nperseg, noverlap):
    assert cs.check_COLA(window, nperseg, noverlap) == ss.check_COLA(window, nperseg, noverlap)
    assert cs.check_NOLA(window, nperseg, noverlap) == ss.check_NOLA(window, nperseg, noverlap)
    w = ss.get_window(window, nperseg)
    assert cs.check_NOLA(dev(w, device), nperseg, noverlap) == \
        ss.check_NOLA(w, nperseg, noverlap)


@pytest.mark.filterwarnings("ignore:Use of parameter 'precenter':DeprecationWarning")
def test_lombscargle(route, device):
    rng = np.random.default_rng(0)
    t = np.sort(rng.random(200)) * 10
    y = np.sin(3 * t) + 0.1 * rng.standard_normal(200) + 0.5
    f = np.linspace(0.5, 6, 80)
    wts = rng.random(200)
    for kw in [{}, dict(normalize=True), dict(precenter=True), dict(floating_mean=True),
               dict(normalize="amplitude"), dict(normalize="amplitude", floating_mean=True),
               dict(normalize=True, floating_mean=True)]:
        near(cs.lombscargle(dev(t, device), dev(y, device), dev(f, device), **kw),
             ss.lombscargle(t, y, f, **kw))
        near(cs.lombscargle(dev(t, device), dev(y, device), dev(f, device),
                            weights=dev(wts, device), **kw),
             ss.lombscargle(t, y, f, weights=wts, **kw))
    near(cs.lombscargle(dev(t, device), dev(y, device), dev(f[:1], device)),
         ss.lombscargle(t, y, f[:1]))
    for args, kw in [((t, y[:5], f), {}), ((t, y, f[:0]), {}), ((t, y, f), dict(normalize="x")),
                     ((t, y, f), dict(weights=-wts))]:
        same_error(lambda: ss.lombscargle(*args, **kw),
                   lambda: cs.lombscargle(*(dev(a, device) for a in args),
                                          **{k: dev(v, device) if k == "weights" else v
                                             for k, v in kw.items()}))


def test_vectorstrength(route, device):
    e = np.sort(np.random.default_rng(1).random(50)) * 20
    near_all(cs.vectorstrength(dev(e, device), 2.5), ss.vectorstrength(e, 2.5))
    near_all(cs.vectorstrength(dev(e, device), dev([2.5, 1.0, 0.3], device)),
             ss.vectorstrength(e, [2.5, 1.0, 0.3]))
    for p in [0.0, np.ones((2, 2))]:
        same_error(lambda: ss.vectorstrength(e, p),
                   lambda: cs.vectorstrength(dev(e, device), dev(p, device)))


@pytest.mark.parametrize("name", ["hann", "hamming", "blackman", ("tukey", 0.25)])
@pytest.mark.parametrize("fftbins", [True, False])
def test_window_symmetry_names(device, name, fftbins):
    """SciPy 1.17's window names with _periodic/_symmetric (the spectral defaults)."""
    for suffix in ("_periodic", "_symmetric"):
        w = (name[0] + suffix,) + name[1:] if isinstance(name, tuple) else name + suffix
        near(cs.get_window(w, 16, fftbins, device=device), ss.get_window(w, 16, fftbins))
