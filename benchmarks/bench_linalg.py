"""Matrix products: big GEMMs (TFLOP/s, GPU time), the small-call overhead, and the
blog example (random 10000x10000 float64 + dot).

Targets (docs/TARGETS.md): 8192^2 matmul >= 0.97x the faster of CuPy and PyTorch in
float32 (no TF32), float64 and float16 -- the absolute targets below are 0.97x the
figures of the reference run; compare the "vs best" column of the same run. A 64x64
float32 matmul <= 8 us per call.
"""

import numpy as np

from harness import CPU_MODE, Case, Skip, size

N_BIG = size(8192, 1024)   # cpu mode: NumPy beside cuarray's cpu device (NumPy on views)
N_MID = size(4096, 512)
N_F16 = size(8192, 256)
BLOG = size(10000, 2000)


def _cuarray_pair(n, dtype, batch=None):
    def setup(ca):
        if not CPU_MODE and not ca.cuda.is_available():
            raise Skip("no GPU")
        ca.linalg.set_allow_tf32(False)
        shape = (n, n) if batch is None else (batch, n, n)
        g = ca.random.default_rng(0)
        a = g.standard_normal(shape, dtype=np.float32).astype(dtype)
        b = g.standard_normal(shape, dtype=np.float32).astype(dtype)
        return lambda: a @ b
    return setup


def _cupy_pair(n, dtype, batch=None):
    def setup(cp):
        shape = (n, n) if batch is None else (batch, n, n)
        a = cp.random.standard_normal(shape, dtype=np.float32).astype(dtype)
        b = cp.random.standard_normal(shape, dtype=np.float32).astype(dtype)
        return lambda: a @ b
    return setup


def _torch_pair(n, dtype, batch=None):
    def setup(torch):
        torch.backends.cuda.matmul.allow_tf32 = False
        dt = {np.float16: torch.float16, np.float32: torch.float32,
              np.float64: torch.float64, np.complex64: torch.complex64}[dtype]
        shape = (n, n) if batch is None else (batch, n, n)
        a = torch.randn(shape, device="cuda", dtype=torch.float32).to(dt)
        b = torch.randn(shape, device="cuda", dtype=torch.float32).to(dt)
        return lambda: a @ b
    return setup


def _numpy_pair(n, dtype):
    def setup(np_):
        rng = np_.random.default_rng(0)
        a = rng.standard_normal((n, n)).astype(dtype)
        b = rng.standard_normal((n, n)).astype(dtype)
        return lambda: a @ b
    return setup


def _numpy_batch(n, dtype, batch):
    def setup(np_):
        rng = np_.random.default_rng(0)
        a = rng.standard_normal((batch, n, n)).astype(dtype)
        b = rng.standard_normal((batch, n, n)).astype(dtype)
        return lambda: a @ b
    return setup


def _gemm_case(name, n, dtype, target, batch=None, numpy=False):
    setup = {"cuarray": _cuarray_pair(n, dtype, batch), "cupy": _cupy_pair(n, dtype, batch),
             "torch": _torch_pair(n, dtype, batch)}
    if numpy or CPU_MODE:
        setup["numpy"] = _numpy_pair(n, dtype) if batch is None else _numpy_batch(n, dtype, batch)
    flops = 2.0 * n ** 3 * (batch or 1) * (4 if np.dtype(dtype).kind == "c" else 1)
    return Case(name, setup, mode="gpu", unit="TFLOP/s", work=flops, target=target,
                floor="cuBLAS", repeats=5)


def _blog(mod):
    """The example as written (CuPy's spelling; cuarray's is the same)."""
    if mod.__name__ == "cuarray" and not CPU_MODE and not mod.cuda.is_available():
        raise Skip("no GPU")

    def run():
        x = mod.random.random((BLOG, BLOG))
        return mod.dot(x, x)
    return run


def _torch_blog(torch):
    def run():
        x = torch.rand((10000, 10000), device="cuda", dtype=torch.float64)
        return x @ x
    return run


CASES = [
    _gemm_case(f"matmul {N_BIG}^2 float32 (no TF32)", N_BIG, np.float32, ">= 49.7"),
    _gemm_case(f"matmul {N_BIG}^2 float64", N_BIG, np.float64, ">= 58.8"),
    # NumPy's float16 products are plain loops (no BLAS): a small one in cpu mode
    _gemm_case(f"matmul {N_F16}^2 float16 (float32 accumulation)", N_F16, np.float16, ">= 773"),
    _gemm_case(f"matmul {N_MID}^2 complex64", N_MID, np.complex64, None),
    _gemm_case("batched matmul 512 x 128^2 float32", 128, np.float32, None, batch=512),
    Case("64x64 float32 matmul, per call", {
        "cuarray": _cuarray_pair(64, np.float32),
        "cupy": _cupy_pair(64, np.float32),
        "torch": _torch_pair(64, np.float32),
        "numpy": _numpy_pair(64, np.float32),
    }, mode="wall", unit="us", target="<= 8"),
    # The top of the range cuarray's own kernel takes instead of cuBLAS (csrc/ops/linalg.c,
    # SMALL_MAX_WORK): it should still cost about one launch.
    Case("128x128 float32 matmul, per call", {
        "cuarray": _cuarray_pair(128, np.float32),
        "cupy": _cupy_pair(128, np.float32),
        "torch": _torch_pair(128, np.float32),
        "numpy": _numpy_pair(128, np.float32),
    }, mode="wall", unit="us"),
    Case("64x64 float64 matmul, per call", {
        "cuarray": _cuarray_pair(64, np.float64),
        "cupy": _cupy_pair(64, np.float64),
        "torch": _torch_pair(64, np.float64),
        "numpy": _numpy_pair(64, np.float64),
    }, mode="wall", unit="us"),
    Case(f"blog: random(({BLOG}, {BLOG})) float64 + dot(x, x)", {
        "cuarray": _blog,
        "cupy": _blog,
        **({"numpy": _blog} if CPU_MODE else {}),
        "torch": _torch_blog,
    }, mode="wall", unit="s", target="<= 0.036", repeats=5),
]


