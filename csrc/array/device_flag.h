/*
 * device_flag.h: the error flag of a checking kernel (index.c's range checks,
 * ufunc.c's ufunc.at), and small int64 results read back to the host.
 *
 * A flag is two int64: [0] nonzero once a kernel saw a bad element (index.c
 * stores which index entry, 1-based), [1] the offending value. On a GPU they
 * live in device memory, zeroed on the caller's stream; on the cpu device in
 * the struct itself.
 */
#ifndef CA_DEVICE_FLAG_H
#define CA_DEVICE_FLAG_H

#include "cuarray.h"

typedef struct {
    int device;
    ca_stream_t stream;
    CaArray *buf; /* the two int64 in device memory (GPU only) */
    int64_t host[2];
    int64_t *ptr; /* what the kernels get; NULL when not `need`ed */
} ca_flag;

/* Without `need` (nothing to check) the flag stays NULL: kernels touch it only
 * for an element that needs a check. 0, or -1 with an exception. */
int ca_flag_open(ca_flag *f, int device, ca_stream_t stream, int need);
/* Read the flag into f->host (on a GPU this waits for the stream). */
int ca_flag_read(ca_flag *f);
void ca_flag_close(ca_flag *f);
/* Copy n int64 from device memory to the host: this waits for the stream. */
int ca_read_back_int64(int device, ca_stream_t stream, const int64_t *src, int64_t *dst,
                       size_t n);

#endif /* CA_DEVICE_FLAG_H */
