"""The ndarray's full surface: its attribute list against NumPy's and CuPy's, and the
composite methods (python/cuarray/_ndarray.py) against NumPy on both devices."""

import copy
import io
import pickle

import numpy as np
import pytest

import cuarray as ca
from conftest import ALL_DTYPES, random_array

# CuPy's ndarray (cupy/_core/core.pyx, CuPy 13/14): its public attributes and
# the special methods code relies on, frozen here because CI has no CuPy.
CUPY_NDARRAY = {
    "T", "all", "any", "argmax", "argmin", "argpartition", "argsort", "astype", "base",
    "choose", "clip", "compress", "conj", "conjugate", "copy", "cstruct", "cumprod",
    "cumsum", "data", "device", "diagonal", "dot", "dtype", "dump", "dumps", "fill",
    "flags", "flat", "flatten", "get", "imag", "item", "itemsize", "mT", "max", "mean",
    "min", "nbytes", "ndim", "nonzero", "partition", "prod", "ptp", "put", "ravel",
    "real", "reduced_view", "repeat", "reshape", "round", "scatter_add",
    "scatter_max", "scatter_min", "set", "shape", "size", "sort", "squeeze", "std",
    "strides", "sum", "swapaxes", "take", "toDlpack", "tobytes", "tofile", "tolist",
    "trace", "transpose", "var", "view",
    "__cuda_array_interface__", "__dlpack__", "__dlpack_device__",
    "__array_priority__", "__array_ufunc__", "__array_function__", "__array__",
    "__copy__", "__deepcopy__", "__reduce__", "__iter__", "__len__", "__getitem__",
    "__setitem__", "__format__", "__int__", "__float__", "__complex__", "__bool__",
    "__repr__", "__str__", "__neg__", "__pos__", "__abs__", "__invert__", "__add__",
    "__sub__", "__mul__", "__matmul__", "__truediv__", "__floordiv__", "__mod__",
    "__divmod__", "__pow__", "__lshift__", "__rshift__", "__and__", "__or__",
    "__xor__", "__iadd__", "__isub__", "__imul__", "__itruediv__", "__ifloordiv__",
    "__imod__", "__ipow__", "__ilshift__", "__irshift__", "__iand__", "__ior__",
    "__ixor__", "__lt__", "__le__", "__eq__", "__ne__", "__gt__", "__ge__",
}

# NumPy's names cuarray's ndarray does not have, each with the reason.
NUMPY_ONLY = {
    "__array_interface__": "host-memory protocol: host-accessible arrays export the "
                           "buffer protocol, device arrays __cuda_array_interface__",
    "__array_struct__": "as __array_interface__",
    "ctypes": "host pointers: .data.ptr is the address (of device memory)",
    "getfield": "no structured dtypes",
    "setfield": "no structured dtypes",
    "resize": "in-place reallocation of the buffer (CuPy lacks it too); "
              "cuarray.resize returns a new array",
    "__setstate__": "pickles rebuild through __reduce__ (cuarray.array of a host copy)",
    "__array_wrap__": "NumPy's hook for wrapping a NumPy ufunc's result: NumPy's ufuncs "
                      "dispatch to cuarray's (__array_ufunc__), which make cuarray arrays",
    # NumPy 2.5's private setters behind its deprecated shape/dtype assignment
    "_set_dtype": "private to NumPy 2.5 (shape and dtype are set through the views)",
    "_set_shape": "private to NumPy 2.5, as _set_dtype",
}

# CuPy's names cuarray's ndarray does not have.
CUPY_ONLY = {
    "cstruct": "CuPy's kernel-argument struct; cuarray's user kernels take arrays",
}

# Beyond NumPy's ndarray: CuPy's (get, set, scatter_*, reduced_view, toDlpack, ptp,
# which NumPy 2 dropped) and cuarray's own (memory, __cuda_array_interface__).
EXTRA = {"__cuda_array_interface__", "get", "set", "memory", "scatter_add",
         "scatter_max", "scatter_min", "reduced_view", "toDlpack", "ptp", "__round__",
         "__module__",
         # Python 3.12 names the buffer release slot; NumPy's ndarray has none
         "__release_buffer__"}


