"""The copy family's host path (kernels/shared/layout.c, kernels/host/host_copy.c,
kernels/dispatch/dispatch_copy.c), called through ctypes on a small shared library
compiled here, compared with NumPy.

These tests need no ndarray: they build ca_strided structs from NumPy views. The
GPU path of the same entry points is tested through the Python API in
tests/test_copy.py.
"""

import ctypes
import math
import os
import shutil
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from conftest import ALL_DTYPES

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ["shared/layout.c", "host/host_copy.c", "shared/dtypes.c", "dispatch/dispatch_copy.c"]
MAX_DIMS = 32
CA_CPU = -1
KERR_UNSUPPORTED = 100001
KERR_NO_CUDA = 100002

CODES = {np.dtype(t): i for i, t in enumerate(ALL_DTYPES)}


class Strided(ctypes.Structure):
    _fields_ = [
        ("ndim", ctypes.c_int),
        ("nops", ctypes.c_int),
        ("shape", ctypes.c_int64 * MAX_DIMS),
        ("strides", (ctypes.c_int64 * MAX_DIMS) * 4),
        ("data", ctypes.c_void_p * 4),
    ]


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    cc = shutil.which(os.environ.get("CC", "gcc")) or shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler to build the kernels' host library")
    out = tmp_path_factory.mktemp("copylib") / "libcacopy.so"
    cmd = [cc, "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter",
           "-Wno-missing-field-initializers", "-DCA_HAVE_CUDA=0", "-shared", "-fPIC",
           *[f"-I{ROOT / 'kernels' / d}" for d in ("", "shared", "host")], *[str(ROOT / "kernels" / f) for f in SOURCES],
           "-o", str(out)]
    if os.environ.get("CUARRAY_SANITIZE") == "1":
        pytest.skip("ctypes library cannot load ASan into an unsanitized python")
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    L = ctypes.CDLL(str(out))
    P = ctypes.POINTER(Strided)
    L.ca_copy_cast.argtypes = [ctypes.c_int, P, ctypes.c_int, ctypes.c_int, ctypes.c_void_p]
    L.ca_copy_cast.restype = ctypes.c_int
    L.ca_fill.argtypes = [ctypes.c_int, P, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p]
    L.ca_fill.restype = ctypes.c_int
    L.ca_strided_coalesce.argtypes = [P]
    L.ca_strided_coalesce.restype = ctypes.c_int64
    L.ca_strided_is_contiguous.argtypes = [P, ctypes.POINTER(ctypes.c_int)]
    L.ca_strided_is_contiguous.restype = ctypes.c_int
    L.ca_strided_fits_int32.argtypes = [P]
    L.ca_strided_fits_int32.restype = ctypes.c_int
    L.ca_strided_extent.argtypes = [P, ctypes.c_int, ctypes.POINTER(ctypes.c_int64),
                                    ctypes.POINTER(ctypes.c_int64)]
    L.ca_strided_extent.restype = None
    return L


def addr(a):
    return a.__array_interface__["data"][0]


def make_strided(*arrays, shape=None):
    shape = arrays[0].shape if shape is None else shape
    s = Strided()
    s.ndim = len(shape)
    s.nops = len(arrays)
    for d, n in enumerate(shape):
        s.shape[d] = n
    for op, a in enumerate(arrays):
        for d, stride in enumerate(a.strides):
            s.strides[op][d] = stride
        s.data[op] = addr(a)
    return s


def copy_cast(lib, dst, src):
    src = np.broadcast_to(src, dst.shape)
    s = make_strided(dst, src)
    return lib.ca_copy_cast(CA_CPU, ctypes.byref(s), CODES[dst.dtype], CODES[src.dtype], None)


# ---- the reference: NumPy, plus the defined float -> int rule where NumPy has none --

def _cvt(x, bits):
    lim = 2 ** (bits - 1)
    if math.isnan(x) or not (-lim - 1 < x < lim):
        return -lim
    return int(x)


