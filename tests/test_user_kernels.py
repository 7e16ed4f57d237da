"""User kernels: RawKernel, RawModule, ElementwiseKernel, ReductionKernel, fuse,
and NVRTC's caches. Compilation-only tests run wherever NVRTC is (no GPU needed);
launches need a GPU; on the cpu device every launch is a clear error."""

import io
import os

import numpy as np
import pytest

import cuarray
from cuarray import cuda
from cuarray.cuda import compiler
from conftest import have_nvrtc, requires_gpu

gpu = requires_gpu


nvrtc = pytest.mark.skipif(not have_nvrtc(), reason="NVRTC is not installed here")

ADD_SRC = r'''
extern "C" __global__ void add(const float *x, const float *y, float *z, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = x[i] + y[i];
}
'''


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    d = tmp_path / "kcache"
    monkeypatch.setenv("CUARRAY_KERNEL_CACHE_DIR", str(d))
    monkeypatch.delenv("CUARRAY_KERNEL_CACHE_DISABLE", raising=False)
    compiler.clear_memory_cache()
    yield d
    compiler.clear_memory_cache()


# ---- compilation (NVRTC, no GPU needed) ----------------------------------------------

@nvrtc
def test_nvrtc_version():
    major, minor = compiler.get_nvrtc_version()
    assert major >= 12 and minor >= 0


@nvrtc
def test_compile_to_cubin_and_ptx(cache_dir):
    b = compiler.compile_with_cache(ADD_SRC, arch="sm_90")
    assert b.kind == "cubin" and b.image[:4] == b"\x7fELF"
    p = compiler.compile_with_cache(ADD_SRC, arch="compute_90")
    assert p.kind == "ptx" and b".entry add" in p.image


@nvrtc
def test_compile_exception_carries_the_log(cache_dir):
    src = 'extern "C" __global__ void broken() { int x = ; }'
    with pytest.raises(cuda.CompileException) as e:
        compiler.compile_with_cache(src, arch="sm_90")
    assert "expected an expression" in e.value.log
    assert "expected an expression" in str(e.value)
    assert e.value.source == src and e.value.name == "kernel.cu"
    f = io.StringIO()
    e.value.dump(f)
    assert "   1 extern" in f.getvalue()
    assert not list(cache_dir.rglob("*.bin"))  # failures are not cached


@nvrtc
def test_cache_key_covers_source_options_arch_version():
    k = compiler.cache_key(ADD_SRC, ("-O3",), "sm_90", (), (13, 0))
    assert k == compiler.cache_key(ADD_SRC, ("-O3",), "sm_90", (), (13, 0))
    others = {compiler.cache_key(ADD_SRC + " ", ("-O3",), "sm_90", (), (13, 0)),
              compiler.cache_key(ADD_SRC, (), "sm_90", (), (13, 0)),
              compiler.cache_key(ADD_SRC, ("-O3",), "sm_80", (), (13, 0)),
              compiler.cache_key(ADD_SRC, ("-O3",), "sm_90", ("f<int>",), (13, 0)),
              compiler.cache_key(ADD_SRC, ("-O3",), "sm_90", (), (13, 1))}
    assert k not in others and len(others) == 5
    # option boundaries matter: ("-a", "b") is not ("-ab",)
    assert compiler.cache_key("s", ("-a", "b"), "sm_90", (), (13, 0)) != \
        compiler.cache_key("s", ("-ab",), "sm_90", (), (13, 0))