def test_attributes_against_numpy():
    have = set(dir(ca.ndarray))
    missing = set(dir(np.ndarray)) - have
    assert missing <= set(NUMPY_ONLY), sorted(missing - set(NUMPY_ONLY))
    extra = have - set(dir(np.ndarray))
    assert extra <= EXTRA, sorted(extra - EXTRA)


def test_attributes_against_cupy():
    missing = CUPY_NDARRAY - set(dir(ca.ndarray))
    assert missing <= set(CUPY_ONLY), sorted(missing - set(CUPY_ONLY))


def test_public_methods_are_documented():
    for name in dir(ca.ndarray):
        if name.startswith("_"):
            continue
        assert getattr(ca.ndarray, name).__doc__, name


# ---------------------------------------------------------------------------
# item selection
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_take_put_repeat(device, dtype):
    a = random_array((3, 4), dtype)
    x = ca.asarray(a, device=device)
    np.testing.assert_array_equal(x.take([0, 5, -1]).get(), a.take([0, 5, -1]))
    np.testing.assert_array_equal(x.take([2, 0], axis=1).get(), a.take([2, 0], axis=1))
    np.testing.assert_array_equal(x.take([7], mode="wrap").get(), a.take([7], mode="wrap"))
    with pytest.raises(IndexError):
        x.take([12])
    np.testing.assert_array_equal(x.repeat(2).get(), a.repeat(2))
    np.testing.assert_array_equal(x.repeat([1, 0, 2], axis=0).get(),
                                  a.repeat([1, 0, 2], axis=0))
    v = random_array((2,), dtype)
    assert x.put([1, 6], ca.asarray(v, device=device)) is None
    a.put([1, 6], v)
    np.testing.assert_array_equal(x.get(), a)


def test_choose_compress_diagonal_trace(device):
    a = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    x = ca.asarray(a, device=device)
    sel = np.array([0, 1, 1, 0])
    xs = ca.asarray(sel, device=device)
    ch = [np.arange(4), np.arange(4) * 10]
    np.testing.assert_array_equal(xs.choose([ca.asarray(c, device=device) for c in ch])
                                  .get(), sel.choose(ch))
    np.testing.assert_array_equal(x.compress([True, False, True], axis=1).get(),
                                  a.compress([True, False, True], axis=1))
    np.testing.assert_array_equal(x.compress([0, 1, 1]).get(), a.compress([0, 1, 1]))
    for off, ax1, ax2 in [(0, 0, 1), (1, 1, 2), (-1, 2, 0)]:
        np.testing.assert_array_equal(x.diagonal(off, ax1, ax2).get(),
                                      a.diagonal(off, ax1, ax2))
        t = x.trace(off, ax1, ax2)
        assert t.dtype == a.trace(off, ax1, ax2).dtype
        np.testing.assert_array_equal(t.get(), a.trace(off, ax1, ax2))
    m = ca.asarray(np.arange(9.0).reshape(3, 3), device=device)
    assert float(m.trace()) == 12.0
    assert m.trace(dtype=np.float32).dtype == np.float32
    out = ca.zeros((), dtype=np.float64, device=device)
    m.trace(out=out)
    assert float(out) == 12.0
    np.testing.assert_array_equal(x.ptp(axis=2).get(), np.ptp(a, axis=2))