def x86_float_to_int(x, dt):
    """scalar.h's documented rule for NaN / inf / out-of-range float -> int."""
    dt = np.dtype(dt)
    bits = dt.itemsize * 8
    if dt == np.int64:
        v = _cvt(x, 64)
    elif dt == np.uint64:
        v = ((_cvt(x - 2.0**63, 64) % 2**64) ^ 2**63) if x >= 2.0**63 else _cvt(x, 64)
    elif dt == np.uint32:
        v = ((_cvt(x - 2.0**31, 32) % 2**32) ^ 2**31) if x >= 2.0**31 else _cvt(x, 32)
    else:
        v = _cvt(x, 32)
    return np.array(v % 2**bits, dtype=np.uint64).astype(dt)


def expected_cast(src, dt):
    dt = np.dtype(dt)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = np.array(src.astype(dt), order="C")
    if dt.kind in "iu" and src.dtype.kind in "fc":
        x = np.array(np.real(src), dtype=np.float64, order="C")
        info = np.iinfo(dt)
        with np.errstate(all="ignore"):
            t = np.trunc(x)
            undefined = ~(np.isfinite(x) & (t >= info.min) & (t <= info.max))
        flat_ref, flat_x = ref.reshape(-1), x.reshape(-1)
        for i in np.flatnonzero(undefined):
            flat_ref[i] = x86_float_to_int(float(flat_x[i]), dt)
    return ref


def assert_same(got, exp):
    assert got.dtype == exp.dtype and got.shape == exp.shape
    if got.dtype.kind == "c":
        assert_same(got.real.copy(), exp.real.copy())
        assert_same(got.imag.copy(), exp.imag.copy())
        return
    if got.dtype.kind == "f":
        gn, en = np.isnan(got), np.isnan(exp)
        np.testing.assert_array_equal(gn, en)
        ui = np.dtype(f"u{got.dtype.itemsize}")
        np.testing.assert_array_equal(got[~gn].view(ui), exp[~en].view(ui))
        return
    np.testing.assert_array_equal(got, exp)


# ---- source data ----------------------------------------------------------------

SPECIALS = [0.0, -0.0, 0.5, -0.5, -1.0, -1.5, 127.5, -128.5, -129.5, 255.9, 256.0, 300.0,
            32767.9, -32769.0, 65504.0, 65519.0, 65520.0, 70000.5, 2.0**31, -2.0**31 - 1,
            3e9, -3e9, 2.0**32, 2.0**63, 1e19, 2.0**64, -1e19, 1e300, 6e-8, 3e-8,
            1.5e-5, math.inf, -math.inf, math.nan]


def source(dtype, shape, rng):
    """Random data of `dtype` with the edge values of its kind mixed in."""
    dt = np.dtype(dtype)
    n = int(np.prod(shape))
    if dt == np.bool_:
        flat = rng.random(n) < 0.5
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        flat = rng.integers(info.min, info.max, size=n, endpoint=True, dtype=dt)
        edge = np.array([info.min, info.max, 0, 1, -1 if dt.kind == "i" else 2, 65504,
                         65520, 2**24 + 1, 2**53 + 1], dtype=object)
        edge = [int(v) for v in edge if info.min <= int(v) <= info.max]
        flat[: min(n, len(edge))] = edge[: min(n, len(edge))]
    else:
        real = np.dtype(dt.char.lower()) if dt.kind == "c" else dt
        with np.errstate(all="ignore"):
            vals = (rng.standard_normal(n) * 10 ** rng.integers(0, 6, n)).astype(real)
            sp = np.array(SPECIALS).astype(real)
        m = min(n, len(sp))
        vals[:m] = sp[:m]
        if dt.kind == "c":
            im = (rng.standard_normal(n) * 10).astype(real)
            im[: min(n, 5)] = np.array([math.nan, 0.0, -0.0, math.inf, 2.5])[: min(n, 5)]
            flat = np.empty(n, dt)
            flat.real = vals
            flat.imag = im
        else:
            flat = vals
        flat = rng.permutation(flat) if n > 50 else flat
    return np.asarray(flat, dtype=dt).reshape(shape)