# ---- issue 10, products and norms (python/cuarray/_einsum.py, _linalg_products.py): einsum as one
# batched GEMM, and the 2-norm as one reduction pass. GPU time per call; targets from
# docs/TARGETS.md's breadth table (einsum <= 0.102 ms, norm >= 4000 GB/s).
# In cpu mode NumPy runs beside cuarray's cpu device, at sizes a 2-core host times in
# a second or less (NumPy's einsum here is its own loop, not a GEMM).
EINSUM_BATCH, EINSUM_N = 64, size(256, 128)
NORM_N = size(1 << 26, 1 << 24)
_CPU_NUMPY = ("numpy",) if CPU_MODE else ()


def _einsum_bmm(mod):
    name = mod.__name__
    if name == "cuarray" and not CPU_MODE and not mod.cuda.is_available():
        raise Skip("no GPU")
    shape = (EINSUM_BATCH, EINSUM_N, EINSUM_N)
    rng = np.random.default_rng(0)
    a = rng.standard_normal(shape, dtype=np.float32)
    b = rng.standard_normal(shape, dtype=np.float32)
    if name == "torch":
        mod.backends.cuda.matmul.allow_tf32 = False
        ta, tb = mod.as_tensor(a, device="cuda"), mod.as_tensor(b, device="cuda")
        return lambda: mod.einsum("bij,bjk->bik", ta, tb)
    if name == "cuarray":
        mod.linalg.set_allow_tf32(False)
    da, db = mod.asarray(a), mod.asarray(b)
    return lambda: mod.einsum("bij,bjk->bik", da, db)


def _norm_setup(mod):
    name = mod.__name__
    if name == "cuarray" and not CPU_MODE and not mod.cuda.is_available():
        raise Skip("no GPU")
    x = np.random.default_rng(0).standard_normal(NORM_N, dtype=np.float32)
    if name == "torch":
        t = mod.as_tensor(x, device="cuda")
        return lambda: mod.linalg.norm(t)
    d = mod.asarray(x)
    return lambda: mod.linalg.norm(d)


CASES += [
    Case(f"einsum('bij,bjk->bik') {EINSUM_BATCH}x{EINSUM_N}x{EINSUM_N} float32 (us)",
         {lib: _einsum_bmm for lib in ("cuarray", "cupy", "torch") + _CPU_NUMPY},
         mode="gpu", unit="us", target="<= 102", floor="one batched cuBLAS GEMM"),
    Case(f"linalg.norm 2^{NORM_N.bit_length() - 1} float32",
         {lib: _norm_setup for lib in ("cuarray", "cupy", "torch") + _CPU_NUMPY},
         mode="gpu", unit="GB/s", work=NORM_N * 4.0, target=">= 4000",
        floor="~4200 (read bandwidth)"),
]


# ---- issue 10, factorizations (python/cuarray/_linalg_factor.py over cuSOLVER): GPU
# time per call, float32, beside CuPy's and PyTorch's linalg on the same data. Targets
# from docs/TARGETS.md's breadth table (ms there, us here). cuarray's calls include the
# info-flag check (a wait) where NumPy would raise; CuPy's do too.
_FACTOR_SEED = 10


def _factor_data(kind, n, batch=None):
    rng = np.random.default_rng(_FACTOR_SEED)
    shape = (n, n) if batch is None else (batch, n, n)
    a = rng.standard_normal(shape, dtype=np.float32)
    if kind == "spd":
        a = (a @ np.swapaxes(a, -1, -2) + n * np.eye(n, dtype=np.float32)).astype(np.float32)
    elif kind == "sym":
        a = ((a + np.swapaxes(a, -1, -2)) / 2).astype(np.float32)
    elif kind == "well":
        a = (a + 2 * np.sqrt(n) * np.eye(n, dtype=np.float32)).astype(np.float32)
    return a