# ---------------------------------------------------------------------------
# conversions, pickles, copies
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_tobytes_byteswap(device, dtype):
    a = random_array((3, 5), dtype)
    x = ca.asarray(a, device=device)
    assert x.tobytes() == a.tobytes()
    assert x.tobytes("F") == a.tobytes("F")
    assert x[:, ::2].tobytes() == a[:, ::2].tobytes()
    np.testing.assert_array_equal(x.byteswap().get(), a.byteswap())
    np.testing.assert_array_equal(x[::2, 1:].byteswap().get(), a[::2, 1:].byteswap())
    np.testing.assert_array_equal(x.get(), a)  # not in place
    want = a.byteswap()  # (x may share a's memory on the cpu device)
    y = x.T
    assert y.byteswap(inplace=True) is y
    np.testing.assert_array_equal(x.get(), want)
    z = ca.asarray(a[0, 0], device=device)
    np.testing.assert_array_equal(z.byteswap().get(), a[0, 0:1].byteswap()[0])


def test_tofile_dump_dumps(device, tmp_path):
    a = np.arange(10, dtype=np.float32)
    x = ca.asarray(a, device=device)
    f = tmp_path / "x.bin"
    x.tofile(str(f))
    np.testing.assert_array_equal(np.fromfile(f, dtype=np.float32), a)
    x.tofile(str(tmp_path / "x.txt"), sep=",")
    assert (tmp_path / "x.txt").read_text() == ",".join(str(v) for v in a)
    y = pickle.loads(x.dumps())
    assert isinstance(y, ca.ndarray)
    np.testing.assert_array_equal(y.get(), a)
    p = tmp_path / "x.pkl"
    x.dump(str(p))
    with open(p, "rb") as fh:
        np.testing.assert_array_equal(pickle.load(fh).get(), a)
    buf = io.BytesIO()
    x.dump(buf)
    buf.seek(0)
    np.testing.assert_array_equal(pickle.load(buf).get(), a)


def test_copy_deepcopy_format_contains_len_iter(device):
    a = np.arange(6.0).reshape(2, 3)
    x = ca.asarray(a, device=device)
    for c in (copy.copy(x), copy.deepcopy(x)):
        assert isinstance(c, ca.ndarray) and not ca.shares_memory(c, x)
        np.testing.assert_array_equal(c.get(), a)
    assert format(ca.asarray(2.5, device=device), ".3f") == format(np.float64(2.5), ".3f")
    assert format(x) == format(a)
    assert 4.0 in x and 7.0 not in x
    assert ca.asarray([3.0, 9.0, 9.0], device=device) in x  # any equal element
    assert ([3.0, 4.0, 5.0] in x) == ([3.0, 4.0, 5.0] in a)
    assert len(x) == 2
    rows = list(x)
    assert len(rows) == 2 and rows[1].shape == (3,)
    with pytest.raises(TypeError):
        len(ca.asarray(1.0, device=device))
    with pytest.raises(TypeError):
        iter(ca.asarray(1.0, device=device))


def test_flat_attribute(device):
    a = np.arange(12).reshape(3, 4)
    x = ca.asarray(a, device=device)
    assert isinstance(x.flat, ca.flatiter) and x.flat.base is x
    np.testing.assert_array_equal(x.flat[2:5].get(), a.flat[2:5])
    x.flat = 7
    a.flat = 7
    np.testing.assert_array_equal(x.get(), a)
    x.flat[[0, 11]] = -1
    a.flat[[0, 11]] = -1
    np.testing.assert_array_equal(x.get(), a)


def test_dunders_and_generic_alias():
    assert ca.ndarray.__array_priority__ == 100.0
    alias = ca.ndarray[tuple[int], np.dtype[np.float64]]
    assert alias.__origin__ is ca.ndarray
    x = ca.zeros(2, device="cpu")
    assert x.__array_finalize__(None) is None


def test_reduced_view(device):
    x = ca.zeros((2, 3, 4), device=device)
    assert x.reduced_view().shape == (24,)
    assert x[:, :, :2].reduced_view().shape == (6, 2)
    assert x[0].reduced_view().base is not None
    y = ca.zeros(5, device=device)
    assert y.reduced_view() is y
    with pytest.raises(TypeError):
        x.reduced_view(np.float32)


def test_to_dlpack(device):
    x = ca.arange(4, device=device)
    cap = x.toDlpack()
    assert type(cap).__name__ == "PyCapsule"