def unaligned(shape, dtype):
    """A C-contiguous array whose data starts 1 byte past an aligned address."""
    dt = np.dtype(dtype)
    n = int(np.prod(shape))
    buf = np.zeros(n * dt.itemsize + 16, np.uint8)
    start = (-addr(buf)) % 16 + 1
    return buf[start:start + n * dt.itemsize].view(dt).reshape(shape)


def layouts(rng, sdt, ddt):
    """(dst, src view) pairs covering the layouts the kernels distinguish."""
    base = source(sdt, (1200,), rng)
    out = []
    out.append((np.empty(257, ddt), base[:257]))                       # contiguous
    out.append((np.empty(300, ddt), base[::2][:300]))                 # every other
    out.append((np.empty(300, ddt), base[::-3][:300]))                # negative
    out.append((np.empty(600, ddt)[::-2], base[:300]))                # dst negative
    a = source(sdt, (37, 45), rng)
    out.append((np.empty((45, 37), ddt), a.T))                        # transposed
    a = source(sdt, (70, 90), rng)
    out.append((np.empty((90, 70), ddt), a.T[:, ::-1]))               # tiled, reversed
    a = source(sdt, (5, 6, 7), rng)
    out.append((np.empty((7, 5, 6), ddt, order="F"), a.transpose(2, 0, 1)))
    b = source(sdt, (4, 6, 8, 3), rng)
    out.append((np.empty((3, 8, 4, 6), ddt), b.transpose(3, 2, 0, 1)[:, ::-1]))
    out.append((np.empty((30, 40), ddt), source(sdt, (1, 40), rng)))  # broadcast rows
    out.append((np.empty((30, 40), ddt), source(sdt, (30, 1), rng)))  # broadcast cols
    out.append((np.empty((), ddt), source(sdt, (), rng)))             # 0-d
    out.append((np.empty((0, 5), ddt), source(sdt, (0, 5), rng)))     # empty
    out.append((np.empty((1, 50, 1), ddt), source(sdt, (1, 50, 1), rng)))
    u = unaligned((9, 11), sdt)
    u[...] = source(sdt, (9, 11), rng)
    out.append((unaligned((11, 9), ddt), u.T))                        # misaligned
    out.append((unaligned((99,), ddt), u.ravel()))
    return out


PAIRS = [(d, s) for d in ALL_DTYPES for s in ALL_DTYPES]


@pytest.mark.parametrize("ddt,sdt", PAIRS, ids=lambda t: np.dtype(t).name)
def test_copy_cast_every_pair_every_layout(lib, ddt, sdt):
    rng = np.random.default_rng(hash((np.dtype(ddt).num, np.dtype(sdt).num)) % 2**32)
    for i, (dst, src) in enumerate(layouts(rng, sdt, ddt)):
        dst[...] = np.zeros((), ddt)
        assert copy_cast(lib, dst, src) == 0, i
        assert_same(np.array(dst), expected_cast(np.broadcast_to(src, dst.shape), ddt))


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=lambda t: np.dtype(t).name)
def test_copy_large_transpose_and_batched(lib, dt):
    rng = np.random.default_rng(7)
    a = source(dt, (3, 130, 97), rng)
    for src in (a.transpose(0, 2, 1), a.transpose(2, 1, 0), a[:, ::-1].transpose(0, 2, 1),
                a.transpose(1, 0, 2)[:, ::2]):
        dst = np.empty(src.shape, dt)
        assert copy_cast(lib, dst, src) == 0
        assert_same(dst, src.copy())


def test_copy_same_view_is_noop(lib):
    a = np.arange(20, dtype=np.float32)
    assert copy_cast(lib, a, a) == 0
    np.testing.assert_array_equal(a, np.arange(20, dtype=np.float32))
    b = a.view(np.int32)
    c = a.view(np.uint32)
    assert copy_cast(lib, b, c) == 0
    np.testing.assert_array_equal(a, np.arange(20, dtype=np.float32))


