/*
 * device_flag.c: the error flag of a checking kernel and small read-backs
 * (device_flag.h).
 */
#include "device_flag.h"
#include "launch.h"
#include "watch.h"

#include <string.h>

int
ca_flag_open(ca_flag *f, int device, ca_stream_t stream, int need)
{
    f->device = device;
    f->stream = stream;
    f->buf = NULL;
    f->host[0] = f->host[1] = 0;
    f->ptr = NULL;
    if (!need) {
        return 0;
    }
    if (device == CA_CPU) {
        f->ptr = f->host;
        return 0;
    }
    Py_ssize_t two = 2;
    f->buf = ca_array_empty(CA_INT64, 1, &two, 0, device, CA_MEM_DEVICE);
    if (f->buf == NULL) {
        return -1;
    }
    f->ptr = (int64_t *)f->buf->data;
    if (ca_run_memset_async(f->ptr, 0, 2 * sizeof(int64_t), stream) < 0) {
        Py_CLEAR(f->buf);
        return -1;
    }
    return 0;
}

int
ca_read_back_int64(int device, ca_stream_t stream, const int64_t *src, int64_t *dst,
                   size_t n)
{
    ca_count_d2h(n * sizeof(int64_t));
    if (device == CA_CPU) {
        CA_COUNT(syncs); /* the GPU's memcpy_wait counts its own */
        if (dst != src) {
            memcpy(dst, src, n * sizeof(int64_t));
        }
        return 0;
    }
    return ca_run_memcpy_wait(dst, src, n * sizeof(int64_t), stream);
}

int
ca_flag_read(ca_flag *f)
{
    if (f->ptr == NULL) {
        return 0;
    }
    return ca_read_back_int64(f->device, f->stream, f->ptr, f->host, 2);
}

void
ca_flag_close(ca_flag *f)
{
    Py_CLEAR(f->buf);
}
