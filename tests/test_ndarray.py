"""The ndarray object: attributes, views, repr, conversions, Array API hooks."""

import operator
import pickle

import numpy as np
import pytest

import cuarray as ca
from conftest import ALL_DTYPES, random_array


def rnd(shape, dtype):
    """Random data as a NumPy array (0-d arrays too, not NumPy scalars)."""
    return np.asarray(random_array(shape, dtype))

SHAPES = [(), (0,), (5,), (3, 4), (2, 0, 3), (2, 3, 4), (1, 5, 1)]


def host_default(device):
    return "host" if device == "cpu" else "device"


# ---- attributes ---------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("order", ["C", "F"])
def test_attributes_match_numpy(device, dtype, shape, order):
    a = ca.empty(shape, dtype=dtype, order=order, device=device)
    e = np.empty(shape, dtype=dtype, order=order)
    assert a.shape == e.shape
    assert a.strides == e.strides
    assert a.ndim == e.ndim
    assert a.size == e.size
    assert a.itemsize == e.itemsize
    assert a.nbytes == e.nbytes
    assert a.dtype == e.dtype
    assert type(a.dtype) is type(e.dtype)
    assert a.flags.c_contiguous == e.flags.c_contiguous
    assert a.flags.f_contiguous == e.flags.f_contiguous
    assert a.flags["C_CONTIGUOUS"] == e.flags["C_CONTIGUOUS"]
    assert a.flags.owndata and a.flags.writeable
    assert a.base is None
    assert a.memory == host_default(device)
    assert str(a.device) == device or (device == "cpu" and "cpu" in str(a.device))
    assert isinstance(len(a.shape), int)


def test_dtype_objects_are_numpy_types():
    for name in ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
                 "float16", "float32", "float64", "complex64", "complex128"]:
        assert getattr(ca, name) is getattr(np, name)
    assert ca.bool_ is np.bool_
    assert ca.bool is np.bool_


@pytest.mark.parametrize("bad", [object, np.str_, "U3", "S2", ">M8[s]",  # (test_datetime.py)
                                 ">f8", [("a", "f4")], np.longdouble, np.clongdouble,
                                 "V8"])
def test_unsupported_dtypes(device, bad):
    with pytest.raises(TypeError):
        ca.empty(3, dtype=bad, device=device)
    with pytest.raises(TypeError):
        ca.zeros(3, dtype=bad, device=device)


def test_not_a_dtype():
    with pytest.raises(TypeError):
        ca.empty(3, dtype="not-a-dtype")


@pytest.mark.parametrize("shape", [-1, (2, -3), (-1, 0)])
def test_negative_shape(device, shape):
    with pytest.raises(ValueError):
        ca.empty(shape, device=device)


@pytest.mark.parametrize("shape", [2 ** 62, (2 ** 40, 2 ** 40), (2 ** 31,) * 3,
                                   2 ** 70])
def test_absurd_shape(device, shape):
    with pytest.raises((ValueError, MemoryError)):
        ca.empty(shape, device=device)


def test_bad_shape_type(device):
    with pytest.raises(TypeError):
        ca.empty(1.5, device=device)
    with pytest.raises(TypeError):
        ca.empty((2, "3"), device=device)
    with pytest.raises(ValueError):
        ca.empty((1,) * 33, device=device)


def test_zero_size_has_no_memory(device):
    a = ca.empty((3, 0), device=device)
    assert a.size == 0 and a.nbytes == 0
    assert a.data.ptr == 0
    assert a.data.mem is None


def test_data_pointer(device):
    a = ca.empty(10, dtype=np.float32, device=device)
    assert a.data.ptr == a.data.mem.ptr
    assert int(a.data) == a.data.ptr


# ---- views: T, mT ------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.int16, np.float64, np.complex64])
@pytest.mark.parametrize("shape", [(), (4,), (3, 4), (2, 3, 4)])
def test_T(device, dtype, shape):
    h = rnd(shape, dtype)
    a = ca.array(h, device=device)  # a copy: `a` owns its memory
    t = a.T
    assert t.shape == h.T.shape
    assert t.strides == h.T.strides
    assert t.base is a
    assert not t.flags.owndata
    np.testing.assert_array_equal(t.get(), h.T)
    assert t.T.base is a  # views of views point at the owner


