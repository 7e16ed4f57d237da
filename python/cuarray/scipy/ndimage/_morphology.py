"""scipy.ndimage's morphology on cuarray arrays: binary erosion/dilation and what is
built on them (opening, closing, hit-or-miss, propagation, hole filling), grey
morphology (erosion, dilation, opening, closing, gradient, Laplace, top-hats) and
the structuring elements.

Binary erosion is a minimum filter of the 0/1 image over the structure's taps with
the border value as the constant outside; dilation a maximum over the reflected
structure (SciPy's origin shift for even sizes); both are the `_ndi_filter`
kernel. Iterations repeat the pass (until nothing changes for iterations < 1),
a mask keeping the points it marks False. On the cpu device (CPU_SCIPY) SciPy's
own function runs on zero-copy views.
"""

import warnings as _warnings

import numpy as _np

import cuarray as _ca

from . import _filters
from ._util import (asarray, check_axes, check_type, cpu_scipy, f64, host, ndi_edt,
                    output_array, sequence)

__all__ = ["iterate_structure", "generate_binary_structure", "binary_erosion",
           "binary_dilation", "binary_opening", "binary_closing", "binary_hit_or_miss",
           "binary_propagation", "binary_fill_holes", "grey_erosion", "grey_dilation",
           "grey_opening", "grey_closing", "morphological_gradient",
           "morphological_laplace", "white_tophat", "black_tophat",
           "distance_transform_edt"]

CPU_SCIPY = True
_scipy_first = cpu_scipy(__name__)


def generate_binary_structure(rank, connectivity):
    """scipy.ndimage.generate_binary_structure (a bool array on the default device)."""
    return _ca.asarray(_structure(rank, connectivity))


def _structure(rank, connectivity):
    connectivity = max(connectivity, 1)
    if rank < 1:
        return _np.array(True, dtype=bool)
    d = _np.abs(_np.indices([3] * rank) - 1).sum(axis=0)
    return d <= connectivity


