"""Spectral analysis (SciPy's scipy.signal): periodogram, welch, csd, coherence,
spectrogram, stft, istft, check_COLA, check_NOLA, lombscargle, vectorstrength.

Choice: compositions over cuarray.fft. Segments are ceil(nperseg/step) strided
copies of the signal cut into step-long chunks (no index matrix), then detrend, window and
one batched rfft/fft of all segments; cross spectra, scaling, the one-sided
doubling and the mean (or bias-corrected median) over segments are element-wise
ops and one reduction. istft's overlap-add is ceil(nperseg/step) strided
additions (each segment cut into step-long chunks). check_COLA/check_NOLA read
a window of nperseg samples: host math (SciPy's). lombscargle is matrix-vector
products of the weights with cos/sin of the (samples x frequencies) phase matrix,
in chunks of frequencies. On the cpu device (CPU_SCIPY) SciPy's routines run on
zero-copy views.
"""

import warnings

import numpy as _np

import cuarray as _ca

from ._util import asarray, back, host, like, on_cpu, scipy_signal

__all__ = ["check_COLA", "check_NOLA", "coherence", "csd", "istft", "lombscargle",
           "periodogram", "spectrogram", "stft", "vectorstrength", "welch"]

CPU_SCIPY = True


def _route(*arrays):
    return CPU_SCIPY and on_cpu(*arrays)


def _window(window, nperseg, device):
    from .windows import get_window
    if isinstance(window, (str, tuple)):
        return get_window(window, nperseg, device=device)
    return window if isinstance(window, _ca.ndarray) else _ca.asarray(window, device=device)


def _segments(x, nperseg, step):
    """x (..., n) as (..., nseg, nperseg): segments starting every step. x cut
    into step-long chunks (a reshape); segment i is chunks i..i+r-1 side by side,
    r = ceil(nperseg / step), cropped to nperseg: r strided copies, no index
    matrix."""
    n = x.shape[-1]
    nseg = (n - nperseg) // step + 1
    r = -(-nperseg // step)
    need = (nseg + r - 1) * step
    if need > n:
        x = _ca.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, need - n)])
    chunks = x[..., :need].reshape(x.shape[:-1] + (nseg + r - 1, step))
    seg = _ca.concatenate([chunks[..., j:j + nseg, :] for j in range(r)], axis=-1) \
        if r > 1 else chunks[..., :nseg, :]
    return seg[..., :nperseg]


def _detrend_func(detrend, axis):
    from ._signaltools import detrend as _detrend
    if detrend is False or detrend is None:
        return lambda d: d
    if not callable(detrend):
        return lambda d: _detrend(d, type=detrend, axis=-1)
    if axis != -1:
        return lambda d: _ca.moveaxis(detrend(_ca.moveaxis(d, -1, axis)), axis, -1)
    return detrend


def _ext(x, n, kind):
    from ._lfilter import _extend
    if kind == "zeros":
        return _ca.pad(x, [(0, 0)] * (x.ndim - 1) + [(n, n)])
    return _extend(x, n, x.ndim - 1, kind)


def _check_params(window, nperseg, noverlap, nfft, n, device, warn_name):
    """(win, nperseg, noverlap, nfft) by SciPy's rules (string windows get 256
    samples by default, cut to the signal with a warning)."""
    if nperseg is not None:
        nperseg = int(nperseg)
        if nperseg < 1:
            raise ValueError("nperseg must be a positive integer")
    if isinstance(window, (str, tuple)):
        nperseg = 256 if nperseg is None else nperseg
        if nperseg > n:
            warnings.warn(f"nperseg = {nperseg:d} is greater than input length  = "
                          f"{n:d}, using nperseg = {n:d}", stacklevel=4)
            nperseg = n
        win = _window(window, nperseg, device)
    else:
        win = _window(window, nperseg, device)
        if win.ndim != 1:
            raise ValueError("window must be 1-D")
        if n < win.shape[0]:
            raise ValueError("window is longer than input signal")
        if nperseg is None:
            nperseg = win.shape[0]
        elif nperseg != win.shape[0]:
            raise ValueError("value specified for nperseg is different from length "
                             "of window")
    if nfft is None:
        nfft = nperseg
    elif nfft < nperseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    return win, nperseg, noverlap, int(nfft)


