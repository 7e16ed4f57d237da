"""Types and type functions (python/cuarray/_dtypes.py) against NumPy, on both devices."""

import itertools

import numpy as np
import pytest

import cuarray as ca
from conftest import ALL_DTYPES, agree, random_array

TYPE_NAMES = [
    "dtype", "float16", "float32", "float64", "complex64", "complex128", "bool_",
    "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
    "intp", "uintp", "int_", "uint", "half", "single", "double", "longlong",
    "ulonglong", "number", "integer", "floating", "complexfloating", "generic",
    "inexact", "signedinteger", "unsignedinteger", "byte", "ubyte", "short", "ushort",
    "intc", "uintc", "long", "ulong", "csingle", "cdouble",
]


@pytest.mark.parametrize("name", TYPE_NAMES)
def test_scalar_types_are_numpys(name):
    assert getattr(ca, name) is getattr(np, name)


def test_bool_is_numpys():
    assert ca.bool is np.bool_


def test_constants():
    assert ca.e == np.e and ca.pi == np.pi and ca.euler_gamma == np.euler_gamma
    assert ca.inf == np.inf and np.isnan(ca.nan)
    assert ca.newaxis is None


def test_newaxis_indexes(device):
    x = ca.arange(3, device=device)
    assert x[ca.newaxis].shape == (1, 3)
    assert x[:, ca.newaxis].shape == (3, 1)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_finfo_iinfo_of_arrays(device, dtype):
    x = ca.zeros(2, dtype=dtype, device=device)
    if np.dtype(dtype).kind in "fc":
        assert ca.finfo(x) == np.finfo(dtype)
        assert ca.finfo(dtype).eps == np.finfo(dtype).eps
        with pytest.raises(ValueError):
            ca.iinfo(x)
    elif np.dtype(dtype).kind in "iu":
        assert ca.iinfo(x).max == np.iinfo(dtype).max
        assert ca.iinfo(x).min == np.iinfo(dtype).min
        assert ca.iinfo(x).bits == np.iinfo(dtype).bits
        with pytest.raises(ValueError):
            ca.finfo(x)


@pytest.mark.parametrize("d1,d2", list(itertools.product(ALL_DTYPES, repeat=2)))
def test_result_type_arrays(device, d1, d2):
    x = ca.zeros(3, dtype=d1, device=device)
    y = ca.zeros((), dtype=d2, device=device)
    want = np.result_type(np.zeros(3, d1), np.zeros((), d2))
    assert ca.result_type(x, y) == want
    assert ca.result_type(x, d2) == want
    assert ca.promote_types(d1, d2) == np.promote_types(d1, d2)
    for casting in ("no", "equiv", "safe", "same_kind", "unsafe"):
        assert ca.can_cast(x, d2, casting) == np.can_cast(d1, d2, casting)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("scalar", [1, -1, 2.5, 1j, True, 300, 2**40])
def test_result_type_python_scalars(device, dtype, scalar):
    x = ca.zeros(3, dtype=dtype, device=device)
    try:
        want = np.result_type(np.zeros(3, dtype), scalar)
    except Exception as e:  # NumPy's errors for out-of-range Python ints, if any
        with pytest.raises(type(e)):
            ca.result_type(x, scalar)
        return
    assert ca.result_type(x, scalar) == want


def test_result_type_errors():
    with pytest.raises(TypeError):
        ca.can_cast(1.0, np.float32)  # NumPy 2: Python scalars are refused
    with pytest.raises(ValueError):
        ca.result_type()


@pytest.mark.parametrize("value,dtype", [(3, np.int64), (-3, np.int64), (300, np.int64),
                                         (1.5, np.float64), (1e300, np.float64),
                                         (1 + 1j, np.complex128), (True, np.bool_)])
def test_min_scalar_type(device, value, dtype):
    assert ca.min_scalar_type(value) == np.min_scalar_type(value)
    x = ca.asarray(np.asarray(value, dtype=dtype), device=device)
    assert ca.min_scalar_type(x) == np.min_scalar_type(np.asarray(value, dtype=dtype))
    y = ca.asarray(np.full(2, value, dtype=dtype), device=device)
    assert ca.min_scalar_type(y) == np.min_scalar_type(np.full(2, value, dtype=dtype))