def test_float16_exhaustive(lib):
    """Every float16 bit pattern to float32/float64, and back from float32/float64
    values around every float16 (ties, subnormals, overflow)."""
    h = np.arange(2**16, dtype=np.uint16).view(np.float16)
    for dt in (np.float32, np.float64, np.complex64):
        dst = np.empty(h.shape, dt)
        assert copy_cast(lib, dst, h) == 0
        assert_same(dst, h.astype(dt))
    f = h[np.isfinite(h)].astype(np.float64)
    f.sort()
    mids = (f[1:] + f[:-1]) / 2
    x = np.concatenate([mids, np.nextafter(mids, np.inf), np.nextafter(mids, -np.inf),
                        f * (1 + 2.0**-12), [65520.0, -65520.0, 2.0**-25, 2.0**-26]])
    for dt in (np.float32, np.float64):
        src = x.astype(dt)
        dst = np.empty(src.shape, np.float16)
        assert copy_cast(lib, dst, src) == 0
        with np.errstate(over="ignore"):
            assert_same(dst, src.astype(np.float16))


def test_float_to_int_rule_matches_numpy_on_x86():
    """The model of the undefined casts is NumPy's own result on x86-64 for finite
    values (for NaN and inf to uint32 NumPy's SIMD and scalar loops disagree)."""
    import platform
    if platform.machine() not in ("x86_64", "AMD64"):
        pytest.skip("the rule is NumPy's x86-64 behaviour")
    x = np.array([v for v in SPECIALS if math.isfinite(v)], dtype=np.float64)
    for dt in ALL_DTYPES[1:9]:
        with np.errstate(all="ignore"):
            ref = x.astype(dt)
        model = np.array([x86_float_to_int(float(v), dt) for v in x], dtype=dt)
        np.testing.assert_array_equal(model, ref, err_msg=np.dtype(dt).name)


# ---- fill -----------------------------------------------------------------------

def fill(lib, dst, value):
    v = np.array(value, dtype=dst.dtype)
    s = make_strided(dst)
    return lib.ca_fill(CA_CPU, ctypes.byref(s), CODES[dst.dtype], addr(v), None)


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=lambda t: np.dtype(t).name)
def test_fill(lib, dt):
    rng = np.random.default_rng(3)
    values = [source(dt, (), rng), np.zeros((), dt), np.ones((), dt)]
    if np.dtype(dt).kind in "iu":
        values.append(np.array(-1).astype(dt))
    for value in values:
        base = np.zeros(1001, dt)
        views = [base, base[3:], base[::3], base[::-2], base[:0],
                 np.zeros((17, 23), dt).T, np.zeros((), dt), unaligned((37,), dt),
                 np.zeros((4, 5, 6), dt)[:, ::2, 1:]]
        for v in views:
            before = None if v.base is None else np.array(v.base, copy=True)
            assert fill(lib, v, value) == 0
            np.testing.assert_array_equal(v, np.full(v.shape, value, dt))
            if v is base[::3]:
                rest = np.ones(base.shape, bool)
                rest[::3] = False
                np.testing.assert_array_equal(base[rest], before[rest])


# ---- coalescing -----------------------------------------------------------------

def coalesced(lib, *arrays):
    s = make_strided(*arrays)
    n = lib.ca_strided_coalesce(ctypes.byref(s))
    shape = tuple(s.shape[d] for d in range(s.ndim))
    strides = [tuple(s.strides[op][d] for d in range(s.ndim)) for op in range(len(arrays))]
    return n, shape, strides, [s.data[op] for op in range(len(arrays))]


