"""Linear recurrences (SciPy's scipy.signal): lfilter, lfiltic, lfilter_zi,
filtfilt, sosfilt, sosfilt_zi, sosfiltfilt, decimate, deconvolve.

Choice (no kernel of its own): an IIR filter is a linear state-space recurrence
z[k] = A z[k-1] + B x[k], y[k] = C z[k-1] + D x[k] (SciPy's transposed direct
form II states; a cascade of sections is one system whose state is the
sections' states side by side). The signal is cut into blocks of L samples and
  - each block's zero-state response is a matmul with the L x L lower-
    triangular Toeplitz matrix of the impulse response (exact: a block needs
    only its first L impulse-response samples),
  - each block's zero-state end state is a matmul with the L x n matrix of the
    A^(L-1-i) B,
  - the states entering the blocks follow s[b+1] = A^L s[b] + u[b], a scan
    by doubling (Hillis-Steele: log2(blocks) steps, step d adds
    s[k-d] (A^(Ld))^T to s[k]),
  - and each block adds its entering state's response s G (G's columns
    (C A^j)^T).
The small matrices are host math in float64 (complex128) from the coefficients,
rounded once to the data's type. All of it is exact up to rounding (no truncated
impulse response); launches per call: about 8 + 2 log2(N / L), for any number
of independent signals (they ride the matmuls' batch), N the length along axis.
An unstable filter's powers overflow to inf/nan where SciPy's sequential loop
overflows too. A filter whose denominator is one coefficient (FIR) is a
convolution along the axis (shift-and-add for short filters, cuarray.fft else).
The small design steps (lfilter_zi, sosfilt_zi, lfiltic, decimate's filter) are
SciPy's routines on the host. On the cpu device (CPU_SCIPY) SciPy's own routines
run on zero-copy views.
"""

import numpy as _np

import cuarray as _ca

from ._util import asarray, back, device_of, host, like, on_cpu, scipy_signal

__all__ = ["decimate", "deconvolve", "filtfilt", "lfilter", "lfilter_zi", "lfiltic",
           "sosfilt", "sosfilt_zi", "sosfiltfilt"]

CPU_SCIPY = True

_BLOCK = 256          # L: Toeplitz work N*L against a scan of log2(N/L) steps
_FIR_DIRECT = 32      # FIR filters up to this many taps by shift-and-add
_OPS_CACHE = {}


def _route(*arrays):
    return CPU_SCIPY and on_cpu(*arrays)


def _coeffs(c, name):
    c = _np.atleast_1d(_np.asarray(host(c)))
    if not (c.ndim == 1 and c.size > 0):
        raise ValueError(f"Parameter {name} is not a non-empty 1d array, since "
                         f"{name}.shape={c.shape}!")
    return c


def _filter_dtype(*arrays):
    dt = _np.result_type(*[a.dtype for a in arrays if a is not None])
    if dt.char not in "fdFD":
        raise NotImplementedError(f"input type '{dt}' not supported")
    return dt


def _axis(axis, ndim):
    if not -ndim <= axis < ndim:
        raise ValueError("selected axis is out of range")
    return axis % ndim


# ---- the state-space block recurrence ---------------------------------------

def _tf_ss(b, a):
    """(A, B, C, D) of b/a's transposed direct form II (SciPy's lfilter states)."""
    K = max(len(a), len(b))
    ct = _np.result_type(b, a, _np.float64)
    bb = _np.zeros(K, ct)
    aa = _np.zeros(K, ct)
    bb[:len(b)] = b
    aa[:len(a)] = a
    bb, aa = bb / aa[0], aa / aa[0]
    n = K - 1
    A = _np.zeros((n, n), ct)
    A[:, 0] = -aa[1:]
    A[:-1, 1:] += _np.eye(n - 1, dtype=ct)
    C = _np.zeros(n, ct)
    C[0] = 1
    return A, bb[1:] - aa[1:] * bb[0], C, bb[0]


