"""Random arrays: uniform and normal float32 (G samples/s, GPU time), beside CuPy,
PyTorch and plain cuRAND Philox (the floor, through CuPy's cuRAND bindings).

Targets (docs/TARGETS.md): uniform float32 >= 850 G samples/s, normal float32 >= 480;
issue 12: standard_normal float32 >= 500, standard_exponential float32 >= 500,
poisson(4.0) 2^24 >= 60, permutation(2^26) >= the best of CuPy and torch.randperm,
uniform float32 through cuRAND XORWOW >= 0.9x plain cuRAND XORWOW.
Each call allocates its output (from the pools), as a user's call does; the
plain cuRAND floors write a preallocated buffer of the same size and dtype. All
rows are timed by events on the legacy stream around a batch of calls, so
cuarray's side-stream transforms (XORWOW uniforms) are inside the time.
"""

import numpy as np

from harness import CPU_MODE, Case, Skip, size

# cpu mode: cuarray's cpu device beside NumPy's Generator (PCG64), smaller sizes
N = size(1 << 28, 1 << 22)


def _need_device(ca):
    """cuarray's rows run on the GPU, or on the cpu device in cpu mode."""
    if not CPU_MODE and not ca.cuda.is_available():
        raise Skip("no GPU")


def _np(call):
    """NumPy's Generator row (cpu mode only): call(generator) -> the timed callable."""
    return {"numpy": lambda np_: call(np_.random.default_rng(0))} if CPU_MODE else {}


def _ca(method, dtype, *args):
    def setup(ca):
        _need_device(ca)
        g = ca.random.default_rng(0)
        f = getattr(g, method)
        return lambda: f(*args, size=N, dtype=dtype)
    return setup


def _cp(method, dtype):
    def setup(cp):
        f = getattr(cp.random, method)
        return lambda: f(size=N, dtype=dtype)
    return setup


def _torch(fname, dtype):
    def setup(torch):
        dt = torch.float32 if dtype == np.float32 else torch.float64
        f = getattr(torch, fname)
        return lambda: f(N, device="cuda", dtype=dt)
    return setup


def _curand_philox(kind, dtype):
    """Plain cuRAND Philox4x32-10 into a preallocated buffer (the floor)."""
    def setup(cp):
        curand, gen = _curand_generator("CURAND_RNG_PSEUDO_PHILOX4_32_10")
        out = cp.empty(N, dtype=dtype)
        ptr = out.data.ptr
        if kind == "uniform":
            f = curand.generateUniform if dtype == np.float32 else curand.generateUniformDouble
            return lambda: f(gen, ptr, N)
        f = curand.generateNormal if dtype == np.float32 else curand.generateNormalDouble
        return lambda: f(gen, ptr, N, 0.0, 1.0)
    return setup


def _ca_rng(mod):
    """cuarray's default_rng(0), on a GPU only."""
    _need_device(mod)
    return mod.random.default_rng(0)


def _integers(mod_name):
    def setup(mod):
        if mod_name == "cuarray":
            g = _ca_rng(mod)
            return lambda: g.integers(0, 1000, size=N, dtype=np.int32)
        if mod_name == "cupy":
            return lambda: mod.random.randint(0, 1000, size=N, dtype=np.int32)
        return lambda: mod.randint(0, 1000, (N,), device="cuda", dtype=mod.int32)
    return setup


N_POIS = size(1 << 24, 1 << 20)
N_PERM = size(1 << 26, 1 << 22)


def _ca_call(fn):
    def setup(ca):
        _need_device(ca)
        return fn(ca)
    return setup


def _curand_generator(rng_name):
    """CuPy's cuRAND bindings and a generator of kind `rng_name`, seeded 0."""
    try:
        from cupy_backends.cuda.libs import curand
    except ImportError:
        try:
            from cupy.cuda import curand
        except ImportError:
            raise Skip("no cuRAND bindings in this CuPy")
    gen = curand.createGenerator(getattr(curand, rng_name))
    curand.setPseudoRandomGeneratorSeed(gen, 0)
    return curand, gen


def _curand_plain(rng_name, dtype):
    """Plain cuRAND uniform from generator `rng_name` into a preallocated buffer."""
    def setup(cp):
        curand, gen = _curand_generator(rng_name)
        out = cp.empty(N, dtype=dtype)
        ptr = out.data.ptr
        return lambda: curand.generateUniform(gen, ptr, N)
    return setup


