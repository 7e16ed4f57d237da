"""cuarray.scipy.signal's recurrences and resampling against SciPy: lfilter,
lfiltic, lfilter_zi, filtfilt, sosfilt, sosfilt_zi, sosfiltfilt, decimate,
deconvolve, upfirdn, resample_poly.

Tests that take `route` run twice on the cpu device: SciPy's own routine on views
('scipy') and the compositions a GPU runs ('composition'). Tolerances: float64
1e-9 relative to the output's scale (the blocked state-space form sums a block's
samples in a different order than SciPy's loop; the errors stay ~1e-13 for these
filters), float32 2e-4."""

import numpy as np
import pytest
import scipy.signal as ss

import cuarray.scipy.signal as cs
from cuarray.scipy.signal import _lfilter

from conftest import random_array
from signal_helpers import dev, near, near_all, route, same_error  # noqa: F401


BA = {"butter4": ss.butter(4, 0.2), "cheby1_3": ss.cheby1(3, 1, [0.1, 0.4], "band"),
      "fir": (np.array([0.5, 0.3, -0.2, 0.1]), np.array([1.0])),
      "long_fir": (np.hanning(45), np.array([2.0])),
      "integrator": (np.array([1.0]), np.array([1.0, -1.0])),
      "unnormalized": (np.array([1.0, 2.0, 1.0]), np.array([2.0, 0.5, 0.2]))}


@pytest.mark.parametrize("filt", sorted(BA))
@pytest.mark.parametrize("n", [1, 7, 256, 300, 3000])
def test_lfilter(route, device, filt, n):
    b, a = BA[filt]
    x = random_array((3, n), np.float64)
    near(cs.lfilter(b, a, dev(x, device)), ss.lfilter(b, a, x))
    zi = random_array((3, max(len(a), len(b)) - 1), np.float64, np.random.default_rng(5))
    near_all(cs.lfilter(b, a, dev(x, device), zi=dev(zi, device)),
             ss.lfilter(b, a, x, zi=zi))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128,
                                   np.int16, np.int64])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_lfilter_dtypes_axes(route, device, dtype, axis):
    b, a = BA["butter4"]
    b32, a32 = b.astype(np.float32), a.astype(np.float32)
    x = random_array((40, 30), dtype)
    if np.dtype(dtype).kind in "iu":
        same_error(lambda: ss.lfilter([1, 2], [1, 3], x),
                   lambda: cs.lfilter([1, 2], [1, 3], dev(x, device)))
    near(cs.lfilter(b32, a32, dev(x, device), axis=axis), ss.lfilter(b32, a32, x, axis=axis))
    near(cs.lfilter(b, a, dev(x, device), axis=axis), ss.lfilter(b, a, x, axis=axis))


def test_lfilter_zi_broadcast_and_edges(route, device):
    b, a = BA["butter4"]
    x = random_array((4, 50), np.float64)
    zi = random_array((1, 4), np.float64)
    near_all(cs.lfilter(b, a, dev(x, device), zi=dev(zi, device)), ss.lfilter(b, a, x, zi=zi))
    near_all(cs.lfilter([1, 2, 3], [1.0], dev(x, device), zi=dev(zi[:, :2], device)),
             ss.lfilter([1, 2, 3], [1.0], x, zi=zi[:, :2]))
    # an empty signal: y empty and the state unchanged (SciPy 1.17's zf is
    # uninitialized memory here, so the state is checked against zi)
    y, zf = cs.lfilter(b, a, dev(np.zeros((2, 0)), device), zi=dev(np.ones((2, 4)), device))
    near(y, np.zeros((2, 0)))
    near(zf, np.ones((2, 4)))
    xd = dev(x, device)
    for bad in [lambda m: m.lfilter([[1, 2]], [1, 1], x if m is ss else xd),
                lambda m: m.lfilter([1, 2], [], x if m is ss else xd),
                lambda m: m.lfilter([1, 2], [0, 1], x if m is ss else xd),
                lambda m: m.lfilter([1, 2], [1, 1], x if m is ss else xd, axis=2),
                lambda m: m.lfilter([1, 2, 3], [1, 1], x if m is ss else xd,
                                    zi=np.ones((4, 1)) if m is ss else
                                    dev(np.ones((4, 1)), device))]:
        same_error(lambda: bad(ss), lambda: bad(cs))


def test_lfiltic_and_zi(device):
    b, a = BA["butter4"]
    near(cs.lfiltic(b, a, dev([1.0, 2, 3], device), dev([0.5, 0.1], device)),
         ss.lfiltic(b, a, [1.0, 2, 3], [0.5, 0.1]))
    near(cs.lfilter_zi(dev(b, device), dev(a, device)), ss.lfilter_zi(b, a))
    sos = ss.butter(6, 0.3, output="sos")
    near(cs.sosfilt_zi(dev(sos, device)), ss.sosfilt_zi(sos))
    assert cs.lfilter_zi(dev(b, device), dev(a, device)).device == device


