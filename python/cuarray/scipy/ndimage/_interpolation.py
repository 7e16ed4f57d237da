"""scipy.ndimage's interpolation on cuarray arrays: spline_filter1d/spline_filter
(B-spline coefficients by the causal and anticausal recursions along each line,
SciPy's boundary start per mode: `_ndi_spline`), map_coordinates, and the
affine family (affine_transform, shift, zoom, rotate) as one `_ndi_map` kernel
call each: every output point computes its own coordinate from the affine map,
so no coordinate array is built. As SciPy, 'nearest' and 'grid-constant' pad
the input by 12 before the prefilter. Integer outputs round half away from zero
(half up for unsigned), as SciPy's. On the cpu device (CPU_SCIPY) SciPy's own
function runs on zero-copy views. geometric_transform (a Python mapping per
point) is not offered.
"""

import math as _math
import warnings as _warnings

import numpy as _np

import cuarray as _ca

from ._util import (asarray, check_axis, check_type, cpu_scipy, f64, host, mode_code,
                    ndi_map,
                    ndi_spline, output_array, sequence, store)

__all__ = ["spline_filter1d", "spline_filter", "map_coordinates", "affine_transform",
           "shift", "zoom", "rotate"]

CPU_SCIPY = True
_scipy_first = cpu_scipy(__name__)


def _check_order(order, lo=0):
    if order < lo or order > 5:
        raise RuntimeError("spline order not supported")


# ---- spline prefilter -------------------------------------------------------------

def _spline_axis(c, order, axis, code):
    """c (float64, C-contiguous, owned) filtered along axis in place."""
    if order > 1 and c.size and c.shape[axis] > 1:
        ndi_spline(c, axis, order, code)
    return c


@_scipy_first
def spline_filter1d(input, order=3, axis=-1, output=_np.float64, mode="mirror"):
    """scipy.ndimage.spline_filter1d: B-spline coefficients along one axis."""
    _check_order(order)
    input = check_type(asarray(input))
    complex_out = input.dtype.kind == "c"
    output = output_array(output, input, complex_output=complex_out)
    if complex_out:
        spline_filter1d(input.real, order, axis, output.real, mode)
        spline_filter1d(input.imag, order, axis, output.imag, mode)
        return output
    if order in (0, 1):
        output[...] = input
        return output
    code = mode_code(mode)
    axis = check_axis(axis, input.ndim)
    c = _ca.array(input, dtype=_np.float64, order="C", copy=True)
    return store(_spline_axis(c, order, axis, code), output)


@_scipy_first
def spline_filter(input, order=3, output=_np.float64, mode="mirror"):
    """scipy.ndimage.spline_filter: spline_filter1d along every axis, each pass
    stored in output's dtype."""
    _check_order(order, 2)
    input = check_type(asarray(input))
    complex_out = input.dtype.kind == "c"
    output = output_array(output, input, complex_output=complex_out)
    if complex_out:
        spline_filter(input.real, order, output.real, mode)
        spline_filter(input.imag, order, output.imag, mode)
        return output
    if input.ndim == 0:
        output[...] = input
        return output
    code = mode_code(mode)
    x = input
    for axis in range(input.ndim):
        c = _ca.array(x, dtype=_np.float64, order="C", copy=True)
        store(_spline_axis(c, order, axis, code), output)
        x = output
    return output


def _coefficients(input, order, mode, cval, prefilter):
    """(float64 spline coefficients, the pad npad SciPy adds for nearest and
    grid-constant)."""
    if not (prefilter and order > 1):
        return f64(input), 0
    npad = 0
    x = input
    if mode in ("nearest", "grid-constant"):
        npad = 12
        if mode == "nearest":
            x = _ca.pad(input, npad, mode="edge")
        else:
            x = _ca.pad(input, npad, mode="constant", constant_values=cval)
    c = _ca.array(x, dtype=_np.float64, order="C", copy=True)
    code = mode_code(mode)
    for axis in range(c.ndim):
        _spline_axis(c, order, axis, code)
    return c, npad


def _interp(input, output, order, mode, cval, prefilter, coords=None, matrix=None):
    """output = input interpolated at coords ((ndim, n) float64 on the device) or
    at matrix (ndim, out_ndim + 1: linear part and offset) @ (index, 1)."""
    code = mode_code(mode)
    check_type(input)
    if input.ndim > 8:
        raise NotImplementedError("interpolation of more than 8 dimensions is not "
                                  "supported (kernels.h: CA_NDI_MAP_DIMS)")
    if output.size == 0:
        return output
    c, npad = _coefficients(input, order, mode, cval, prefilter)
    r = _ca.empty(output.shape, dtype=_np.float64, device=input.device)
    if coords is not None:
        coords = _ca.ascontiguousarray(coords + npad if npad else coords,
                                       dtype=_np.float64)
        ndi_map(c, r, coords, None, order, code, float(cval))
    else:
        m = _np.array(matrix, dtype=_np.float64)
        m[:, -1] += npad
        ndi_map(c, r, None, _ca.asarray(m, device=input.device), order, code,
                float(cval))
    return store(r, output, round_ints=True)