@nvrtc
def test_memory_and_disk_cache(cache_dir):
    b1 = compiler.compile_with_cache(ADD_SRC, ("-DX=1",), arch="sm_90")
    assert not b1.from_disk
    files = list(cache_dir.rglob("*.bin"))
    assert len(files) == 1 and files[0].name == b1.key + ".bin"
    assert compiler.compile_with_cache(ADD_SRC, ("-DX=1",), arch="sm_90") is b1
    compiler.clear_memory_cache()
    b2 = compiler.compile_with_cache(ADD_SRC, ("-DX=1",), arch="sm_90")
    assert b2.from_disk and b2.image == b1.image and b2.key == b1.key
    # a damaged entry is recompiled and rewritten
    files[0].write_bytes(files[0].read_bytes()[:-10] + b"0123456789")
    compiler.clear_memory_cache()
    b3 = compiler.compile_with_cache(ADD_SRC, ("-DX=1",), arch="sm_90")
    assert not b3.from_disk and b3.image == b1.image
    compiler.clear_memory_cache()
    assert compiler.compile_with_cache(ADD_SRC, ("-DX=1",), arch="sm_90").from_disk


@nvrtc
def test_disk_cache_can_be_disabled(cache_dir, monkeypatch):
    monkeypatch.setenv("CUARRAY_KERNEL_CACHE_DISABLE", "1")
    compiler.compile_with_cache(ADD_SRC, ("-DY=2",), arch="sm_90")
    assert not cache_dir.exists() or not list(cache_dir.rglob("*.bin"))


def test_cache_dir_default(monkeypatch):
    monkeypatch.delenv("CUARRAY_KERNEL_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", "/some/where")
    assert compiler.get_cache_dir() == os.path.join("/some/where", "cuarray", "kernels")
    monkeypatch.setenv("CUARRAY_KERNEL_CACHE_DIR", "/else")
    assert compiler.get_cache_dir() == "/else"


@nvrtc
def test_name_expressions_lowered(cache_dir):
    src = r'''
    template <typename T> __global__ void twice(T *x, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) x[i] = x[i] * 2;
    }'''
    b = compiler.compile_with_cache(src, arch="sm_90",
                                    name_expressions=["twice<float>", "twice<int>"])
    assert set(b.lowered) == {"twice<float>", "twice<int>"}
    assert all(v.startswith("_Z") for v in b.lowered.values())
    assert b.lowered["twice<float>"] != b.lowered["twice<int>"]


def test_compile_argument_checks():
    with pytest.raises(TypeError):
        compiler.compile_with_cache(b"bytes", arch="sm_90")
    with pytest.raises(ValueError, match="arch"):
        compiler.compile_with_cache("x", arch="90")


# ---- generated sources compile (no GPU needed) -------------------------------------------

def _ew_key(kernel, dtypes, nd, arg_dtypes, types=()):
    raw = tuple(1 if p.raw else 0 for p in kernel.params)
    return (tuple(np.dtype(d).str for d in dtypes), nd, raw,
            tuple(None if a is None else np.dtype(a).str for a in arg_dtypes),
            tuple(sorted((t, np.dtype(d).str) for t, d in types)))


@nvrtc
@pytest.mark.parametrize("nd", [0, 1, 3])
def test_elementwise_source_compiles(cache_dir, nd):
    k = cuarray.ElementwiseKernel("T x, raw T r, float32 s", "T y",
                                  "y = x * s + r[i % r.size()] + (T)_ind.size()",
                                  "ew_test")
    key = _ew_key(k, [np.float64, np.float64, np.float32, np.float64], nd,
                  [np.int32, None, None, np.float64], [("T", np.float64)])
    src = k._source(key)
    compiler.compile_with_cache(src, arch="sm_90")


@nvrtc
@pytest.mark.parametrize("identity", ["0", None])
def test_reduction_source_compiles(cache_dir, identity):
    k = cuarray.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", identity,
                                "l2")
    key = ((np.dtype(np.float32).str, np.dtype(np.float32).str), 1, 2,
           (np.dtype(np.float16).str,), (("T", np.dtype(np.float32).str),), "float", (0,))
    compiler.compile_with_cache(k._source(key), arch="sm_90")