# ---------------------------------------------------------------------------
# scatter_add / scatter_max / scatter_min against NumPy's ufunc.at
# ---------------------------------------------------------------------------

SCATTER_DTYPES = [np.bool_, np.int8, np.uint8, np.int32, np.uint64, np.int64,
                  np.float16, np.float32, np.float64, np.complex64, np.complex128]


@pytest.mark.parametrize("dtype", SCATTER_DTYPES)
@pytest.mark.parametrize("op", ["add", "max", "min"])
def test_scatter(device, dtype, op):
    rng = np.random.default_rng(7)
    a = random_array((6, 5), dtype, rng)
    if dtype == np.float16:  # sums exact in float16 (small integers)
        a = np.round(a).astype(dtype) % 8
    idx = rng.integers(0, 6, size=40)
    v = random_array((40, 5), dtype, rng)
    if dtype == np.float16:
        v = np.round(v).astype(dtype) % 4
    if op in ("max", "min") and np.dtype(dtype).kind == "c":
        return  # no ordering of complex in CuPy's scatter_max/min either
    x = ca.asarray(a, device=device)
    ufunc = {"add": np.add, "max": np.maximum, "min": np.minimum}[op]
    want = a.copy()
    ufunc.at(want, idx, v)
    getattr(x, "scatter_" + op)(ca.asarray(idx, device=device), ca.asarray(v, device=device))
    if np.dtype(dtype).kind in "fc":
        np.testing.assert_allclose(x.get(), want, rtol=1e-5 if dtype != np.float16 else 0)
    else:
        np.testing.assert_array_equal(x.get(), want)


@pytest.mark.parametrize("op", ["add", "max", "min"])
def test_scatter_tuple_index_scalar_nan(device, op):
    a = np.zeros((4, 3))
    ufunc = {"add": np.add, "max": np.maximum, "min": np.minimum}[op]
    x = ca.asarray(a, device=device)
    rows = np.array([0, 0, 3, 1])
    cols = np.array([1, 1, 2, 0])
    ufunc.at(a, (rows, cols), np.array([1.0, np.nan, 2.0, -3.0]))
    getattr(x, "scatter_" + op)((ca.asarray(rows, device=device), ca.asarray(cols, device=device)),
                                ca.asarray([1.0, np.nan, 2.0, -3.0], device=device))
    np.testing.assert_array_equal(x.get(), a)
    # a scalar value and a slice
    b = np.ones(5)
    y = ca.asarray(b, device=device)
    ufunc.at(b, slice(1, 4), 2.5)
    getattr(y, "scatter_" + op)(slice(1, 4), 2.5)
    np.testing.assert_array_equal(y.get(), b)


def test_scatter_errors(device):
    x = ca.zeros((4, 4), device=device)[:, ::2]
    with pytest.raises(ValueError):
        x.scatter_add(ca.asarray([0]), 1.0)
    y = ca.zeros(3, device=device)
    with pytest.raises(IndexError):
        y.scatter_add(ca.asarray([5], device=device), 1.0)


# ---------------------------------------------------------------------------
# setflags
# ---------------------------------------------------------------------------

def test_setflags_write(device):
    x = ca.arange(6.0, device=device)
    x.setflags(write=False)
    assert not x.flags.writeable
    with pytest.raises(ValueError):
        x[0] = 1.0
    v = x[1:]
    assert not v.flags.writeable
    with pytest.raises(ValueError):
        v.setflags(write=True)  # a view of a read-only array, as NumPy refuses
    x.setflags(write=True)
    assert x.flags.writeable
    x[0] = 9.0
    assert float(x[0]) == 9.0
    w = x[2:]
    w.setflags(write=False)
    w.setflags(write=True)  # its base is writeable again
    assert w.flags.writeable
    b = ca.broadcast_to(x, (2, 6))
    with pytest.raises(ValueError):
        b.setflags(write=True)
    assert x.setflags(write=None) is None and x.flags.writeable
    x.setflags(align=True)
    with pytest.raises(ValueError):
        x.setflags(align=False)
    with pytest.raises(ValueError):
        x.setflags(uic=True)
    assert x.flags == x.flags and x.flags.aligned