def _complex_split(fn, input, output, cval, **kw):
    fn(input.real, output=output.real, cval=_np.real(cval), **kw)
    fn(input.imag, output=output.imag, cval=_np.imag(cval), **kw)
    return output


@_scipy_first
def map_coordinates(input, coordinates, output=None, order=3, mode="constant",
                    cval=0.0, prefilter=True):
    """scipy.ndimage.map_coordinates: input at the given coordinates (first axis:
    one row per input dimension)."""
    _check_order(order)
    input = asarray(input)
    coordinates = asarray(coordinates)
    if coordinates.device != input.device:
        raise ValueError("coordinates are on another device than the input")
    if coordinates.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    out_shape = coordinates.shape[1:]
    if input.ndim < 1 or len(out_shape) < 1:
        raise RuntimeError("input and output rank must be > 0")
    if coordinates.shape[0] != input.ndim:
        raise RuntimeError("invalid shape for coordinate array")
    mode_code(mode)
    complex_out = input.dtype.kind == "c"
    output = output_array(output, input, shape=out_shape, complex_output=complex_out)
    if complex_out:
        return _complex_split(map_coordinates, input, output, cval,
                              coordinates=coordinates, order=order, mode=mode,
                              prefilter=prefilter)
    xs = coordinates.reshape(input.ndim, -1)
    return _interp(input, output, order, mode, cval, prefilter, coords=xs)


def _affine_setup(input, output, output_shape, order):
    _check_order(order)
    input = asarray(input)
    if output_shape is None:
        output_shape = output.shape if isinstance(output, _ca.ndarray) else input.shape
    if input.ndim < 1 or len(output_shape) < 1:
        raise RuntimeError("input and output rank must be > 0")
    complex_out = input.dtype.kind == "c"
    return input, output_array(output, input, shape=output_shape,
                               complex_output=complex_out), complex_out


def _affine_matrix(matrix, offset, ndim, out_ndim):
    """The (ndim, out_ndim + 1) map of SciPy's matrix forms: a diagonal (1-D),
    (ndim, out_ndim), or homogeneous (ndim(+1), ndim + 1) with its offset."""
    m = _np.asarray(host(matrix), dtype=_np.float64)
    if m.ndim not in (1, 2) or m.shape[0] < 1:
        raise RuntimeError("no proper affine matrix provided")
    if m.ndim == 2 and m.shape[1] == ndim + 1 and m.shape[0] in (ndim, ndim + 1):
        if m.shape[0] == ndim + 1:
            exptd = [0] * ndim + [1]
            if not _np.all(m[ndim] == exptd):
                raise ValueError(f"Expected homogeneous transformation matrix with "
                                 f"shape {m.shape} for image shape "
                                 f"{(ndim,)}, but bottom row was not equal to {exptd}")
        offset = m[:ndim, ndim]
        m = m[:ndim, :ndim]
    if m.shape[0] != ndim:
        raise RuntimeError("affine matrix has wrong number of rows")
    if m.ndim == 2 and m.shape[1] != out_ndim:
        raise RuntimeError("affine matrix has wrong number of columns")
    off = _np.asarray(sequence(host(offset), ndim), dtype=_np.float64)
    if off.ndim != 1 or off.shape[0] < 1:
        raise RuntimeError("no proper offset provided")
    if m.ndim == 1:
        if out_ndim != ndim:
            raise RuntimeError("affine matrix has wrong number of columns")
        m = _np.diag(m)
    return _np.concatenate([m, off[:, None]], axis=1)


@_scipy_first
def affine_transform(input, matrix, offset=0.0, output_shape=None, output=None, order=3,
                     mode="constant", cval=0.0, prefilter=True):
    """scipy.ndimage.affine_transform: output[o] = input[matrix @ o + offset]."""
    input, output, complex_out = _affine_setup(input, output, output_shape, order)
    mode_code(mode)
    if complex_out:
        return _complex_split(affine_transform, input, output, cval, matrix=matrix,
                              offset=offset, output_shape=output.shape, order=order,
                              mode=mode, prefilter=prefilter)
    m = _affine_matrix(matrix, offset, input.ndim, output.ndim)
    return _interp(input, output, order, mode, cval, prefilter, matrix=m)


