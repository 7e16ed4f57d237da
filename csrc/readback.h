/*
 * readback.h: reading one element of a device array back to the host in one
 * round trip (csrc/readback.c). Include after cuarray.h.
 */
#ifndef CA_READBACK_H
#define CA_READBACK_H

/* Copy the element of `itemsize` bytes (1..16) at `src`, an address of
 * `device` (a GPU ordinal, already made current), into `buf`, after the work
 * queued so far on `stream`. Through a mapped pinned slot that a tiny kernel
 * fills and the host polls: no DMA and, when the value comes within a few
 * microseconds, no stream synchronization (else one, with the GIL released).
 * Returns 0 done, -1 with an exception set (CUDAError for a failed launch or
 * an earlier failed kernel on the stream), or 1 when the fast path is not
 * available (no slot free, the slot area could not be made, a host-only
 * build): nothing was done, take another path. */
int ca_readback_element(int device, const void *src, int itemsize, void *buf,
                        ca_stream_t stream);

#endif /* CA_READBACK_H */