SOS = {"butter8": ss.butter(8, 0.1, output="sos"),
       "ellip_band": ss.ellip(4, 0.5, 40, [0.2, 0.3], "band", output="sos"),
       "one": ss.butter(2, 0.4, output="sos")}


@pytest.mark.parametrize("name", sorted(SOS))
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("n", [5, 600])
def test_sosfilt(route, device, name, dtype, n):
    sos = SOS[name]
    x = random_array((2, n), dtype)
    near(cs.sosfilt(sos, dev(x, device)), ss.sosfilt(sos, x))
    near(cs.sosfilt(sos.astype(np.float32), dev(x.T, device), axis=0),
         ss.sosfilt(sos.astype(np.float32), x.T, axis=0))
    zi = random_array((len(sos), 2, 2), np.float64)
    near_all(cs.sosfilt(sos, dev(x, device), zi=dev(zi, device)), ss.sosfilt(sos, x, zi=zi),
             None if np.dtype(dtype) != np.float64 else 1e-8)


def test_sosfilt_errors(route, device):
    x = dev(np.ones(10), device)
    for sos in [np.ones((2, 2, 6)), np.ones((2, 5)), np.array([[1, 0, 0, 2, 0, 0.]])]:
        same_error(lambda: ss.sosfilt(sos, np.ones(10)), lambda: cs.sosfilt(sos, x))
    sos = SOS["one"]
    same_error(lambda: ss.sosfilt(sos, np.ones(10), zi=np.ones((1, 3))),
               lambda: cs.sosfilt(sos, x, zi=dev(np.ones((1, 3)), device)))
    same_error(lambda: ss.sosfilt(sos.astype(int), np.ones(10, int)),
               lambda: cs.sosfilt(sos.astype(int), dev(np.ones(10, int), device)))


@pytest.mark.parametrize("padtype", ["odd", "even", "constant", None])
@pytest.mark.parametrize("filt", ["butter4", "fir", "unnormalized"])
def test_filtfilt(route, device, padtype, filt):
    b, a = BA[filt]
    x = random_array((3, 200), np.float64)
    near(cs.filtfilt(b, a, dev(x, device), padtype=padtype),
         ss.filtfilt(b, a, x, padtype=padtype))
    near(cs.filtfilt(b, a, dev(x.T, device), axis=0, padtype=padtype, padlen=20),
         ss.filtfilt(b, a, x.T, axis=0, padtype=padtype, padlen=20))
    near(cs.sosfiltfilt(SOS["butter8"], dev(x, device), padtype=padtype),
         ss.sosfiltfilt(SOS["butter8"], x, padtype=padtype))


@pytest.mark.parametrize("irlen", [None, 40])
def test_filtfilt_gust(route, device, irlen):
    b, a = BA["butter4"]
    x = random_array((2, 300), np.float64)
    near(cs.filtfilt(b, a, dev(x, device), method="gust", irlen=irlen),
         ss.filtfilt(b, a, x, method="gust", irlen=irlen))
    near(cs.filtfilt([2.0], [1.0], dev(x, device), method="gust"),
         ss.filtfilt([2.0], [1.0], x, method="gust"))


def test_filtfilt_errors(route, device):
    b, a = BA["butter4"]
    x = np.ones(10)
    for kw in [dict(padtype="nope"), dict(method="nope"), dict(padlen=10)]:
        same_error(lambda: ss.filtfilt(b, a, x, **kw),
                   lambda: cs.filtfilt(b, a, dev(x, device), **kw))
    same_error(lambda: ss.sosfiltfilt(SOS["butter8"], x),
               lambda: cs.sosfiltfilt(SOS["butter8"], dev(x, device)))


@pytest.mark.parametrize("ftype", ["iir", "fir"])
@pytest.mark.parametrize("zero_phase", [True, False])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_decimate(route, device, ftype, zero_phase, dtype):
    x = random_array((2, 500), dtype)
    near(cs.decimate(dev(x, device), 4, ftype=ftype, zero_phase=zero_phase),
         ss.decimate(x, 4, ftype=ftype, zero_phase=zero_phase))
    near(cs.decimate(dev(x.T, device), 3, n=6, ftype=ftype, axis=0, zero_phase=zero_phase),
         ss.decimate(x.T, 3, n=6, ftype=ftype, axis=0, zero_phase=zero_phase))


@pytest.mark.filterwarnings("ignore::scipy.signal.BadCoefficients")
def test_decimate_dlti_and_errors(route, device):
    x = random_array((300,), np.float64)
    system = ss.dlti(*ss.butter(4, 0.2))
    near(cs.decimate(dev(x, device), 2, ftype=system), ss.decimate(x, 2, ftype=system))
    fir = ss.dlti(ss.firwin(21, 0.3), [1.0])
    near(cs.decimate(dev(x, device), 2, ftype=fir), ss.decimate(x, 2, ftype=fir))
    same_error(lambda: ss.decimate(x, 2, ftype="nope"),
               lambda: cs.decimate(dev(x, device), 2, ftype="nope"))
    same_error(lambda: ss.decimate(x, 2.5), lambda: cs.decimate(dev(x, device), 2.5))