def _series(s1, s2):
    """The system s1 followed by s2 (states of s1 first)."""
    A1, B1, C1, D1 = s1
    A2, B2, C2, D2 = s2
    n1, n2 = len(B1), len(B2)
    ct = _np.result_type(A1, A2)
    A = _np.zeros((n1 + n2, n1 + n2), ct)
    A[:n1, :n1] = A1
    A[n1:, :n1] = _np.outer(B2, C1)
    A[n1:, n1:] = A2
    return A, _np.r_[B1, B2 * D1], _np.r_[D2 * C1, C2], D2 * D1


def _powers(v, A, L, left):
    """The L rows v A^j (left) or (A^j v)^T, by doubling: rows m..2m-1 are rows
    0..m-1 times A^m."""
    rows, Am = v[None, :], A
    while len(rows) < L:
        rows = _np.vstack([rows, rows @ Am if left else rows @ Am.T])
        Am = Am @ Am
    return rows[:L]


def _block_ops(sys, L, dtype, device):
    """T (L x L Toeplitz of the impulse response), G (n x L: columns (C A^j)^T),
    M (L x n: rows (A^(L-1-i) B)^T) on device, and A^L on the host."""
    A, B, C, D = sys
    key = (A.tobytes(), B.tobytes(), C.tobytes(), complex(D), L, dtype.str, str(device))
    if key in _OPS_CACHE:
        return _OPS_CACHE[key]
    CA = _powers(C, A, L, True)
    AB = _powers(B, A, L, False)
    h = _np.r_[D, CA[:L - 1] @ B]
    i = _np.arange(L)
    lag = i[None, :] - i[:, None]
    T = _np.where(lag >= 0, h[_np.clip(lag, 0, None)], 0)
    ops = tuple(_ca.asarray(m.astype(dtype), device=device)
                for m in (T, _np.ascontiguousarray(CA.T), AB[::-1].copy()))
    ops += (_ScanPowers(_np.linalg.matrix_power(A, L), dtype, device),)
    if len(_OPS_CACHE) > 64:
        _OPS_CACHE.clear()
    _OPS_CACHE[key] = ops
    return ops


class _ScanPowers:
    """The scan's matrices (A^(L 2^j))^T on the device, made once per filter and
    block length (host powers by squaring, float64) and kept with the block
    operators."""

    def __init__(self, PL, dtype, device):
        self.host, self.dtype, self.device, self.dev = PL, dtype, device, []

    def __getitem__(self, j):
        while len(self.dev) <= j:
            self.dev.append(_ca.asarray(self.host.T.astype(self.dtype), device=self.device))
            self.host = self.host @ self.host
        return self.dev[j]


