"""Rank and local-statistics filters (SciPy's scipy.signal): order_filter,
medfilt, medfilt2d, wiener; Savitzky-Golay smoothing (savgol_filter).

Choice: compositions. A rank filter zero-pads the input by half the footprint,
stacks the footprint's shifted views (one strided copy each: K views for a
footprint of K true elements, K times the input's memory) and takes the rank
along the stack with cuarray.partition (one call). wiener's local mean and
variance are two 'same' correlations with a box (cuarray.scipy.signal.correlate).
savgol_filter is savgol_coeffs (host) then one convolution along the axis over
the extended signal, and for mode 'interp' the two end windows' polynomial fits
as one matmul each with a host-made (window x half) projection matrix. On the
cpu device (CPU_SCIPY) SciPy's routines run on zero-copy views.
"""

import math as _math
import warnings

import numpy as _np

import cuarray as _ca

from ._util import asarray, back, host, on_cpu, scipy_signal

__all__ = ["medfilt", "medfilt2d", "order_filter", "savgol_filter", "wiener"]

CPU_SCIPY = True


def _route(*arrays):
    return CPU_SCIPY and on_cpu(*arrays)


def _rank_filter(a, footprint, rank):
    """The rank-th smallest of the footprint's neighbours (zero outside a)."""
    fp = _np.asarray(footprint, dtype=bool)
    half = [s // 2 for s in fp.shape]
    padded = _ca.pad(a, [(h, h) for h in half])
    views = [padded[tuple(slice(o, o + n) for o, n in zip(off, a.shape))]
             for off in zip(*_np.nonzero(fp))]
    if not views:
        raise ValueError("footprint must not be all zeros")
    if not 0 <= rank < len(views):
        raise ValueError("rank not within filter footprint size")
    stack = _ca.stack(views)
    return _ca.partition(stack, rank, axis=0)[rank]


def _check_dtype(a, name):
    if not (a.dtype.kind in "iu" or a.dtype in (_np.float32, _np.float64)):
        raise ValueError(f"dtype={a.dtype} is not supported by {name}")


def order_filter(a, domain, rank):
    """The rank-th element of each neighbourhood chosen by the domain mask (odd
    sizes), zero outside a."""
    a = asarray(a)
    if _route(a):
        return back(scipy_signal().order_filter(host(a), host(domain), rank), "cpu")
    domain = _np.asarray(host(domain))
    if any(d % 2 != 1 for d in domain.shape):
        raise ValueError("Each dimension of domain argument should have an odd number "
                         "of elements.")
    _check_dtype(a, "order_filter")
    if domain.ndim != a.ndim:
        raise RuntimeError("filter footprint array has incorrect shape.")
    return _rank_filter(a, domain != 0, int(rank))


def _kernel_size(kernel_size, ndim):
    ks = _np.asarray([3] * ndim if kernel_size is None else kernel_size)
    if ks.shape == ():
        ks = _np.repeat(ks.item(), ndim)
    if any(k % 2 != 1 for k in ks):
        raise ValueError("Each element of kernel_size should be odd.")
    return [int(k) for k in ks]


def medfilt(volume, kernel_size=None):
    """The median over each kernel_size neighbourhood (odd sizes; zero-padded)."""
    volume = asarray(volume)
    if _route(volume):
        return back(scipy_signal().medfilt(host(volume), kernel_size), "cpu")
    if volume.ndim == 0:
        volume = volume.reshape((1,))
    _check_dtype(volume, "medfilt")
    ks = _kernel_size(kernel_size, volume.ndim)
    if len(ks) != volume.ndim:
        raise RuntimeError("filter footprint array has incorrect shape.")
    if any(k > s for k, s in zip(ks, volume.shape)):
        warnings.warn("kernel_size exceeds volume extent: the volume will be "
                      "zero-padded.", stacklevel=2)
    return _rank_filter(volume, _np.ones(ks, bool), _math.prod(ks) // 2)


def medfilt2d(input, kernel_size=3):
    """The 2-D median filter (zero-padded)."""
    image = asarray(input)
    if _route(image):
        return back(scipy_signal().medfilt2d(host(image), kernel_size), "cpu")
    if image.dtype.type not in (_np.ubyte, _np.float32, _np.float64):
        return medfilt(image, kernel_size)
    if image.ndim != 2:
        raise ValueError("input must be 2-D")
    ks = _kernel_size([3, 3] if kernel_size is None else kernel_size, 2)
    return _rank_filter(image, _np.ones(ks, bool), _math.prod(ks) // 2)


def wiener(im, mysize=None, noise=None):
    """The Wiener filter of an N-d array (local mean and variance over mysize;
    noise defaults to the mean local variance)."""
    im = asarray(im)
    if _route(im):
        return back(scipy_signal().wiener(host(im), mysize, noise), "cpu")
    from ._signaltools import correlate
    mysize = [3] * im.ndim if mysize is None else mysize
    if _np.ndim(mysize) == 0:
        mysize = [mysize] * im.ndim
    size = float(_math.prod(mysize))
    box = _ca.ones(tuple(mysize), device=im.device)
    lmean = correlate(im, box, "same") / size
    lvar = correlate(im ** 2, box, "same") / size - lmean ** 2
    if noise is None:
        noise = _ca.mean(lvar.reshape(-1), axis=0)
    res = (im - lmean) * (1 - noise / lvar) + lmean
    return _ca.where(lvar < noise, lmean, res)


# ---- Savitzky-Golay ---------------------------------------------------------

_SAVGOL_PAD = {"mirror": "reflect", "nearest": "edge", "wrap": "wrap",
               "constant": "constant"}


def _edge_matrix(window_length, polyorder, deriv, delta, at):
    """(window x len(at)) matrix: a window's values to its least-squares
    polynomial's deriv-th derivative at the positions `at` (host)."""
    t = _np.arange(window_length, dtype=_np.float64)
    V = _np.vander(t, polyorder + 1)                     # highest power first
    pinv = _np.linalg.pinv(V)                            # coefficients per sample
    powers = _np.arange(polyorder, -1, -1)
    ev = _np.zeros((len(at), polyorder + 1))
    for j, p in enumerate(powers):
        if p >= deriv:
            fac = _math.prod(range(p - deriv + 1, p + 1))
            ev[:, j] = fac * _np.asarray(at, float) ** (p - deriv)
    return (ev @ pinv).T / delta ** deriv


def savgol_filter(x, window_length, polyorder, deriv=0, delta=1.0, axis=-1,
                  mode="interp", cval=0.0):
    """x smoothed (or differentiated) by a Savitzky-Golay filter along axis."""
    x = asarray(x)
    if _route(x):
        return back(scipy_signal().savgol_filter(host(x), window_length, polyorder,
                                                 deriv, delta, axis, mode, cval), "cpu")
    if mode not in ["mirror", "constant", "nearest", "interp", "wrap"]:
        raise ValueError("mode must be 'mirror', 'constant', 'nearest' 'wrap' or "
                         "'interp'.")
    if x.dtype != _np.float64 and x.dtype != _np.float32:
        x = x.astype(_np.float64)
    coeffs = scipy_signal().savgol_coeffs(window_length, polyorder, deriv=deriv,
                                          delta=delta)
    axis = axis % x.ndim
    xm = _ca.moveaxis(x, axis, -1)
    n = xm.shape[-1]
    if mode == "interp":
        if window_length > n:
            raise ValueError("If mode is 'interp', window_length must be less than or "
                             "equal to the size of x.")
        y = _savgol_conv(xm, coeffs, "constant", 0.0)
        half = window_length // 2
        E0 = _edge_matrix(window_length, polyorder, deriv, delta, range(half))
        E1 = _edge_matrix(window_length, polyorder, deriv, delta,
                          range(window_length - half, window_length))
        y[..., :half] = xm[..., :window_length] @ _ca.asarray(
            E0.astype(x.dtype), device=x.device)
        y[..., n - half:] = xm[..., n - window_length:] @ _ca.asarray(
            E1.astype(x.dtype), device=x.device)
    else:
        y = _savgol_conv(xm, coeffs, mode, cval)
    return _ca.moveaxis(y, -1, axis)


def _savgol_conv(x, coeffs, mode, cval):
    """ndimage.convolve1d(x, coeffs, mode) along the last axis (the window's
    centre at len // 2)."""
    W = coeffs.size
    left, right = W // 2, W - 1 - W // 2
    pads = [(0, 0)] * (x.ndim - 1) + [(right, left)]
    kw = {"constant_values": cval} if mode == "constant" else {}
    xp = _ca.pad(x, pads, mode=_SAVGOL_PAD[mode], **kw)
    c = coeffs.astype(x.dtype)
    out = _ca.zeros(x.shape, dtype=x.dtype, device=x.device)
    n = x.shape[-1]
    for k in range(W):
        # convolution: out[i] = sum_k c[k] x[i + left - k]
        out += xp[..., W - 1 - k:W - 1 - k + n] * float(c[k])
    return out
