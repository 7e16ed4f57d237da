"""Pinned host memory and asynchronous copies on a stream."""

import numpy

import cuarray as cupy


def pinned_array(shape, dtype):
    dtype = numpy.dtype(dtype)
    n = int(numpy.prod(shape))
    mem = cupy.cuda.alloc_pinned_memory(n * dtype.itemsize)
    return numpy.frombuffer(mem, dtype, n).reshape(shape)


def main(n=1 << 20):
    src = pinned_array((n,), numpy.float32)
    src[:] = numpy.arange(n, dtype=numpy.float32)
    dst = pinned_array((n,), numpy.float32)
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        x = cupy.empty(n, dtype=numpy.float32)
        x.set(src, stream=stream)
        y = x * 2 + 1
        y.get(stream=stream, out=dst, blocking=False)
    stream.synchronize()
    # the same through raw pointers
    z = cupy.empty(n, dtype=numpy.float32)
    z.data.copy_from_host(src.ctypes.data, src.nbytes)
    back = numpy.empty_like(src)
    z.data.copy_to_host(back.ctypes.data, back.nbytes)
    return {"dst": dst.copy(), "expected": src * 2 + 1, "back": back, "src": src.copy()}


if __name__ == "__main__":
    r = main(1 << 26)
    print("memcpy: ok" if numpy.array_equal(r["dst"], r["expected"]) else "memcpy: WRONG")
