"""cuarray.jit: Python-written kernels (CuPy's cupyx.jit.rawkernel).

The translation to CUDA C++ runs anywhere: its source is checked here, and
compiled (nvcc -arch=sm_90 where nvcc is, NVRTC where the build has it) so
that C errors show without a GPU. Launches need a GPU and are compared with
NumPy; on the cpu device a launch is RawKernel's clear error."""

import ctypes
import os
import re
import shutil
import subprocess
import sys
import threading

import numpy as np
import pytest

import cuarray
from cuarray import jit
from cuarray.cuda import compiler
from conftest import requires_gpu

HERE = os.path.dirname(os.path.abspath(__file__))


def _have_nvrtc():
    try:
        compiler.get_nvrtc_version()
        return True
    except Exception:
        return False


nvrtc = pytest.mark.skipif(not _have_nvrtc(), reason="NVRTC is not in this build")
nvcc = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")


def cpu(a):
    return cuarray.asarray(np.asarray(a), device="cpu")


# ---- kernels ---------------------------------------------------------------------------


def _example():
    """examples/jit_kernels.py as a module: its three kernels are the ones tested here
    (and test_gpu_example runs its main)."""
    sys.path.insert(0, os.path.join(HERE, "..", "examples"))
    try:
        import jit_kernels
    finally:
        sys.path.pop(0)
    return jit_kernels


saxpy, atomic_sum, stencil3 = _example().saxpy, _example().atomic_sum, _example().stencil3


@jit.rawkernel()
def grid2d(a, b):
    i, j = jit.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        b[i, j] = a[i, j] * 2 + i - j


@jit.rawkernel()
def grid3d(a, total):
    # a 3-D grid-stride loop over every element, and a 0-d array
    i0, j0, k0 = jit.grid(3)
    si, sj, sk = jit.gridsize(3)
    for i in range(i0, a.shape[0], si):
        for j in range(j0, a.shape[1], sj):
            for k in range(k0, a.shape[2], sk):
                a[i, j, k] = i * 100 + j * 10 + k
                jit.atomic_add(total, (), 1)


@jit.rawkernel()
def control_flow(x, out):
    i = jit.grid(1)
    if i >= x.size:
        return
    v = x[i]
    k = 0
    while True:
        if v > 100:
            break
        v = v * 2 + 1
        k += 1
        if k % 2 == 0:
            continue
        v -= 1
    acc = 0
    for j in range(10, 0, -3):
        acc += j
    if v < 0:
        out[i] = -1
    elif v < 200 and not (acc == 0):
        out[i] = v + acc
    else:
        out[i] = k


@jit.rawkernel()
def ops(x, y, out):
    i = jit.grid(1)
    if i < x.size:
        a = x[i]
        b = y[i]
        out[0, i] = a // b
        out[1, i] = a % b
        out[2, i] = a * b - a + b
        out[3, i] = max(a, b)
        out[4, i] = min(a, b, a + b)
        out[5, i] = abs(a)
        out[6, i] = a if a > b else b


ops_numpy = jit.rawkernel(mode="numpy")(ops._func)


@jit.rawkernel()
def math_fns(x, out):
    i = jit.grid(1)
    if i < x.size:
        v = x[i]
        out[0, i] = cuarray.sqrt(abs(v))
        out[1, i] = cuarray.exp(v / 4)
        out[2, i] = np.log1p(abs(v))
        out[3, i] = cuarray.sin(v) + cuarray.cos(v)
        out[4, i] = np.arctan2(v, 2.0)
        out[5, i] = cuarray.floor(v) + np.ceil(v)
        out[6, i] = v ** 2


@jit.rawkernel()
def bitops(x, out):
    i = jit.grid(1)
    if i < x.size:
        v = x[i]
        out[0, i] = (v & 12) | (v ^ 5)
        out[1, i] = (v << 2) >> 1
        out[2, i] = ~v


@jit.rawkernel(device=True)
def clamp(v, lo, hi):
    if v < lo:
        return lo
    if v > hi:
        return hi
    return v


@jit.rawkernel()
def uses_device_fn(x, out):
    i = jit.grid(1)
    if i < x.size:
        out[i] = clamp(x[i], -1.0, 1.0)


@jit.rawkernel()
def dyn_shared(x, out):
    buf = jit.shared_memory(np.float64, None)
    t = jit.threadIdx.x
    buf[t] = x[jit.grid(1)]
    jit.syncthreads()
    out[jit.grid(1)] = buf[jit.blockDim.x - 1 - t]


@jit.rawkernel()
def atomics_int(x, out):
    i = jit.grid(1)
    if i < x.size:
        v = x[i]
        jit.atomic_add(out, 0, v)
        jit.atomic_max(out, 1, v)
        jit.atomic_min(out, 2, v)
        jit.atomic_or(out, 3, v)
        jit.atomic_and(out, 4, v)
        jit.atomic_xor(out, 5, v)


@jit.rawkernel()
def atomics_misc(x, out, counters):
    # one thread at a time changes counters[0] from i to i + 1: threads take turns
    i = jit.grid(1)
    if i < x.size:
        jit.atomic_sub(out, 0, x[i])
        jit.atomic_exch(out, 1, x[i])
        jit.atomic_inc(counters, 0, np.uint32(1000))
        jit.atomic_dec(counters, 1, np.uint32(1000))
        jit.atomic_cas(counters, 2, np.uint32(i), np.uint32(i + 1))


def _adder(const):
    # a factory of device functions, called with a constant inside a kernel
    @jit.rawkernel(device=True)
    def f(x, y):
        x += 1
        return x + y + const
    return f


def _tree_sum(step):
    # a device function "template": the constant condition ends the recursion
    @jit.rawkernel(device=True)
    def f(x):
        if step < 64:
            tid = jit.threadIdx.x
            if tid % (step * 2) == 0:
                x[tid] += x[tid + step]
            jit.syncthreads()
            _tree_sum(step * 2)(x)
    return f


@jit.rawkernel()
def device_factories(x, y, z):
    tid = jit.threadIdx.x
    z[tid] = _adder(10)(x[tid], y[tid]) + _adder(20)(x[tid], y[tid])
    jit.syncthreads()
    _tree_sum(1)(x)


