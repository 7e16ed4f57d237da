/*
 * readback.h: reading one element of a device array back to the host in one
 * round trip (csrc/array/readback.c). Include after cuarray.h.
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

/*
 * Mirrors: the kernel that computes a one-element reduction result also writes
 * it into a slot (kernels.h, ca_reduce_desc.mirror), so that float(a.sum())
 * costs one launch, not two. The result array keeps the slot (CaArray.rb_slot)
 * while it lives; the value there is the array's as long as cuarray issued no
 * GPU work and exported no memory since (ca_work_epoch unchanged).
 * All of these run with the GIL held.
 */
/* A slot for a result computed on `stream` of `device` (current): its value
 * and flag addresses for the kernel and the sequence number to write. Returns
 * the slot, or -1 when none is free (then no mirror). */
int ca_readback_mirror_acquire(int device, ca_stream_t stream, char **value,
                               unsigned long long **flag, unsigned long long *seq);
/* The mirrored value (itemsize bytes) into buf: 0, or 1 when it did not
 * arrive within the spin time (read the array the usual way). */
int ca_readback_mirror_read(int slot, void *buf, int itemsize);
/* The result array dies: the slot is free again once its kernel has written
 * it (a slot still pending goes only to a later result on the same stream,
 * which the stream orders after the pending write). */
void ca_readback_mirror_drop(int slot);
/* The kernel was not launched / will not write the slot: free it now. */
void ca_readback_mirror_unused(int slot);
/* The launch failed after the slot was handed to it: never reuse the slot. */
void ca_readback_mirror_retire(int slot);

#endif /* CA_READBACK_H */