def _factor_setup(fn, kind, n, batch=None, rhs=None):
    def setup(mod):
        name = mod.__name__
        if name == "cuarray" and not CPU_MODE and not mod.cuda.is_available():
            raise Skip("no GPU")
        a = _factor_data(kind, n, batch)
        b = None
        if rhs is not None:
            b = np.random.default_rng(1).standard_normal((n, rhs), dtype=np.float32)
        if name == "torch":
            ta = mod.as_tensor(a, device="cuda")
            tb = None if b is None else mod.as_tensor(b, device="cuda")
            call = {"solve": lambda: mod.linalg.solve(ta, tb),
                    "inv": lambda: mod.linalg.inv(ta),
                    "det": lambda: mod.linalg.det(ta),
                    "cholesky": lambda: mod.linalg.cholesky(ta),
                    "qr": lambda: mod.linalg.qr(ta),
                    "svd": lambda: mod.linalg.svd(ta, full_matrices=False),
                    "eigh": lambda: mod.linalg.eigh(ta)}[fn]
            return call
        da = mod.asarray(a)
        db = None if b is None else mod.asarray(b)
        la = mod.linalg
        return {"solve": lambda: la.solve(da, db),
                "inv": lambda: la.inv(da),
                "det": lambda: la.det(da),
                "cholesky": lambda: la.cholesky(da),
                "qr": lambda: la.qr(da),
                "svd": lambda: la.svd(da, full_matrices=False),
                "eigh": lambda: la.eigh(da)}[fn]
    return setup


def _old_path_case(title, fn, kind, n, cfg, rhs=None, floor=None):
    """cuarray alone with linalg.config switched to an older path (cfg), set
    around each call: the before/after of one run (a GPU path: none in cpu mode)."""
    inner = _factor_setup(fn, kind, n, rhs=rhs)

    def setup(mod):
        if CPU_MODE:
            raise Skip("a cuSOLVER configuration (not the cpu device's)")
        call = inner(mod)
        conf = mod.linalg.config

        def run():
            old = {k: getattr(conf, k) for k in cfg}
            for k, v in cfg.items():
                setattr(conf, k, v)
            try:
                return call()
            finally:
                for k, v in old.items():
                    setattr(conf, k, v)
        return run
    return Case(title, {"cuarray": setup}, mode="gpu", unit="us", floor=floor, repeats=5)


def _factor_case(title, fn, kind, n, target_us, batch=None, rhs=None, floor=None):
    s = _factor_setup(fn, kind, n, batch, rhs)
    return Case(title, {lib: s for lib in ("cuarray", "cupy", "torch") + _CPU_NUMPY},
                mode="gpu", unit="us", target=f"<= {target_us:g}", floor=floor, repeats=5)


# cpu mode: NumPy beside the cpu device (which factors these in host LAPACK, the
# OpenBLAS NumPy loaded, float32 in float32: python/cuarray/_linalg_factor.py) at
# sizes a 2-core host factors in well under a second
F_BIG, F_MID = size(4096, 1024), size(2048, 512)
CASES += [
    _factor_case(f"solve {F_BIG}^2 float32, 16 rhs (us)", "solve", "well", F_BIG, 13900,
                 rhs=16, floor="cuSOLVER Xgetrf + Xgetrs (op N)"),
    _old_path_case(f"solve {F_BIG}^2 float32, 16 rhs, solve_colmajor=False (us)", "solve",
                   "well", F_BIG, {"solve_colmajor": False}, rhs=16,
                   floor="cuSOLVER Xgetrf + Xgetrs (op T)"),
    _factor_case(f"inv {F_BIG}^2 float32 (us)", "inv", "well", F_BIG, 17100,
                 floor="cuSOLVER Xgetrf + Xgetrs(I)"),
    _factor_case(f"det {F_BIG}^2 float32 (us)", "det", "well", F_BIG, 11500,
                 floor="cuSOLVER Xgetrf"),
    _factor_case(f"cholesky {F_BIG}^2 float32 (us)", "cholesky", "spd", F_BIG, 1950,
                 floor="cuSOLVER Xpotrf (lower mode)"),
    _old_path_case(f"cholesky {F_BIG}^2 float32, upper mode (us)", "cholesky", "spd", F_BIG,
                   {"cholesky_lower_min_n": 2 ** 62}, floor="cuSOLVER Xpotrf (upper mode)"),
    _factor_case(f"qr {F_BIG}^2 float32 (us)", "qr", "gauss", F_BIG, 28500,
                 floor="cuSOLVER Xgeqrf + orgqr"),
    _factor_case(f"svd {F_MID}^2 float32, reduced (us)", "svd", "gauss", F_MID, 220000,
                 floor="cuSOLVER gesvdj"),
    _old_path_case(f"svd {F_MID}^2 float32, reduced, svd_driver='gesvd' (us)", "svd",
                   "gauss", F_MID, {"svd_driver": "gesvd"}, floor="cuSOLVER Xgesvd"),
    _factor_case(f"eigh {F_MID}^2 float32 (us)", "eigh", "sym", F_MID, 30700,
                 floor="cuSOLVER Xsyevd"),
    _factor_case("inv of 4096 stacked 16x16 float32 (us)", "inv", "well", 16, 167,
                 batch=4096, floor="cuBLAS getrfBatched + getriBatched"),
]