@pytest.mark.parametrize("dtypes", [
    (np.float16,), (np.float32,), (np.int8,), (np.float16, np.float32),
    (np.float32, np.int8), (np.complex64,), (np.complex64, np.float64),
    (np.uint64, np.float16), (np.bool_,)])
def test_common_type(device, dtypes):
    xs = [ca.zeros(1, dtype=d, device=device) for d in dtypes]
    ns = [np.zeros(1, dtype=d) for d in dtypes]
    if np.dtype(dtypes[0]) == np.bool_:
        with pytest.raises(TypeError):
            np.common_type(*ns)
        with pytest.raises(TypeError):
            ca.common_type(*xs)
        return
    assert ca.common_type(*xs) is np.common_type(*ns)
    assert ca.common_type() is np.common_type()


def test_mintypecode(device):
    for chars in (["f"], ["d", "f"], ["F", "d"], ["i"], "idD", []):
        assert ca.mintypecode(chars) == np.mintypecode(chars)
    x = ca.zeros(1, dtype=np.complex64, device=device)
    assert ca.mintypecode([x, "d"]) == np.mintypecode(["F", "d"])


def test_issubdtype_isdtype_typename_isscalar():
    assert ca.issubdtype(ca.float32, ca.floating)
    assert not ca.issubdtype(ca.int32, ca.floating)
    assert ca.isdtype(np.dtype(ca.float32), "real floating")
    assert ca.isdtype(np.dtype(ca.int8), ("integral", "bool"))
    assert ca.typename("d") == np.typename("d")
    assert ca.isscalar(1.0) and ca.isscalar(np.float32(1))
    assert not ca.isscalar(ca.asarray(1.0))
    assert not ca.isscalar([1])


def test_iterable_ndindex(device):
    assert ca.iterable(ca.arange(3, device=device))
    assert not ca.iterable(ca.asarray(1, device=device))
    assert not ca.iterable(1)
    assert list(ca.ndindex(2, 3)) == list(np.ndindex(2, 3))
    assert list(ca.ndindex((2, 1))) == [(0, 0), (1, 0)]


@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3), (2, 0, 4)])
def test_ndim_shape_size(device, shape):
    a = np.zeros(shape)
    x = ca.zeros(shape, device=device)
    assert ca.ndim(x) == np.ndim(a)
    assert ca.shape(x) == np.shape(a)
    assert ca.size(x) == np.size(a)
    for ax in range(-len(shape), len(shape)):
        assert ca.size(x, ax) == np.size(a, ax)
    if len(shape) >= 2:
        assert ca.size(x, (0, 1)) == shape[0] * shape[1]
    with pytest.raises(np.exceptions.AxisError):
        ca.size(x, len(shape))
    # array-likes go to NumPy
    assert ca.shape([[1, 2]]) == (1, 2) and ca.ndim(3) == 0 and ca.size([1, 2]) == 2


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_astype_function(device, dtype):
    a = random_array((4, 3), np.float32)
    x = ca.asarray(a, device=device)
    y = ca.astype(x, dtype)
    assert y.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(y.get(), a.astype(dtype))
    z = ca.astype(x, np.float32, copy=False)
    assert z is x
    w = ca.astype(x, np.float32)
    assert w is not x and not ca.shares_memory(w, x)
    v = ca.astype(x, np.float64, device="cpu")
    assert v.device == ca.empty(0, device="cpu").device
    np.testing.assert_array_equal(v.get(), a.astype(np.float64))
    with pytest.raises(TypeError):
        ca.astype(a, np.float64)


@pytest.mark.parametrize("order", ["C", "F", "K", "A"])
def test_copy_function(device, order):
    a = random_array((3, 4), np.float64)
    x = ca.asarray(a, device=device)[:, ::2]
    y = ca.copy(x, order=order)
    want = np.copy(a[:, ::2], order=order)
    np.testing.assert_array_equal(y.get(), want)
    assert y.flags.c_contiguous == want.flags.c_contiguous
    assert y.flags.f_contiguous == want.flags.f_contiguous
    assert not ca.shares_memory(x, y)
    z = ca.copy([[1, 2], [3, 4]])
    assert isinstance(z, ca.ndarray) and z.shape == (2, 2)


# ---------------------------------------------------------------------------
# broadcast
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("shapes", [[(3,), (2, 1)], [(), (4,)], [(2, 3, 4)],
                                    [(1, 0), (3, 1)], [(5, 1, 2), (1, 4, 1), (2,)]])