def test_parameter_parsing():
    k = cuarray.ElementwiseKernel("T x, raw U y, float32 z, int64 n", "X out", "out = x")
    kinds = [(p.name, p.raw, p.placeholder, p.dtype) for p in k.params]
    assert kinds == [("x", False, "T", None), ("y", True, "U", None),
                     ("z", False, None, np.dtype(np.float32)),
                     ("n", False, None, np.dtype(np.int64)),
                     ("out", False, "X", None)]
    with pytest.raises(ValueError):
        cuarray.ElementwiseKernel("T", "T y", "y = 1")
    with pytest.raises(ValueError):
        cuarray.ElementwiseKernel("T x, T x", "T y", "y = x")
    with pytest.raises(ValueError):
        cuarray.ElementwiseKernel("T x", "T x", "x = x")
    with pytest.raises(ValueError):
        cuarray.ReductionKernel("T x", "T y, T z", "x", "a + b", "y = a", "0")
    with pytest.raises(ValueError):
        cuarray.ElementwiseKernel("T x", "T y", "y = x", name="not an identifier")


# ---- the cpu device: a clear error -----------------------------------------------------------

def test_user_kernels_on_cpu_are_a_clear_error():
    with cuarray.Device("cpu"):
        x = cuarray.arange(4, dtype=np.float32)
        k = cuarray.RawKernel(ADD_SRC, "add")
        with pytest.raises(ValueError, match="GPU"):
            k((1,), (4,), (x, x, x, np.int64(4)))
        ew = cuarray.ElementwiseKernel("T x", "T y", "y = x * 2", "dbl")
        with pytest.raises(ValueError, match="GPU"):
            ew(x)
        red = cuarray.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "s")
        with pytest.raises(ValueError, match="GPU"):
            red(x)


def test_fuse_runs_the_function(device):
    @cuarray.fuse
    def f(x, y):
        return cuarray.sqrt(x * x + y * y)

    @cuarray.fuse(kernel_name="g_kernel")
    def g(x):
        return x * 2 + 1

    with cuarray.Device(device):
        x = cuarray.arange(10, dtype=np.float32)
        np.testing.assert_allclose(cuarray.asnumpy(f(x, x)),
                                   np.sqrt(2) * np.arange(10, dtype=np.float32), rtol=1e-6)
        np.testing.assert_array_equal(cuarray.asnumpy(g(x)), np.arange(10) * 2 + 1)
    assert g.kernel_name == "g_kernel" and f.kernel_name == "f"
    assert f.__wrapped__.__name__ == "f"
    with pytest.raises(TypeError):
        cuarray.fuse(1, 2)


# ---- launches (GPU) ---------------------------------------------------------------------------

