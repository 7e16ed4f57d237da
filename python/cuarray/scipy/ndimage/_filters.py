"""scipy.ndimage's filters on cuarray arrays: correlations and convolutions (1-D and
n-D), Gaussian, uniform, Sobel/Prewitt/Laplace and their generic forms, min/max,
rank, median and percentile filters.

Every filter is one or more calls of the `_ndi_filter` kernel (csrc/ops/ndimage.c)
over a float64 copy of the input, as SciPy computes in double; separable filters
run one 1-D pass per axis and store each pass in the output's dtype before the
next reads it, as SciPy does (so integer outputs truncate between passes as
SciPy's do). On the cpu device (CPU_SCIPY) SciPy's own function runs on
zero-copy views; the tests turn the flag off to check the kernels' host loops.
generic_filter / generic_filter1d call a Python function per window: SciPy's on
the cpu device; on a GPU they raise NotImplementedError.
"""

import numbers as _numbers
import operator as _operator

import numpy as _np

import cuarray as _ca

from ._util import (asarray, check_axes, check_axis, cpu_scipy, f64, host, mode_code,
                    ndi_filter, output_array, scipy_ndimage, sequence, store)

__all__ = ["correlate1d", "convolve1d", "gaussian_filter1d", "gaussian_filter",
           "prewitt", "sobel", "generic_laplace", "laplace", "gaussian_laplace",
           "generic_gradient_magnitude", "gaussian_gradient_magnitude", "correlate",
           "convolve", "uniform_filter1d", "uniform_filter", "minimum_filter1d",
           "maximum_filter1d", "minimum_filter", "maximum_filter", "rank_filter",
           "median_filter", "percentile_filter", "generic_filter1d", "generic_filter"]

CPU_SCIPY = True
_scipy_first = cpu_scipy(__name__)

_CORR, _MIN, _MAX, _RANK = 0, 1, 2, 3


# ---- the kernel call ------------------------------------------------------------------