def _ss_filter(sys, x, z0):
    """y and the final state of sys run along x's last axis from state z0
    (x (..., N) of the result dtype, z0 (..., n) or None)."""
    A = sys[0]
    n, N, batch, dt = A.shape[0], x.shape[-1], x.shape[:-1], x.dtype
    if z0 is None:
        z0 = _ca.zeros(batch + (n,), dtype=dt, device=x.device)
    if N == 0 or x.size == 0:
        return x.copy(), z0
    L = min(N, _BLOCK)
    nb = -(-N // L)
    r = N - (nb - 1) * L
    T, G, M, P = _block_ops(sys, L, dt, x.device)
    if r != L:
        x = _ca.pad(x, [(0, 0)] * len(batch) + [(0, nb * L - N)])
    X = x.reshape(batch + (nb, L))
    Y = X @ T
    V = _ca.concatenate([z0[..., None, :], X @ M], axis=-2)   # states entering blocks
    d, j = 1, 0
    while d < nb + (r == L):
        V[..., d:, :] += V[..., :-d, :] @ P[j]
        d, j = 2 * d, j + 1
    Y += V[..., :nb, :] @ G
    y = Y.reshape(batch + (nb * L,))[..., :N]
    if r == L:
        return y, V[..., nb, :]
    Ar = _ca.asarray(_np.linalg.matrix_power(A, r).T.astype(dt), device=x.device)
    return y, V[..., nb - 1, :] @ Ar + X[..., nb - 1, :r] @ M[L - r:]


def _fir_full(x, b):
    """The full convolution of x (..., N) with taps b along the last axis."""
    K, N = b.size, x.shape[-1]
    if K > _FIR_DIRECT and N > _FIR_DIRECT:
        from ._signaltools import _fftconvolve
        bk = _ca.asarray(b, device=x.device).reshape((1,) * (x.ndim - 1) + (K,))
        return _fftconvolve(x, bk, "full", [x.ndim - 1]).astype(x.dtype, copy=False)
    out = _ca.zeros(x.shape[:-1] + (N + K - 1,), dtype=x.dtype, device=x.device)
    for k, c in enumerate(b.tolist()):
        if c != 0:
            out[..., k:k + N] += x * c
    return out


# ---- lfilter ----------------------------------------------------------------

def _zi_last(zi, x, axis, n, dt):
    """zi checked against x's shape (n along axis, singleton axes broadcast),
    moved to (..., n) of the batch shape."""
    want = list(x.shape)
    want[axis] = n
    if zi.ndim != x.ndim or any(s != w and not (s == 1 and k != axis)
                                for k, (s, w) in enumerate(zip(zi.shape, want))):
        raise ValueError(f"Unexpected shape for zi: expected {tuple(want)}, found "
                         f"{zi.shape}.")
    zm = _ca.moveaxis(zi.astype(dt, copy=False), axis, -1)
    batch = tuple(_np.delete(_np.asarray(x.shape, dtype=_np.int64), axis))
    return _ca.broadcast_to(zm, batch + (n,)).copy()


def lfilter(b, a, x, axis=-1, zi=None):
    """Filter x along axis with the rational filter b/a (initial state zi; with
    zi, also returns the final state)."""
    bh, ah = _coeffs(b, "b"), _coeffs(a, "a")
    x = asarray(x)
    if zi is not None:
        zi = like(zi, x)
    # (an empty x stays here: SciPy 1.17 returns uninitialized memory as its zf)
    if _route(x) and x.size:
        return back(scipy_signal().lfilter(bh, ah, host(x), axis, host(zi)), "cpu")
    if x.ndim == 0:
        raise ValueError("x must be at least 1-D")
    axis = _axis(axis, x.ndim)
    dt = _filter_dtype(bh, ah, x, zi)
    n = max(len(ah), len(bh)) - 1
    if len(ah) > 1 and ah[0] == 0:
        raise ValueError("BUG: filter coefficient a[0] == 0 not supported yet")
    z0 = None if zi is None else _zi_last(zi, x, axis, n, dt)
    xm = _ca.moveaxis(x, axis, -1).astype(dt)
    if len(ah) == 1:
        with _np.errstate(divide="warn", invalid="warn"):
            bk = (bh / ah[0]).astype(dt)
        full = _fir_full(xm, bk)
        if z0 is not None and n:
            full[..., :n] += z0
        y, zf = full[..., :xm.shape[-1]], full[..., xm.shape[-1]:]
    else:
        y, zf = _ss_filter(_tf_ss(bh, ah), xm, z0)
    y = _ca.moveaxis(y, -1, axis)
    return y if zi is None else (y, _ca.moveaxis(zf, -1, axis))


def lfiltic(b, a, y, x=None):
    """Initial state for lfilter from past outputs y and inputs x (host math on
    a few samples: SciPy's routine)."""
    dev = device_of(y, x, b, a)
    return back(scipy_signal().lfiltic(host(b), host(a), host(y), host(x)), dev)


def lfilter_zi(b, a):
    """lfilter's initial state for a step response's steady state (SciPy's
    routine on the host: a small linear system)."""
    return back(scipy_signal().lfilter_zi(host(b), host(a)), device_of(b, a))


def sosfilt_zi(sos):
    """sosfilt's steady-state initial state per section (SciPy's on the host)."""
    return back(scipy_signal().sosfilt_zi(host(sos)), device_of(sos))


# ---- sosfilt ----------------------------------------------------------------

def _validate_sos(sos):
    sos = _np.atleast_2d(_np.asarray(host(sos)))
    if sos.ndim != 2:
        raise ValueError("sos array must be 2D")
    n_sections, m = sos.shape
    if m != 6:
        raise ValueError("sos array must be shape (n_sections, 6)")
    if not (sos[:, 3] == 1).all():
        raise ValueError("sos[:, 3] should be all ones")
    return sos, n_sections


def _sos_system(sos):
    sys = None
    for sec in sos:
        s = _tf_ss(sec[:3], sec[3:])
        sys = s if sys is None else _series(sys, s)
    return sys


def sosfilt(sos, x, axis=-1, zi=None):
    """Filter x along axis with cascaded second-order sections (zi: per section
    states, shape (n_sections, ..., 2, ...); with zi, also the final states)."""
    x = asarray(x)
    if zi is not None:
        zi = like(zi, x)
    if _route(x):
        return back(scipy_signal().sosfilt(host(sos), host(x), axis, host(zi)), "cpu")
    if x.ndim == 0:
        raise ValueError("x must be at least 1-D")
    sos, ns = _validate_sos(sos)
    axis = _axis(axis, x.ndim)
    dt = _filter_dtype(sos, x, zi)
    want = list(x.shape)
    want[axis] = 2
    want = tuple([ns] + want)
    z0 = None
    if zi is not None:
        if zi.shape != want:
            raise ValueError(f"Invalid zi shape. With axis={axis!r}, an input with "
                             f"shape {x.shape!r}, and an sos array with {ns} sections, "
                             f"zi must have shape {want!r}, got {zi.shape!r}.")
        zm = _ca.moveaxis(zi.astype(dt, copy=False), (0, axis + 1), (-2, -1))
        z0 = zm.reshape(zm.shape[:-2] + (2 * ns,))
    xm = _ca.moveaxis(x, axis, -1).astype(dt)
    y, zf = _ss_filter(_sos_system(sos.astype(_np.result_type(sos, _np.float64))), xm, z0)
    y = _ca.moveaxis(y, -1, axis)
    if zi is None:
        return y
    zf = zf.reshape(zf.shape[:-1] + (ns, 2))
    return y, _ca.moveaxis(zf, (-2, -1), (0, axis + 1))


# ---- forward-backward filtering ---------------------------------------------

def _axis_slice(x, axis, start=None, stop=None, step=None):
    sl = [slice(None)] * x.ndim
    sl[axis] = slice(start, stop, step)
    return x[tuple(sl)]


def _extend(x, n, axis, padtype):
    """x extended by n samples at both ends along axis (odd, even or constant
    extension, SciPy's odd_ext/even_ext/const_ext)."""
    left = _axis_slice(x, axis, 0, 1)
    right = _axis_slice(x, axis, -1, None)
    if padtype == "constant":
        ones = [1] * x.ndim
        ones[axis] = n
        o = _ca.ones(tuple(ones), dtype=x.dtype, device=x.device)
        return _ca.concatenate([left * o, x, right * o], axis=axis)
    le = _axis_slice(x, axis, n, 0, -1)
    re = _axis_slice(x, axis, -2, -(n + 2), -1)
    if padtype == "odd":
        le, re = 2 * left - le, 2 * right - re
    return _ca.concatenate([le, x, re], axis=axis)


def _validate_pad(padtype, padlen, x, axis, ntaps):
    if padtype not in ["even", "odd", "constant", None]:
        raise ValueError(f"Unknown value '{padtype}' given to padtype. padtype must "
                         "be 'even', 'odd', 'constant', or None.")
    edge = 0 if padtype is None else (ntaps * 3 if padlen is None else padlen)
    if x.shape[axis] <= edge:
        raise ValueError("The length of the input vector x must be greater than "
                         f"padlen, which is {edge}.")
    ext = _extend(x, edge, axis, padtype) if padtype is not None and edge > 0 else x
    return edge, ext


def _forward_backward(run, zi, ext, axis, edge):
    """run(signal, zi) forward from zi*first sample, then backward from
    zi*last output; the extension cut off."""
    shape = [1] * ext.ndim
    shape[axis] = zi.shape[-1]
    zi = _ca.asarray(zi, device=ext.device)
    zi = zi.reshape(zi.shape[:-1] + tuple(shape)) if zi.ndim == 1 else \
        zi.reshape((zi.shape[0],) + tuple(shape))
    y, _ = run(ext, zi * _axis_slice(ext, axis, None, 1))
    y, _ = run(_axis_slice(y, axis, None, None, -1), zi * _axis_slice(y, axis, -1))
    y = _axis_slice(y, axis, None, None, -1)
    return _axis_slice(y, axis, edge, -edge) if edge > 0 else y


def filtfilt(b, a, x, axis=-1, padtype="odd", padlen=None, method="pad", irlen=None):
    """x filtered forward and backward with b/a (zero phase): 'pad' extends the
    ends, 'gust' chooses the initial states by Gustafsson's method."""
    x = asarray(x)
    if _route(x):
        return back(scipy_signal().filtfilt(host(b), host(a), host(x), axis, padtype,
                                            padlen, method, irlen), "cpu")
    bh, ah = _np.atleast_1d(host(b)), _np.atleast_1d(host(a))
    if method not in ["pad", "gust"]:
        raise ValueError("method must be 'pad' or 'gust'.")
    if method == "gust":
        return _filtfilt_gust(bh, ah, x, axis, irlen)
    axis = _axis(axis, x.ndim)
    edge, ext = _validate_pad(padtype, padlen, x, axis, max(len(ah), len(bh)))
    zi = scipy_signal().lfilter_zi(bh, ah)

    def run(s, z):
        return lfilter(bh, ah, s, axis, z)
    return _forward_backward(run, zi, ext, axis, edge)


def _gust_matrices(b, a, n, m, order):
    """Gustafsson's observation matrices (host): M maps the two initial states to
    the forward-backward / backward-forward difference, W to the output."""
    ss = scipy_signal()
    zi = _np.zeros(order)
    zi[0] = 1
    Obs = _np.zeros((m, order))
    Obs[:, 0] = ss.lfilter(b, a, _np.zeros(m), zi=zi)[0]
    for k in range(1, order):
        Obs[k:, k] = Obs[:-k, 0]
    Obsr = Obs[::-1]
    S = ss.lfilter(b, a, Obs[::-1], axis=0)
    Sr = S[::-1]
    if m == n:
        return _np.hstack((Sr - Obs, Obsr - S)), _np.hstack((Sr, Obsr))
    M = _np.zeros((2 * m, 2 * order))
    W = _np.zeros((2 * m, 2 * order))
    M[:m, :order], M[m:, order:] = Sr - Obs, Obsr - S
    W[:m, :order], W[m:, order:] = Sr, Obsr
    return M, W


def _filtfilt_gust(b, a, x, axis, irlen):
    order = max(len(b), len(a)) - 1
    if order == 0:
        return (b[0] / a[0]) ** 2 * x
    axis = _axis(axis, x.ndim)
    x = _ca.moveaxis(x, axis, -1)
    n = x.shape[-1]
    m = n if irlen is None or n <= 2 * irlen else irlen
    M, W = _gust_matrices(b, a, n, m, order)

    def lf(s):
        return lfilter(b, a, s)
    rev = (Ellipsis, slice(None, None, -1))
    y_fb = lf(lf(x)[rev])[rev]
    y_b = lf(x[rev])[rev]
    delta = lf(y_b) - y_fb
    if m != n:
        delta = _ca.concatenate([delta[..., :m], delta[..., -m:]], axis=-1)
    # the least-squares initial states: delta @ pinv(M)^T, pinv on the host
    dt = y_fb.dtype
    pinvT = _ca.asarray(_np.linalg.pinv(M).T.astype(dt), device=x.device)
    wic = (delta @ pinvT) @ _ca.asarray(W.T.astype(dt), device=x.device)
    if m == n:
        y_fb = y_fb + wic
    else:
        y_fb[..., :m] += wic[..., :m]
        y_fb[..., -m:] += wic[..., -m:]
    return _ca.moveaxis(y_fb, -1, axis)


def sosfiltfilt(sos, x, axis=-1, padtype="odd", padlen=None):
    """x filtered forward and backward with second-order sections (zero phase)."""
    x = asarray(x)
    if _route(x):
        return back(scipy_signal().sosfiltfilt(host(sos), host(x), axis, padtype,
                                               padlen), "cpu")
    sos, ns = _validate_sos(sos)
    if x.ndim == 0:
        raise ValueError("x must be at least 1-D")
    axis = _axis(axis, x.ndim)
    ntaps = 2 * ns + 1 - min((sos[:, 2] == 0).sum(), (sos[:, 5] == 0).sum())
    edge, ext = _validate_pad(padtype, padlen, x, axis, ntaps)
    zi = scipy_signal().sosfilt_zi(sos)

    def run(s, z):
        return sosfilt(sos, s, axis, z)
    return _forward_backward(run, zi, ext, axis, edge)


# ---- decimate, deconvolve ---------------------------------------------------

def _decimate_filter(ftype, q, n, rt):
    """decimate's filter (host design): ('fir', b) or ('sos', sos) or ('ba', b, a)."""
    ss = scipy_signal()
    if isinstance(ftype, str) and ftype == "fir":
        n = 20 * q if n is None else n
        return ("fir", ss.firwin(n + 1, 1. / q, window="hamming").astype(rt))
    if isinstance(ftype, str) and ftype == "iir":
        sos = ss.cheby1(8 if n is None else n, 0.05, 0.8 / q, output="sos")
        return ("sos", sos.astype(rt))
    if isinstance(ftype, ss.dlti):
        zpk = ftype._as_zpk()
        if zpk.poles.shape[0] == 0:
            tf = ftype._as_tf()
            return ("fir", _np.asarray(tf.num / tf.den, dtype=rt))
        if _np.any(_np.iscomplex(zpk.poles)) or _np.iscomplex(zpk.gain):
            tf = ftype._as_tf()
            return ("ba", tf.num, tf.den)
        return ("sos", ss.zpk2sos(zpk.zeros, zpk.poles, zpk.gain).astype(rt))
    raise ValueError("invalid ftype")


def decimate(x, q, n=None, ftype="iir", axis=-1, zero_phase=True):
    """x downsampled by q after an anti-aliasing filter (Chebyshev I order 8, or
    a Hamming FIR of 20q+1 taps, or the dlti given)."""
    import operator
    x = asarray(x)
    if _route(x):
        return back(scipy_signal().decimate(host(x), q, n, ftype, axis, zero_phase),
                    "cpu")
    q = operator.index(q)
    n = None if n is None else operator.index(n)
    rt = x.dtype if x.dtype.kind in "fc" and x.dtype != _np.float16 else _np.dtype(_np.float64)
    filt = _decimate_filter(ftype, q, n, rt)
    axis = _axis(axis, x.ndim)
    if filt[0] == "fir":
        from ._upfirdn import resample_poly, upfirdn
        if zero_phase:
            y = resample_poly(x, 1, q, axis=axis, window=filt[1])
        else:
            n_out = x.shape[axis] // q + bool(x.shape[axis] % q)
            y = _axis_slice(upfirdn(filt[1], x, 1, q, axis), axis, None, n_out)
        return y
    if filt[0] == "sos":
        y = sosfiltfilt(filt[1], x, axis) if zero_phase else sosfilt(filt[1], x, axis)
    else:
        y = filtfilt(filt[1], filt[2], x, axis) if zero_phase else \
            lfilter(filt[1], filt[2], x, axis)
    return _axis_slice(y, axis, None, None, q)


def deconvolve(signal, divisor):
    """(quotient, remainder) of signal by divisor (polynomial division: the
    quotient is lfilter of an impulse, the remainder signal - convolve)."""
    sig = asarray(signal)
    den = like(divisor, sig)
    if _route(sig):
        return back(scipy_signal().deconvolve(host(sig), host(den)), "cpu")
    sig, den = _ca.atleast_1d(sig), _ca.atleast_1d(den)
    if sig.ndim > 1 or den.ndim > 1:
        raise ValueError("signal and divisor must be 1-D.")
    N, D = sig.shape[0], den.shape[0]
    if D > N:
        return _ca.asarray([], dtype=_np.float64, device=sig.device), sig
    impulse = _ca.zeros(N - D + 1, dtype=_np.float64, device=sig.device)
    impulse[0] = 1
    quot = lfilter(sig, host(den), impulse)
    from ._signaltools import convolve
    return quot, sig - convolve(den, quot, mode="full")