def test_mT(device):
    h = rnd((2, 3, 4), np.float32)
    a = ca.asarray(h, device=device)
    assert a.mT.shape == (2, 4, 3)
    np.testing.assert_array_equal(a.mT.get(), np.swapaxes(h, -1, -2))
    with pytest.raises(ValueError):
        ca.empty(3, device=device).mT


# ---- repr / str ------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", [(), (0,), (4,), (2, 3), (0, 3)])
def test_repr_matches_numpy(device, dtype, shape):
    h = rnd(shape, dtype)
    a = ca.asarray(h, device=device)
    expect = repr(h)[:-1] + f", device='{device}')"
    assert repr(a) == expect
    assert str(a) == str(h)


@pytest.mark.parametrize("shape", [(5000,), (2000, 3), (3, 2000), (40, 40, 40), (1001,),
                                   (7, 1000)])
@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.complex64, np.bool_])
def test_repr_summarized(device, shape, dtype):
    h = rnd(shape, dtype)
    a = ca.asarray(h, device=device)
    assert repr(a) == repr(h)[:-1] + f", device='{device}')"
    assert str(a) == str(h)


@pytest.mark.parametrize("shape", [(5000,), (2000, 3), (3, 2000), (40, 40, 40), (1001,),
                                   (4,), ()])
@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.complex128])
def test_repr_copied_path(device, shape, dtype):
    # The path device memory takes (summarise on the device, copy, print),
    # forced for any memory so it is checked everywhere.
    h = rnd(shape, dtype)
    a = ca.asarray(h, device=device)
    assert ca._core._format_copied(a, True) == repr(h)[:-1] + f", device='{device}')"
    assert ca._core._format_copied(a, False) == str(h)
    assert ca._core._format_copied(a.T, False) == str(h.T)


def test_repr_honours_printoptions(device):
    h = np.arange(100.0)
    a = ca.asarray(h, device=device)
    with np.printoptions(threshold=10, edgeitems=2, precision=2):
        assert str(a) == str(h)
        assert repr(a).startswith(repr(h)[:-1])


# ---- len, iteration, scalars ---------------------------------------------------------


def test_len_and_iter(device):
    h = rnd((3, 4), np.int32)
    a = ca.asarray(h, device=device)
    assert len(a) == 3
    rows = list(a)
    assert len(rows) == 3
    for r, e in zip(rows, h):
        assert isinstance(r, ca.ndarray)
        np.testing.assert_array_equal(r.get(), e)
    with pytest.raises(TypeError):
        len(ca.asarray(1.0, device=device))
    with pytest.raises(TypeError):
        iter(ca.asarray(1.0, device=device))
    assert [x.item() for x in ca.asarray(np.arange(4), device=device)] == [0, 1, 2, 3]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_scalar_conversions(device, dtype):
    h = rnd((), dtype)
    a = ca.asarray(h, device=device)
    assert bool(a) == bool(h)
    assert a.item() == h.item()
    assert type(a.item()) is type(h.item())
    assert complex(a) == complex(h)
    if np.dtype(dtype).kind != "c":
        assert float(a) == float(h)
        assert int(a) == int(h)
    else:
        with pytest.raises(TypeError):
            float(a)
        with pytest.raises(TypeError):
            int(a)
    if np.dtype(dtype).kind in "iu":
        assert operator.index(a) == operator.index(h)
    else:
        with pytest.raises(TypeError):
            operator.index(a)


def test_scalar_conversion_errors(device):
    a = ca.asarray([1, 2], device=device)
    with pytest.raises(ValueError):
        bool(a)
    with pytest.raises(ValueError):
        bool(ca.empty(0, device=device))
    # As CuPy (NumPy 2 would insist on 0-d): one element in any shape.
    assert int(ca.asarray([[7]], device=device)) == 7
    assert float(ca.asarray([2.5], device=device)) == 2.5
    assert complex(ca.asarray([[1j]], device=device)) == 1j
    with pytest.raises(TypeError):
        float(a)
    with pytest.raises(TypeError):
        int(ca.empty(0, device=device))
    with pytest.raises(TypeError):
        operator.index(ca.asarray([3], device=device))
    assert bool(ca.asarray([5], device=device)) is True
    with pytest.raises(ValueError):
        int(ca.asarray(np.nan, device=device))