def test_coalesce_cases(lib):
    a = np.zeros((3, 4, 5), np.float32)
    b = np.zeros((3, 4, 5), np.float64)
    assert coalesced(lib, a, b)[:3] == (60, (60,), [(4,), (8,)])
    # dropping size-1 dims
    assert coalesced(lib, np.zeros((3, 1, 5), np.int8))[:3] == (15, (15,), [(1,)])
    # every dim size 1: zero dims, one element
    assert coalesced(lib, np.zeros((1, 1), np.int8))[:3] == (1, (), [()])
    # empty
    assert coalesced(lib, np.zeros((3, 0, 2), np.int8))[:2] == (0, (0,))
    # both Fortran-ordered: sorted and merged
    f = np.zeros((3, 4, 5), np.float32, order="F")
    assert coalesced(lib, f, f)[:3] == (60, (60,), [(4,), (4,)])
    # transposed source: no merge across the transposition
    n, shape, strides, _ = coalesced(lib, np.zeros((5, 4)), np.zeros((4, 5)).T)
    assert shape == (5, 4) and strides == [(32, 8), (8, 40)]
    # a negative output stride is flipped in every operand; data moves to the start
    x = np.zeros(10, np.int16)
    y = np.zeros(10, np.int32)
    n, shape, strides, data = coalesced(lib, x[::-1], y[::-1])
    assert shape == (10,) and strides == [(2,), (4,)]
    assert data == [addr(x), addr(y)]
    n, shape, strides, data = coalesced(lib, x[::-1], y)
    assert strides == [(2,), (-4,)] and data == [addr(x), addr(y[::-1])]
    # reversed rows merge (both runs reversed together)
    m = np.zeros((6, 7), np.float32)
    assert coalesced(lib, m[::-1, ::-1], m[::-1, ::-1].copy()[::-1, ::-1])[1] == (42,)
    # broadcast source: stride 0 does not merge with a real stride
    n, shape, strides, _ = coalesced(lib, np.zeros((3, 4)),
                                     np.broadcast_to(np.zeros(4), (3, 4)))
    assert shape == (3, 4) and strides == [(32, 8), (0, 8)]
    n, shape, strides, _ = coalesced(lib, np.zeros((2, 3, 4, 5)),
                                     np.broadcast_to(np.zeros((3, 4, 5)), (2, 3, 4, 5)))
    # the broadcast axis merges only with itself
    assert shape == (2, 60) and strides[1] == (0, 8)
    # a slice keeps the outer stride separate
    n, shape, strides, _ = coalesced(lib, np.zeros((3, 4)), np.zeros((3, 8))[:, :4])
    assert shape == (3, 4)


def offsets(arrays, shape, strides, data):
    """The (address of op 0, address of op 1, ...) tuples of every element."""
    idx = np.indices(shape).reshape(len(shape), -1) if shape else np.zeros((0, 1), int)
    cols = []
    for op in range(len(arrays)):
        st_ = np.array(strides[op], dtype=np.int64).reshape(-1, 1)
        cols.append(data[op] + (idx * st_).sum(axis=0))
    return sorted(zip(*cols))


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_coalesce_preserves_pairing(lib, data):
    nd = data.draw(st.integers(0, 5))
    shape = tuple(data.draw(st.lists(st.integers(1, 4), min_size=nd, max_size=nd)))
    arrays = []
    for op in range(data.draw(st.integers(1, 3))):
        dt = data.draw(st.sampled_from([np.int8, np.float32, np.complex128]))
        # a bigger array, sliced with random steps, then transposed
        steps = data.draw(st.lists(st.sampled_from([1, 2, -1, -2]), min_size=nd, max_size=nd))
        big = np.zeros(tuple(n * abs(k) for n, k in zip(shape, steps)), dt)
        v = big[tuple(slice(None, None, k) for k in steps) + (Ellipsis,)]
        if data.draw(st.booleans()):
            # the same elements, stored in another order
            perm = data.draw(st.permutations(range(nd)))
            v = np.array(v.transpose(perm), order="C").transpose(np.argsort(perm))
        if data.draw(st.booleans()) and nd:
            ax = data.draw(st.integers(0, nd - 1))
            v = np.broadcast_to(v.take([0], axis=ax), shape)
        arrays.append(v)
    before = offsets(arrays, shape, [a.strides for a in arrays], [addr(a) for a in arrays])
    n, cshape, cstrides, cdata = coalesced(lib, *arrays)
    assert n == int(np.prod(shape))
    assert 1 not in cshape
    assert offsets(arrays, cshape, cstrides, cdata) == before
    # output strides never increase inward and are never negative
    out = cstrides[0]
    assert all(s >= 0 for s in out)
    assert list(out) == sorted(out, reverse=True)


