/*
 * readback.cu: one element of device memory into a mapped pinned "readback
 * slot" that the host polls (csrc/array/readback.c), for float(x), int(x), bool(x)
 * and x.item() of device arrays.
 *
 * Queued on the caller's stream behind the work that computes the element, one
 * thread copies the element's bytes into the slot, makes them visible to the
 * host (__threadfence_system), then stores the caller's sequence number into
 * the slot's sequence word. The host sees the sequence number only after the
 * value, so one poll of host memory replaces a DMA plus a stream
 * synchronization.
 *
 * Slot layout (CA_READBACK_SLOT_BYTES, 16-byte aligned): bytes 0..15 the
 * value, bytes 16..23 the 64-bit sequence number, the rest unused.
 *
 * GPU only: the cpu device reads its elements with memcpy (csrc/array/ndarray.c), so
 * there is no host twin and csrc/ calls this only in CUDA builds.
 */
#include <cuda_runtime.h>

#include "kernels.h"

namespace {

/* Copy one element whose address may be aligned only to its own size (or to
 * less than 16 for a 16-byte element), in the widest loads the address allows.
 * `slot` is 16-byte aligned. */
__global__ void
readback_kernel(unsigned char *slot, const unsigned char *src, int itemsize,
                unsigned long long seq)
{
    /* The lowest set bit of (address | itemsize | 16): the widest access that
     * is aligned for both sides and divides the element. */
    unsigned w = (unsigned)((uintptr_t)src | (uintptr_t)itemsize | 16u);
    w &= 0u - w;
    for (int i = 0; i < itemsize; i += (int)w) {
        switch (w) {
        case 16: *(uint4 *)(slot + i) = *(const uint4 *)(src + i); break;
        case 8:
            *(unsigned long long *)(slot + i) = *(const unsigned long long *)(src + i);
            break;
        case 4: *(unsigned *)(slot + i) = *(const unsigned *)(src + i); break;
        case 2:
            *(unsigned short *)(slot + i) = *(const unsigned short *)(src + i);
            break;
        default: slot[i] = src[i]; break;
        }
    }
    /* The value must reach host memory before the sequence number does: the
     * host reads the value as soon as it sees the number. */
    __threadfence_system();
    *(volatile unsigned long long *)(slot + CA_READBACK_SEQ_OFFSET) = seq;
}

} // namespace

extern "C" int
ca_readback_launch(int device, void *slot_dev_ptr, const void *src, int itemsize,
                   uint64_t seq, ca_stream_t stream)
{
    (void)device; /* the caller made it current */
    if (slot_dev_ptr == nullptr || src == nullptr ||
        ((uintptr_t)slot_dev_ptr % 16) != 0 || itemsize < 1 ||
        itemsize > CA_READBACK_VALUE_BYTES || (itemsize & (itemsize - 1)) != 0) {
        return (int)cudaErrorInvalidValue;
    }
    readback_kernel<<<1, 1, 0, (cudaStream_t)stream>>>(
        (unsigned char *)slot_dev_ptr, (const unsigned char *)src, itemsize,
        (unsigned long long)seq);
    return (int)cudaGetLastError();
}