@jit.rawkernel()
def warp_votes(x, out, w):
    t = jit.threadIdx.x
    v = x[t]
    out[0, t] = jit.popc(v)
    out[1, t] = jit.ffs(v)
    out[2, t] = jit.match_any_sync(0xFFFFFFFF, v % 4)
    m, same = jit.match_all_sync(0xFFFFFFFF, v // 64)
    out[3, t] = m if same else 7
    out[4, t] = jit.shfl_sync(0xFFFFFFFF, v, 0, width=w)
    out[5, t] = jit.activemask() != 0


@jit.rawkernel()
def atomics_other_types(h, f, d):
    jit.atomic_cas(h, 0, np.uint16(0), np.uint16(7))
    jit.atomic_exch(f, 0, 2.5)
    jit.atomic_add(d, (1, 0), 1.5)


@jit.rawkernel()
def warp_fns(x, out):
    i = jit.grid(1)
    v = x[i]
    v += jit.shfl_down_sync(0xFFFFFFFF, v, 16)
    v += jit.shfl_down_sync(0xFFFFFFFF, v, 8)
    v += jit.shfl_xor_sync(0xFFFFFFFF, v, 4)
    v += jit.shfl_xor_sync(0xFFFFFFFF, v, 2)
    v += jit.shfl_xor_sync(0xFFFFFFFF, v, 1)
    if jit.laneid() == 0:
        out[i // jit.warpsize] = v
    jit.syncwarp()


@jit.rawkernel()
def unrolled(x, out):
    i = jit.grid(1)
    s = x[i]
    for k in jit.range(4, unroll=True):
        s = s * 2
    for k in jit.range(0, 8, 2, unroll=2):
        s += k
    out[i] = s


@jit.rawkernel()
def index_forms(x, out):
    # a constant negative index counts from the end; x.shape[k], len(x), x.ndim
    n = len(x)
    out[0] = x[-1]
    out[1] = x.shape[0] + x.ndim
    out[2] = n
    a, b = 1, 2
    a, b = b, a
    out[3] = a * 10 + b


@jit.rawkernel()
def casts(x, out):
    i = jit.grid(1)
    if i < x.size:
        out[i] = np.int32(x[i] * 3.7) + int(True) + np.float32(0.5) * 2


@jit.rawkernel(mode="numpy")
def numpy_mode(a, x, out):
    i = jit.grid(1)
    if i < x.size:
        out[i] = a * x[i] + 0.1


def _mixed(a, b, out):
    i = jit.grid(1)
    if i < a.size:
        out[0, i] = a[i] / b[i]
        out[1, i] = a[i] + b[i] * 3
        out[2, i] = (a[i] - 1) // 2 + (b[i] > 4 and a[i] < 0 or b[i] == 1)
        ij = jit.grid(2)
        sh = out.shape
        out[3, i] = ij[0] + sh[1] + len(sh)


mixed_cuda = jit.rawkernel()(_mixed)
mixed_numpy = jit.rawkernel(mode="numpy")(_mixed)


@jit.rawkernel()
def float16_ops(x, out):
    i = jit.grid(1)
    if i < x.size:
        v = x[i]
        out[i] = v * v + cuarray.sqrt(abs(v)) - v // 2 + v % 3
    jit.syncthreads()
    if i < x.size:
        jit.atomic_add(out, 0, x[i])


# every kernel above with arguments it translates for: (kernel, args, kwargs)
def _cases():
    f32 = cpu(np.zeros(64, np.float32))
    f64 = cpu(np.zeros(64))
    i32 = cpu(np.zeros(64, np.int32))
    yield "saxpy", saxpy, (np.float32(2), f32, f32, f32, 64)
    yield "saxpy_f64_strided", saxpy, (2.0, f64[::2], f64[::2], f64[::2], 32)
    yield "atomic_sum", atomic_sum, (f32, cpu(np.zeros(1, np.float32)))
    yield "atomic_sum_f64", atomic_sum, (f64, cpu(np.zeros(1)))
    yield "stencil3", stencil3, (f32, f32, 64)
    yield "grid2d", grid2d, (cpu(np.zeros((4, 5))), cpu(np.zeros((4, 5))))
    yield "grid2d_int8", grid2d, (cpu(np.zeros((4, 5), np.int8)),
                                  cpu(np.zeros((4, 5), np.int64)))
    yield "control_flow", control_flow, (i32, i32)
    yield "grid3d", grid3d, (cpu(np.zeros((3, 4, 5))), cpu(np.zeros((), np.int32)))
    for dt in (np.int8, np.uint8, np.int16, np.int32, np.uint32, np.int64, np.uint64,
               np.float32, np.float64):
        z = cpu(np.ones(8, dt))
        yield f"ops_{np.dtype(dt).name}", ops, (z, z, cpu(np.zeros((7, 8), dt)))
        yield f"ops_numpy_{np.dtype(dt).name}", ops_numpy, (z, z,
                                                            cpu(np.zeros((7, 8), dt)))
    for dt in (np.float32, np.float64, np.int32):
        yield (f"math_{np.dtype(dt).name}", math_fns,
               (cpu(np.ones(8, dt)), cpu(np.zeros((7, 8)))))
    for dt in (np.int8, np.uint16, np.int32, np.uint64, np.bool_):
        yield f"bitops_{np.dtype(dt).name}", bitops, (cpu(np.ones(8, dt)),
                                                      cpu(np.zeros((3, 8), np.int64)))
    yield "device_fn", uses_device_fn, (f64, f64)
    yield "dyn_shared", dyn_shared, (f64, f64)
    for dt in (np.int32, np.uint32, np.int64, np.uint64):
        yield f"atomics_{np.dtype(dt).name}", atomics_int, (cpu(np.ones(8, dt)),
                                                            cpu(np.zeros(6, dt)))
    for dt in (np.int32, np.uint32):
        yield f"atomics_misc_{np.dtype(dt).name}", atomics_misc, (
            cpu(np.ones(8, dt)), cpu(np.zeros(2, dt)), cpu(np.zeros(3, np.uint32)))
    yield "atomics_other_types", atomics_other_types, (
        cpu(np.zeros(2, np.uint16)), cpu(np.zeros(2, np.float32)), cpu(np.zeros((2, 2))))
    for dt in (np.int32, np.float64):
        yield f"warp_{np.dtype(dt).name}", warp_fns, (cpu(np.ones(64, dt)),
                                                      cpu(np.zeros(2, dt)))
    yield "unrolled", unrolled, (f32, f32)
    yield "device_factories", device_factories, (i32, i32, i32)
    yield "warp_votes", warp_votes, (i32, cpu(np.zeros((6, 64), np.int64)), 8)
    yield "index_forms", index_forms, (f64, f64)
    yield "casts", casts, (f64, f64)
    yield "numpy_mode", numpy_mode, (2, f32, f64)
    for k in (mixed_cuda, mixed_numpy):
        yield f"mixed_{k._mode}", k, (cpu(np.ones(8, np.int8)), cpu(np.ones(8, np.uint8)),
                                      cpu(np.zeros((4, 8))))
    yield "float16", float16_ops, (cpu(np.ones(8, np.float16)),
                                   cpu(np.zeros(8, np.float16)))


CASES = list(_cases())


def _sources():
    return [(name, k.source(args)) for name, k, args in CASES]


# ---- the generated source --------------------------------------------------------------


def test_saxpy_source_has_the_inferred_types():
    src = saxpy.source((np.float32(2), cpu(np.ones(4, np.float32)),
                        cpu(np.ones(4, np.float32)), cpu(np.ones(4, np.float32)), 4))
    assert 'extern "C" __global__ void saxpy(float a, char *_p_x' in src
    assert ", int n)" in src  # a Python int is int32 in 'cuda' mode, as CuPy
    assert "unsigned int i;" in src  # grid(1) is uint32, as CuPy's
    assert "if (i < ((unsigned int)(n)))" in src
    # a contiguous 1-D array is indexed as a pointer
    assert "reinterpret_cast<float *>(out.data_)[((long long)(i))] =" in src


def test_scalar_argument_types_follow_the_mode():
    x = cpu(np.ones(4, np.float32))
    src = numpy_mode.source((2, x, cpu(np.ones(4))))
    assert "numpy_mode(long long a" in src  # int64 in 'numpy' mode
    assert "0.1)" in src and "0.1f" not in src  # a float literal is float64
    src = saxpy.source((2.5, x, x, x, 1 << 40))
    assert "saxpy(float a" in src and "long long n)" in src


def test_strided_and_nd_arrays_use_byte_strides():
    src = grid2d.source((cpu(np.ones((3, 4))), cpu(np.ones((3, 4)))))
    assert "a.strides_[0]" in src and "a.strides_[1]" in src
    assert "thrust" not in src
    src = saxpy.source((1.0, cpu(np.ones(8))[::2], cpu(np.ones(4)), cpu(np.ones(4)), 4))
    assert "(x.data_ + ((long long)(i)) * x.strides_[0])" in src


def test_locals_are_hoisted_with_their_first_type():
    src = control_flow.source((cpu(np.ones(4, np.int32)), cpu(np.ones(4, np.int32))))
    body = src[src.index("control_flow("):]
    for decl in ("int v;", "int k;", "int acc;", "int j;"):
        assert decl in body
    assert "} else if (" in body and "break;" in body and "continue;" in body
    assert re.search(r"for \(j = 10; j > _stop\d+; j \+= \(-3\)\)", body)


def test_shared_memory_and_syncthreads():
    x = cpu(np.ones(8, np.float32))
    src = stencil3.source((x, x, 8))
    assert "__shared__ float _smem" in src and "[258];" in src
    assert "__syncthreads();" in src
    src = dyn_shared.source((cpu(np.ones(8)), cpu(np.ones(8))))
    assert "extern __shared__ __align__(16) unsigned char _jit_dyn_smem[];" in src
    assert "reinterpret_cast<double *>(_jit_dyn_smem)" in src


def test_atomics_map_to_cuda_functions():
    src = atomics_int.source((cpu(np.ones(4, np.int64)), cpu(np.zeros(6, np.int64))))
    # int64 add/or/and/xor go through the unsigned long long forms; min/max are native
    assert "atomicAdd(reinterpret_cast<unsigned long long *>(&" in src
    assert "atomicMax(&" in src and "atomicMin(&" in src
    src = atomic_sum.source((cpu(np.ones(4, np.float32)), cpu(np.zeros(1, np.float32))))
    assert "atomicAdd(&reinterpret_cast<float *>(out.data_)[0LL], s);" in src


def test_device_function_is_emitted_before_the_kernel():
    src = uses_device_fn.source((cpu(np.ones(4)), cpu(np.ones(4))))
    dev = src.index("__device__ double _jit_d1_clamp(double v, float lo, float hi)")
    assert dev < src.index('extern "C" __global__ void uses_device_fn(')


def test_cached_codes_and_source():
    @jit.rawkernel()
    def k(x):
        x[0] = 1

    with pytest.warns(UserWarning, match="No codes are cached"):
        assert k.cached_codes == {}
    a = cpu(np.ones(3))
    src = k.source((a,))
    assert k.cached_code == src
    k.source((cpu(np.ones(3, np.int32)),))
    assert len(k.cached_codes) == 2
    with pytest.warns(UserWarning, match="cached_codes"):
        k.cached_code


def test_reserved_names_are_renamed():
    @jit.rawkernel()
    def k(x, int, float):
        auto = int + float
        _tmp = auto
        x[0] = _tmp

    src = k.source((cpu(np.ones(2)), 1, 2.0))
    assert "int _v_int, float _v_float" in src and "_v_auto = " in src
    assert "_v_tmp = _v_auto;" in src


def test_literals_are_exact():
    @jit.rawkernel()
    def k(x, y, z):
        x[0] = 0.1
        x[1] = float("inf") if False else 1e300
        z[0] = -2147483648
        y[0] = 1 << 40

    src = k.source((cpu(np.ones(4)), cpu(np.ones(4, np.int64)), cpu(np.ones(4, np.int32))))
    assert "= 0.1;" in src  # a float32 literal stored into float64 keeps its value
    assert "1e+300" in src and "(-2147483647 - 1)" in src and "1099511627776LL" in src


# ---- compiling the generated source ---------------------------------------------------


def _batched_module(sources):
    """All sources as one .cu file: each in a namespace, the includes at the top."""
    parts = ["#include <cuda_fp16.h>\n"]
    for k, (name, src) in enumerate(sources):
        body = "\n".join(line for line in src.splitlines()
                         if not line.startswith("#include"))
        # each kernel's extern "C" name must be unique in the one file
        body = re.sub(r'(extern "C" __global__ void )(\w+)\(', rf"\1\2_{k}(", body)
        parts.append(f"namespace case_{k} {{ // {name}\n{body}\n}}\n")
    return "".join(parts)


@nvcc
def test_generated_sources_compile_with_nvcc(tmp_path):
    path = tmp_path / "jit_cases.cu"
    path.write_text(_batched_module(_sources()))
    # nvcc is not ours: under tools/host_sanitize.sh, the ASan runtime preloaded
    # into it makes it segfault at once (even on a one-line kernel)
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    r = subprocess.run(["nvcc", "-arch=sm_90", "-c", str(path), "-o",
                        str(tmp_path / "jit_cases.o")], capture_output=True, text=True,
                       timeout=600, env=env)
    assert r.returncode == 0, r.stderr[-4000:]
    assert "error" not in r.stderr


@nvrtc
@pytest.mark.parametrize("name", [c[0] for c in CASES])
def test_generated_sources_compile_with_nvrtc(name, tmp_path, monkeypatch):
    monkeypatch.setenv("CUARRAY_KERNEL_CACHE_DIR", str(tmp_path))
    _, k, args = next(c for c in CASES if c[0] == name)
    b = compiler.compile_with_cache(k.source(args), arch="sm_90")
    assert b.kind == "cubin" and b.image[:4] == b"\x7fELF"


# ---- errors -----------------------------------------------------------------------------


def _k(src_fn):
    return jit.rawkernel()(src_fn)


def _lambda_kernel(x):
    x[0] = (lambda v: v)(1)


def _listcomp_kernel(x):
    x[0] = [v for v in range(3)][0]


def _fstring_kernel(x):
    x[0] = f"{x}"


def _while_else_kernel(x):
    while x[0] > 0:
        x[0] -= 1
    else:
        x[0] = 2


def _for_array_kernel(x):
    for v in x:
        x[0] = v


def _slice_kernel(x):
    x[0] = x[1:3]


def _with_kernel(x):
    with open("f"):
        pass


def _try_kernel(x):
    try:
        x[0] = 1
    except Exception:
        pass


def _return_value_kernel(x):
    return x[0]


def _float_into_int_kernel(x):
    x[0] = 1.5


def _float_index_kernel(x):
    x[0.0 + jit.threadIdx.x] = 1


def _subarray_kernel(x):
    x[0] = 1


def _redefine_kernel(x):
    v = 1
    v = 0.5
    x[0] = v


def _grid4_kernel(x):
    x[0] = jit.grid(4)


def _range_step0_kernel(x):
    for i in range(0, 4, 0):
        x[i] = 1


def _shared_size_kernel(x):
    s = jit.shared_memory(np.float32, x.size)
    s[0] = 1


def _atomic_dtype_kernel(x):
    jit.atomic_sub(x, 0, 1.0)


def _name_error_kernel(x):
    x[0] = undefined_name  # noqa: F821


def _bool_minus_kernel(x):
    x[0] = (x[0] > 1) - (x[0] > 2)


def _default_arg_kernel(x, y=1):
    x[0] = y


def _unpack_kernel(x):
    a, b, c = jit.grid(2)
    x[0] = a


def _range_value_kernel(x):
    r = jit.range(3)
    x[0] = 1


def _call_kernel_kernel(x):
    saxpy(1.0, x, x, x, 1)


@jit.rawkernel(device=True)
def _recursive(n):
    return _recursive(n - 1) if n > 0 else 0


def _recursion_kernel(x):
    x[0] = _recursive(3)


@jit.rawkernel(device=True)
def _mixed_returns(n):
    if n > 0:
        return n
    return


def _mixed_returns_kernel(x):
    x[0] = _mixed_returns(3)


def _float_range_kernel(x):
    for i in range(0.5):
        x[0] = i


def _void_value_kernel(x):
    v = jit.syncthreads()
    x[0] = v


ERRORS = [
    (_default_arg_kernel, (np.float64, 1), NotImplementedError, "default arguments"),
    (_unpack_kernel, (np.float64, 1), ValueError, "cannot unpack a tuple of 2 into 3"),
    (_range_value_kernel, (np.float64, 1), TypeError, "only usable as a for loop"),
    (_call_kernel_kernel, (np.float64, 1), TypeError, "is a kernel"),
    (_recursion_kernel, (np.float64, 1), ValueError, "recursion is not supported"),
    (_mixed_returns_kernel, (np.float64, 1), TypeError, "nothing on another"),
    (_float_range_kernel, (np.float64, 1), TypeError, "range() takes integers"),
    (_void_value_kernel, (np.float64, 1), TypeError, "the call returns nothing"),
    (_lambda_kernel, (np.float64, 1), NotImplementedError, "lambda is not supported"),
    (_listcomp_kernel, (np.float64, 1), NotImplementedError, "a list comprehension"),
    (_fstring_kernel, (np.float64, 1), NotImplementedError, "an f-string"),
    (_while_else_kernel, (np.float64, 1), NotImplementedError, "while ... else"),
    (_for_array_kernel, (np.float64, 1), NotImplementedError, "anything but range"),
    (_slice_kernel, (np.float64, 1), NotImplementedError, "slicing"),
    (_with_kernel, (np.float64, 1), NotImplementedError, "a with statement"),
    (_try_kernel, (np.float64, 1), NotImplementedError, "a try statement"),
    (_return_value_kernel, (np.float64, 1), TypeError, "returns nothing"),
    (_float_into_int_kernel, (np.int32, 1), TypeError, "cannot store the float 1.5"),
    (_float_index_kernel, (np.int32, 1), TypeError, "indices must be integers"),
    (_subarray_kernel, (np.int32, 2), NotImplementedError, "sub-array"),
    (_redefine_kernel, (np.float64, 1), TypeError, "cannot store the float 0.5"),
    (_grid4_kernel, (np.float64, 1), ValueError, "ndim must be 1, 2 or 3"),
    (_range_step0_kernel, (np.float64, 1), ValueError, "must not be zero"),
    (_shared_size_kernel, (np.float64, 1), TypeError, "constant integer"),
    (_atomic_dtype_kernel, (np.float64, 1), TypeError, "atomic_sub does not support"),
    (_name_error_kernel, (np.float64, 1), NameError, "undefined_name"),
    (_bool_minus_kernel, (np.bool_, 1), TypeError, "boolean subtract"),
]


@pytest.mark.parametrize("fn, arr, exc, match", ERRORS, ids=[e[0].__name__ for e in ERRORS])
def test_unsupported_constructs_raise_with_the_line(fn, arr, exc, match):
    dt, nd = arr
    x = cpu(np.zeros((2,) * nd, dt))
    with pytest.raises(exc, match=re.escape(match)) as info:
        _k(fn).source((x,))
    # an error inside a device function names that function's line
    where = {_recursion_kernel: _recursive, _mixed_returns_kernel: _mixed_returns}
    f = where.get(fn, fn)
    f = getattr(f, "_func", f)
    line = f.__code__.co_firstlineno
    msg = str(info.value)
    assert msg.count("test_jit.py, line") == 1 and f"in {f.__name__}:" in msg
    n = int(re.search(r"line (\d+)", msg).group(1))
    assert line <= n <= line + 6


def test_argument_errors():
    x = cpu(np.zeros(3))
    with pytest.raises(TypeError, match="takes 5 arguments, got 2"):
        saxpy.source((1.0, x))
    with pytest.raises(TypeError, match="not list"):
        saxpy.source((1.0, [1.0], x, x, 3))
    with pytest.raises(TypeError, match="complex"):
        saxpy.source((1.0, cpu(np.zeros(3, np.complex64)), x, x, 3))
    with pytest.raises(ValueError, match="mode must be"):
        jit.rawkernel(mode="fast")(_lambda_kernel)
    with pytest.raises(TypeError, match="device function"):
        clamp((1,), (1,), (1.0, 0.0, 2.0))
    with pytest.raises(TypeError, match="kernel\\[grid, block\\]"):
        saxpy[1]


def test_bare_decorator_and_repr():
    @jit.rawkernel
    def k(x):
        x[0] = 1

    assert isinstance(k, jit.JitRawKernel) and k.__name__ == "k"
    assert repr(k).startswith("<cuarray.jit kernel ") and "device" in repr(clamp)
    assert "x[0] = 1" not in k.source((cpu(np.ones(1)),)) and "= 1.0;" in k.cached_code


def test_builtins_outside_a_kernel_are_errors():
    with pytest.raises(RuntimeError, match="only inside a function decorated"):
        jit.syncthreads()
    with pytest.raises(RuntimeError, match="only inside"):
        jit.atomic_add(None, 0, 1)


def test_launch_on_the_cpu_device_is_rawkernels_error():
    with cuarray.Device("cpu"):
        x = cuarray.ones(4, dtype=np.float32)
        with pytest.raises(ValueError, match="GPU"):
            saxpy((1,), (4,), (np.float32(1), x, x, x, 4))
        with pytest.raises(ValueError, match="GPU"):
            saxpy[1, 4](np.float32(1), x, x, x, 4)
    # the translation was made (and kept) before the launch failed
    assert any("saxpy(float a" in s for s in saxpy.cached_codes.values())


def test_jit_is_a_lazy_submodule():
    code = ("import sys, cuarray; assert 'cuarray.jit' not in sys.modules; "
            "k = cuarray.jit.rawkernel(); print(cuarray.jit.__name__)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "cuarray.jit"


# ---- launches: on the GPU, and emulated on the host ----------------------------------
#
# The emulation compiles the generated source as host C++ (g++) over a few
# definitions of CUDA's names, and runs each block's threads as host threads
# (__syncthreads() a barrier, atomics under a lock, shuffles through a block-wide
# buffer, float16 as GCC's _Float16), so that what the translation computes is
# checked against NumPy on a machine without a GPU.

_EMU_PRELUDE = r"""
#include <cmath>
#include <cstring>
#include <mutex>
#include <pthread.h>
using namespace std;
#define __global__
#define __device__
#define __forceinline__ inline
#define __shared__ static
struct uint3 { unsigned int x, y, z; };
struct dim3 { unsigned int x, y, z; };
thread_local uint3 threadIdx, blockIdx;
dim3 blockDim, gridDim;
static const int warpSize = 32;
static pthread_barrier_t emu_barrier;
static mutex emu_lock;
inline void __syncthreads() { pthread_barrier_wait(&emu_barrier); }
inline void __syncwarp(unsigned int = 0xffffffffu) {}
inline float __int_as_float(int b) { float f; memcpy(&f, &b, 4); return f; }
inline double __longlong_as_double(long long b) { double f; memcpy(&f, &b, 8); return f; }
// float16 as GCC's _Float16, each operation computed in float and rounded once
// (the GPU rounds each __half operation: close, not bit-equal)
struct __half {
    _Float16 v;
    __half() = default;
    __half(float f) : v((_Float16)f) {}
    operator float() const { return (float)v; }
};
inline __half __float2half(float f) { return __half(f); }
inline __half __double2half(double f) { return __half((float)f); }
inline float __half2float(__half h) { return (float)h; }
#define EMU_ATOMIC(name, expr) \
    template <typename T, typename U> T name(T *p, U v) { \
        lock_guard<mutex> g(emu_lock); T o = *p; *p = (expr); return o; }
EMU_ATOMIC(atomicAdd, o + (T)v)
EMU_ATOMIC(atomicSub, o - (T)v)
EMU_ATOMIC(atomicExch, (T)v)
EMU_ATOMIC(atomicMin, (T)v < o ? (T)v : o)
EMU_ATOMIC(atomicMax, (T)v > o ? (T)v : o)
EMU_ATOMIC(atomicAnd, o & (T)v)
EMU_ATOMIC(atomicOr, o | (T)v)
EMU_ATOMIC(atomicXor, o ^ (T)v)
EMU_ATOMIC(atomicInc, o >= (T)v ? (T)0 : (T)(o + 1))
EMU_ATOMIC(atomicDec, (o == 0 || o > (T)v) ? (T)v : (T)(o - 1))
template <typename T, typename U> T atomicCAS(T *p, U c, U v) {
    lock_guard<mutex> g(emu_lock); T o = *p; if (o == (T)c) *p = (T)v; return o; }
// warp shuffles: every thread of the block posts its value, then reads its source's
static unsigned long long emu_slots[1024];
inline unsigned emu_tid() {
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
template <typename T> T emu_shfl(T v, unsigned src);
template <typename T> T emu_shfl_at(T v, unsigned src) { return emu_shfl(v, src); }
template <typename T> T emu_shfl(T v, unsigned src) {
    unsigned t = emu_tid();
    memcpy(&emu_slots[t], &v, sizeof(T));
    __syncthreads();
    T r;
    memcpy(&r, &emu_slots[src], sizeof(T));
    __syncthreads();
    return r;
}
inline unsigned __activemask() { return 0xffffffffu; }
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
template <typename T> unsigned __match_any_sync(unsigned, T v) {
    unsigned t = emu_tid(), base = t - t % 32, m = 0;
    for (unsigned k = 0; k < 32; k++) {
        if (emu_shfl_at(v, base + k) == v) m |= 1u << k;
    }
    return m;
}
template <typename T> unsigned __match_all_sync(unsigned, T v, int *pred) {
    unsigned m = __match_any_sync(0xffffffffu, v);
    *pred = m == 0xffffffffu;
    return *pred ? m : 0u;
}
template <typename T> T __shfl_sync(unsigned, T v, int src, int w) {
    unsigned t = emu_tid();
    return emu_shfl(v, t - t % w + (unsigned)src % w);
}
template <typename T> T __shfl_up_sync(unsigned, T v, unsigned d, int w) {
    unsigned t = emu_tid();
    return emu_shfl(v, t % w >= d ? t - d : t);
}
template <typename T> T __shfl_down_sync(unsigned, T v, unsigned d, int w) {
    unsigned t = emu_tid();
    return emu_shfl(v, t % w + d < (unsigned)w ? t + d : t);
}
template <typename T> T __shfl_xor_sync(unsigned, T v, int m, int w) {
    unsigned t = emu_tid(), s = (t % w) ^ (unsigned)m;
    return emu_shfl(v, s < (unsigned)w ? t - t % w + s : t);
}
extern "C" void emu_config(unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                           unsigned by, unsigned bz) {
    static bool made = false;
    gridDim = {gx, gy, gz}; blockDim = {bx, by, bz};
    if (made) pthread_barrier_destroy(&emu_barrier);
    made = true;
    pthread_barrier_init(&emu_barrier, nullptr, bx * by * bz);
}
extern "C" void emu_thread(unsigned tx, unsigned ty, unsigned tz, unsigned bx,
                           unsigned by, unsigned bz) {
    threadIdx = {tx, ty, tz}; blockIdx = {bx, by, bz};
}
"""
_CTYPES = {"?": ctypes.c_bool, "b": ctypes.c_int8, "B": ctypes.c_uint8,
           "h": ctypes.c_int16, "H": ctypes.c_uint16, "i": ctypes.c_int32,
           "I": ctypes.c_uint32, "l": ctypes.c_int64, "L": ctypes.c_uint64,
           "f": ctypes.c_float, "d": ctypes.c_double}
emu = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")


class View:
    """An argument that is a view of an array (a strided launch argument):
    base[index] on both the host and the GPU."""

    def __init__(self, base, index):
        self.base, self.index = base, index


def _dims(d):
    d = (d,) if isinstance(d, int) else tuple(d)
    return d + (1,) * (3 - len(d))


def _emulate(tmp, kernel, grid, block, args, shared_mem=0):
    host = [a.base[a.index] if isinstance(a, View) else a for a in args]
    types = tuple(jit._types.Array(a.dtype, a.ndim, a.ndim == 1 and (
        a.strides[0] == a.itemsize or a.shape[0] <= 1)) if isinstance(a, np.ndarray)
                  else jit._types.arg_type(kernel._mode, a, cuarray.ndarray) for a in host)
    name, src = kernel._translate(types)
    src = src.replace("extern __shared__ __align__(16) unsigned char _jit_dyn_smem[];",
                      "alignas(16) unsigned char _jit_dyn_smem[1 << 16];")
    src = src.replace('asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));', "r = emu_tid() % 32;")
    src = "\n".join(line for line in src.splitlines() if not line.startswith("#include"))
    key = abs(hash(src))
    so = tmp / f"emu_{key}.so"
    if not so.exists():
        cc = tmp / f"emu_{key}.cc"
        cc.write_text(_EMU_PRELUDE + src)
        r = subprocess.run(["g++", "-std=c++17", "-O1", "-shared", "-fPIC", str(cc), "-o",
                            str(so), "-lpthread"], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr[-3000:]
    lib = ctypes.CDLL(str(so))
    fn = getattr(lib, name)
    cargs = []
    for a, t in zip(host, types):
        if isinstance(a, np.ndarray):
            cargs += [ctypes.c_void_p(a.ctypes.data), ctypes.c_longlong(a.size)]
            cargs += [ctypes.c_longlong(n) for n in a.shape + a.strides]
        else:
            cargs.append(_CTYPES[t.dtype.char](t.dtype.type(a)))
    g, b = _dims(grid), _dims(block)
    lib.emu_config(*g, *b)
    threads = [(x, y, z) for z in range(b[2]) for y in range(b[1]) for x in range(b[0])]
    for bz in range(g[2]):
        for by in range(g[1]):
            for bx in range(g[0]):
                def one(t, blk=(bx, by, bz)):
                    lib.emu_thread(*t, *blk)
                    fn(*cargs)
                if not any(w in src for w in ("__syncthreads", "__shfl", "__match")):
                    for t in threads:
                        one(t)
                    continue
                # every thread of the block at once: the barrier needs them all
                ts = [threading.Thread(target=one, args=(t,)) for t in threads]
                for t in ts:
                    t.start()
                for t in ts:
                    t.join()


def _on_gpu(kernel, grid, block, args, shared_mem=0):
    with cuarray.Device(0):
        dev = [cuarray.asarray(a.base)[a.index] if isinstance(a, View) else
               cuarray.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
        kernel[grid, block](*dev, shared_mem=shared_mem)
        for a, d in zip(args, dev):
            if isinstance(a, np.ndarray):
                a[...] = cuarray.asnumpy(d)


@pytest.fixture(params=[pytest.param("emu", marks=emu),
                        pytest.param("cuda:0", marks=requires_gpu)])
def launch(request, tmp_path_factory):
    """launch(kernel, grid, block, *args, shared_mem=0): NumPy arrays in, results
    written back into them; on the GPU or emulated on the host."""
    tmp = tmp_path_factory.getbasetemp()

    def run(kernel, grid, block, *args, shared_mem=0):
        if request.param == "emu":
            _emulate(tmp, kernel, grid, block, args, shared_mem)
        else:
            _on_gpu(kernel, grid, block, args, shared_mem)
    run.device = request.param
    return run


def _blocks(n, block=128):
    return (n + block - 1) // block


def test_launch_saxpy(launch):
    n = 1000
    rng = np.random.default_rng(0)
    x, y = rng.random(n, np.float32), rng.random(n, np.float32)
    out = np.zeros(n, np.float32)
    launch(saxpy, _blocks(n), 128, np.float32(2.5), x, y, out, n)
    np.testing.assert_allclose(out, 2.5 * x + y, rtol=1e-6)
    # a strided float64 view and a Python float (float32 in 'cuda' mode)
    x64 = rng.random(2 * n)
    out64 = np.zeros(n)
    launch(saxpy, (_blocks(n),), (128,), 3.0, View(x64, slice(None, None, 2)), x64[:n],
           out64, n)
    np.testing.assert_allclose(out64, 3.0 * x64[::2] + x64[:n])


def test_launch_atomic_reduction(launch):
    x = np.random.default_rng(1).random(10_000).astype(np.float32)
    out = np.zeros(1, np.float32)
    launch(atomic_sum, 8, 128, x, out)
    np.testing.assert_allclose(out[0], x.astype(np.float64).sum(), rtol=1e-4)
    xi = np.arange(-50, 1000, dtype=np.int64)
    acc = np.array([0, -(1 << 62), 1 << 62, 0, -1, 0], np.int64)
    launch(atomics_int, _blocks(xi.size), 128, xi, acc)
    assert acc[0] == xi.sum() and acc[1] == xi.max() and acc[2] == xi.min()
    assert acc[3] == np.bitwise_or.reduce(xi) and acc[4] == np.bitwise_and.reduce(xi)
    assert acc[5] == np.bitwise_xor.reduce(xi)
    xs = np.arange(1, 65, dtype=np.int32)
    out = np.array([10_000, -1], np.int32)
    counters = np.zeros(3, np.uint32)
    launch(atomics_misc, 1, 64, xs, out, counters)
    assert out[0] == 10_000 - xs.sum() and out[1] in xs
    assert counters[0] == 64 and counters[1] == (0 - 64) % 1001
    assert 1 <= counters[2] <= 64


def test_launch_shared_memory_stencil(launch):
    n = 1000
    x = np.random.default_rng(2).random(n).astype(np.float32)
    y = np.zeros(n, np.float32)
    launch(stencil3, _blocks(n, 256), 256, x, y, n)
    p = np.concatenate([[0], x, [0]])
    np.testing.assert_allclose(y, (p[:-2] + p[1:-1] + p[2:]) / 3, rtol=1e-6)


def test_launch_2d_grid(launch):
    a = np.random.default_rng(3).random((37, 50))
    b = np.zeros((37, 50))
    launch(grid2d, (_blocks(37, 16), _blocks(50, 16)), (16, 16), a, b)
    i, j = np.indices(a.shape)
    np.testing.assert_allclose(b, a * 2 + i - j)
    # a transposed (non-contiguous) input; int8 in, int64 out
    bt = np.zeros((50, 37))
    launch(grid2d, (_blocks(50, 16), _blocks(37, 16)), (16, 16), a.T, bt)
    i, j = np.indices(a.T.shape)
    np.testing.assert_allclose(bt, a.T * 2 + i - j)
    a8 = np.arange(-60, 60, dtype=np.int8).reshape(8, 15)
    b64 = np.zeros((8, 15), np.int64)
    launch(grid2d, (1, 1), (8, 16), a8, b64)
    i, j = np.indices(a8.shape)
    # int8 * 2 is int32 in 'cuda' mode (a literal is int32); adding i, a uint32 as
    # grid() gives, computes in uint32, as C and CuPy do: negative sums wrap
    np.testing.assert_array_equal(b64, (a8.astype(np.int64) * 2 + i - j) % 2**32)


def test_launch_3d_grid_stride_and_0d(launch):
    a = np.zeros((5, 7, 9))
    total = np.zeros((), np.int32)
    launch(grid3d, (1, 2, 1), (2, 2, 4), a, total)
    i, j, k = np.indices(a.shape)
    np.testing.assert_array_equal(a, i * 100 + j * 10 + k)
    assert total == a.size


def test_launch_control_flow(launch):
    x = np.array([0, 1, 7, 50, 101, 300], np.int32)
    out = np.zeros(x.size, np.int32)
    launch(control_flow, 1, 32, x, out)
    want = []
    for v in x:
        k = 0
        while v <= 100:
            v = v * 2 + 1
            k += 1
            if k % 2:
                v -= 1
        acc = 10 + 7 + 4 + 1
        want.append(-1 if v < 0 else (v + acc if v < 200 else k))
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("kernel", [ops, ops_numpy], ids=["cuda", "numpy"])
@pytest.mark.parametrize("dt", [np.int8, np.int32, np.int64, np.uint32, np.uint64,
                                np.float32, np.float64])
def test_launch_operators_match_numpy(launch, dt, kernel):
    rng = np.random.default_rng(4)
    if np.dtype(dt).kind == "u":
        x, y = rng.integers(0, 50, 64).astype(dt), rng.integers(1, 9, 64).astype(dt)
    else:
        x = rng.integers(-50, 50, 64).astype(dt)
        y = rng.choice([-7, -3, -1, 1, 2, 5], 64).astype(dt)
    out = np.zeros((7, 64), dt)
    launch(kernel, 1, 64, x, y, out)
    with np.errstate(all="ignore"):
        want = [x // y, x % y, x * y - x + y, np.maximum(x, y),
                np.minimum(np.minimum(x, y), x + y), np.abs(x), np.where(x > y, x, y)]
    np.testing.assert_array_equal(out, np.array(want, dt))


def test_launch_bit_operators(launch):
    x = np.arange(-8, 8, dtype=np.int16)
    out = np.zeros((3, 16), np.int64)
    launch(bitops, 1, 16, x, out)
    want = [(x & 12) | (x ^ 5), (x.astype(np.int32) << 2) >> 1, ~x]
    np.testing.assert_array_equal(out, want)


def test_launch_math_functions(launch):
    x = np.linspace(-3, 3, 50)
    out = np.zeros((7, 50))
    launch(math_fns, 1, 64, x, out)
    want = [np.sqrt(np.abs(x)), np.exp(x / 4), np.log1p(np.abs(x)), np.sin(x) + np.cos(x),
            np.arctan2(x, 2.0), np.floor(x) + np.ceil(x), x ** 2]
    np.testing.assert_allclose(out, want, rtol=1e-13, atol=1e-15)
    x32 = x.astype(np.float32)
    launch(math_fns, 1, 64, x32, out)
    np.testing.assert_allclose(out[0], np.sqrt(np.abs(x32)), rtol=1e-6)


def test_launch_device_function_and_dynamic_shared_memory(launch):
    x = np.linspace(-2, 2, 64)
    out = np.zeros(64)
    launch(uses_device_fn, 1, 64, x, out)
    np.testing.assert_array_equal(out, np.clip(x, -1, 1))
    out = np.zeros(64)
    launch(dyn_shared, 2, 32, x, out, shared_mem=32 * 8)
    np.testing.assert_array_equal(out, x.reshape(2, 32)[:, ::-1].ravel())


def test_launch_unroll_index_forms_and_casts(launch):
    x = np.arange(8, dtype=np.float32)
    out = np.zeros(8, np.float32)
    launch(unrolled, 1, 8, x, out)
    np.testing.assert_array_equal(out, x * 16 + 12)
    x = np.arange(5.0)
    out = np.zeros(4)
    launch(index_forms, 1, 1, x, out)
    np.testing.assert_array_equal(out, [4.0, 6.0, 5.0, 21.0])
    out = np.zeros(5)
    launch(casts, 1, 8, x, out)
    np.testing.assert_array_equal(out, (x * 3.7).astype(np.int32) + 1 + 1.0)
    out = np.zeros(5)
    launch(numpy_mode, 1, 8, 3, x.astype(np.float32), out)
    np.testing.assert_allclose(out, 3 * x + 0.1, rtol=1e-15)


@pytest.mark.parametrize("kernel", [mixed_cuda, mixed_numpy], ids=["cuda", "numpy"])
def test_launch_mixed_types(launch, kernel):
    a = np.arange(-8, 8, dtype=np.int8)
    b = np.array([1, 2, 3, 5, 7, 9, 200, 255] * 2, np.uint8)
    out = np.zeros((4, 16))
    launch(kernel, 1, 16, a, b, out)
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    np.testing.assert_allclose(out[0], a64 / b64, rtol=1e-15)
    np.testing.assert_array_equal(out[1], a64 + b64 * 3)
    np.testing.assert_array_equal(out[2], (a64 - 1) // 2 + ((b > 4) & (a < 0) | (b == 1)))
    np.testing.assert_array_equal(out[3], np.arange(16) + 16 + 2)
    # the literal 3 is int64 in 'numpy' mode, int32 in 'cuda' mode
    assert all(("3LL)" in c) == (kernel._mode == "numpy")
               for c in kernel.cached_codes.values())


@pytest.mark.parametrize("dt", [np.int32, np.float64])
def test_launch_warp_shuffles_and_laneid(launch, dt):
    x = np.arange(64, dtype=dt)
    w = np.zeros(2, dt)
    launch(warp_fns, 1, 64, x, w)
    np.testing.assert_array_equal(w, x.reshape(2, 32).sum(axis=1))


def test_launch_device_function_factories(launch):
    x = np.arange(64, dtype=np.int32)
    y = np.arange(64, dtype=np.int32)[::-1].copy()
    z = np.zeros(64, np.int32)
    x0 = x.copy()
    launch(device_factories, 1, 64, x, y, z)
    np.testing.assert_array_equal(z, 2 * (x0 + 1 + y) + 30)
    assert x[0] == x0.sum()


def test_launch_warp_votes(launch):
    x = np.arange(1, 33, dtype=np.int32) * 3
    out = np.zeros((6, 32), np.int64)
    launch(warp_votes, 1, 32, x, out, 8)
    lanes = np.arange(32)
    assert list(out[0]) == [bin(v).count("1") for v in x]
    assert list(out[1]) == [(int(v) & -int(v)).bit_length() for v in x]
    want_any = [sum(1 << j for j in lanes if x[j] % 4 == x[i] % 4) for i in lanes]
    np.testing.assert_array_equal(out[2], want_any)
    np.testing.assert_array_equal(out[3], 7)  # v // 64 differs across the warp
    np.testing.assert_array_equal(out[4], x[lanes - lanes % 8])
    np.testing.assert_array_equal(out[5], 1)


def test_launch_float16(launch):
    h = np.array([1.5, -2.0, 3.0, 0.25], np.float16)
    oh = np.zeros(4, np.float16)
    launch(float16_ops, 1, 4, h, oh)
    want = (h * h + np.sqrt(np.abs(h)) - h // 2 + h % 3).astype(np.float16)
    want[0] += h.sum()
    np.testing.assert_allclose(oh.astype(np.float64), want, rtol=2e-3, atol=0.02)


@requires_gpu
def test_gpu_translation_is_cached_per_signature():
    with cuarray.Device(0):
        x = cuarray.ones(8, np.float32)
        saxpy[1, 8](np.float32(1), x, x, x, 8)
        k = saxpy._kernels.copy()
        saxpy[1, 8](np.float32(1), x, x, x, 8)
        assert saxpy._kernels == k
        saxpy[1, 8](np.float32(1), x, x, x, np.int64(8))
        assert len(saxpy._kernels) == len(k) + 1


# ---- the example -------------------------------------------------------------------------


def test_example_without_a_gpu_says_so():
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="")
    r = subprocess.run([sys.executable, os.path.join(HERE, "..", "examples",
                                                     "jit_kernels.py")],
                       capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    assert "needs a CUDA GPU" in r.stdout


@requires_gpu
def test_gpu_example():
    jit_kernels = _example()
    with cuarray.Device(0):
        r = jit_kernels.main(5000)
    # float32 results against float64 NumPy: an element's rounding is relative
    # to its terms (about 1), not to the result, which the stencil's cancellation
    # can make 1e-4 small (an atol); the atomic sum adds 5000 float32 terms in
    # any order, an error of a few float32 eps times the sum of |x| (about 4000)
    for name in ("saxpy", "stencil"):
        np.testing.assert_allclose(r[name], r[name + "_expected"], rtol=1e-5, atol=2e-6)
    x = np.random.default_rng(0).standard_normal(5000).astype(np.float32)
    np.testing.assert_allclose(r["sum"], r["sum_expected"], rtol=0,
                               atol=8 * np.finfo(np.float32).eps * np.abs(x).sum())
