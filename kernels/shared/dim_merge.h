/* dim_merge.h: what layout.c (element-wise operands) and dispatch_reduce.c (the
 * kept and reduced dims) both do to a shape and its nstr stride arrays: drop
 * the size-1 dims and merge adjacent ones. */
#ifndef CA_DIM_MERGE_H
#define CA_DIM_MERGE_H

#include <stdint.h>

/* Drops the size-1 dims (they carry no offset); returns the new number of dims. */
static inline int
ca_drop_unit_dims(int nd, int64_t *shape, int nstr, int64_t *const *str)
{
    int k = 0;
    for (int i = 0; i < nd; i++) {
        if (shape[i] == 1) {
            continue;
        }
        shape[k] = shape[i];
        for (int j = 0; j < nstr; j++) {
            str[j][k] = str[j][i];
        }
        k++;
    }
    return k;
}

/* Merges dim i (outer) into the kept dim inside it wherever, in each of the
 * nstr stride arrays, stepping the outer one is running off the end of the
 * inner one; returns the new number of dims (shape and strides in place). */
static inline int
ca_merge_dims(int nd, int64_t *shape, int nstr, int64_t *const *str)
{
    if (nd <= 1) {
        return nd;
    }
    int k = 0; /* last kept index */
    for (int i = 1; i < nd; i++) {
        int ok = 1;
        for (int j = 0; j < nstr && ok; j++) {
            ok = str[j][k] == shape[i] * str[j][i];
        }
        if (ok) {
            shape[k] *= shape[i];
        }
        else {
            k++;
            shape[k] = shape[i];
        }
        for (int j = 0; j < nstr; j++) {
            str[j][k] = str[j][i];
        }
    }
    return k + 1;
}

#endif /* CA_DIM_MERGE_H */
