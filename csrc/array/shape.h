/*
 * shape.h: the shape layer (shape.c). Layout arithmetic over (ndim, shape,
 * strides, itemsize): broadcasting, contiguous strides, contiguity, the bytes a
 * layout touches, and merging dimensions. It knows no arrays, no memory and no
 * device, so every file that lays out elements (views, element-wise calls,
 * indexing, interop, products) shares one answer to each of these questions.
 *
 * Shapes and strides are Py_ssize_t, as arrays hold them; strides are in bytes.
 * A function that can fail returns 0 or -1; those documented "with an
 * exception" set one, the others leave the message to the caller, which knows
 * which operation failed.
 */
#ifndef CA_SHAPE_H
#define CA_SHAPE_H

#include <Python.h>

#include "kernels.h"

/* Contiguity bits of ca_layout_flags: the same values as the ndarray's
 * CA_C_CONTIGUOUS and CA_F_CONTIGUOUS flags (cuarray.h), so they can be or'ed
 * into an array's flags as they are. */
enum { CA_LAYOUT_C = 1, CA_LAYOUT_F = 2 };

/* ---- broadcasting ---------------------------------------------------------------- */
/* Fold the shape (nd, shape) into the running broadcast shape (*out_nd, out),
 * which starts as ndim 0: 0, or -1 (no exception) when they do not broadcast
 * (out is then unspecified). */
static inline int
ca_broadcast_into(int *out_nd, Py_ssize_t *out, int nd, const Py_ssize_t *shape)
{
    /* inline: every element-wise call folds its operands through here */
    if (nd > *out_nd) {
        /* right-align: the running shape gains leading length-1 dimensions */
        const int grow = nd - *out_nd;
        for (int i = nd - 1; i >= grow; i--) {
            out[i] = out[i - grow];
        }
        for (int i = 0; i < grow; i++) {
            out[i] = 1;
        }
        *out_nd = nd;
    }
    const int off = *out_nd - nd;
    for (int i = 0; i < nd; i++) {
        Py_ssize_t *o = &out[off + i];
        if (*o == 1) {
            *o = shape[i];
        }
        else if (shape[i] != 1 && shape[i] != *o) {
            return -1;
        }
    }
    return 0;
}
/* The shape n operands broadcast to (nds[i], shapes[i]; ndim 0 for a scalar):
 * 0, or -1 with NumPy's ValueError ("operands could not be broadcast together
 * with shapes (2,) (3,) "). */
int ca_broadcast_shapes(int n, const int *nds, const Py_ssize_t *const *shapes,
                        int *out_nd, Py_ssize_t *out);
/* Raise that ValueError for these n shapes, with `tail` appended to the message
 * ("" for none). Returns -1. */
int ca_broadcast_error(int n, const int *nds, const Py_ssize_t *const *shapes,
                       const char *tail);
/* True when (nd, shape) broadcasts to (out_nd, out_shape) without changing
 * out_shape (an operand into a given result). */
int ca_broadcasts_to(int nd, const Py_ssize_t *shape, int out_nd,
                     const Py_ssize_t *out_shape);
/* The strides of the layout (nd, shape, strides) broadcast to out_nd
 * dimensions (right-aligned, as NumPy): 0 for the new leading dimensions and
 * for stretched length-1 ones. With out_shape, 0, or -1 (no exception) when
 * the layout does not broadcast to it; NULL trusts the caller that it does. */
int ca_broadcast_strides(int nd, const Py_ssize_t *shape, const Py_ssize_t *strides,
                         int out_nd, const Py_ssize_t *out_shape,
                         Py_ssize_t *out_strides);

/* ---- contiguity ------------------------------------------------------------------ */
/* C-order (fortran = 0) or F-order strides for a dense layout of shape. A
 * length-0 dimension counts as 1, so the strides stay those of the nonempty
 * layout around it. */
void ca_contiguous_strides(int nd, const Py_ssize_t *shape, Py_ssize_t itemsize,
                           int fortran, Py_ssize_t *strides);