def _curand_plain_words(rng_name):
    """Plain cuRAND raw 32-bit words (curandGenerate) into a preallocated buffer."""
    def setup(cp):
        curand, gen = _curand_generator(rng_name)
        out = cp.empty(N, dtype=np.uint32)
        ptr = out.data.ptr
        return lambda: curand.generate(gen, ptr, N)
    return setup


def _shuffle(mod_name):
    def setup(mod):
        if mod_name == "cuarray":
            g = _ca_rng(mod)
            x = mod.arange(N_PERM, dtype=np.int64)
            return lambda: g.shuffle(x)
        if mod_name == "cupy":
            x = mod.arange(N_PERM, dtype=np.int64)
            return lambda: mod.random.shuffle(x)
        x = mod.arange(N_PERM, device="cuda", dtype=mod.int64)

        def run():  # torch has no in-place shuffle: a randperm gather written back
            x.copy_(x[mod.randperm(N_PERM, device="cuda")])
        return run
    return setup


def _cp_xorwow_uniform(cp):
    # CuPy's RandomState is XORWOW
    rs = cp.random.RandomState(0)
    return lambda: rs.random_sample(size=N, dtype=np.float32)


ISSUE12 = [
    Case("standard_normal float32 (issue 12)", {
        "cuarray": _ca("standard_normal", np.float32),
        "cupy": _cp("standard_normal", np.float32),
        "torch": _torch("randn", np.float32),
        **_np(lambda g: lambda: g.standard_normal(size=N, dtype=np.float32)),
    }, mode="gpu", unit="Gsamples/s", work=N, target=">= 500"),
    Case("standard_exponential float32", {
        "cuarray": _ca("standard_exponential", np.float32),
        "cupy": lambda cp: (lambda: cp.random.standard_exponential(size=N,
                                                                  dtype=np.float32)),
        "torch": lambda torch: (lambda: torch.empty(N, device="cuda").exponential_()),
        **_np(lambda g: lambda: g.standard_exponential(size=N, dtype=np.float32)),
    }, mode="gpu", unit="Gsamples/s", work=N, target=">= 500"),
    Case("poisson(4.0) 2^24", {
        "cuarray": _ca_call(lambda ca: (lambda g: lambda: g.poisson(4.0, size=N_POIS))(
            ca.random.default_rng(0))),
        "cupy": lambda cp: (lambda: cp.random.poisson(4.0, size=N_POIS)),
        "torch": lambda torch: (lambda r: lambda: torch.poisson(r))(
            torch.full((N_POIS,), 4.0, device="cuda")),
        **_np(lambda g: lambda: g.poisson(4.0, size=N_POIS)),
    }, mode="gpu", unit="Gsamples/s", work=N_POIS, target=">= 60"),
    Case("permutation(2^26)", {
        "cuarray": _ca_call(lambda ca: (lambda g: lambda: g.permutation(N_PERM))(
            ca.random.default_rng(0))),
        "cupy": lambda cp: (lambda: cp.random.permutation(N_PERM)),
        "torch": lambda torch: (lambda: torch.randperm(N_PERM, device="cuda")),
        **_np(lambda g: lambda: g.permutation(N_PERM)),
    }, mode="gpu", unit="Gsamples/s", work=N_PERM, target=">= best"),
    Case("shuffle 2^26 int64 in place", {
        "cuarray": _shuffle("cuarray"),
        "cupy": _shuffle("cupy"),
        "torch": _shuffle("torch"),
        **_np(lambda g: (lambda x: lambda: g.shuffle(x))(np.arange(N_PERM, dtype=np.int64))),
    }, mode="gpu", unit="Gsamples/s", work=N_PERM),
    Case("gamma(2.5) float32", {
        "cuarray": _ca_call(lambda ca: (lambda g: lambda: g.standard_gamma(
            2.5, size=N, dtype=np.float32))(ca.random.default_rng(0))),
        "cupy": lambda cp: (lambda: cp.random.standard_gamma(2.5, size=N,
                                                             dtype=np.float32)),
        "torch": lambda torch: (lambda a: lambda: torch._standard_gamma(a))(
            torch.full((N,), 2.5, device="cuda")),
        **_np(lambda g: lambda: g.standard_gamma(2.5, size=N, dtype=np.float32)),
    }, mode="gpu", unit="Gsamples/s", work=N),
    Case("binomial(100, 0.3) 2^24", {
        "cuarray": _ca_call(lambda ca: (lambda g: lambda: g.binomial(
            100, 0.3, size=N_POIS))(ca.random.default_rng(0))),
        "cupy": lambda cp: (lambda: cp.random.binomial(100, 0.3, size=N_POIS)),
        "torch": lambda torch: (lambda c, p: lambda: torch.binomial(c, p))(
            torch.full((N_POIS,), 100.0, device="cuda"),
            torch.full((N_POIS,), 0.3, device="cuda")),
        **_np(lambda g: lambda: g.binomial(100, 0.3, size=N_POIS)),
    }, mode="gpu", unit="Gsamples/s", work=N_POIS),
    Case("uniform float32 through cuRAND XORWOW", {
        "cuarray": _ca_call(lambda ca: (lambda g: lambda: g.random(
            size=N, dtype=np.float32))(ca.random.Generator(ca.random.XORWOW(0)))),
        "cupy": _cp_xorwow_uniform,
    }, mode="gpu", unit="Gsamples/s", work=N, target=">= 0.9x plain cuRAND XORWOW"),
    Case("uniform float32, plain cuRAND XORWOW (floor; CuPy column)", {
        "cupy": _curand_plain("CURAND_RNG_PSEUDO_XORWOW", np.float32),
    }, mode="gpu", unit="Gsamples/s", work=N),
    # where the time goes: cuRAND's raw words alone, through cuarray and plain
    Case("XORWOW words uint32 (cuarray: random_raw)", {
        "cuarray": _ca_call(lambda ca: (lambda b: lambda: b.random_raw(N))(
            ca.random.XORWOW(0))),
    }, mode="gpu", unit="Gsamples/s", work=N),
    Case("XORWOW words uint32, plain cuRAND curandGenerate (floor; CuPy column)", {
        "cupy": _curand_plain_words("CURAND_RNG_PSEUDO_XORWOW"),
    }, mode="gpu", unit="Gsamples/s", work=N),
]