def _spectra(x, win, nperseg, noverlap, nfft, detrend_func, sides):
    """The windowed segment transforms of x (..., n): (..., nseg, nfreq)."""
    seg = _segments(x, nperseg, nperseg - noverlap)
    seg = detrend_func(seg) * win
    if sides == "twosided":
        return _ca.fft.fft(seg, n=nfft)
    return _ca.fft.rfft(seg.real, n=nfft)


def _helper(x, y, fs, window, nperseg, noverlap, nfft, detrend, return_onesided,
            scaling, axis, mode, boundary=None, padded=False):
    """SciPy's _spectral_helper: (freqs, times, result (..., nfreq, nseg) with the
    frequencies moved to axis)."""
    if mode not in ["psd", "stft"]:
        raise ValueError(f"Unknown value for mode {mode}, must be one of: "
                         "{'psd', 'stft'}")
    if boundary not in ("even", "odd", "constant", "zeros", None):
        raise ValueError(f"Unknown boundary option '{boundary}', must be one of: "
                         "['even', 'odd', 'constant', 'zeros', None]")
    same = y is x
    if not same and mode != "psd":
        raise ValueError("x and y must be equal if mode is 'stft'")
    axis = int(axis)
    x = asarray(x)
    y = x if same else like(y, x)
    out = _np.result_type(x.dtype, y.dtype, _np.complex64)
    if x.size == 0 or y.size == 0:
        e = _np.empty(x.shape)
        return back(e, x.device), back(e, x.device), back(e, x.device)
    x = _ca.moveaxis(x, axis, -1)
    if not same:
        y = _ca.moveaxis(y, axis, -1)
        n = max(x.shape[-1], y.shape[-1])
        x = _ca.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, n - x.shape[-1])])
        y = _ca.pad(y, [(0, 0)] * (y.ndim - 1) + [(0, n - y.shape[-1])])
    win, nperseg, noverlap, nfft = _check_params(window, nperseg, noverlap, nfft,
                                                 x.shape[-1], x.device, "nperseg")
    step = nperseg - noverlap
    if boundary is not None:
        x = _ext(x, nperseg // 2, boundary)
        y = x if same else _ext(y, nperseg // 2, boundary)
    if padded:
        nadd = (-(x.shape[-1] - nperseg) % step) % nperseg
        x = _ca.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, nadd)])
        y = x if same else _ca.pad(y, [(0, 0)] * (y.ndim - 1) + [(0, nadd)])
    rt = _np.finfo(out).dtype
    win = win.astype(out if win.dtype.kind == "c" else rt)
    wh = host(win)
    if scaling == "density":
        scale = 1.0 / (fs * (wh * wh).sum())
    elif scaling == "spectrum":
        scale = 1.0 / wh.sum() ** 2
    else:
        raise ValueError(f"Unknown scaling: {scaling!r}")
    if mode == "stft":
        scale = _np.sqrt(scale)
    sides = "twosided"
    if return_onesided:
        if x.dtype.kind == "c" or (not same and y.dtype.kind == "c"):
            warnings.warn("Input data is complex, switching to return_onesided=False",
                          stacklevel=3)
        else:
            sides = "onesided"
    freqs = _ca.fft.fftfreq(nfft, 1 / fs, device=x.device) if sides == "twosided" \
        else _ca.fft.rfftfreq(nfft, 1 / fs, device=x.device)
    dfun = _detrend_func(detrend, axis)
    res = _spectra(x, win, nperseg, noverlap, nfft, dfun, sides)
    if not same:
        res = _ca.conj(res) * _spectra(y, win, nperseg, noverlap, nfft, dfun, sides)
    elif mode == "psd":
        res = (res.real * res.real + res.imag * res.imag).astype(res.dtype)
    res = res * scale
    if sides == "onesided" and mode == "psd":
        res = _double(res, nfft)
    t = _np.arange(nperseg / 2, x.shape[-1] - nperseg / 2 + 1, nperseg - noverlap) / float(fs)
    if boundary is not None:
        t -= (nperseg / 2) / fs
    res = res.astype(out, copy=False)
    if same and mode != "stft":
        res = res.real
    res = _ca.swapaxes(res, -1, -2)
    res = _ca.moveaxis(res, -2, axis - 1 if axis < 0 else axis)
    return freqs.astype(_np.float64, copy=False), _ca.asarray(t, device=x.device), res


def _double(res, nfft):
    """The one-sided spectrum's doubled bins (all but DC and an even Nyquist)."""
    w = _np.full(res.shape[-1], 2.0)
    w[0] = 1
    if nfft % 2 == 0:
        w[-1] = 1
    return res * _ca.asarray(w.astype(_np.finfo(res.dtype).dtype), device=res.device)


