"""bfloat16 (issue 39): `a + b` and `astype(float32)` on 2^28 bf16 (GB/s), matmul
8192^2 bf16 (TFLOP/s, float32 accumulation), `sum` of 2^28 bf16 (float32 accumulation,
GB/s) and the DLPack import of a PyTorch bf16 tensor (us per call), beside PyTorch and
CuPy (whose bfloat16 is ml_dtypes' too; rows it cannot run are left out).

Targets (issue 39): element-wise and sum >= the best of the two, matmul >= 0.97x
PyTorch, DLPack import the same per-call cost as float32 (~1 us).
In cpu mode (no GPU) cuarray's cpu device runs beside NumPy with ml_dtypes' loops.
"""

from harness import Case, Skip, size

BIG = size(1 << 28, 1 << 22)
N_MM = size(8192, 1024)
LOG = BIG.bit_length() - 1


def _bf16_arrays(mod, n, k):
    """k arrays of n bf16 values in [0, 1) on the library's device."""
    name = mod.__name__
    if name == "torch":
        return [mod.rand(n, device="cuda").to(mod.bfloat16) for _ in range(k)]
    try:
        import ml_dtypes
    except ImportError:
        raise Skip("no ml_dtypes")
    import numpy as np
    rng = np.random.default_rng(0)
    hs = [rng.random(n, dtype=np.float32).astype(ml_dtypes.bfloat16) for _ in range(k)]
    if name == "numpy":
        return hs
    return [mod.asarray(h) for h in hs]


def _add(mod):
    a, b = _bf16_arrays(mod, BIG, 2)
    return lambda: a + b


def _astype(mod):
    (a,) = _bf16_arrays(mod, BIG, 1)
    if mod.__name__ == "torch":
        return lambda: a.to(mod.float32)
    import numpy as np
    return lambda: a.astype(np.float32)


def _sum(mod):
    (a,) = _bf16_arrays(mod, BIG, 1)
    if mod.__name__ == "torch":
        return lambda: a.sum()  # float32 accumulation, rounded to bf16 once
    if mod.__name__ == "numpy":
        import numpy as np
        return lambda: a.sum(dtype=np.float32)  # ml_dtypes' sum would add in bf16
    return lambda: a.sum()


def _matmul(mod):
    a, b = _bf16_arrays(mod, N_MM * N_MM, 2)
    a, b = a.reshape(N_MM, N_MM), b.reshape(N_MM, N_MM)
    return lambda: a @ b


def _dlpack(dtype):
    def setup(mod):
        try:
            import torch
        except ImportError:
            raise Skip("no torch")
        if not torch.cuda.is_available():
            raise Skip("no torch GPU")
        t = torch.ones(1024, device="cuda", dtype=getattr(torch, dtype))
        return lambda: mod.from_dlpack(t)
    return setup


def _libs(fn, libs=("cuarray", "numpy", "cupy", "torch")):
    return {lib: fn for lib in libs}


CASES = [
    Case(f"bf16 a + b, 2^{LOG}", _libs(_add), mode="gpu", unit="GB/s", work=6 * BIG,
         target=">= best", group="bf16"),
    Case(f"bf16 astype(float32), 2^{LOG}", _libs(_astype), mode="gpu", unit="GB/s",
         work=6 * BIG, target=">= best", group="bf16"),
    Case(f"bf16 sum (float32 accumulation), 2^{LOG}", _libs(_sum), mode="gpu", unit="GB/s",
         work=2 * BIG, target=">= best", group="bf16"),
    Case(f"bf16 matmul {N_MM}^2 (float32 accumulation)", _libs(_matmul), mode="gpu",
         unit="TFLOP/s", work=2 * N_MM**3, target=">= 0.97x torch", group="bf16"),
    Case("DLPack import of a torch bf16 tensor", {"cuarray": _dlpack("bfloat16"),
                                                  "cupy": _dlpack("bfloat16")},
         mode="wall", unit="us", target="<= float32's", group="bf16"),
    Case("DLPack import of a torch float32 tensor (the reference)",
         {"cuarray": _dlpack("float32"), "cupy": _dlpack("float32")},
         mode="wall", unit="us", group="bf16"),
]