def _check_origin(origin, size):
    if origin < -(size // 2) or origin > (size - 1) // 2:
        raise ValueError("Invalid origin; origin must satisfy -(weights.shape[k] // 2)"
                         " <= origin[k] <= (weights.shape[k]-1) // 2")


def _taps(footprint, origins):
    """The offsets (nk, ndim) of footprint's true entries (C order) under origins."""
    idx = _np.argwhere(footprint)
    centre = _np.array([s // 2 for s in footprint.shape], dtype=_np.int64)
    return (idx - centre - _np.asarray(origins, dtype=_np.int64)).astype(_np.int64)


_CA_DTYPES = [_np.dtype(t) for t in (
    _np.bool_, _np.int8, _np.uint8, _np.int16, _np.uint16, _np.int32, _np.uint32,
    _np.int64, _np.uint64, _np.float16, _np.float32, _np.float64)]


def run_filter(x, offs, op, mode, cval, weights=None, rank=0, vtype=None):
    """The kernel over float64 C-contiguous x with tap offsets offs (NumPy (nk,
    ndim)); a fresh float64 result. vtype: the dtype a min/max keeps x -/+ w in."""
    out = _ca.empty(x.shape, dtype=_np.float64, device=x.device)
    if x.size == 0:
        return out
    if x.ndim == 0:     # a 0-d input: one point, every tap on it
        r = run_filter(x.reshape(1), _np.zeros((len(offs), 1), dtype=_np.int64), op,
                       mode, cval, weights, rank, vtype)
        return r.reshape(())
    offs = _np.ascontiguousarray(offs, dtype=_np.int64)
    strides = _np.array([s // 8 for s in x.strides], dtype=_np.int64)
    lo = tuple(int(v) for v in offs.min(axis=0))
    hi = tuple(int(v) for v in offs.max(axis=0))
    dev = x.device
    d_offs = _ca.asarray(offs, device=dev)
    d_loffs = _ca.asarray(offs @ strides, device=dev)
    d_w = None if weights is None else \
        _ca.asarray(_np.ascontiguousarray(weights, dtype=_np.float64), device=dev)
    scratch, nthreads = None, 1
    if op == _RANK and dev != "cpu":
        nk = offs.shape[0]
        nthreads = int(min(x.size, max(1024, min(1 << 16, (1 << 27) // (8 * nk)))))
        scratch = _ca.empty(nthreads * nk, dtype=_np.float64, device=dev)
    vt = _CA_DTYPES.index(vtype) if vtype in _CA_DTYPES else -1
    ndi_filter(x, out, d_offs, d_loffs, d_w, op, mode, float(cval), int(rank), lo, hi,
               scratch, nthreads, vt, _line_axis(offs, op))
    return out


def _line_axis(offs, op):
    """The axis all taps lie along, their offsets there consecutive and in order
    (the GPU's tiled line kernels), else -1."""
    if op == _RANK:
        return -1
    nz = _np.flatnonzero((offs != 0).any(axis=0))
    if len(nz) > 1:
        return -1
    ax = int(nz[0]) if len(nz) else offs.shape[1] - 1
    return ax if (_np.diff(offs[:, ax]) == 1).all() else -1


def _line_offsets(ndim, axis, size, origin):
    offs = _np.zeros((size, ndim), dtype=_np.int64)
    offs[:, axis] = _np.arange(size) - size // 2 - origin
    return offs


def _pass1d(x, weights, axis, op, mode, cval, origin):
    """One 1-D pass (weights None: min/max over len `weights`... see callers)."""
    size = len(weights)
    offs = _line_offsets(x.ndim, axis, size, origin)
    keep = None
    if op == _CORR:
        keep = _np.abs(weights) > _np.finfo(_np.float64).eps
        if not keep.any():
            return _ca.zeros(x.shape, dtype=_np.float64, device=x.device)
        offs, weights = offs[keep], weights[keep]
    return run_filter(x, offs, op, mode, cval, weights if op == _CORR else None)


def _real_input(input):
    input = asarray(input)
    if input.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    return input


def _weights1d(weights):
    w = _np.asarray(host(weights), dtype=_np.float64)
    if w.ndim != 1 or w.shape[0] < 1:
        raise RuntimeError("no filter weights given")
    return w


# ---- correlations -------------------------------------------------------------------

def _complex_parts(input, weights, run, output, cval):
    """SciPy's complex rule: the real and imaginary parts of input and weights
    filtered separately (run(x, w, cval) -> float64), the parts combined;
    the real part of cval pads the real input, its imaginary part the
    imaginary input."""
    wr, wi = weights.real.copy(), weights.imag.copy()
    cr, ci = _np.real(cval), _np.imag(cval)
    cplx_in = input.dtype.kind == "c"
    xr = input.real if cplx_in else input
    re = run(xr, wr, cr)
    im = _ca.zeros(input.shape, dtype=_np.float64, device=input.device)
    if weights.dtype.kind == "c":
        if cplx_in:
            re = re - run(input.imag, wi, ci)
        im = im + run(xr, wi, cr)
    if cplx_in:
        im = im + run(input.imag, wr, ci)
    return store(re + 1j * im, output)


@_scipy_first
def correlate1d(input, weights, axis=-1, output=None, mode="reflect", cval=0.0,
                origin=0):
    """scipy.ndimage.correlate1d: a 1-D correlation along axis, in float64."""
    input = asarray(input)
    w = _np.asarray(host(weights))
    complex_out = input.dtype.kind == "c" or w.dtype.kind == "c"
    # as np.correlate, the weights are conjugated rather than the input
    w = w.conj().astype(_np.complex128) if w.dtype.kind == "c" else \
        w.astype(_np.float64)
    if w.ndim != 1 or w.shape[0] < 1:
        raise RuntimeError("no filter weights given")
    axis = check_axis(axis, input.ndim)
    _check_origin(origin, len(w))
    output = output_array(output, input, complex_output=complex_out)
    code = mode_code(mode, is_filter=True)

    def run(x, wts, c):
        return _pass1d(f64(x), wts, axis, _CORR, code, c, origin)

    if complex_out:
        return _complex_parts(input, w, run, output, cval)
    return store(run(input, w, cval), output)


@_scipy_first
def convolve1d(input, weights, axis=-1, output=None, mode="reflect", cval=0.0,
               origin=0):
    """scipy.ndimage.convolve1d: correlate1d with the reversed weights."""
    w = _np.asarray(host(weights))[::-1]
    origin = -origin
    if not len(w) & 1:
        origin -= 1
    if w.dtype.kind == "c":
        w = w.conj()    # undoes correlate1d's conjugation
    return correlate1d(input, w, axis, output, mode, cval, origin)


def _nd_correlate(input, weights, output, mode, cval, origin, axes, convolution):
    input = asarray(input)
    w = _np.asarray(host(weights))
    complex_out = input.dtype.kind == "c" or w.dtype.kind == "c"
    w = w.astype(_np.complex128 if w.dtype.kind == "c" else _np.float64)
    if w.dtype.kind == "c" and not convolution:
        w = w.conj()
    axes = check_axes(axes, input.ndim)
    if w.ndim != len(axes):
        raise RuntimeError("filter weights array has incorrect shape.")
    origins = sequence(origin, len(axes))
    if convolution:
        w = w[(slice(None, None, -1),) * w.ndim]
        origins = [-o - (0 if s & 1 else 1) for o, s in zip(origins, w.shape)]
    output = output_array(output, input, complex_output=complex_out)
    code = mode_code(mode, is_filter=True)

    def run(x, wts, c):
        keep = _np.abs(wts) > _np.finfo(_np.float64).eps
        if not keep.any() or x.size == 0:
            return _ca.zeros(x.shape, dtype=_np.float64, device=x.device)
        return run_filter(f64(x), full_taps(x, axes, keep, origins), _CORR, code, c,
                          wts[keep])

    if complex_out:
        return _complex_parts(input, w, run, output, cval)
    return store(run(input, w, cval), output)


@_scipy_first
def correlate(input, weights, output=None, mode="reflect", cval=0.0, origin=0, *,
              axes=None):
    """scipy.ndimage.correlate: an n-D correlation (taps where |w| > eps, as SciPy)."""
    return _nd_correlate(input, weights, output, mode, cval, origin, axes, False)


@_scipy_first
def convolve(input, weights, output=None, mode="reflect", cval=0.0, origin=0, *,
             axes=None):
    """scipy.ndimage.convolve: correlate with the reversed weights."""
    return _nd_correlate(input, weights, output, mode, cval, origin, axes, True)


# ---- separable filters --------------------------------------------------------------

def _separable(input, output, passes):
    """Run passes [(fn(x64) -> float64)] in order, each stored in output before
    the next reads it (SciPy's input = output between axes); none: a copy."""
    if not passes:
        output[...] = input
        return output
    x = input
    for p in passes:
        store(p(f64(x)), output)
        x = output
    return output


def _gaussian_kernel1d(sigma, order, radius):
    """The sampled Gaussian of sigma on [-radius, radius], normalised to sum 1, and
    its order-th derivative: phi times the polynomial q with q_0 = 1 and
    q_{k+1} = q_k' - x q_k / sigma^2."""
    x = _np.arange(-radius, radius + 1, dtype=_np.float64)
    phi = _np.exp(-0.5 / (sigma * sigma) * x * x)
    phi /= phi.sum()
    if order == 0:
        return phi
    q = _np.zeros(order + 1)
    q[0] = 1.0
    for _ in range(order):
        # derivative of the polynomial (coefficients by power) minus x q / sigma^2
        dq = _np.zeros_like(q)
        dq[:-1] = q[1:] * _np.arange(1, order + 1)
        dq[1:] -= q[:-1] / (sigma * sigma)
        q = dq
    return (x[:, None] ** _np.arange(order + 1)) @ q * phi


def _gauss_pass(sigma, order, mode, cval, truncate, radius, axis):
    if order < 0:
        raise ValueError("order must be non-negative")
    sd = float(sigma)
    lw = int(truncate * sd + 0.5) if radius is None else radius
    if not isinstance(lw, _numbers.Integral) or lw < 0:
        raise ValueError("Radius must be a nonnegative integer.")
    w = _gaussian_kernel1d(sd, order, lw)[::-1].copy()
    code = mode_code(mode, is_filter=True)
    return lambda x: _pass1d(x, w, axis, _CORR, code, cval, 0)


@_scipy_first
def gaussian_filter1d(input, sigma, axis=-1, order=0, output=None, mode="reflect",
                      cval=0.0, truncate=4.0, *, radius=None):
    """scipy.ndimage.gaussian_filter1d (order-th derivative of a Gaussian)."""
    input = _real_input(input)
    axis = check_axis(axis, input.ndim)
    output = output_array(output, input)
    p = _gauss_pass(sigma, order, mode, cval, truncate, radius, axis)
    return _separable(input, output, [p])


@_scipy_first
def gaussian_filter(input, sigma, order=0, output=None, mode="reflect", cval=0.0,
                    truncate=4.0, *, radius=None, axes=None):
    """scipy.ndimage.gaussian_filter: one gaussian_filter1d per axis (sigma <= 1e-15
    skipped), each pass stored in the output's dtype."""
    input = _real_input(input)
    output = output_array(output, input)
    axes = check_axes(axes, input.ndim)
    n = len(axes)
    rows = zip(axes, sequence(sigma, n), sequence(order, n), sequence(mode, n),
               sequence(radius, n), sequence(truncate, n))
    passes = [_gauss_pass(s, o, m, cval, t, r, ax)
              for ax, s, o, m, r, t in rows if s > 1e-15]
    return _separable(input, output, passes)


def _stencil(input, axis, output, mode, cval, diff, smooth):
    input = _real_input(input)
    axis = check_axis(axis, input.ndim)
    output = output_array(output, input)
    modes = sequence(mode, input.ndim)
    passes = [lambda x, m=mode_code(modes[axis], True):
              _pass1d(x, diff, axis, _CORR, m, cval, 0)]
    for ax in range(input.ndim):
        if ax != axis:
            passes.append(lambda x, ax=ax, m=mode_code(modes[ax], True):
                          _pass1d(x, smooth, ax, _CORR, m, cval, 0))
    return _separable(input, output, passes)


@_scipy_first
def sobel(input, axis=-1, output=None, mode="reflect", cval=0.0):
    """scipy.ndimage.sobel."""
    return _stencil(input, axis, output, mode, cval, _np.array([-1.0, 0.0, 1.0]),
                    _np.array([1.0, 2.0, 1.0]))


@_scipy_first
def prewitt(input, axis=-1, output=None, mode="reflect", cval=0.0):
    """scipy.ndimage.prewitt."""
    return _stencil(input, axis, output, mode, cval, _np.array([-1.0, 0.0, 1.0]),
                    _np.array([1.0, 1.0, 1.0]))


def _sum_over_axes(input, fn, output, mode, cval, extra_arguments, extra_keywords,
                  axes, square):
    """SciPy's generic_laplace / generic_gradient_magnitude loop: fn(input, axis,
    output or output's dtype, mode, cval, ...) per axis, summed into output
    (squared first when square; then the root)."""
    extra_keywords = {} if extra_keywords is None else extra_keywords
    input = asarray(input)
    output = output_array(output, input)
    axes = check_axes(axes, input.ndim)
    if not axes:
        output[...] = input
        return output
    modes = sequence(mode, len(axes))
    fn(input, axes[0], output, modes[0], cval, *extra_arguments, **extra_keywords)
    if square:
        _ca.multiply(output, output, output)
    for ax, m in zip(axes[1:], modes[1:]):
        tmp = fn(input, ax, output.dtype, m, cval, *extra_arguments, **extra_keywords)
        if square:
            _ca.multiply(tmp, tmp, tmp)
        output += tmp
    if square:
        output[...] = _ca.sqrt(output)    # SciPy: casting="unsafe"
    return output


def generic_laplace(input, derivative2, output=None, mode="reflect", cval=0.0,
                    extra_arguments=(), extra_keywords=None, *, axes=None):
    """scipy.ndimage.generic_laplace: the sum over axes of derivative2(input, axis,
    output, mode, cval, ...), derivative2 a function of cuarray arrays (so no
    hand-off to SciPy on the cpu device: the callable gets cuarray arrays)."""
    return _sum_over_axes(input, derivative2, output, mode, cval, extra_arguments,
                          extra_keywords, axes, False)


@_scipy_first
def laplace(input, output=None, mode="reflect", cval=0.0, *, axes=None):
    """scipy.ndimage.laplace: second differences [1, -2, 1] summed over axes."""
    def d2(x, axis, out, m, c):
        return correlate1d(x, [1.0, -2.0, 1.0], axis, out, m, c, 0)
    return generic_laplace(_real_input(input), d2, output, mode, cval, axes=axes)


def _gaussian_derivatives(input, sigma, output, mode, cval, axes, kwargs, order,
                          generic):
    """generic(input, derivative, ...) with derivative the Gaussian filter of
    order `order` along the axis asked and 0 along the others (over axes)."""
    input = _real_input(input)
    axes = check_axes(axes, input.ndim)
    sig = sequence(sigma, len(axes))

    def derivative(x, axis, out, m, c):
        orders = [order if a == axis else 0 for a in axes]
        return gaussian_filter(x, sig, orders, out, m, c, axes=axes, **kwargs)
    return generic(input, derivative, output, mode, cval, axes=axes)


@_scipy_first
def gaussian_laplace(input, sigma, output=None, mode="reflect", cval=0.0, *, axes=None,
                     **kwargs):
    """scipy.ndimage.gaussian_laplace: second Gaussian derivatives summed."""
    return _gaussian_derivatives(input, sigma, output, mode, cval, axes, kwargs, 2,
                                 generic_laplace)


def generic_gradient_magnitude(input, derivative, output=None, mode="reflect", cval=0.0,
                               extra_arguments=(), extra_keywords=None, *, axes=None):
    """scipy.ndimage.generic_gradient_magnitude: sqrt of the sum of squared
    derivative(input, axis, output, mode, cval, ...) over axes (derivative a
    function of cuarray arrays, as generic_laplace's)."""
    return _sum_over_axes(input, derivative, output, mode, cval, extra_arguments,
                          extra_keywords, axes, True)


@_scipy_first
def gaussian_gradient_magnitude(input, sigma, output=None, mode="reflect", cval=0.0, *,
                                axes=None, **kwargs):
    """scipy.ndimage.gaussian_gradient_magnitude."""
    return _gaussian_derivatives(input, sigma, output, mode, cval, axes, kwargs, 1,
                                 generic_gradient_magnitude)


# ---- uniform, min/max and rank filters ------------------------------------------------

def _size_ok(size):
    if size < 1:
        raise RuntimeError("incorrect filter size")


def _uniform_pass(size, axis, mode, cval, origin):
    _size_ok(size)
    _check_origin(origin, size)
    code = mode_code(mode, is_filter=True)
    ones = _np.ones(size)
    # the window's sum, then / size (SciPy's running sum over double)
    return lambda x: _pass1d(x, ones, axis, _CORR, code, cval, origin) / size


@_scipy_first
def uniform_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0,
                     origin=0):
    """scipy.ndimage.uniform_filter1d: the mean over a window of size."""
    input = asarray(input)
    axis = check_axis(axis, input.ndim)
    output = output_array(output, input, complex_output=input.dtype.kind == "c")
    p = _uniform_pass(size, axis, mode, cval, origin)
    if input.dtype.kind == "c":
        return store(p(f64(input.real)) + 1j * p(f64(input.imag)), output)
    return _separable(input, output, [p])


@_scipy_first
def uniform_filter(input, size=3, output=None, mode="reflect", cval=0.0, origin=0, *,
                   axes=None):
    """scipy.ndimage.uniform_filter: uniform_filter1d along each axis (size > 1)."""
    input = asarray(input)
    output = output_array(output, input, complex_output=input.dtype.kind == "c")
    axes = check_axes(axes, input.ndim)
    n = len(axes)
    rows = zip(axes, sequence(size, n), sequence(mode, n), sequence(origin, n))
    passes = [_uniform_pass(s, ax, m, cval, o) for ax, s, m, o in rows if s > 1]
    if input.dtype.kind == "c":
        def run(x):
            for p in passes:
                x = p(f64(x))
            return x
        return store(run(input.real) + 1j * run(input.imag), output)
    return _separable(input, output, passes)


def _minmax1d(input, size, axis, output, mode, cval, origin, op):
    input = _real_input(input)
    axis = check_axis(axis, input.ndim)
    _size_ok(size)
    _check_origin(origin, size)
    output = output_array(output, input)
    offs = _line_offsets(input.ndim, axis, size, origin)
    code = mode_code(mode, is_filter=True)
    return _separable(input, output,
                      [lambda x: run_filter(x, offs, op, code, cval)])


@_scipy_first
def minimum_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0,
                     origin=0):
    """scipy.ndimage.minimum_filter1d."""
    return _minmax1d(input, size, axis, output, mode, cval, origin, _MIN)


@_scipy_first
def maximum_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0,
                     origin=0):
    """scipy.ndimage.maximum_filter1d."""
    return _minmax1d(input, size, axis, output, mode, cval, origin, _MAX)


def typed_cval(cval, dtype):
    """cval as SciPy's n-D min/max and rank filters see it: converted to the
    input's type (their buffers hold input values; integers wrap as C casts)."""
    c = _np.array(cval, dtype=_np.float64)
    if dtype.kind in "iub":
        c = c.astype(_np.int64)
    return float(c.astype(dtype))


def footprint_of(input, size, footprint, axes):
    """(axes, footprint as a NumPy bool array over axes, separable) by SciPy's
    rules for size/footprint."""
    axes = check_axes(axes, input.ndim)
    if footprint is None:
        if size is None:
            raise RuntimeError("no footprint provided")
        sizes = sequence(size, len(axes))
        return axes, _np.ones(sizes, dtype=bool), True
    fp = _np.asarray(host(footprint), dtype=bool)
    if fp.ndim != len(axes):
        raise RuntimeError("footprint array has incorrect shape.")
    if not fp.any():
        raise ValueError("All-zero footprint is not supported.")
    return axes, fp, bool(fp.all())


def full_taps(input, axes, fp, origins):
    """Offsets (nk, input.ndim) of the footprint fp over axes. As SciPy's
    _expand_footprint/_expand_origin: fp's dimensions go to the axes in
    increasing order; origins[k] to axes[k] (to axis k when every axis is
    filtered)."""
    nd = input.ndim
    org = list(origins) if len(axes) == nd else [0] * nd
    if len(axes) != nd:
        for o, ax in zip(origins, axes):
            org[ax] = o
    sax = sorted(axes)
    fo = [org[ax] for ax in sax]
    for o, s in zip(fo, fp.shape):
        _check_origin(o, s)
    t = _taps(fp, fo)
    offs = _np.zeros((t.shape[0], nd), dtype=_np.int64)
    offs[:, sax] = t
    return offs


def minmax_filter(input, size, footprint, structure, output, mode, cval, origin, op,
                  axes):
    """SciPy's _min_or_max_filter: separable passes for a flat box, else one pass
    over the footprint (with the structure's values subtracted or added)."""
    input = _real_input(input)
    if structure is not None:
        st = _np.asarray(host(structure), dtype=_np.float64)
        if footprint is None:
            footprint = _np.ones(st.shape, dtype=bool)
    axes, fp, sep = footprint_of(input, size, footprint, axes)
    if structure is not None:
        sep = False
        if st.ndim != fp.ndim:
            raise RuntimeError("structure array has incorrect shape")
    output = output_array(output, input)
    origins = sequence(origin, len(axes))
    modes = sequence(mode, len(axes))
    if sep:
        passes = []
        for ax, s, m, o in zip(axes, fp.shape, modes, origins):
            if s > 1:
                _check_origin(o, s)
                offs = _line_offsets(input.ndim, ax, s, o)
                passes.append(lambda x, offs=offs, c=mode_code(m, True):
                              run_filter(x, offs, op, c, cval))
        return _separable(input, output, passes)
    if len(set(modes)) > 1:
        raise RuntimeError("A sequence of modes is not supported for non-separable "
                           "footprints")
    offs = full_taps(input, axes, fp, origins)
    w = None if structure is None else st[fp]
    if input.size == 0:
        return output
    return store(run_filter(f64(input), offs, op, mode_code(modes[0], True),
                            typed_cval(cval, input.dtype), w, vtype=input.dtype),
                 output)


@_scipy_first
def minimum_filter(input, size=None, footprint=None, output=None, mode="reflect",
                   cval=0.0, origin=0, *, axes=None):
    """scipy.ndimage.minimum_filter."""
    return minmax_filter(input, size, footprint, None, output, mode, cval, origin, _MIN,
                         axes)


@_scipy_first
def maximum_filter(input, size=None, footprint=None, output=None, mode="reflect",
                   cval=0.0, origin=0, *, axes=None):
    """scipy.ndimage.maximum_filter."""
    return minmax_filter(input, size, footprint, None, output, mode, cval, origin, _MAX,
                         axes)


def _rank(input, rank, size, footprint, output, mode, cval, origin, kind, axes):
    input = _real_input(input)
    axes, fp, _ = footprint_of(input, size, footprint, axes)
    origins = sequence(origin, len(axes))
    nk = int(fp.sum())
    if kind == "median":
        rank = nk // 2
    elif kind == "percentile":
        pct = float(rank)
        if pct < 0.0:
            pct += 100.0
        if pct < 0 or pct > 100:
            raise RuntimeError("invalid percentile")
        rank = nk - 1 if pct == 100.0 else int(float(nk) * pct / 100.0)
    rank = int(rank)
    if rank < 0:
        rank += nk
    if rank < 0 or rank >= nk:
        raise RuntimeError("rank not within filter footprint size")
    if rank == 0 or rank == nk - 1:
        op = _MIN if rank == 0 else _MAX
        return minmax_filter(input, None, fp, None, output, mode, cval, origins, op,
                             axes)
    output = output_array(output, input)
    offs = full_taps(input, axes, fp, origins)
    if input.size == 0:
        return output
    return store(run_filter(f64(input), offs, _RANK, mode_code(mode, True),
                            typed_cval(cval, input.dtype), rank=rank), output)


@_scipy_first
def rank_filter(input, rank, size=None, footprint=None, output=None, mode="reflect",
                cval=0.0, origin=0, *, axes=None):
    """scipy.ndimage.rank_filter: the rank-th smallest value of each window."""
    return _rank(input, _operator_index(rank), size, footprint, output, mode, cval,
                 origin, "rank", axes)


@_scipy_first
def median_filter(input, size=None, footprint=None, output=None, mode="reflect",
                  cval=0.0, origin=0, *, axes=None):
    """scipy.ndimage.median_filter."""
    return _rank(input, 0, size, footprint, output, mode, cval, origin, "median", axes)


@_scipy_first
def percentile_filter(input, percentile, size=None, footprint=None, output=None,
                      mode="reflect", cval=0.0, origin=0, *, axes=None):
    """scipy.ndimage.percentile_filter."""
    return _rank(input, percentile, size, footprint, output, mode, cval, origin,
                 "percentile", axes)


def _operator_index(v):
    return _operator.index(v)


# ---- filters of a Python function ---------------------------------------------------

def _host_only(name, input, args, kwargs):
    input = asarray(input)
    if input.device != "cpu":
        raise NotImplementedError(
            f"{name} calls a Python function per window: it runs on the cpu device "
            "only (SciPy's own); move the array there with cuarray.asarray(x, "
            "device='cpu')")
    out = kwargs.get("output")
    views = []
    if isinstance(out, _ca.ndarray):
        kwargs = dict(kwargs, output=_np.asarray(out))
        views.append((kwargs["output"], out))
    from ._util import back
    r = getattr(scipy_ndimage(), name)(_np.asarray(input), *host(list(args)),
                                       **{k: host(v) for k, v in kwargs.items()})
    return back(r, views)


def generic_filter1d(input, function, filter_size, axis=-1, output=None,
                     mode="reflect", cval=0.0, origin=0, extra_arguments=(),
                     extra_keywords=None):
    """scipy.ndimage.generic_filter1d. The function is Python, called per line:
    SciPy's own on the cpu device; on a GPU a NotImplementedError."""
    return _host_only("generic_filter1d", input, (function, filter_size),
                      dict(axis=axis, output=output, mode=mode, cval=cval,
                           origin=origin, extra_arguments=extra_arguments,
                           extra_keywords=extra_keywords))


def generic_filter(input, function, size=None, footprint=None, output=None,
                   mode="reflect", cval=0.0, origin=0, extra_arguments=(),
                   extra_keywords=None, *, axes=None):
    """scipy.ndimage.generic_filter. The function is Python, called per window:
    SciPy's own on the cpu device; on a GPU a NotImplementedError."""
    return _host_only("generic_filter", input, (function,),
                      dict(size=size, footprint=footprint, output=output, mode=mode,
                           cval=cval, origin=origin, extra_arguments=extra_arguments,
                           extra_keywords=extra_keywords, axes=axes))