def iterate_structure(structure, iterations, origin=None):
    """scipy.ndimage.iterate_structure: structure dilated by itself
    iterations - 1 times (origins scaled by iterations when given)."""
    dev = structure.device if isinstance(structure, _ca.ndarray) else None
    st = _np.asarray(host(structure))
    if iterations < 2:
        out = st.copy()
    else:
        ni = iterations - 1
        shape = [s + ni * (s - 1) for s in st.shape]
        pos = [ni * (s // 2) for s in st.shape]
        seed = _np.zeros(shape, dtype=bool)
        seed[tuple(slice(p, p + s) for p, s in zip(pos, st.shape))] = st != 0
        out = binary_dilation(_ca.asarray(seed, device=dev), st, iterations=ni)
    out = _ca.asarray(out, device=dev)
    if origin is None:
        return out
    return out, [iterations * o for o in sequence(origin, st.ndim)]


# ---- binary morphology ------------------------------------------------------------

def _binary_args(input, structure, mask, axes):
    input = check_type(asarray(input))
    if input.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    axes = check_axes(axes, input.ndim)
    if structure is None:
        st = _structure(len(axes), 1)
    else:
        st = _np.asarray(host(structure), dtype=bool)
    if st.ndim != len(axes):
        raise RuntimeError("structure and input must have same dimensionality")
    if st.size < 1:
        raise RuntimeError("structure must not be empty")
    if mask is not None:
        mask = asarray(mask)
        if mask.shape != input.shape:
            raise RuntimeError("mask and input must have equal sizes")
    return input, st, mask, axes


def _bin_pass(x, st, origins, border_value, axes, op):
    """One erosion (op min) or dilation (max, st already reflected) of the 0/1
    float64 image x."""
    if not st.any():
        # an empty structure: erosion is all true, dilation all false (SciPy's)
        v = 1.0 if op == _filters._MIN else 0.0
        return _ca.full(x.shape, v, dtype=_np.float64, device=x.device)
    offs = _filters.full_taps(x, axes, st, origins)
    return _filters.run_filter(x, offs, op, 4, 1.0 if border_value else 0.0)


def _binary(input, structure, iterations, mask, output, border_value, origin, axes,
            dilate):
    input, st, mask, axes = _binary_args(input, structure, mask, axes)
    origins = sequence(origin, len(axes))
    op = _filters._MIN
    if dilate:
        st = st[(slice(None, None, -1),) * st.ndim]
        origins = [-o - (0 if s & 1 else 1) for o, s in zip(origins, st.shape)]
        op = _filters._MAX
    for o, s in zip(origins, st.shape):
        _filters._check_origin(o, s)
    output = output_array(output if output is not None else bool, input)
    x = f64(input != 0)
    if input.size == 0:
        return output
    keep = None if mask is None else (mask == 0)
    it = 0
    while True:
        y = _bin_pass(x, st, origins, border_value, axes, op)
        if keep is not None:
            y = _ca.where(keep, x, y)
        it += 1
        done = (iterations >= 1 and it >= iterations) or bool((y == x).all())
        x = y
        if done:
            break
    output[...] = x != 0
    return output


@_scipy_first
def binary_erosion(input, structure=None, iterations=1, mask=None, output=None,
                   border_value=0, origin=0, brute_force=False, *, axes=None):
    """scipy.ndimage.binary_erosion."""
    return _binary(input, structure, iterations, mask, output, border_value, origin,
                   axes, False)


@_scipy_first
def binary_dilation(input, structure=None, iterations=1, mask=None, output=None,
                    border_value=0, origin=0, brute_force=False, *, axes=None):
    """scipy.ndimage.binary_dilation."""
    return _binary(input, structure, iterations, mask, output, border_value, origin,
                   axes, True)


def _binary_pair(first, second, input, structure, iterations, output, origin, mask,
                 border_value, axes):
    input = asarray(input)
    axes = check_axes(axes, input.ndim)
    if structure is None:
        structure = _structure(len(axes), 1)
    tmp = first(input, structure, iterations, mask, None, border_value, origin,
                axes=axes)
    return second(tmp, structure, iterations, mask, output, border_value, origin,
                  axes=axes)


@_scipy_first
def binary_opening(input, structure=None, iterations=1, output=None, origin=0,
                   mask=None, border_value=0, brute_force=False, *, axes=None):
    """scipy.ndimage.binary_opening: erosion then dilation."""
    return _binary_pair(binary_erosion, binary_dilation, input, structure, iterations,
                        output, origin, mask, border_value, axes)


@_scipy_first
def binary_closing(input, structure=None, iterations=1, output=None, origin=0,
                   mask=None, border_value=0, brute_force=False, *, axes=None):
    """scipy.ndimage.binary_closing: dilation then erosion."""
    return _binary_pair(binary_dilation, binary_erosion, input, structure, iterations,
                        output, origin, mask, border_value, axes)


@_scipy_first
def binary_hit_or_miss(input, structure1=None, structure2=None, output=None, origin1=0,
                       origin2=None, *, axes=None):
    """scipy.ndimage.binary_hit_or_miss: where structure1 fits the foreground and
    structure2 (default: not structure1) the background (outside counts as
    background)."""
    input = asarray(input)
    axes = check_axes(axes, input.ndim)
    s1 = _structure(len(axes), 1) if structure1 is None else \
        _np.asarray(host(structure1), dtype=bool)
    s2 = ~s1 if structure2 is None else _np.asarray(host(structure2), dtype=bool)
    o1 = sequence(origin1, len(axes))
    o2 = o1 if origin2 is None else sequence(origin2, len(axes))
    hit = binary_erosion(input, s1, 1, None, None, 0, o1, axes=axes)
    miss = binary_erosion(input == 0, s2, 1, None, None, 1, o2, axes=axes)
    output = output_array(output if output is not None else bool, input)
    output[...] = hit & miss
    return output


@_scipy_first
def binary_propagation(input, structure=None, mask=None, output=None, border_value=0,
                       origin=0, *, axes=None):
    """scipy.ndimage.binary_propagation: dilation repeated until stable inside mask."""
    return binary_dilation(input, structure, -1, mask, output, border_value, origin,
                           axes=axes)


@_scipy_first
def binary_fill_holes(input, structure=None, output=None, origin=0, *, axes=None):
    """scipy.ndimage.binary_fill_holes: the complement of the background reached
    from the border."""
    input = asarray(input)
    mask = input == 0
    seed = _ca.zeros(mask.shape, dtype=bool, device=input.device)
    reach = binary_dilation(seed, structure, -1, mask, None, 1, origin, axes=axes)
    output = output_array(output if output is not None else bool, input)
    output[...] = ~reach
    return output


# ---- grey morphology -------------------------------------------------------------

def _warn_size(size, footprint):
    if size is not None and footprint is not None:
        _warnings.warn("ignoring size because footprint is set", UserWarning,
                       stacklevel=3)


@_scipy_first
def grey_erosion(input, size=None, footprint=None, structure=None, output=None,
                 mode="reflect", cval=0.0, origin=0, *, axes=None):
    """scipy.ndimage.grey_erosion: the minimum of input - structure over the
    footprint."""
    if size is None and footprint is None and structure is None:
        raise ValueError("size, footprint, or structure must be specified")
    return _filters.minmax_filter(input, size, footprint, structure, output, mode, cval,
                                  origin, _filters._MIN, axes)


@_scipy_first
def grey_dilation(input, size=None, footprint=None, structure=None, output=None,
                  mode="reflect", cval=0.0, origin=0, *, axes=None):
    """scipy.ndimage.grey_dilation: the maximum of input + structure over the
    reflected footprint."""
    if size is None and footprint is None and structure is None:
        raise ValueError("size, footprint, or structure must be specified")
    rev = None
    if structure is not None:
        structure = _np.asarray(host(structure))
        structure = structure[(slice(None, None, -1),) * structure.ndim]
        rev = structure.shape
    if footprint is not None:
        footprint = _np.asarray(host(footprint))
        footprint = footprint[(slice(None, None, -1),) * footprint.ndim]
        rev = footprint.shape
    input = asarray(input)
    axes = check_axes(axes, input.ndim)
    origins = sequence(origin, len(axes))
    sizes = rev if rev is not None else sequence(size, len(axes))
    origins = [-o - (0 if s & 1 else 1) for o, s in zip(origins, sizes)]
    return _filters.minmax_filter(input, size, footprint, structure, output, mode, cval,
                                  origins, _filters._MAX, axes)


def _grey_pair(first, second, input, size, footprint, structure, output, mode, cval,
               origin, axes):
    _warn_size(size, footprint)
    tmp = first(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    return second(tmp, size, footprint, structure, output, mode, cval, origin, axes=axes)


@_scipy_first
def grey_opening(input, size=None, footprint=None, structure=None, output=None,
                 mode="reflect", cval=0.0, origin=0, *, axes=None):
    """scipy.ndimage.grey_opening: grey erosion then dilation."""
    return _grey_pair(grey_erosion, grey_dilation, input, size, footprint, structure,
                      output, mode, cval, origin, axes)


@_scipy_first
def grey_closing(input, size=None, footprint=None, structure=None, output=None,
                 mode="reflect", cval=0.0, origin=0, *, axes=None):
    """scipy.ndimage.grey_closing: grey dilation then erosion."""
    return _grey_pair(grey_dilation, grey_erosion, input, size, footprint, structure,
                      output, mode, cval, origin, axes)


@_scipy_first
def morphological_gradient(input, size=None, footprint=None, structure=None,
                           output=None, mode="reflect", cval=0.0, origin=0, *,
                           axes=None):
    """scipy.ndimage.morphological_gradient: dilation - erosion."""
    tmp = grey_dilation(input, size, footprint, structure, None, mode, cval, origin,
                        axes=axes)
    if isinstance(output, _ca.ndarray):
        grey_erosion(input, size, footprint, structure, output, mode, cval, origin,
                     axes=axes)
        return _ca.subtract(tmp, output, output)
    return tmp - grey_erosion(input, size, footprint, structure, None, mode, cval,
                              origin, axes=axes)


@_scipy_first
def morphological_laplace(input, size=None, footprint=None, structure=None,
                          output=None, mode="reflect", cval=0.0, origin=0, *,
                          axes=None):
    """scipy.ndimage.morphological_laplace: dilation + erosion - 2 input."""
    input = asarray(input)
    tmp1 = grey_dilation(input, size, footprint, structure, None, mode, cval, origin,
                         axes=axes)
    if isinstance(output, _ca.ndarray):
        grey_erosion(input, size, footprint, structure, output, mode, cval, origin,
                     axes=axes)
        _ca.add(tmp1, output, output)
        _ca.subtract(output, input, output)
        return _ca.subtract(output, input, output)
    tmp2 = grey_erosion(input, size, footprint, structure, None, mode, cval, origin,
                        axes=axes)
    _ca.add(tmp1, tmp2, tmp2)
    _ca.subtract(tmp2, input, tmp2)
    return _ca.subtract(tmp2, input, tmp2)


def _tophat(input, size, footprint, structure, output, mode, cval, origin, axes,
            white):
    input = asarray(input)
    first, second = (grey_erosion, grey_dilation) if white else \
        (grey_dilation, grey_erosion)
    tmp = _grey_pair(first, second, input, size, footprint, structure, output, mode,
                     cval, origin, axes)
    if input.dtype == _np.bool_ and tmp.dtype == _np.bool_:
        return _ca.bitwise_xor(input, tmp, out=tmp)
    if white:
        return _ca.subtract(input, tmp, out=tmp)
    return _ca.subtract(tmp, input, out=tmp)


@_scipy_first
def white_tophat(input, size=None, footprint=None, structure=None, output=None,
                 mode="reflect", cval=0.0, origin=0, *, axes=None):
    """scipy.ndimage.white_tophat: input - grey opening."""
    return _tophat(input, size, footprint, structure, output, mode, cval, origin, axes,
                   True)


@_scipy_first
def black_tophat(input, size=None, footprint=None, structure=None, output=None,
                 mode="reflect", cval=0.0, origin=0, *, axes=None):
    """scipy.ndimage.black_tophat: grey closing - input."""
    return _tophat(input, size, footprint, structure, output, mode, cval, origin, axes,
                   False)



# ---- distance transforms -------------------------------------------------------

def _edt(input, sampling, want_indices):
    """(squared distances, feature indices (ndim, ...) int64 or None): one exact
    pass per axis (Felzenszwalb & Huttenlocher's lower envelope of parabolas);
    a pass along axis a moves the earlier axes' feature coordinates with the
    minimising position along a."""
    f = _ca.where(input != 0, _np.inf, 0.0)
    f = _ca.ascontiguousarray(f, dtype=_np.float64)
    nd = input.ndim
    h = [1.0] * nd if sampling is None else \
        [float(v) for v in sequence(host(sampling), nd)]
    idx = []
    for a in range(nd):
        n = input.shape[a]
        lines = 1 if input.device == "cpu" else input.size // n
        scratch = _ca.empty(lines * (3 * n + 1), dtype=_np.float64, device=input.device)
        arg = _ca.empty(input.shape, dtype=_np.int64, device=input.device) \
            if want_indices else None
        ndi_edt(f, a, h[a], arg, scratch)
        if want_indices:
            idx = [_ca.take_along_axis(i, arg, axis=a) for i in idx] + [arg]
    if want_indices:
        idx = _ca.stack(idx)
    return f, (idx if want_indices else None)


@_scipy_first
def distance_transform_edt(input, sampling=None, return_distances=True,
                           return_indices=False, distances=None, indices=None):
    """scipy.ndimage.distance_transform_edt: the exact Euclidean distance of every
    nonzero point to the nearest zero (sampling: spacing per axis), and the
    indices of that zero. Where several zeros are nearest, the index may name
    another of them than SciPy's (the distance is the same)."""
    dt_in = isinstance(distances, _ca.ndarray)
    ft_in = isinstance(indices, _ca.ndarray)
    if (not return_distances) and (not return_indices):
        raise RuntimeError("at least one of return_distances/return_indices must be "
                           "True")
    if dt_in and not return_distances:
        raise RuntimeError("return_distances must be True if distances is supplied")
    if ft_in and not return_indices:
        raise RuntimeError("return_indices must be True if indices is supplied")
    input = asarray(input)
    if input.ndim == 0:
        input = input.reshape(1)
    if ft_in:
        if indices.shape != (input.ndim,) + input.shape:
            raise RuntimeError("indices array has wrong shape")
        if indices.dtype != _np.int32:
            raise RuntimeError("indices array must be int32")
    if dt_in:
        if distances.shape != input.shape:
            raise RuntimeError("distances array has wrong shape")
        if distances.dtype != _np.float64:
            raise RuntimeError("distances array must be float64")
    if input.size == 0:
        d = _ca.zeros(input.shape, device=input.device)
        ft = _ca.zeros((input.ndim,) + input.shape, dtype=_np.int32, device=input.device)
    else:
        f, ft = _edt(input, sampling, return_indices)
        d = _ca.sqrt(f)
        ft = None if ft is None else ft.astype(_np.int32)
    res = []
    if return_distances:
        if dt_in:
            distances[...] = d
        else:
            res.append(d)
    if return_indices:
        if ft_in:
            indices[...] = ft
        else:
            res.append(ft)
    if len(res) == 2:
        return tuple(res)
    return res[0] if res else None
