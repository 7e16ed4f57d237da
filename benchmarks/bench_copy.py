"""The strided copy-and-cast kernels: contiguous, strided and transposed copies and an
astype, in GB/s counting the bytes read plus the bytes written (the useful ones: a
strided read of every other element counts 4 bytes per element, not the sectors).

Floors: the H200's copy bandwidth is about 4200-4240 GB/s by the same count.
"""

from harness import CPU_MODE, Case, Skip, size

N = size(1 << 28, 1 << 24)   # elements: 1 GiB of float32 (cpu: 64 MiB)
T = size(16384, 4096)        # transposed matrix side: 16384^2 float32 = 1 GiB
LOG = N.bit_length() - 1


def _gpu(mod, name):
    """The cuarray setups run on NumPy too in cpu mode (the same calls)."""
    if mod.__name__ == "numpy" and not CPU_MODE:
        raise Skip("GPU case")
    if mod.__name__ == "cuarray" and not CPU_MODE and not mod.cuda.is_available():
        raise Skip("no GPU")


# ---- cuarray -------------------------------------------------------------------------
def _ca_copy(mod):
    _gpu(mod, "cuarray")
    a = mod.ones(N, dtype="float32")
    return lambda: a.copy()


def _ca_strided(mod):
    _gpu(mod, "cuarray")
    a = mod.ones(2 * N, dtype="float32")
    try:
        v = a[::2]
    except TypeError as e:  # basic indexing not in this build yet
        raise Skip(f"no slicing: {e}")
    return lambda: mod.ascontiguousarray(v)


def _ca_transpose(mod):
    _gpu(mod, "cuarray")
    a = mod.ones((T, T), dtype="float32")
    t = a.T
    return lambda: mod.ascontiguousarray(t)


def _ca_astype(mod):
    _gpu(mod, "cuarray")
    a = mod.ones(N, dtype="float32")
    return lambda: a.astype("float16")


# ---- CuPy ----------------------------------------------------------------------------
def _cp_copy(cp):
    a = cp.ones(N, dtype="float32")
    return lambda: a.copy()


def _cp_strided(cp):
    a = cp.ones(2 * N, dtype="float32")
    v = a[::2]
    return lambda: cp.ascontiguousarray(v)


def _cp_transpose(cp):
    a = cp.ones((T, T), dtype="float32")
    t = a.T
    return lambda: cp.ascontiguousarray(t)


def _cp_astype(cp):
    a = cp.ones(N, dtype="float32")
    return lambda: a.astype("float16")


# ---- PyTorch -------------------------------------------------------------------------
def _th_copy(torch):
    a = torch.ones(N, dtype=torch.float32, device="cuda")
    return lambda: a.clone()


def _th_strided(torch):
    a = torch.ones(2 * N, dtype=torch.float32, device="cuda")
    v = a[::2]
    return lambda: v.contiguous()


def _th_transpose(torch):
    a = torch.ones((T, T), dtype=torch.float32, device="cuda")
    t = a.t()
    return lambda: t.contiguous()


def _th_astype(torch):
    a = torch.ones(N, dtype=torch.float32, device="cuda")
    return lambda: a.to(torch.float16)


CASES = [
    Case(f"copy 2^{LOG} float32 (GB/s, read+write)",
         {"cuarray": _ca_copy, "numpy": _ca_copy, "cupy": _cp_copy, "torch": _th_copy},
         mode="gpu", unit="GB/s", work=2 * 4 * N, target=">= 4100", floor="~4238",
         group="copy"),
    Case(f"strided copy a[::2] -> contiguous, 2^{LOG} float32 (GB/s, useful bytes)",
         {"cuarray": _ca_strided, "numpy": _ca_strided, "cupy": _cp_strided,
          "torch": _th_strided},
         mode="gpu", unit="GB/s", work=2 * 4 * N, group="copy"),
    Case(f"transposed copy {T}^2 float32 (GB/s, read+write)",
         {"cuarray": _ca_transpose, "numpy": _ca_transpose, "cupy": _cp_transpose,
          "torch": _th_transpose},
         mode="gpu", unit="GB/s", work=2 * 4 * T * T, target=">= 3000", floor="~4200 (copy)",
         group="copy"),
    Case(f"astype(float16), 2^{LOG} float32 (GB/s, 6 bytes/elem)",
         {"cuarray": _ca_astype, "numpy": _ca_astype, "cupy": _cp_astype,
          "torch": _th_astype},
         mode="gpu", unit="GB/s", work=6 * N, target=">= 4000", group="copy"),
]
