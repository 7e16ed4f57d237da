"""Zero-copy interop: importing another library's GPU array, per call (µs).

Rows are "X imports a <producer> array through <protocol>": each library in the row
imports the same producer's array (the producer itself is left out: it would not
need to import). Targets (TARGETS.md): cuarray at most 2 µs through the CUDA Array
Interface (CuPy takes 12.0 µs for a PyTorch tensor, PyTorch 5.6 µs for a CuPy
array) and at most 2 µs through DLPack (CuPy 19.5, PyTorch 11.6).
The cost includes the producer's own export (its __cuda_array_interface__ property
or __dlpack__ method), which the importer cannot avoid.
"""

from harness import Case, Skip

N = 1024


def _producer(name):
    """A float32 GPU array of N elements made by library `name`."""
    if name == "torch":
        import torch
        if not torch.cuda.is_available():
            raise Skip("no torch GPU")
        return torch.ones(N, device="cuda")
    if name == "cupy":
        import cupy
        return cupy.ones(N, dtype=cupy.float32)
    if name == "cuarray":
        import cuarray
        if not cuarray.cuda.is_available():
            raise Skip("no GPU")
        return cuarray.ones(N, dtype="float32")
    raise Skip(name)


def _importer(lib, protocol):
    """lib's zero-copy import through `protocol` ("cai" or "dlpack")."""
    def make(mod, src):
        if lib == "cuarray":
            if protocol == "cai":
                return lambda: mod.asarray(src)
            return lambda: mod.from_dlpack(src)
        if lib == "cupy":
            if protocol == "cai":
                return lambda: mod.asarray(src)
            return lambda: mod.from_dlpack(src)
        if lib == "torch":
            if protocol == "cai":
                return lambda: mod.as_tensor(src, device="cuda")
            return lambda: mod.from_dlpack(src)
        raise Skip(lib)
    return make


def _row(producer, protocol, target):
    setups = {}
    for lib in ("cuarray", "cupy", "torch"):
        if lib == producer:
            continue

        def setup(mod, lib=lib):
            src = _producer(producer)
            if protocol == "cai" and not hasattr(src, "__cuda_array_interface__"):
                raise Skip("no CAI")
            return _importer(lib, protocol)(mod, src)
        setups[lib] = setup
    proto = "__cuda_array_interface__" if protocol == "cai" else "DLPack"
    return Case(f"import a {producer} array through {proto} (zero-copy)", setups,
                mode="wall", unit="us", target=target if producer != "cuarray" else None,
                group="interop")


def _export(protocol):
    """The producer side alone: building the interface dict / the capsule."""
    def for_lib(lib):
        def setup(mod):
            src = _producer(lib)
            if protocol == "cai":
                return lambda: src.__cuda_array_interface__
            return lambda: src.__dlpack__()
        return setup
    name = "__cuda_array_interface__ (build the dict)" if protocol == "cai" else \
        "__dlpack__() (build the capsule)"
    return Case(f"export: {name}", {lib: for_lib(lib) for lib in ("cuarray", "cupy", "torch")},
                mode="wall", unit="us", group="interop")


def _host_dlpack():
    """Host memory through DLPack (runs without a GPU): NumPy's array imported."""
    def setup_for(lib):
        def setup(mod):
            import numpy as np
            a = np.ones(N, np.float32)
            return lambda: mod.from_dlpack(a)
        return setup
    return Case("import a NumPy array through DLPack (host memory, zero-copy)",
                {lib: setup_for(lib) for lib in ("cuarray", "numpy", "torch")},
                mode="wall", unit="us", group="interop")


def _issue16_dlpack():
    """Issue 16's figure: cuarray.from_dlpack of a PyTorch tensor (target <= 3 us; it
    took 14.5 us through torch's Python __dlpack__) beside PyTorch importing a CuPy
    array through DLPack (5.8 us). cuarray's CAI import of the same tensor (2.6 us)
    is the row "import a torch array through __cuda_array_interface__" of this run."""
    def cuarray_dlpack(mod):
        src = _producer("torch")
        return lambda: mod.from_dlpack(src)

    def torch_from_cupy(mod):
        src = _producer("cupy")
        return lambda: mod.from_dlpack(src)

    return Case("issue 16: cuarray.from_dlpack(a torch tensor) | torch.from_dlpack(a cupy "
                "array)", {"cuarray": cuarray_dlpack, "torch": torch_from_cupy},
                mode="wall", unit="us", target="<= 3", group="interop")


CASES = [
    _issue16_dlpack(),
    _row("torch", "cai", "<= 2"),
    _row("cupy", "cai", "<= 2"),
    _row("cuarray", "cai", None),
    _row("torch", "dlpack", "<= 2"),
    _row("cupy", "dlpack", "<= 2"),
    _row("cuarray", "dlpack", None),
    _export("cai"),
    _export("dlpack"),
    _host_dlpack(),
]
