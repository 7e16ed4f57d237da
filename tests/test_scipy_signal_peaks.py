"""cuarray.scipy.signal's peak finding, rank filters and Savitzky-Golay filter
against SciPy: argrelextrema/argrelmax/argrelmin, find_peaks, peak_prominences,
peak_widths, order_filter, medfilt, medfilt2d, wiener, savgol_filter (both routes
on the cpu device, see signal_helpers). Index results exactly; rank filters
exactly (they select elements); wiener and savgol 1e-9 (float32 2e-4)."""

import numpy as np
import pytest
import scipy.signal as ss

import cuarray.scipy.signal as cs

from conftest import random_array
from signal_helpers import dev, near, near_all, route, same_error  # noqa: F401


def plateaus(n, seed=0):
    """Rounded noise: many equal neighbours, so plateaus of every width."""
    return np.round(np.random.default_rng(seed).standard_normal(n) * 2)


@pytest.mark.parametrize("order", [1, 2, 4])
@pytest.mark.parametrize("mode", ["clip", "wrap"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_argrel(route, device, order, mode, dtype):
    x = random_array((6, 50), dtype)
    for axis in (0, 1):
        near_all(cs.argrelmax(dev(x, device), axis, order, mode),
                 ss.argrelmax(x, axis, order, mode))
        near_all(cs.argrelmin(dev(x, device), axis, order, mode),
                 ss.argrelmin(x, axis, order, mode))
        near_all(cs.argrelextrema(dev(x, device), np.greater_equal, axis, order, mode),
                 ss.argrelextrema(x, np.greater_equal, axis, order, mode))
    same_error(lambda: ss.argrelmax(x, order=0), lambda: cs.argrelmax(dev(x, device), order=0))


KWARGS = [{}, dict(height=1), dict(height=(0, 3)), dict(threshold=1),
          dict(threshold=(0.5, 2)), dict(plateau_size=2), dict(plateau_size=(1, 1)),
          dict(height=np.linspace(-1, 2, 400)), dict(plateau_size=1, height=0, threshold=0),
          dict(distance=5), dict(prominence=2), dict(width=2, rel_height=0.7),
          dict(prominence=(1, 4), wlen=21, distance=3)]


@pytest.mark.parametrize("kw", KWARGS, ids=[",".join(k) or "none" for k in KWARGS])
@pytest.mark.parametrize("seed", [0, 1])
def test_find_peaks(route, device, kw, seed):
    x = plateaus(400, seed)
    near_all(cs.find_peaks(dev(x, device), **kw), ss.find_peaks(x, **kw))


def test_find_peaks_edges(route, device):
    for x in [np.array([1.0, 2, 2, 2, 1]), np.array([3.0, 1, 3]), np.array([1.0, 2, 2]),
              np.array([2.0]), np.array([1.0, 3, 1, 3, 3, 1])]:
        near_all(cs.find_peaks(dev(x, device)), ss.find_peaks(x))
        near_all(cs.find_peaks(dev(x, device), plateau_size=1),
                 ss.find_peaks(x, plateau_size=1))
    same_error(lambda: ss.find_peaks(np.ones((2, 3))),
               lambda: cs.find_peaks(dev(np.ones((2, 3)), device)))


@pytest.mark.filterwarnings("ignore:some peaks have a:RuntimeWarning")
@pytest.mark.parametrize("kind", ["plateaus", "smooth", "long"])
def test_prominences_widths(route, device, kind):
    rng = np.random.default_rng(3)
    x = {"plateaus": plateaus(300, 3),
         "smooth": np.cumsum(rng.standard_normal(300)),
         "long": np.sin(np.linspace(0, 60, 5000)) * np.linspace(1, 3, 5000)
         + 0.3 * rng.standard_normal(5000)}[kind]
    peaks, _ = ss.find_peaks(x)
    for wlen in (None, 15, 2.5, 1000):
        want = ss.peak_prominences(x, peaks, wlen)
        near_all(cs.peak_prominences(dev(x, device), dev(peaks, device), wlen), want)
        for rel in (0.0, 0.5, 1.0, 2.0):
            near_all(cs.peak_widths(dev(x, device), dev(peaks, device), rel, wlen=wlen),
                     ss.peak_widths(x, peaks, rel, wlen=wlen))
    near_all(cs.find_peaks(dev(x, device), prominence=(1, None), width=(2, 40), wlen=50,
                           rel_height=0.8, distance=4),
             ss.find_peaks(x, prominence=(1, None), width=(2, 40), wlen=50, rel_height=0.8,
                           distance=4))


def test_prominence_edges_and_errors(route, device):
    from scipy.signal._peak_finding_utils import PeakPropertyWarning
    x = np.array([0.0, 2, 1, 3, 3, 0, 5, 0, 1])
    anywhere = np.array([0, 1, 3, 4, 6, 8])          # not all peaks: some prominences 0
    with pytest.warns(PeakPropertyWarning):
        want = ss.peak_prominences(x, anywhere)
    with pytest.warns(PeakPropertyWarning):
        near_all(cs.peak_prominences(dev(x, device), dev(anywhere, device)), want)
    near_all(cs.peak_prominences(dev(x, device), []), ss.peak_prominences(x, []))
    near_all(cs.peak_widths(dev(x, device), [], 0.5), ss.peak_widths(x, [], 0.5))
    xd = dev(x, device)
    for fn in [lambda m, v: m.peak_prominences(v, [9]), lambda m, v: m.peak_prominences(v, [1], 1),
               lambda m, v: m.peak_prominences(v, np.array([1.5])),
               lambda m, v: m.peak_prominences(v, np.ones((1, 1), int)),
               lambda m, v: m.peak_widths(v, [1], -1.0),
               lambda m, v: m.peak_widths(v, [1], 0.5, (np.ones(2), np.zeros(2, int),
                                                        np.ones(2, int))),
               lambda m, v: m.peak_widths(v, [1], 0.5, (np.ones(1), np.array([2]),
                                                        np.array([3]))),
               lambda m, v: m.find_peaks(v, distance=0.5)]:
        same_error(lambda: fn(ss, x), lambda: fn(cs, xd))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.uint8, np.int64])