@_scipy_first
def shift(input, shift, output=None, order=3, mode="constant", cval=0.0,
          prefilter=True):
    """scipy.ndimage.shift: output[o] = input[o - shift]."""
    input, output, complex_out = _affine_setup(input, output, None, order)
    mode_code(mode)
    if complex_out:
        return _complex_split(globals()["shift"], input, output, cval, shift=shift,
                              order=order, mode=mode, prefilter=prefilter)
    s = _np.asarray(sequence(host(shift), input.ndim), dtype=_np.float64)
    m = _np.concatenate([_np.eye(input.ndim), -s[:, None]], axis=1)
    return _interp(input, output, order, mode, cval, prefilter, matrix=m)


@_scipy_first
def zoom(input, zoom, output=None, order=3, mode="constant", cval=0.0, prefilter=True,
         *, grid_mode=False):
    """scipy.ndimage.zoom: resampled to round(shape * zoom) points; grid_mode
    scales pixel edges instead of centres."""
    _check_order(order)
    input = asarray(input)
    if input.ndim < 1:
        raise RuntimeError("input and output rank must be > 0")
    z = sequence(host(zoom), input.ndim)
    out_shape = tuple(int(round(n * f)) for n, f in zip(input.shape, z))
    complex_out = input.dtype.kind == "c"
    mode_code(mode)
    if grid_mode:
        hint = {"constant": "grid-constant", "wrap": "grid-wrap"}.get(mode)
        if hint is not None:
            _warnings.warn(f"It is recommended to use mode = {hint} instead of {mode} "
                           "when grid_mode is True.", stacklevel=3)
    output = output_array(output, input, shape=out_shape, complex_output=complex_out)
    if complex_out:
        return _complex_split(globals()["zoom"], input, output, cval, zoom=zoom,
                              order=order, mode=mode, prefilter=prefilter,
                              grid_mode=grid_mode)
    nd = input.ndim
    div = _np.array(out_shape, dtype=_np.float64) - (0 if grid_mode else 1)
    nom = _np.array(input.shape, dtype=_np.float64) - (0 if grid_mode else 1)
    f = _np.divide(nom, div, out=_np.ones(nd), where=div != 0)
    m = _np.concatenate([_np.diag(f), _np.zeros((nd, 1))], axis=1)
    if grid_mode:
        m[:, -1] = 0.5 * f - 0.5
    return _interp(input, output, order, mode, cval, prefilter, matrix=m)


def _cos_sin_deg(angle):
    """cos and sin of an angle in degrees, exact at multiples of 90 (as
    scipy.special.cosdg/sindg)."""
    a = float(angle) % 360.0
    exact = {0.0: (1.0, 0.0), 90.0: (0.0, 1.0), 180.0: (-1.0, 0.0), 270.0: (0.0, -1.0)}
    if a in exact:
        return exact[a]
    r = _math.radians(float(angle))
    return _math.cos(r), _math.sin(r)


@_scipy_first
def rotate(input, angle, axes=(1, 0), reshape=True, output=None, order=3,
           mode="constant", cval=0.0, prefilter=True):
    """scipy.ndimage.rotate: a rotation by angle degrees in the plane of axes (one
    affine map over the whole array for ndim > 2)."""
    input = asarray(input)
    nd = input.ndim
    if nd < 2:
        raise ValueError("input array should be at least 2D")
    axes = list(axes)
    if len(axes) != 2:
        raise ValueError("axes should contain exactly two values")
    if not all(float(ax).is_integer() for ax in axes):
        raise ValueError("axes should contain only integer values")
    axes = [int(a) + nd if a < 0 else int(a) for a in axes]
    if any(a < 0 or a >= nd for a in axes):
        raise ValueError("invalid rotation plane specified")
    axes.sort()
    c, s = _cos_sin_deg(angle)
    rot = _np.array([[c, s], [-s, c]])
    shape = _np.array(input.shape)
    in_plane = shape[axes]
    if reshape:
        iy, ix = in_plane
        bounds = rot @ [[0, 0, iy, iy], [0, ix, 0, ix]]
        out_plane = (_np.ptp(bounds, axis=1) + 0.5).astype(int)
    else:
        out_plane = in_plane
    offset = (in_plane - 1) / 2 - rot @ ((out_plane - 1) / 2)
    out_shape = shape.copy()
    out_shape[axes] = out_plane
    m = _np.eye(nd)
    m[_np.ix_(axes, axes)] = rot
    off = _np.zeros(nd)
    off[axes] = offset
    return affine_transform(input, m, off, tuple(int(v) for v in out_shape), output,
                            order, mode, cval, prefilter)