/* CA_LAYOUT_C | CA_LAYOUT_F as NumPy decides them: length-1 dimensions do not
 * matter, and a layout without elements is both. */
int ca_layout_flags(int nd, const Py_ssize_t *shape, const Py_ssize_t *strides,
                    Py_ssize_t itemsize);
static inline int
ca_is_c_contiguous(int nd, const Py_ssize_t *shape, const Py_ssize_t *strides,
                   Py_ssize_t itemsize)
{
    return (ca_layout_flags(nd, shape, strides, itemsize) & CA_LAYOUT_C) != 0;
}
static inline int
ca_is_f_contiguous(int nd, const Py_ssize_t *shape, const Py_ssize_t *strides,
                   Py_ssize_t itemsize)
{
    return (ca_layout_flags(nd, shape, strides, itemsize) & CA_LAYOUT_F) != 0;
}
/* perm[]: the axes by decreasing |stride|, ties in axis order: the memory
 * order of a layout, outermost first (NumPy's order='K'). */
void ca_axes_by_stride(int nd, const Py_ssize_t *strides, int *perm);
/* Same ndim and extents. */
static inline int
ca_same_shape(int nd1, const Py_ssize_t *s1, int nd2, const Py_ssize_t *s2)
{
    if (nd1 != nd2) {
        return 0;
    }
    for (int i = 0; i < nd1; i++) {
        if (s1[i] != s2[i]) {
            return 0;
        }
    }
    return 1;
}

/* True when ptr and every stride that addresses something (a dimension longer
 * than 1) are multiples of `align` (a power of two or not). */
int ca_layout_aligned(const void *ptr, int nd, const Py_ssize_t *shape,
                      const Py_ssize_t *strides, Py_ssize_t align);

/* ---- extent ---------------------------------------------------------------------- */
/* The bytes a layout with elements touches, relative to its first element:
 * [*lo, *hi), lo <= 0 < hi. 0, or -1 (no exception, *lo and *hi untouched)
 * when the offsets overflow: only a foreign layout can, since an existing
 * array's lies inside its buffer. */
int ca_layout_extent(int nd, const Py_ssize_t *shape, const Py_ssize_t *strides,
                     Py_ssize_t itemsize, Py_ssize_t *lo, Py_ssize_t *hi);

/* ---- merging dimensions ---------------------------------------------------------- */
/* Dimensions [lo, hi) of (shape, strides) as one: *len (their product) and
 * *stride (0 when len <= 1). 1 when their elements form one strided run, else
 * 0 (a copy is needed). */
int ca_merge_dims(const Py_ssize_t *shape, const Py_ssize_t *strides, int lo, int hi,
                  Py_ssize_t *len, Py_ssize_t *stride);
/* Strides that give the layout (nd, shape, strides) of `size` > 0 elements the
 * shape (newnd, newshape) without moving an element, reading the elements in
 * C (fortran = 0) or F index order: 1 and newstrides, or 0 when no strides can
 * (a reshape must copy). Axes are merged and split where they run together;
 * length-1 axes are free. newshape must hold the same number of elements. */
int ca_reshape_strides(int nd, const Py_ssize_t *shape, const Py_ssize_t *strides,
                       Py_ssize_t itemsize, int newnd, const Py_ssize_t *newshape,
                       int fortran, Py_ssize_t *newstrides);

/* The element count of a new array of that shape, or -1 with NumPy's ValueError
 * (negative extents; "array is too big" when the nonzero extents times itemsize
 * overflow, even where another extent is 0). Defined in ndarray.c. */
Py_ssize_t ca_shape_size(int ndim, const Py_ssize_t *shape, int itemsize);

/* ---- Python values --------------------------------------------------------------- */
/* A new tuple of Python ints (for messages and the `shape` of results). */
PyObject *ca_shape_tuple(int ndim, const Py_ssize_t *shape);
/* "(2, 3)" as Python writes a tuple of ints ("(3,)" for one, "()" for none). */
PyObject *ca_shape_text(int nd, const Py_ssize_t *shape);

#endif /* CA_SHAPE_H */