def _median_bias(n):
    ii_2 = 2 * _np.arange(1., (n - 1) // 2 + 1)
    return 1 + _np.sum(1. / (ii_2 + 1) - 1. / ii_2)


def csd(x, y, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None, nfft=None,
        detrend="constant", return_onesided=True, scaling="density", axis=-1,
        average="mean"):
    """The cross power spectral density of x and y by Welch's method."""
    same = y is x
    x = asarray(x)
    y = x if same else like(y, x)
    if _route(x, y):
        hx = host(x)        # the same object twice: SciPy's one-transform path
        return back(scipy_signal().csd(hx, hx if same else host(y), fs,
                                       host(window), nperseg, noverlap, nfft, detrend,
                                       return_onesided, scaling, axis, average), "cpu")
    if scaling not in ("spectrum", "density"):
        raise ValueError(f"Parameter scaling={scaling!r} not in "
                         "{'spectrum': 'magnitude', 'density': 'psd'}!")
    out = _np.result_type(x.dtype, y.dtype, _np.complex64)
    freqs, _, Pxy = _helper(x, y, fs, window, nperseg, noverlap, nfft, detrend,
                            return_onesided, scaling, axis, "psd")
    if Pxy.ndim >= 2 and Pxy.size > 0:
        if Pxy.shape[-1] > 1:
            if average == "median":
                bias = _median_bias(Pxy.shape[-1])
                if Pxy.dtype.kind == "c":
                    Pxy = _ca.median(Pxy.real, axis=-1) + \
                        1j * _ca.median(Pxy.imag, axis=-1)
                else:
                    Pxy = _ca.median(Pxy, axis=-1)
                Pxy = Pxy / bias
            elif average == "mean":
                Pxy = Pxy.mean(axis=-1)
            else:       # (SciPy checks average only when it averages)
                raise ValueError(f"Parameter average={average!r} must be 'median' or "
                                 "'mean'!")
        else:
            Pxy = Pxy.reshape(Pxy.shape[:-1])
        Pxy = Pxy.astype(out if Pxy.dtype.kind == "c" else _np.finfo(out).dtype)
    return freqs, Pxy


def welch(x, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None, nfft=None,
          detrend="constant", return_onesided=True, scaling="density", axis=-1,
          average="mean"):
    """The power spectral density of x by Welch's method (averaged periodograms
    of overlapping windowed segments)."""
    freqs, Pxx = csd(x, x, fs, window, nperseg, noverlap, nfft, detrend,
                     return_onesided, scaling, axis, average)
    return freqs, Pxx.real


def periodogram(x, fs=1.0, window="boxcar", nfft=None, detrend="constant",
                return_onesided=True, scaling="density", axis=-1):
    """The power spectral density of x from one windowed transform."""
    x = asarray(x)
    if _route(x):
        return back(scipy_signal().periodogram(host(x), fs, host(window), nfft, detrend,
                                               return_onesided, scaling, axis), "cpu")
    if x.size == 0:
        e = _np.empty(x.shape)
        return back(e, x.device), back(e, x.device)
    window = "boxcar" if window is None else window
    n = x.shape[axis]
    if nfft is None or nfft >= n:
        nperseg = n
    else:
        sl = [slice(None)] * x.ndim
        sl[axis] = slice(None, nfft)
        x, nperseg, nfft = x[tuple(sl)], nfft, None
    if hasattr(window, "size") and window.size != nperseg:
        raise ValueError("the size of the window must be the same size of the input "
                         "on the specified axis")
    return welch(x, fs, window, nperseg, 0, nfft, detrend, return_onesided, scaling,
                 axis)


def coherence(x, y, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None,
              nfft=None, detrend="constant", axis=-1):
    """The magnitude-squared coherence |Pxy|^2 / (Pxx Pyy) by Welch's method."""
    args = (fs, window, nperseg, noverlap, nfft, detrend)
    freqs, Pxx = welch(x, *args, axis=axis)
    _, Pyy = welch(y, *args, axis=axis)
    _, Pxy = csd(x, y, *args, axis=axis)
    return freqs, _ca.abs(Pxy) ** 2 / Pxx / Pyy


def spectrogram(x, fs=1.0, window=("tukey_periodic", .25), nperseg=None, noverlap=None,
                nfft=None, detrend="constant", return_onesided=True, scaling="density",
                axis=-1, mode="psd"):
    """Spectrogram of x: consecutive Fourier transforms of windowed segments
    (mode psd, complex, magnitude, angle or phase)."""
    x = asarray(x)
    if _route(x):
        return back(scipy_signal().spectrogram(host(x), fs, host(window), nperseg,
                                               noverlap, nfft, detrend, return_onesided,
                                               scaling, axis, mode), "cpu")
    modes = ["psd", "complex", "magnitude", "angle", "phase"]
    if mode not in modes:
        raise ValueError(f"unknown value for mode {mode}, must be one of {modes}")
    win, nperseg, _, _ = _check_params(window, nperseg, 0, None, x.shape[axis],
                                       x.device, "nperseg")
    noverlap = nperseg // 8 if noverlap is None else noverlap
    f, t, S = _helper(x, x, fs, win, nperseg, noverlap, nfft, detrend,
                      return_onesided, scaling, axis, "psd" if mode == "psd" else "stft")
    if mode == "magnitude":
        S = _ca.abs(S)
    elif mode in ("angle", "phase"):
        S = _ca.angle(S)
        if mode == "phase":
            S = _ca.unwrap(S, axis=axis - 1 if axis < 0 else axis)
    return f, t, S


def stft(x, fs=1.0, window="hann_periodic", nperseg=256, noverlap=None, nfft=None,
         detrend=False, return_onesided=True, boundary="zeros", padded=True, axis=-1,
         scaling="spectrum"):
    """The short-time Fourier transform of x: (frequencies, segment times, Zxx)."""
    x = asarray(x)
    if _route(x):
        return back(scipy_signal().stft(host(x), fs, host(window), nperseg, noverlap,
                                        nfft, detrend, return_onesided, boundary, padded,
                                        axis, scaling), "cpu")
    if scaling == "psd":
        scaling = "density"
    elif scaling != "spectrum":
        raise ValueError(f"Parameter scaling={scaling!r} not in ['spectrum', 'psd']!")
    return _helper(x, x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided,
                   scaling, axis, "stft", boundary, padded)


def _istft_params(Zxx, nperseg, noverlap, nfft, input_onesided, freq_axis):
    n_default = 2 * (Zxx.shape[freq_axis] - 1) if input_onesided else \
        Zxx.shape[freq_axis]
    if nperseg is None:
        nperseg = n_default
    else:
        nperseg = int(nperseg)
        if nperseg < 1:
            raise ValueError("nperseg must be a positive integer")
    if nfft is None:
        nfft = nperseg if input_onesided and nperseg == n_default + 1 else n_default
    elif nfft < nperseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    return nperseg, noverlap, int(nfft)


def _overlap_add(segs, step):
    """segs (..., nseg, nperseg) summed at offsets i*step: ceil(nperseg/step)
    strided additions of step-long chunks."""
    nseg, nperseg = segs.shape[-2], segs.shape[-1]
    r = -(-nperseg // step)
    segs = _ca.pad(segs, [(0, 0)] * (segs.ndim - 1) + [(0, r * step - nperseg)])
    chunks = segs.reshape(segs.shape[:-1] + (r, step))
    out = _ca.zeros(segs.shape[:-2] + (nseg + r - 1, step), dtype=segs.dtype,
                    device=segs.device)
    for j in range(r):
        out[..., j:j + nseg, :] += chunks[..., j, :]
    out = out.reshape(segs.shape[:-2] + ((nseg + r - 1) * step,))
    return out[..., :nperseg + (nseg - 1) * step]


def istft(Zxx, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None, nfft=None,
          input_onesided=True, boundary=True, time_axis=-1, freq_axis=-2,
          scaling="spectrum"):
    """The inverse short-time Fourier transform: (times, x) by weighted overlap-add."""
    Zxx = asarray(Zxx)
    if _route(Zxx):
        return back(scipy_signal().istft(host(Zxx), fs, host(window), nperseg, noverlap,
                                         nfft, input_onesided, boundary, time_axis,
                                         freq_axis, scaling), "cpu")
    Zxx = Zxx.astype(_np.result_type(Zxx.dtype, _np.complex64) if Zxx.dtype.itemsize
                     >= 4 and Zxx.dtype.kind in "fc" else _np.complex128)
    freq_axis, time_axis = int(freq_axis), int(time_axis)
    if Zxx.ndim < 2:
        raise ValueError("Input stft must be at least 2d!")
    if freq_axis == time_axis:
        raise ValueError("Must specify differing time and frequency axes!")
    nseg = Zxx.shape[time_axis]
    nperseg, noverlap, nfft = _istft_params(Zxx, nperseg, noverlap, nfft,
                                            input_onesided, freq_axis)
    step = nperseg - noverlap
    fa, ta = freq_axis % Zxx.ndim, time_axis % Zxx.ndim
    Zxx = _ca.moveaxis(Zxx, (fa, ta), (-1, -2))           # (..., nseg, nfreq)
    if isinstance(window, (str, tuple)):
        win = _window(window, nperseg, Zxx.device)
    else:
        win = _window(window, nperseg, Zxx.device)
        if win.ndim != 1:
            raise ValueError("window must be 1-D")
        if win.shape[0] != nperseg:
            raise ValueError(f"window must have length of {nperseg}")
    ifunc = _ca.fft.irfft if input_onesided else _ca.fft.ifft
    xsubs = ifunc(Zxx, n=nfft, axis=-1)[..., :nperseg]
    if _np.result_type(win.dtype, xsubs.dtype) != xsubs.dtype:
        win = win.astype(xsubs.dtype)
    wh = host(win)
    if scaling == "spectrum":
        xsubs = xsubs * float(wh.sum().real) if wh.dtype.kind != "c" else xsubs * wh.sum()
    elif scaling == "psd":
        xsubs = xsubs * complex(_np.sqrt(fs * sum(wh ** 2))) if wh.dtype.kind == "c" \
            else xsubs * float(_np.sqrt(fs * sum(wh ** 2)))
    else:
        raise ValueError(f"Parameter scaling={scaling!r} not in ['spectrum', 'psd']!")
    x = _overlap_add(xsubs * win, step)
    norm = _np_overlap_add(_np.abs(wh) ** 2 if wh.dtype.kind == "c" else wh ** 2,
                           nseg, step)
    if boundary:
        x = x[..., nperseg // 2:-(nperseg // 2)]
        norm = norm[nperseg // 2:-(nperseg // 2)]
    if _np.sum(norm > 1e-10) != len(norm):
        warnings.warn("NOLA condition failed, STFT may not be invertible."
                      + (" Possibly due to missing boundary" if not boundary else ""),
                      stacklevel=2)
    x = x / _ca.asarray(_np.where(norm > 1e-10, norm, 1.0).astype(
        _np.finfo(x.dtype).dtype), device=x.device)
    if input_onesided:
        x = x.real
    if x.ndim > 1 and ta != Zxx.ndim - 1:
        x = _ca.moveaxis(x, -1, ta - 1 if fa < ta else ta)
    return _ca.arange(x.shape[0], device=x.device) / float(fs), x


def _np_overlap_add(w2, nseg, step):
    """The overlap-added squared window (host: nperseg + (nseg-1) step values)."""
    n = len(w2)
    norm = _np.zeros(n + (nseg - 1) * step, dtype=w2.dtype)
    r = -(-n // step)
    wp = _np.zeros(r * step, w2.dtype)
    wp[:n] = w2
    full = _np.zeros((nseg + r - 1) * step, w2.dtype)
    for j in range(r):
        full[j * step:(j + nseg) * step] += _np.tile(wp[j * step:(j + 1) * step], nseg)
    norm[:] = full[:len(norm)]
    return norm


def check_COLA(window, nperseg, noverlap, tol=1e-10):
    """Whether the window satisfies the constant-overlap-add constraint (host math
    on nperseg samples: SciPy's routine)."""
    return scipy_signal().check_COLA(host(window), nperseg, noverlap, tol)


def check_NOLA(window, nperseg, noverlap, tol=1e-10):
    """Whether the window satisfies the nonzero-overlap-add constraint (host math
    on nperseg samples: SciPy's routine)."""
    return scipy_signal().check_NOLA(host(window), nperseg, noverlap, tol)


def lombscargle(x, y, freqs, precenter=False, normalize=False, *, weights=None,
                floating_mean=False):
    """The (weighted, optionally floating-mean) Lomb-Scargle periodogram of the
    unevenly sampled y(x) at the angular frequencies freqs (SciPy 1.17's
    formulation): matrix-vector products of the weights with cos/sin of the
    (samples x frequencies) phase matrix, in chunks of frequencies that keep the
    matrix under 2^24 elements."""
    x = asarray(x)
    y, freqs = like(y, x), like(freqs, x)
    if _route(x, y, freqs):
        kw = {"precenter": precenter} if precenter else {}     # (deprecated in 1.17)
        return back(scipy_signal().lombscargle(host(x), host(y), host(freqs),
                                               normalize=normalize, weights=host(weights),
                                               floating_mean=floating_mean, **kw), "cpu")
    x, y, f = (a.astype(_np.float64) for a in (x, y, freqs))
    w = _ca.ones(y.shape, dtype=_np.float64, device=y.device) if weights is None else \
        like(weights, y).astype(_np.float64)
    if not (x.ndim == 1 and x.size > 0 and x.shape == y.shape == w.shape):
        raise ValueError("Parameters x, y, weights must be 1-D arrays of equal non-zero "
                         "length!")
    if not (f.ndim == 1 and f.size > 0):
        raise ValueError("Parameter freqs must be a 1-D array of non-zero length!")
    if not (bool((w >= 0).all()) and float(w.sum()) > 0):
        raise ValueError("Parameter weights must have only non-negative entries which "
                         "sum to a positive value!")
    if isinstance(normalize, bool):
        normalize = "normalize" if normalize else "power"
    if normalize not in ["power", "normalize", "amplitude"]:
        raise ValueError("Normalize must be: False (or 'power'), True (or 'normalize'), "
                         "or 'amplitude'.")
    if precenter:
        warnings.warn("Use of parameter 'precenter' is deprecated as of SciPy 1.17.0 "
                      "and will be removed in 1.19.0.", DeprecationWarning, stacklevel=2)
        y = y - y.mean()
    w = w * (1.0 / float(w.sum()))
    chunk = max(1, (1 << 24) // x.size)
    parts = [_lomb_chunk(x, y, w, f[i:i + chunk], normalize, floating_mean)
             for i in range(0, f.size, chunk)]
    out = parts[0] if len(parts) == 1 else _ca.concatenate(parts)
    return out.reshape(()) if f.size == 1 else out


def _lomb_chunk(x, y, w, f, normalize, floating_mean):
    ft = x[:, None] * f[None, :]                       # (samples, frequencies)
    c, s = _ca.cos(ft), _ca.sin(ft)
    Y = float(w @ y)
    CC = w @ (c * c)
    SS = 1.0 - CC
    CS = w @ (c * s)
    if floating_mean:
        C, S = w @ c, w @ s
        CC, SS, CS = CC - C * C, SS - S * S, CS - C * S
    tau = 0.5 * _ca.arctan2(2.0 * CS, CC - SS)
    ct, st = _ca.cos(ft - tau), _ca.sin(ft - tau)
    wy = w * y
    YC, YS = wy @ ct, wy @ st
    CC = w @ (ct * ct)
    SS = 1.0 - CC
    if floating_mean:
        C, S = w @ ct, w @ st
        YC, YS, CC, SS = YC - Y * C, YS - Y * S, CC - C * C, SS - S * S
    eps = float(_np.finfo(_np.float64).epsneg)
    CC, SS = _ca.maximum(CC, eps), _ca.maximum(SS, eps)
    a, b = YC / CC, YS / SS
    if normalize == "amplitude":
        return (a + 1j * b) * _ca.exp(1j * tau)
    pgram = 2.0 * (a * YC + b * YS)
    if normalize == "power":
        return pgram * (float(x.shape[0]) / 4.0)
    YY = float(wy @ y) - (Y * Y if floating_mean else 0.0)
    return pgram * (0.5 / YY)


def vectorstrength(events, period):
    """The vector strength and phase of event times at each period (the mean
    resultant of exp(2 pi i events / period))."""
    events = asarray(events)
    period = like(period, events)
    if _route(events, period):
        return back(scipy_signal().vectorstrength(host(events), host(period)), "cpu")
    if events.ndim > 1:
        raise ValueError("events cannot have dimensions more than 1")
    if period.ndim > 1:
        raise ValueError("period cannot have dimensions more than 1")
    scalar = period.ndim == 0
    events, period = _ca.atleast_2d(events), _ca.atleast_2d(period)
    if (period <= 0).any():
        raise ValueError("periods must be positive")
    vectors = _ca.exp(_ca.dot(2j * _np.pi / period.T, events))
    vm = _ca.mean(vectors, axis=1)
    strength, phase = _ca.abs(vm), _ca.angle(vm)
    if scalar:
        strength, phase = strength[0], phase[0]
    return strength, phase
