"""Work on several streams: map-reduce over chunks, products and FFTs in flight
at once, timed with events."""

import numpy

import cuarray as cupy


def map_reduce(x, n_streams=4):
    chunks = numpy.array_split(numpy.arange(x.size), n_streams)
    streams = [cupy.cuda.Stream(non_blocking=True) for _ in range(n_streams)]
    partial = []
    for s, idx in zip(streams, chunks):
        with s:
            part = x[int(idx[0]):int(idx[-1]) + 1]
            partial.append(cupy.sum(part * part))
    for s in streams:
        s.synchronize()
    return sum(float(p) for p in partial)


def matmul_on_streams(mats):
    streams = [cupy.cuda.stream.Stream() for _ in mats]
    start, stop = cupy.cuda.Event(), cupy.cuda.Event()
    start.record()
    outs = []
    for s, m in zip(streams, mats):
        with s:
            outs.append(m @ m)
            s.record(cupy.cuda.Event())
    for s in streams:
        cupy.cuda.get_current_stream().wait_event(s.record())
    stop.record()
    stop.synchronize()
    return outs, cupy.cuda.get_elapsed_time(start, stop)


def fft_on_streams(signals):
    outs = []
    for sig in signals:
        with cupy.cuda.Stream() as s:
            outs.append(cupy.fft.fft(sig))
            s.synchronize()
    return outs


def main(n=1 << 16, m=64, n_mats=3):
    rng = numpy.random.default_rng(0)
    h = rng.standard_normal(n).astype(numpy.float32)
    total = map_reduce(cupy.asarray(h))
    mats_h = [rng.standard_normal((m, m)).astype(numpy.float32) for _ in range(n_mats)]
    outs, ms = matmul_on_streams([cupy.asarray(a) for a in mats_h])
    sig_h = [rng.standard_normal(256) + 1j * rng.standard_normal(256) for _ in range(3)]
    ffts = fft_on_streams([cupy.asarray(s) for s in sig_h])
    return {"sum": total, "sum_expected": float((h.astype(numpy.float64) ** 2).sum()),
            "products": [cupy.asnumpy(o) for o in outs],
            "products_expected": [a @ a for a in mats_h], "ms": ms,
            "ffts": [cupy.asnumpy(f) for f in ffts],
            "ffts_expected": [numpy.fft.fft(s) for s in sig_h]}


if __name__ == "__main__":
    r = main(1 << 24, 1024)
    print(f"streams: map-reduce {r['sum']:.6g} (NumPy {r['sum_expected']:.6g}), "
          f"products {r['ms']:.3f} ms")