@gpu
def test_raw_kernel_add(cache_dir):
    with cuarray.Device(0):
        n = 1000
        x = cuarray.asarray(np.arange(n, dtype=np.float32))
        y = cuarray.full(n, 0.5, dtype=np.float32)
        z = cuarray.empty(n, dtype=np.float32)
        k = cuarray.RawKernel(ADD_SRC, "add")
        k(((n + 127) // 128,), (128,), (x, y, z, n))
        np.testing.assert_array_equal(z.get(), np.arange(n, dtype=np.float32) + 0.5)
        assert k.max_threads_per_block >= 128 and k.num_regs > 0
        # a second kernel object over the same source: from the caches, no compile
        k2 = cuarray.RawKernel(ADD_SRC, "add")
        k2(4, 256, [y, y, z, np.int64(n)])
        np.testing.assert_array_equal(z.get(), np.ones(n, np.float32))


@gpu
def test_raw_kernel_scalar_types_and_stream(cache_dir):
    src = r'''
    extern "C" __global__ void fill(double *o, float a, int b, unsigned char c, bool d,
                                    long long e, double f) {
        o[0] = a; o[1] = b; o[2] = c; o[3] = d; o[4] = (double)e; o[5] = f;
    }'''
    with cuarray.Device(0):
        o = cuarray.zeros(6, dtype=np.float64)
        s = cuda.Stream(non_blocking=True)
        cuarray.RawKernel(src, "fill")((1,), (1,), (o, np.float32(1.5), np.int32(-2),
                                                    np.uint8(200), True, 1 << 40, 2.25),
                                       stream=s)
        s.synchronize()
        np.testing.assert_array_equal(o.get(), [1.5, -2, 200, 1, 2.0 ** 40, 2.25])


@gpu
def test_raw_kernel_argument_errors(cache_dir):
    with cuarray.Device(0):
        k = cuarray.RawKernel(ADD_SRC, "add")
        x = cuarray.ones(4, dtype=np.float32)
        with pytest.raises(TypeError, match="unsupported"):
            k((1,), (4,), (x, x, x, "4"))
        with pytest.raises(ValueError, match="cpu"):
            k((1,), (4,), (x, x, cuarray.ones(4, dtype=np.float32, device="cpu"), 4))
        with pytest.raises(ValueError):
            k((0,), (4,), (x, x, x, 4))
        with pytest.raises(TypeError):
            k((1, 1, 1, 1), (4,), (x, x, x, 4))
        bad = cuarray.RawKernel("__global__ void f( {", "f")
        with pytest.raises(cuda.CompileException):
            bad((1,), (1,), ())
        missing = cuarray.RawKernel(ADD_SRC, "no_such_kernel")
        with pytest.raises(cuda.CUDAError):
            missing((1,), (1,), ())


@gpu
def test_raw_module_templates_and_shared_memory(cache_dir):
    src = r'''
    template <typename T>
    __global__ void rev(const T *x, T *y, int n) {
        extern __shared__ unsigned char buf[];
        T *s = reinterpret_cast<T *>(buf);
        int i = threadIdx.x;
        if (i < n) s[i] = x[i];
        __syncthreads();
        if (i < n) y[i] = s[n - 1 - i];
    }
    extern "C" __global__ void one(int *p) { *p = 1; }
    '''
    m = cuarray.RawModule(code=src, name_expressions=("rev<float>", "rev<int>"))
    with cuarray.Device(0):
        for dt, name in ((np.float32, "rev<float>"), (np.int32, "rev<int>")):
            x = cuarray.asarray(np.arange(100, dtype=dt))
            y = cuarray.empty(100, dtype=dt)
            m.get_function(name)((1,), (128,), (x, y, np.int32(100)),
                                 shared_mem=100 * x.itemsize)
            np.testing.assert_array_equal(y.get(), np.arange(100, dtype=dt)[::-1])
        p = cuarray.zeros(1, dtype=np.int32)
        m.get_function("one")((1,), (1,), (p,))
        assert int(p[0]) == 1


@gpu
def test_raw_module_from_ptx_and_cubin_files(cache_dir, tmp_path):
    with cuarray.Device(0):
        arch = cuda.Device(0).compute_capability
        ptx = compiler.compile_with_cache(ADD_SRC, arch=f"compute_{arch}")
        cubin = compiler.compile_with_cache(ADD_SRC, arch=f"sm_{arch}")
        x = cuarray.arange(64, dtype=np.float32)
        for name, image in (("k.ptx", ptx.image), ("k.cubin", cubin.image)):
            path = tmp_path / name
            path.write_bytes(image)
            z = cuarray.zeros(64, dtype=np.float32)
            cuarray.RawModule(path=str(path)).get_function("add")((1,), (64,),
                                                                  (x, x, z, 64))
            np.testing.assert_array_equal(z.get(), 2 * np.arange(64, dtype=np.float32))
        z = cuarray.zeros(64, dtype=np.float32)
        cuarray.RawModule(code=cubin.image).get_function("add")((1,), (64,), (x, x, z, 64))
        assert float(z[63]) == 126
    with pytest.raises(TypeError):
        cuarray.RawModule()
    with pytest.raises(TypeError):
        cuarray.RawModule(code=3)


@gpu
def test_elementwise_typed_and_generic(cache_dir):
    rng = np.random.default_rng(0)
    with cuarray.Device(0):
        k = cuarray.ElementwiseKernel("T x, T y", "T z", "z = x * x + y", "sq_add")
        for dt in (np.float32, np.float64, np.int32, np.int64, np.uint8):
            a = (rng.random(1000) * 10).astype(dt)
            b = (rng.random(1000) * 10).astype(dt)
            r = k(cuarray.asarray(a), cuarray.asarray(b))
            assert r.dtype == dt
            if np.dtype(dt).kind == "f":
                # NVRTC contracts x * x + y into one FMA (-fmad=true, as nvcc and
                # CuPy): one rounding fewer than NumPy's
                np.testing.assert_allclose(r.get(), a * a + b, rtol=2 * np.finfo(dt).eps)
            else:
                np.testing.assert_array_equal(r.get(), a * a + b)
        typed = cuarray.ElementwiseKernel("float32 x, float64 s", "float64 y",
                                          "y = x * s", "scale")
        a = rng.random(300).astype(np.float32)
        r = typed(cuarray.asarray(a), 2.5)
        assert r.dtype == np.float64
        np.testing.assert_allclose(r.get(), a.astype(np.float64) * 2.5)
        # an int32 array into a float32 parameter is converted on load
        r = typed(cuarray.arange(5, dtype=np.int32), 2)
        np.testing.assert_array_equal(r.get(), [0, 2, 4, 6, 8])


@gpu
def test_elementwise_broadcast_views_and_out(cache_dir):
    rng = np.random.default_rng(1)
    with cuarray.Device(0):
        k = cuarray.ElementwiseKernel("T x, T y", "T z", "z = x - y", "sub")
        a = rng.standard_normal((4, 5, 6))
        b = rng.standard_normal((5, 1))
        ga, gb = cuarray.asarray(a), cuarray.asarray(b)
        np.testing.assert_array_equal(k(ga, gb).get(), a - b)
        # non-contiguous, reversed and transposed views
        np.testing.assert_array_equal(k(ga[:, ::-2, 1::2], gb[::-2]).get(),
                                      a[:, ::-2, 1::2] - b[::-2])
        np.testing.assert_array_equal(k(ga.T, ga.T).get(), np.zeros((6, 5, 4)))
        out = cuarray.empty((4, 5, 6))
        r = k(ga, gb, out)
        assert r is out
        np.testing.assert_array_equal(out.get(), a - b)
        with pytest.raises(ValueError):
            k(ga, cuarray.ones(7))
        with pytest.raises(TypeError):
            k(ga, gb, cuarray.empty((4, 5, 6), dtype=np.float32))
        with pytest.raises(ValueError):
            k(ga, gb, cuarray.empty((4, 5, 1)))
        # in-place accumulation through an output reference
        acc = cuarray.ElementwiseKernel("T x", "T y", "y += x", "acc")
        o = cuarray.ones((4, 5, 6))
        acc(ga, o)
        np.testing.assert_allclose(o.get(), a + 1)


@gpu
def test_elementwise_replayed_calls(cache_dir):
    """A call with an earlier call's signature replays its plan (ElementwiseKernel
    remembers dtypes, shapes, strides and scalar types): new data, new scalar
    values, given or missing outputs and raw arguments all still count."""
    rng = np.random.default_rng(5)
    with cuarray.Device(0):
        k = cuarray.ElementwiseKernel("T x, T y, float32 s", "T z", "z = x * s + y",
                                      "axpy_replay")
        for _ in range(3):
            a = rng.standard_normal((3, 8)).astype(np.float32)
            b = rng.standard_normal(8).astype(np.float32)
            s = float(rng.standard_normal())
            ga, gb = cuarray.asarray(a), cuarray.asarray(b)
            want = a * np.float32(s) + b
            np.testing.assert_allclose(k(ga, gb, s).get(), want, rtol=1e-6)
            np.testing.assert_allclose(k(ga, gb, np.float32(s)).get(), want, rtol=1e-6)
            np.testing.assert_allclose(k(ga[:, ::2], gb[::2], s).get(), want[:, ::2],
                                       rtol=1e-6)
            out = cuarray.empty((3, 8), dtype=np.float32)
            assert k(ga, gb, s, out) is out
            np.testing.assert_allclose(out.get(), want, rtol=1e-6)
            r = k(ga, gb, s, None)
            assert r is not out
            np.testing.assert_allclose(r.get(), want, rtol=1e-6)
        assert len(k._plans) == 5  # one per distinct signature above
        # an int64 pair binds T differently: its own plan, int64 results
        i = cuarray.arange(8)
        assert k(i, i, 2.0).dtype == np.int64
        np.testing.assert_array_equal(k(i, i, 2.0).get(), np.arange(8) * 3)
        with pytest.raises(TypeError):  # bad output dtype: still checked on replay
            k(ga, gb, s, cuarray.empty((3, 8), dtype=np.float64))
        with pytest.raises(TypeError):
            k(ga, gb, s, cuarray.empty((3, 8), dtype=np.float64))
        rev = cuarray.ElementwiseKernel("raw T x", "T y", "y = x[_ind.size() - 1 - i]",
                                        "rev_replay")
        for n in (5, 5, 9):
            v = cuarray.arange(n, dtype=np.float64) * 1.5
            np.testing.assert_array_equal(rev(v, cuarray.empty(n)).get(),
                                          (np.arange(n) * 1.5)[::-1])
        assert k(cuarray.empty((0, 8), dtype=np.float32), gb, s).shape == (0, 8)


@gpu
def test_elementwise_raw_ind_and_size(cache_dir):
    with cuarray.Device(0):
        rev = cuarray.ElementwiseKernel("raw T x", "T y", "y = x[_ind.size() - 1 - i]",
                                        "rev")
        x = cuarray.arange(10, dtype=np.int64)
        y = cuarray.empty(10, dtype=np.int64)
        rev(x, y)
        np.testing.assert_array_equal(y.get(), np.arange(10)[::-1])
        # raw over a strided 2-d view: x[i] walks it in C order
        m = cuarray.asarray(np.arange(24.).reshape(4, 6))[:, ::2]
        flat = cuarray.empty(12)
        cuarray.ElementwiseKernel("raw T x", "T y", "y = x[i]", "flat")(m, flat)
        np.testing.assert_array_equal(flat.get(), np.arange(24.).reshape(4, 6)[:, ::2]
                                      .ravel())
        # size= when every non-raw argument is a scalar
        iota = cuarray.ElementwiseKernel("int64 base", "int64 y", "y = base + i", "iota")
        out = cuarray.empty(7, dtype=np.int64)
        iota(np.int64(100), out)
        np.testing.assert_array_equal(out.get(), 100 + np.arange(7))
        r = cuarray.ElementwiseKernel("T s", "T y", "y = s * i", "sz")(
            np.float32(0.5), cuarray.empty(6, dtype=np.float32))
        np.testing.assert_array_equal(r.get(), 0.5 * np.arange(6, dtype=np.float32))
        with pytest.raises(ValueError, match="size"):
            cuarray.ElementwiseKernel("T s", "T y", "y = s", "nosz")(np.float32(1))
        sized = cuarray.ElementwiseKernel("", "raw int32 y", "y[i] = (int)i * 3", "sized")
        buf = cuarray.zeros(5, dtype=np.int32)
        sized(buf, size=5)
        np.testing.assert_array_equal(buf.get(), np.arange(5) * 3)


@gpu
def test_elementwise_multiple_outputs_preamble_and_float16(cache_dir):
    with cuarray.Device(0):
        k = cuarray.ElementwiseKernel(
            "T x", "T lo, T hi", "lo = clampv(x, (T)0, (T)1); hi = x > (T)1 ? x : (T)1",
            "split", preamble="template <typename U> __device__ U clampv(U v, U a, U b) "
                              "{ return v < a ? a : (v > b ? b : v); }")
        h = np.array([-1, 0.5, 2, 3], np.float32)
        lo, hi = k(cuarray.asarray(h))
        np.testing.assert_array_equal(lo.get(), np.clip(h, 0, 1))
        np.testing.assert_array_equal(hi.get(), np.maximum(h, 1))
        t = cuarray.ElementwiseKernel("T x", "T y", "y = x * 2", "one_tuple",
                                      return_tuple=True)(cuarray.asarray(h))
        assert isinstance(t, tuple) and len(t) == 1
        half = cuarray.ElementwiseKernel("float16 x", "float32 y", "y = (float)x * 2",
                                         "half2f")
        hh = np.array([0.5, 1.5, -2], np.float16)
        np.testing.assert_array_equal(half(cuarray.asarray(hh)).get(),
                                      hh.astype(np.float32) * 2)


@gpu
def test_reduction_kernel_sum_norm_and_axes(cache_dir):
    rng = np.random.default_rng(2)
    with cuarray.Device(0):
        l2 = cuarray.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0",
                                     "l2norm")
        a = rng.standard_normal((30, 40, 7))
        ga = cuarray.asarray(a)
        np.testing.assert_allclose(float(l2(ga)), np.sqrt((a * a).sum()), rtol=1e-12)
        for axis in (0, 1, 2, (0, 2), (-1,)):
            np.testing.assert_allclose(l2(ga, axis=axis).get(),
                                       np.sqrt((a * a).sum(axis=axis)), rtol=1e-12)
        r = l2(ga, axis=1, keepdims=True)
        assert r.shape == (30, 1, 7)
        np.testing.assert_allclose(r.get(), np.sqrt((a * a).sum(axis=1, keepdims=True)))
        out = cuarray.empty(40)
        assert l2(ga, axis=(0, 2), out=out) is out
        np.testing.assert_allclose(out.get(), np.sqrt((a * a).sum(axis=(0, 2))))
        # views, mixed dtypes and a typed reduce type
        s = cuarray.ReductionKernel("T x", "float64 y", "x", "a + b", "y = a", "0",
                                    "sum64", reduce_type="float64")
        i = rng.integers(-100, 100, (50, 60)).astype(np.int16)
        np.testing.assert_array_equal(s(cuarray.asarray(i)[::-1, ::3], axis=0).get(),
                                      i[::-1, ::3].sum(axis=0, dtype=np.float64))
        with pytest.raises(ValueError):
            l2(ga, out=cuarray.empty(3))
        with pytest.raises(np.exceptions.AxisError):
            l2(ga, axis=3)


@gpu
def test_reduction_kernel_without_identity_and_two_inputs(cache_dir):
    rng = np.random.default_rng(3)
    with cuarray.Device(0):
        mx = cuarray.ReductionKernel("T x", "T y", "x", "a > b ? a : b", "y = a", None,
                                     "maxk")
        a = rng.standard_normal((17, 1000)).astype(np.float32) - 5
        np.testing.assert_array_equal(mx(cuarray.asarray(a), axis=1).get(), a.max(axis=1))
        np.testing.assert_array_equal(mx(cuarray.asarray(a[:, :3]), axis=1).get(),
                                      a[:, :3].max(axis=1))
        dot = cuarray.ReductionKernel("T x, T y", "T z", "x * y", "a + b", "z = a", "0",
                                      "dotk")
        b = rng.standard_normal(1000).astype(np.float32)
        np.testing.assert_allclose(dot(cuarray.asarray(a), cuarray.asarray(b),
                                       axis=1).get(),
                                   (a.astype(np.float64) * b).sum(axis=1), rtol=1e-4)
        with pytest.raises(ValueError, match="identity"):
            mx(cuarray.empty((3, 0), dtype=np.float32), axis=1)
        e = cuarray.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "esum")
        np.testing.assert_array_equal(e(cuarray.empty((3, 0)), axis=1).get(), np.zeros(3))