def test_is_contiguous_and_fits_int32(lib):
    sizes = (ctypes.c_int * 2)(4, 8)
    a, b = np.zeros((3, 4), np.float32), np.zeros((3, 4), np.float64)
    s = make_strided(a, b)
    assert lib.ca_strided_is_contiguous(ctypes.byref(s), sizes) == 1
    s = make_strided(a, b.T.copy().T)
    assert lib.ca_strided_is_contiguous(ctypes.byref(s), sizes) == 0
    s = make_strided(a[:, :2], b[:, :2])
    assert lib.ca_strided_is_contiguous(ctypes.byref(s), sizes) == 0
    s = make_strided(a[:1], b[:1])
    assert lib.ca_strided_is_contiguous(ctypes.byref(s), sizes) == 1
    assert lib.ca_strided_fits_int32(ctypes.byref(make_strided(a, b))) == 1
    s = Strided()
    s.ndim, s.nops = 2, 2
    s.shape[0], s.shape[1] = 2, 2**29
    s.strides[0][0], s.strides[0][1] = 2**30, 1
    s.strides[1][0], s.strides[1][1] = -(2**30), 2
    assert lib.ca_strided_fits_int32(ctypes.byref(s)) == 1
    s.strides[0][1] = 4            # 2^30 + (2^29 - 1) * 4 > INT32_MAX
    assert lib.ca_strided_fits_int32(ctypes.byref(s)) == 0
    s.strides[0][1] = 1
    s.shape[0] = 3                 # 2 * 2^30 > INT32_MAX
    assert lib.ca_strided_fits_int32(ctypes.byref(s)) == 0
    s.shape[0] = 2
    s.strides[1][0] = -(2**31)     # one negative stride beyond int32
    assert lib.ca_strided_fits_int32(ctypes.byref(s)) == 0
    s.strides[1][0] = -(2**30)
    s.shape[0], s.shape[1] = 2**31, 1   # 2^31 elements
    s.strides[0][0] = s.strides[1][0] = 0
    assert lib.ca_strided_fits_int32(ctypes.byref(s)) == 0
    lo, hi = ctypes.c_int64(), ctypes.c_int64()
    s = make_strided(a[::-1, ::2])
    lib.ca_strided_extent(ctypes.byref(s), 0, ctypes.byref(lo), ctypes.byref(hi))
    assert (lo.value, hi.value) == (-32, 8)
    s = make_strided(a[:0])
    lib.ca_strided_extent(ctypes.byref(s), 0, ctypes.byref(lo), ctypes.byref(hi))
    assert hi.value < lo.value


def test_bad_arguments(lib):
    a = np.zeros(4, np.float32)
    s = make_strided(a, a.copy())
    assert lib.ca_copy_cast(CA_CPU, ctypes.byref(s), 17, 0, None) == KERR_UNSUPPORTED  # CA_NTYPES
    s = make_strided(a, a.copy())
    assert lib.ca_copy_cast(CA_CPU, ctypes.byref(s), 0, -1, None) == KERR_UNSUPPORTED
    s = make_strided(a)
    assert lib.ca_copy_cast(CA_CPU, ctypes.byref(s), 0, 0, None) == KERR_UNSUPPORTED
    s = make_strided(a, a.copy())
    s.ndim = 33
    assert lib.ca_copy_cast(CA_CPU, ctypes.byref(s), 0, 0, None) == KERR_UNSUPPORTED
    s = make_strided(a, a.copy())
    s.shape[0] = -1
    assert lib.ca_copy_cast(CA_CPU, ctypes.byref(s), 0, 0, None) == KERR_UNSUPPORTED
    s = make_strided(a)
    assert lib.ca_fill(CA_CPU, ctypes.byref(s), 10, None, None) == KERR_UNSUPPORTED
    # this library is built without CUDA: a GPU ordinal says so
    s = make_strided(a, a.copy())
    assert lib.ca_copy_cast(0, ctypes.byref(s), 10, 10, None) == KERR_NO_CUDA
    v = np.float32(1)
    s = make_strided(a)
    assert lib.ca_fill(0, ctypes.byref(s), 10, addr(np.array(v)), None) == KERR_NO_CUDA