def test_deconvolve(route, device):
    sig = np.convolve([1.0, 2, 3], [4.0, 5, 6, 7]) + np.r_[0, 0, 0, 0, 0, 1.0]
    near_all(cs.deconvolve(dev(sig, device), dev([1.0, 2, 3], device)),
             ss.deconvolve(sig, [1.0, 2, 3]))
    near_all(cs.deconvolve(dev([1.0, 2], device), dev([1.0, 2, 3], device)),
             ss.deconvolve([1.0, 2], [1.0, 2, 3]))


# ---- upfirdn / resample_poly -------------------------------------------------

MODES = ["constant", "wrap", "edge", "smooth", "symmetric", "reflect", "antisymmetric",
         "antireflect", "line"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n", [2, 3, 7, 50])
@pytest.mark.parametrize("taps", [1, 3, 8, 40])
def test_upfirdn_modes(route, device, mode, n, taps):
    rng = np.random.default_rng(n * 100 + taps)
    x, h = rng.standard_normal(n), rng.standard_normal(taps)
    for up, down in [(1, 1), (2, 1), (1, 3), (3, 2), (5, 7)]:
        near(cs.upfirdn(h, dev(x, device), up, down, mode=mode, cval=2.5),
             ss.upfirdn(h, x, up, down, mode=mode, cval=2.5))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.int64])
@pytest.mark.parametrize("axis", [0, -1])
def test_upfirdn_dtypes(route, device, dtype, axis):
    x = random_array((20, 30), dtype)
    h = np.array([1.0, -2, 0.5], np.float32)
    near(cs.upfirdn(h, dev(x, device), 3, 2, axis=axis), ss.upfirdn(h, x, 3, 2, axis=axis))
    for args in [(np.ones((2, 2)), 1, 1), (np.ones(3), 0, 1), (np.ones(3), 1, -1)]:
        same_error(lambda: ss.upfirdn(args[0], x, *args[1:]),
                   lambda: cs.upfirdn(args[0], dev(x, device), *args[1:]))


@pytest.mark.parametrize("padtype", ["constant", "mean", "median", "minimum", "maximum",
                                     "line", "edge", "smooth"])
@pytest.mark.parametrize("updown", [(3, 2), (1, 4), (5, 1), (4, 6)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_resample_poly(route, device, padtype, updown, dtype):
    x = random_array((3, 120), dtype)
    near(cs.resample_poly(dev(x, device), *updown, axis=1, padtype=padtype),
         ss.resample_poly(x, *updown, axis=1, padtype=padtype))


def test_resample_poly_window_and_errors(route, device):
    x = random_array((100,), np.float64)
    w = ss.firwin(31, 0.3)
    near(cs.resample_poly(dev(x, device), 2, 3, window=w), ss.resample_poly(x, 2, 3, window=w))
    near(cs.resample_poly(dev(x, device), 2, 3, window=("kaiser", 8.0), padtype="constant",
                          cval=1.5),
         ss.resample_poly(x, 2, 3, window=("kaiser", 8.0), cval=1.5))
    near(cs.resample_poly(dev(x, device), 2, 2), ss.resample_poly(x, 2, 2))
    for args, kw in [((2.5, 1), {}), ((0, 1), {}), ((2, 1), dict(padtype="nope")),
                     ((2, 1), dict(padtype="mean", cval=1.0))]:
        same_error(lambda: ss.resample_poly(x, *args, **kw),
                   lambda: cs.resample_poly(dev(x, device), *args, **kw))


def test_block_recurrence_long_signal(device, monkeypatch):
    """A signal of many blocks (the doubling scan's log2 steps) stays within
    rounding of SciPy's loop, and the final state matches."""
    monkeypatch.setattr(_lfilter, "CPU_SCIPY", False)
    sos = SOS["butter8"]
    x = random_array((20000,), np.float64)
    near(_lfilter.sosfilt(sos, dev(x, device)), ss.sosfilt(sos, x))
    zi = np.ones((len(sos), 2))
    near_all(_lfilter.sosfilt(sos, dev(x, device), zi=dev(zi, device)),
             ss.sosfilt(sos, x, zi=zi))
    # float32: the block matrices are float64 host math rounded once, so the
    # error stays SciPy's own float32 loop's size (against a float64 reference)
    ref = ss.sosfilt(sos, x)
    got = _lfilter.sosfilt(sos.astype(np.float32), dev(x.astype(np.float32), device)).get()
    own = ss.sosfilt(sos.astype(np.float32), x.astype(np.float32))
    scale = np.abs(ref).max()
    assert np.abs(got - ref).max() <= 2 * np.abs(own - ref).max() + 1e-6 * scale