def test_setflags_read_only_imports():
    a = np.arange(4.0)
    a.setflags(write=False)
    x = ca.asarray(a, device="cpu")
    assert not x.flags.writeable
    with pytest.raises(ValueError):
        x.setflags(write=True)
    c = np.arange(3.0)
    y = ca.from_dlpack(c)
    y.setflags(write=False)
    y.setflags(write=True)
    assert y.flags.writeable


# ---------------------------------------------------------------------------
# subclasses
# ---------------------------------------------------------------------------

class Tagged(ca.ndarray):
    """NumPy's documented pattern: the tag follows views through __array_finalize__."""

    def __new__(cls, arr, tag=None):
        obj = ca.asarray(arr).view(cls)
        obj.tag = tag
        return obj

    def __array_finalize__(self, obj):
        self.finalized_from = obj
        self.tag = getattr(obj, "tag", None)


class Plain(ca.ndarray):
    pass


def test_subclass_construction(device):
    s = Plain((2, 3), dtype=np.float32, device=device)
    assert type(s) is Plain and isinstance(s, ca.ndarray)
    assert s.shape == (2, 3) and s.dtype == np.float32
    assert s.device == ca.empty(0, device=device).device
    s[...] = 1.5
    assert float(s.sum()) == 9.0
    s.attr = 7  # instances have a __dict__
    assert s.attr == 7
    t = Tagged(np.arange(6.0), tag="a")
    assert type(t) is Tagged and t.tag == "a"
    u = Tagged.__new__(Tagged, [1.0])
    assert u.tag is None


def test_subclass_views_keep_the_type(device):
    x = ca.asarray(np.arange(12.0).reshape(3, 4), device=device)
    t = x.view(Tagged)
    assert type(t) is Tagged and t.finalized_from is x and t.tag is None
    t.tag = "kept"
    views = {"index": t[1], "slice": t[:, 1:], "T": t.T, "transpose": t.transpose(),
             "reshape": t.reshape(4, 3), "ravel": t.ravel(), "squeeze": t[None].squeeze(),
             "newaxis": t[:, None], "swapaxes": t.swapaxes(0, 1), "mT": t.mT,
             "view": t.view(), "diagonal": t.diagonal()}
    for name, v in views.items():
        assert type(v) is Tagged, name
        assert v.tag == "kept", name
        assert ca.shares_memory(v, x), name
    assert views["index"].finalized_from is t
    t[0, 0] = 100.0
    assert float(x[0, 0]) == 100.0
    p = t.view(ca.ndarray)
    assert type(p) is ca.ndarray
    q = t.view(type=Plain)
    assert type(q) is Plain
    assert type(x.view(np.float64, Tagged)) is Tagged


def test_subclass_in_functions_and_errors(device):
    t = ca.asarray(np.arange(6.0), device=device).view(Tagged)
    np.testing.assert_array_equal(ca.add(t, 1).get(), np.arange(6.0) + 1)
    assert float(ca.sum(t)) == 15.0
    np.testing.assert_array_equal(t.get(), np.arange(6.0))
    assert isinstance(ca.asarray(t), ca.ndarray)

    class Bad(ca.ndarray):
        def __array_finalize__(self, obj):
            raise KeyError("finalize failed")

    with pytest.raises(KeyError):
        t.view(Bad)
    with pytest.raises(TypeError):
        t.view(type=int)


def test_subclass_lifetimes(device):
    import gc
    import weakref
    x = ca.zeros(1000, device=device)
    t = x.view(Plain)
    r = weakref.ref(t)
    t.me = t  # a cycle through the instance dict: the collector frees it
    del t
    gc.collect()
    assert r() is None
    for _ in range(200):
        v = Plain((16,), device=device)[2:]
        del v
    assert float(x.sum()) == 0.0