CASES = [
    Case("uniform float32 random", {
        "cuarray": _ca("random", np.float32),
        "cupy": _cp("random", np.float32),
        "torch": _torch("rand", np.float32),
        **_np(lambda g: lambda: g.random(size=N, dtype=np.float32)),
    }, mode="gpu", unit="Gsamples/s", work=N, target=">= 850", floor="923 (cuRAND Philox)"),
    Case("normal float32 random", {
        "cuarray": _ca("standard_normal", np.float32),
        "cupy": _cp("standard_normal", np.float32),
        "torch": _torch("randn", np.float32),
        **_np(lambda g: lambda: g.standard_normal(size=N, dtype=np.float32)),
    }, mode="gpu", unit="Gsamples/s", work=N, target=">= 480", floor="510 (cuRAND Philox)"),
    Case("uniform float32, plain cuRAND Philox (floor; CuPy column)", {
        "cupy": _curand_philox("uniform", np.float32),
    }, mode="gpu", unit="Gsamples/s", work=N),
    Case("normal float32, plain cuRAND Philox (floor; CuPy column)", {
        "cupy": _curand_philox("normal", np.float32),
    }, mode="gpu", unit="Gsamples/s", work=N),
    Case("uniform float64 random", {
        "cuarray": _ca("random", np.float64),
        "cupy": _cp("random", np.float64),
        "torch": _torch("rand", np.float64),
        **_np(lambda g: lambda: g.random(size=N, dtype=np.float64)),
    }, mode="gpu", unit="Gsamples/s", work=N),
    Case("normal float64 random", {
        "cuarray": _ca("standard_normal", np.float64),
        "cupy": _cp("standard_normal", np.float64),
        "torch": _torch("randn", np.float64),
        **_np(lambda g: lambda: g.standard_normal(size=N, dtype=np.float64)),
    }, mode="gpu", unit="Gsamples/s", work=N),
    Case("integers [0, 1000) int32", {
        "cuarray": _integers("cuarray"),
        "cupy": _integers("cupy"),
        "torch": _integers("torch"),
        **_np(lambda g: lambda: g.integers(0, 1000, size=N, dtype=np.int32)),
    }, mode="gpu", unit="Gsamples/s", work=N),
]

CASES += ISSUE12
