"""Host <-> GPU transfers: NumPy arrays to and from the GPU, pageable and pinned.

Targets (TARGETS.md, measured on the H200 beside CuPy 14.2 and PyTorch 2.11):
  NumPy -> GPU, 256 MiB pageable:  >= 16 GB/s  (CuPy 8.2, PyTorch 7.2; plain cudaMemcpy 8.4,
                                               staged with 8 threads 18)
  GPU -> new NumPy array, 256 MiB:  >= 10 GB/s  (CuPy 2.8, PyTorch 1.3; 13.6 into touched
                                               memory)
  pinned <-> GPU, 256 MiB:          >= 54 GB/s  (CuPy 55.0, PyTorch 55.1; floor 55.3)
Small transfers (4 KiB) show the per-call cost of the plain path, in microseconds.
Every figure is wall time including the synchronization that makes the data usable.
"""

import numpy as np

from harness import Case, Skip

BIG = 256 << 20
SMALL = 4 << 10


def _host(nbytes):
    h = np.random.default_rng(0).random(nbytes // 8)
    return h  # touched (written) pageable memory


def _gpu(mod, name, nbytes):
    h = _host(nbytes)
    if name == "cuarray":
        if not mod.cuda.is_available():
            raise Skip("no GPU")
        return mod.asarray(h)
    if name == "cupy":
        return mod.asarray(h)
    if name == "torch":
        return mod.from_numpy(h).cuda()
    raise Skip(name)


def _pinned_host(mod, name, nbytes):
    """A NumPy array over page-locked memory made by library `name`."""
    n = nbytes // 8
    if name == "cuarray":
        if not mod.cuda.is_available():
            raise Skip("no GPU")
        h = np.asarray(mod.empty(n, dtype=np.float64, memory="pinned"))
    elif name == "cupy":
        import cupyx

        h = cupyx.empty_pinned(n, dtype=np.float64)
    elif name == "torch":
        h = mod.empty(n, dtype=mod.float64, pin_memory=True).numpy()
    else:
        raise Skip(name)
    h[...] = _host(nbytes)
    return h


def h2d(nbytes):
    def cuarray(mod):
        h = _host(nbytes)
        if not mod.cuda.is_available():
            raise Skip("no GPU")
        return lambda: mod.asarray(h)

    def cupy(mod):
        h = _host(nbytes)
        return lambda: mod.asarray(h)

    def torch(mod):
        h = mod.from_numpy(_host(nbytes))
        return lambda: h.cuda()

    return {"cuarray": cuarray, "cupy": cupy, "torch": torch}


def d2h(nbytes):
    def cuarray(mod):
        x = _gpu(mod, "cuarray", nbytes)
        return lambda: x.get()

    def cupy(mod):
        x = _gpu(mod, "cupy", nbytes)
        return lambda: x.get()

    def torch(mod):
        x = _gpu(mod, "torch", nbytes)
        return lambda: x.cpu().numpy()

    return {"cuarray": cuarray, "cupy": cupy, "torch": torch}


def pinned_h2d(nbytes):
    def cuarray(mod):
        h = _pinned_host(mod, "cuarray", nbytes)
        x = mod.empty(h.shape, dtype=h.dtype)
        return lambda: x.set(h)

    def cupy(mod):
        h = _pinned_host(mod, "cupy", nbytes)
        x = mod.empty(h.shape, dtype=h.dtype)
        return lambda: x.set(h)

    def torch(mod):
        h = mod.from_numpy(_pinned_host(mod, "torch", nbytes))
        x = mod.empty(h.shape, dtype=h.dtype, device="cuda")
        return lambda: x.copy_(h)

    return {"cuarray": cuarray, "cupy": cupy, "torch": torch}


def pinned_d2h(nbytes):
    def cuarray(mod):
        h = _pinned_host(mod, "cuarray", nbytes)
        x = _gpu(mod, "cuarray", nbytes)
        return lambda: x.get(out=h)

    def cupy(mod):
        h = _pinned_host(mod, "cupy", nbytes)
        x = _gpu(mod, "cupy", nbytes)
        return lambda: x.get(out=h)

    def torch(mod):
        h = mod.from_numpy(_pinned_host(mod, "torch", nbytes))
        x = _gpu(mod, "torch", nbytes)

        def go():
            h.copy_(x)
            mod.cuda.synchronize()
        return go

    return {"cuarray": cuarray, "cupy": cupy, "torch": torch}


def pinned_array_to_device(nbytes):
    """cuarray's own pinned arrays to device memory and back (CuPy and PyTorch
    have no pinned array type: their pinned <-> GPU rows are the ones above)."""
    def cuarray(mod):
        if not mod.cuda.is_available():
            raise Skip("no GPU")
        p = mod.asarray(_host(nbytes), memory="pinned")
        return lambda: mod.asarray(p, memory="device")
    return {"cuarray": cuarray}


CASES = [
    Case("NumPy -> GPU, 256 MiB pageable", h2d(BIG), unit="GB/s", work=BIG,
         target=">= 16", floor="8.4 plain cudaMemcpy; 18 staged with 8 threads",
         repeats=5, group="transfer"),
    Case("GPU -> new NumPy array, 256 MiB", d2h(BIG), unit="GB/s", work=BIG,
         target=">= 10", floor="13.6 into touched memory", repeats=5, group="transfer"),
    Case("pinned NumPy -> GPU, 256 MiB", pinned_h2d(BIG), unit="GB/s", work=BIG,
         target=">= 54", floor="55.3", repeats=5, group="transfer"),
    Case("GPU -> pinned NumPy, 256 MiB", pinned_d2h(BIG), unit="GB/s", work=BIG,
         target=">= 54", floor="55.3", repeats=5, group="transfer"),
    Case("pinned cuarray array -> device array, 256 MiB", pinned_array_to_device(BIG),
         unit="GB/s", work=BIG, target=">= 54", floor="55.3", repeats=5, group="transfer"),
    Case("NumPy -> GPU, 4 KiB (per call)", h2d(SMALL), unit="us", group="transfer"),
    Case("GPU -> new NumPy array, 4 KiB (per call)", d2h(SMALL), unit="us",
         group="transfer"),
]