def test_item(device):
    h = rnd((3, 4), np.float32)
    a = ca.asarray(h, device=device)
    for args in [(0,), (5,), (-1,), (11,), (1, 2), ((2, 3),), (-1, -1)]:
        assert a.item(*args) == h.item(*args)
    with pytest.raises(ValueError):
        a.item()
    with pytest.raises(IndexError):
        a.item(12)
    with pytest.raises(IndexError):
        a.item(3, 0)
    with pytest.raises(ValueError):
        a.item(1, 2, 3)
    t = a.T
    assert t.item(5) == h.T.item(5)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3)])
def test_tolist(device, dtype, shape):
    h = rnd(shape, dtype)
    a = ca.asarray(h, device=device)
    assert a.tolist() == h.tolist()
    assert a.T.tolist() == h.T.tolist()


# ---- Array API ------------------------------------------------------------------------


def test_array_namespace(device):
    a = ca.empty(3, device=device)
    assert a.__array_namespace__() is ca
    assert a.__array_namespace__(api_version="2023.12") is ca
    with pytest.raises(ValueError):
        a.__array_namespace__(api_version="1999.01")
    assert a.__array_namespace__(api_version="2024.12") is ca
    assert ca.__array_api_version__ == "2024.12"


def test_namespace_info():
    info = ca.__array_namespace_info__()
    caps = info.capabilities()
    assert caps["boolean indexing"] is True
    assert isinstance(caps["max dimensions"], int)
    assert info.default_dtypes()["real floating"] == np.float64
    assert info.default_dtypes()["indexing"] == np.int64
    assert set(info.dtypes(kind="integral")) == {
        "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}
    assert set(info.dtypes(kind=("bool", "complex floating"))) == {
        "bool", "complex64", "complex128"}
    assert "float32" in info.dtypes()
    devs = info.devices()
    assert info.default_device() in devs
    assert any(str(d) == "cpu" for d in devs)
    with pytest.raises(ValueError):
        info.dtypes(kind="strings")


def test_to_device(device):
    h = rnd((3, 2), np.float32)
    a = ca.asarray(h, device=device)
    assert a.to_device(device) is a
    b = a.to_device("cpu")
    assert str(b.device) == "cpu"
    np.testing.assert_array_equal(b.get(), h)
    c = b.to_device(device)
    np.testing.assert_array_equal(c.get(), h)
    assert str(c.device) == str(a.device)


# ---- misc -----------------------------------------------------------------------------


def test_ndarray_constructor(device):
    a = ca.ndarray((2, 3), dtype=np.int16, device=device)
    assert a.shape == (2, 3) and a.dtype == np.int16


@pytest.mark.parametrize("dtype", [np.float32, np.complex128, np.bool_])
def test_pickle(device, dtype):
    h = rnd((3, 5), dtype)
    a = ca.asarray(h, device=device)
    b = pickle.loads(pickle.dumps(a))
    assert isinstance(b, ca.ndarray)
    assert str(b.device) == str(a.device)
    np.testing.assert_array_equal(b.get(), h)


def test_flags_object(device):
    a = ca.empty((2, 3), device=device)
    f = a.flags
    assert f.c_contiguous and not f.f_contiguous and f.owndata and f.writeable
    assert f.aligned and f["A"] and f["W"] and f["O"] and f["C"]
    with pytest.raises(KeyError):
        f["nope"]
    assert "C_CONTIGUOUS : True" in repr(f)
    assert a.flags == a.flags
    assert a.T.flags != a.flags


def test_weakref(device):
    import weakref

    a = ca.empty(3, device=device)
    r = weakref.ref(a)
    assert r() is a
    del a
    assert r() is None


def test_view_keeps_memory_alive(device):
    h = rnd((4, 4), np.float64)
    a = ca.asarray(h, device=device)
    t = a.T
    del a
    np.testing.assert_array_equal(t.get(), h.T)