def test_broadcast(device, shapes):
    arrs = [np.arange(int(np.prod(s))).reshape(s) for s in shapes]
    xs = [ca.asarray(a, device=device) for a in arrs]
    b = ca.broadcast(*xs)
    nb = np.broadcast(*arrs)
    assert b.shape == nb.shape and b.size == nb.size
    assert b.ndim == nb.ndim and b.nd == nb.ndim and b.numiter == nb.numiter
    for v, a in zip(b.values, np.broadcast_arrays(*arrs)):
        np.testing.assert_array_equal(v.get(), a)
    if b.size <= 40:
        got = [tuple(int(e) for e in t) for t in b]
        assert got == [tuple(int(e) for e in t) for t in nb]
        assert b.index == nb.size
        b.reset()
        assert b.index == 0
    it = b.iters
    assert len(it) == len(xs) and all(isinstance(i, ca.flatiter) for i in it)


def test_broadcast_errors(device):
    with pytest.raises(ValueError):
        ca.broadcast(ca.zeros(3, device=device), ca.zeros(4, device=device))
    b = ca.broadcast(ca.zeros((2, 1), device=device), ca.zeros(3, device=device))
    b2 = ca.broadcast(b, ca.zeros((1, 3), device=device))
    assert b2.shape == (2, 3) and b2.numiter == 3


# ---------------------------------------------------------------------------
# flatiter (x.flat)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("layout", ["c", "f", "strided"])
def test_flatiter_get(device, layout):
    a = np.arange(24.0).reshape(4, 6)
    if layout == "f":
        a = np.asfortranarray(a)
    x = ca.asarray(a, device=device)
    if layout == "strided":
        a, x = a[:, ::2], x[:, ::2]
    f, nf = ca.flatiter(x), a.flat
    assert len(f) == len(nf) and f.base is x
    for key in [0, 5, -1, slice(1, 7), slice(None, None, -2), Ellipsis,
                [0, 3, 2], np.array([1, 1, 0]), a.ravel() > 10]:
        got = f[key]
        want = nf[key]
        np.testing.assert_array_equal(got.get(), want)
    with pytest.raises(IndexError):
        f[a.size]
    before = x.get().copy()  # on cpu x may share a's memory: compare with a copy
    s = f[1:3]
    s[...] = -1  # a copy, as NumPy's
    np.testing.assert_array_equal(x.get(), before)
    np.testing.assert_array_equal(f.copy().get(), a.flatten())
    assert [float(e) for e in f][:5] == list(a.flat)[:5]
    assert f.index == a.size and f.coords == a.shape


@pytest.mark.parametrize("layout", ["c", "strided"])
def test_flatiter_set(device, layout):
    a = np.arange(12.0).reshape(3, 4)
    x = ca.asarray(a, device=device)
    if layout == "strided":
        a, x = a[:, 1::2], x[:, 1::2]
    f = ca.flatiter(x)
    for key, value in [(2, 50.0), (slice(0, 4), [7.0, 8.0]), ([0, 5], [-1.0, -2.0]),
                       (Ellipsis, 3.0), (slice(None), np.arange(10.0))]:
        a.flat[key] = value
        f[key] = ca.asarray(value, device=device) if isinstance(value, np.ndarray) \
            else value
        np.testing.assert_array_equal(x.get(), a)


def test_flatiter_coords(device):
    x = ca.zeros((2, 3), device=device)
    f = ca.flatiter(x)
    next(f)
    next(f)
    nf = np.zeros((2, 3)).flat
    next(nf)
    next(nf)
    assert f.coords == nf.coords and f.index == nf.index
    with pytest.raises(TypeError):
        ca.flatiter(np.zeros(3))


@pytest.mark.parametrize("key", [10, -7, 6, -1, 0, [1, 10], slice(1, 4)])
def test_flatiter_out_of_range(device, key):
    """x.flat[i] out of range: IndexError in NumPy's words (no axis), read and
    write."""
    x = np.arange(6.0).reshape(2, 3)

    def arr(xp):
        return ca.asarray(x, device=device) if xp is ca else x.copy()

    def k(xp):
        return ca.asarray(key, device=device) if xp is ca and isinstance(key, list) \
            else (np.asarray(key) if isinstance(key, list) else key)
    agree(lambda xp: arr(xp).flat[k(xp)])

    def write(xp):
        a = arr(xp)
        a.flat[k(xp)] = 7.0
        return a
    agree(write)