def test_rank_filters(route, device, dtype):
    x = random_array((20, 30), dtype)
    near(cs.medfilt(dev(x, device), [3, 5]), ss.medfilt(x, [3, 5]))
    near(cs.medfilt(dev(x[0], device)), ss.medfilt(x[0]))
    near(cs.medfilt2d(dev(x, device), [5, 3]), ss.medfilt2d(x, [5, 3]))
    near(cs.medfilt2d(dev(x, device)), ss.medfilt2d(x))
    dom = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 1]])
    for rank in (0, 2, 5):
        near(cs.order_filter(dev(x, device), dom, rank), ss.order_filter(x, dom, rank))


def test_rank_filter_errors(route, device):
    x = np.ones((5, 5))
    xd = dev(x, device)
    same_error(lambda: ss.medfilt(x, 4), lambda: cs.medfilt(xd, 4))
    same_error(lambda: ss.medfilt2d(x, [3, 4]), lambda: cs.medfilt2d(xd, [3, 4]))
    same_error(lambda: ss.order_filter(x, np.ones((2, 3)), 0),
               lambda: cs.order_filter(xd, np.ones((2, 3)), 0))
    same_error(lambda: ss.medfilt(x.astype(np.complex128)),
               lambda: cs.medfilt(xd.astype(np.complex128)))
    with pytest.warns(UserWarning, match="kernel_size exceeds"):
        want = ss.medfilt(np.arange(3.0), 5)
    with pytest.warns(UserWarning, match="kernel_size exceeds"):
        near(cs.medfilt(dev(np.arange(3.0), device), 5), want)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_wiener(route, device, dtype):
    x = random_array((20, 30), dtype)
    # float32 data: the local sums (FFT or direct) round in float32 differently
    r = 2e-4 if dtype == np.float32 else None
    near(cs.wiener(dev(x, device)), ss.wiener(x), r)
    near(cs.wiener(dev(x, device), [3, 5]), ss.wiener(x, [3, 5]), r)
    near(cs.wiener(dev(x, device), 5, noise=0.3), ss.wiener(x, 5, noise=0.3), r)
    near(cs.wiener(dev(x[0], device), 7), ss.wiener(x[0], 7), r)


@pytest.mark.parametrize("wl,po,deriv", [(5, 2, 0), (7, 3, 1), (11, 4, 2), (6, 2, 0),
                                         (8, 3, 1), (3, 0, 0)])
@pytest.mark.parametrize("mode", ["interp", "mirror", "nearest", "constant", "wrap"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_savgol_filter(route, device, wl, po, deriv, mode, dtype):
    x = random_array((4, 30), dtype)
    want = ss.savgol_filter(x, wl, po, deriv, delta=0.5, mode=mode, cval=1.5)
    # float32's edge fits: SciPy's polyfit and this projection round differently
    rtol = 1e-3 if dtype == np.float32 else None
    near(cs.savgol_filter(dev(x, device), wl, po, deriv, delta=0.5, mode=mode, cval=1.5),
         want, rtol)
    near(cs.savgol_filter(dev(x.T, device), wl, po, deriv, axis=0, mode=mode),
         ss.savgol_filter(x.T, wl, po, deriv, axis=0, mode=mode), rtol)


def test_savgol_errors(route, device):
    x = np.ones(10)
    xd = dev(x, device)
    for args, kw in [((5, 2), dict(mode="nope")), ((11, 2), {}), ((5, 5), {})]:
        same_error(lambda: ss.savgol_filter(x, *args, **kw),
                   lambda: cs.savgol_filter(xd, *args, **kw))
