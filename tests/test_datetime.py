"""datetime64 and timedelta64 arrays (python/cuarray/_datetime.py) against NumPy.

Random int64 data with NaT sprinkled in, every NumPy unit, on both devices; every
result is compared with np.testing.assert_array_equal, dtype and NaT positions
included.
"""

import numpy as np
import pytest

import cuarray as ca
from conftest import requires_gpu, unary_as_numpy

UNITS = ["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as"]
LINEAR = UNITS[2:]
KINDS = ["M8", "m8"]
NAT = np.iinfo(np.int64).min
I64MAX = np.iinfo(np.int64).max


def data(dtype, shape=(40,), seed=0, span=10**6, nat=0.2, edges=False):
    """Random values of dtype (NaT at about `nat` of the positions)."""
    rng = np.random.default_rng(seed)
    b = rng.integers(-span, span, size=shape, dtype=np.int64)
    b[rng.random(shape) < nat] = NAT
    if edges:
        b.flat[:3] = [NAT + 1, I64MAX, 0]
    return b.view(dtype)


def same(x, h):
    """x (a cuarray array) holds exactly NumPy's h: values, NaT positions, dtype."""
    assert isinstance(x, ca.ndarray)
    assert x.dtype == h.dtype, (x.dtype, h.dtype)
    assert x.shape == h.shape
    g = x.get()
    assert g.dtype == h.dtype
    np.testing.assert_array_equal(g, h)
    if h.dtype.kind in "Mm":
        np.testing.assert_array_equal(np.isnat(g), np.isnat(h))


def dt(kind, unit):
    return np.dtype(f"{kind}[{unit}]")


# ---------------------------------------------------------------- dtype, conversion


@pytest.mark.parametrize("unit", UNITS)
@pytest.mark.parametrize("kind", KINDS)
def test_round_trip_every_unit(device, kind, unit):
    h = data(dt(kind, unit), (5, 8), edges=True)
    x = ca.asarray(h, device=device)
    assert x.dtype == h.dtype and x.itemsize == 8 and x.nbytes == h.nbytes
    same(x, h)
    np.testing.assert_array_equal(ca.asnumpy(x), h)
    assert ca.asnumpy(x).dtype == h.dtype
    same(ca.array(h, device=device), h)
    if device == "cpu":  # zero-copy both ways on the cpu device
        v = np.asarray(x)
        assert v.dtype == h.dtype and np.shares_memory(v, h)
        np.testing.assert_array_equal(v, h)


def test_generic_unit(device):
    h = np.array(["NaT", "NaT"], dtype="M8")
    same(ca.asarray(h, device=device), h)
    h = np.array([1, -2, NAT], dtype="m8")
    same(ca.asarray(h, device=device), h)


def test_non_native_byte_order(device):
    h = data(np.dtype(">M8[s]"))
    same(ca.asarray(h, device=device), h.astype("<M8[s]"))


def test_scalars_and_strings(device):
    s = np.datetime64("2021-03-04T05:06", "m")
    same(ca.asarray(s, device=device), np.asarray(s))
    strings = ["2020-01-01", "NaT", "1969-12-31T23:59:59.123", "2262-04-11"]
    for unit in ("D", "s", "ms", "ns"):
        same(ca.array(strings, dtype=f"M8[{unit}]", device=device),
             np.array(strings, dtype=f"M8[{unit}]"))
    same(ca.asarray(strings[:2] + ["2020-02"], dtype="M8", device=device),
         np.asarray(strings[:2] + ["2020-02"], dtype="M8"))
    same(ca.asarray([np.timedelta64(3, "h"), np.timedelta64("NaT")], device=device),
         np.asarray([np.timedelta64(3, "h"), np.timedelta64("NaT")]))
    same(ca.array(strings, dtype="M8[D]", ndmin=3, device=device),
         np.array(strings, dtype="M8[D]", ndmin=3))
    a, b = np.datetime64("2020-01-30"), np.datetime64("2020-03-02")
    same(ca.arange(a, b, device=device), np.arange(a, b))
    same(ca.arange(a, b, 7, dtype="M8[h]", device=device), np.arange(a, b, 7, dtype="M8[h]"))
    same(ca.arange(0, 9, 2, dtype="m8[s]", device=device), np.arange(0, 9, 2, dtype="m8[s]"))


@pytest.mark.parametrize("dtype", ["M8[ns]", "m8[s]", "M8[Y]", "m8[M]", "M8[D]"])
def test_creation(device, dtype):
    d = np.dtype(dtype)
    for f in (ca.empty, ca.zeros, ca.ones):
        x = f((2, 3), dtype=dtype, device=device)
        assert type(x) is not np.ndarray and x.dtype == d and x.shape == (2, 3)
    same(ca.zeros((2, 3), dtype=dtype, device=device), np.zeros((2, 3), dtype))
    same(ca.ones(4, dtype=dtype, device=device), np.ones(4, dtype))
    v = np.array(7, dtype)
    same(ca.full((3,), v[()], device=device), np.full((3,), v[()]))
    same(ca.full((2, 2), "NaT", dtype=dtype, device=device), np.full((2, 2), "NaT", dtype))
    same(ca.full(3, 5, dtype=dtype, device=device), np.full(3, 5, dtype))
    h = data(d, (3, 4))
    x = ca.asarray(h, device=device)
    same(ca.zeros_like(x), np.zeros_like(h))
    same(ca.ones_like(x), np.ones_like(h))
    same(ca.full_like(x, "NaT"), np.full_like(h, "NaT"))
    assert ca.empty_like(x).dtype == d and ca.empty_like(x).shape == (3, 4)
    same(ca.zeros_like(x, dtype=np.int64), np.zeros_like(h, dtype=np.int64))
    same(ca.zeros_like(ca.zeros(3, device=device), dtype=dtype), np.zeros(3, dtype))
    with ca.Device(device):
        same(ca.zeros_like(h), np.zeros_like(h))  # a NumPy prototype
        same(ca.full_like(h, 3), np.full_like(h, 3))
        same(ca.ones_like(h.view(np.int64), dtype=dtype), np.ones_like(h))
    same(ca.ascontiguousarray(x.T), np.ascontiguousarray(h.T))
    same(ca.asfortranarray(x), np.asfortranarray(h))
    assert ca.asfortranarray(x).flags.f_contiguous


def test_asarray_options(device):
    h = data(np.dtype("M8[s]"))
    x = ca.asarray(h, device=device)
    assert ca.asarray(x) is x
    same(ca.asarray(x, dtype="M8[ms]"), h.astype("M8[ms]"))
    y = ca.array(x)
    assert y is not x
    same(y, h)
    y[0] = "2000-01-01"
    same(x, h)  # a copy
    same(ca.asarray(x, dtype=np.int64), h.view(np.int64))
    same(ca.asarray(x, device="cpu"), h)


# ---------------------------------------------------------------- casts


@pytest.mark.parametrize("src", LINEAR)
@pytest.mark.parametrize("kind", KINDS)
def test_astype_between_linear_units(device, kind, src):
    h = data(dt(kind, src), seed=1)
    x = ca.asarray(h, device=device)
    for dst in LINEAR:
        try:
            with np.errstate(all="ignore"):
                ref = h.astype(dt(kind, dst))
        except OverflowError:  # a factor beyond int64 (W -> ps ...)
            with pytest.raises(OverflowError):
                x.astype(dt(kind, dst))
            continue
        same(x.astype(dt(kind, dst)), ref)


@pytest.mark.parametrize("kind", KINDS)
def test_astype_calendar_units(device, kind):
    for src in ("Y", "M", "D", "s"):
        h = data(dt(kind, src), span=3000, seed=2)
        x = ca.asarray(h, device=device)
        for dst in ("Y", "M", "D", "h"):
            try:
                ref = h.astype(dt(kind, dst))
            except (TypeError, ValueError) as e:
                with pytest.raises(type(e)):
                    x.astype(dt(kind, dst))
                continue
            same(x.astype(dt(kind, dst)), ref)


@pytest.mark.parametrize("dtype", ["M8[s]", "m8[ns]", "M8[D]"])
def test_astype_int64_and_others(device, dtype):
    h = data(np.dtype(dtype), edges=True)
    x = ca.asarray(h, device=device)
    same(x.astype(np.int64), h.astype(np.int64))
    same(x.view(np.int64), h.view(np.int64))
    same(x.astype(np.float64), h.astype(np.float64))
    same(x.astype(np.int32), h.astype(np.int32))
    same(x.astype(bool), h.astype(bool))
    i = ca.asarray(h.view(np.int64), device=device)
    same(i.astype(dtype), h.view(np.int64).astype(dtype))
    same(i.view(dtype), h)
    same(ca.arange(5, device=device).astype(dtype), np.arange(5).astype(dtype))
    with pytest.raises(TypeError):
        x.astype(np.int64, casting="safe")


# ---------------------------------------------------------------- views, indexing


@pytest.mark.parametrize("dtype", ["M8[ms]", "m8[us]"])
def test_views_copies_indexing(device, dtype):
    h = data(np.dtype(dtype), (6, 5), seed=3)
    x = ca.asarray(h, device=device)
    same(x[1:4, ::2], h[1:4, ::2])
    same(x.T, h.T)
    same(x.reshape(5, 6), h.reshape(5, 6))
    same(x.T.reshape(30), h.T.reshape(30))
    same(x.ravel(), h.ravel())
    same(x.flatten(), h.flatten())
    same(x.copy(), h.copy())
    same(x[[0, 2, 5]], h[[0, 2, 5]])
    same(x[:, [4, 0]], h[:, [4, 0]])
    m = np.isnat(h)
    same(x[ca.asarray(m, device=device)], h[m])
    same(x[2, 3], np.asarray(h[2, 3]))
    same(x[None, 1], h[None, 1])
    same(x.squeeze(), h.squeeze())
    same(x.swapaxes(0, 1), h.swapaxes(0, 1))
    same(x.take([1, 3]), h.take([1, 3]))
    same(x.repeat(2, axis=0), h.repeat(2, axis=0))
    same(x.diagonal(), h.diagonal())
    assert x.tolist() == h.tolist()
    assert [e.tolist() for e in x] == [e.tolist() for e in h]
    assert repr(x) == repr(h)
    import copy
    import pickle
    same(copy.deepcopy(x), h)
    same(pickle.loads(pickle.dumps(x)), h)


@pytest.mark.parametrize("dtype", ["M8[s]", "m8[ms]"])
def test_setitem_and_fill(device, dtype):
    h = data(np.dtype(dtype), (4, 6), seed=4)
    x = ca.asarray(h.copy(), device=device)
    h = h.copy()
    unit = np.datetime_data(np.dtype(dtype))[0]
    for key, val in [
        ((0, 0), np.array(3, dtype)[()]),
        ((1, slice(None)), "NaT"),
        ((slice(None), 2), 17),
        ((2, slice(1, 4)), np.array([1, 2, 3], dtype.replace(unit, "h"))),
        ((3, slice(None, None, 2)), np.array(["NaT", 5, 6], dtype)),
    ]:
        x[key] = val
        h[key] = val
        same(x, h)
    y = ca.asarray(data(np.dtype(dtype.replace(unit, "D")), (6,), seed=5), device=device)
    x[0] = y
    h[0] = y.get()
    same(x, h)
    if dtype.startswith("M8"):
        x[1, 1] = "2001-02-03T04:05:06"
        h[1, 1] = "2001-02-03T04:05:06"
        same(x, h)
    x.fill("NaT")
    h.fill("NaT")
    same(x, h)


# ---------------------------------------------------------------- interop


def test_dlpack_refused_as_numpy(device):
    h = data(np.dtype("M8[ns]"))
    x = ca.asarray(h, device=device)
    with pytest.raises(BufferError) as ref:
        h.__dlpack__()
    with pytest.raises(type(ref.value)):
        x.__dlpack__()
    with pytest.raises(type(ref.value)):
        np.from_dlpack(x)


def test_buffer_protocol_refused_as_numpy():
    x = ca.asarray(data(np.dtype("m8[s]")), device="cpu")
    with pytest.raises(BufferError):
        memoryview(x)


class Producer:
    def __init__(self, iface, keep=None):
        self.__cuda_array_interface__ = iface
        self.keep = keep


def test_cai_typestr_is_not_malformed():
    # cpu only: the import gets past the typestr (to the host pointer's own error)
    p = Producer(dict(shape=(4,), typestr="<M8[ns]", data=(4096, False), version=3))
    with pytest.raises(Exception) as e:
        ca.asarray(p, device="cpu")
    assert "malformed" not in str(e.value)
    assert "typestr" not in str(e.value) or "M8" not in str(e.value)


@requires_gpu
@pytest.mark.parametrize("dtype", ["M8[ns]", "m8[s]", "M8[D]", "m8[as]"])
def test_cai_round_trip(dtype):
    h = data(np.dtype(dtype), (3, 4))
    x = ca.asarray(h, device="cuda:0")
    cai = x.__cuda_array_interface__
    assert cai["typestr"] == np.dtype(dtype).str
    y = ca.asarray(Producer(cai, keep=x))
    same(y, h)
    assert y.__cuda_array_interface__["data"][0] == cai["data"][0]
    same(ca.asarray(Producer(x.T.__cuda_array_interface__, keep=x)), h.T)


# ---------------------------------------------------------------- comparisons, order

CMP = ["__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"]


@pytest.mark.parametrize("pair", [("M8[s]", "M8[s]"), ("M8[s]", "M8[ms]"),
                                  ("m8[h]", "m8[m]"), ("M8[D]", "M8[ns]"),
                                  ("M8[Y]", "M8[D]"), ("m8[us]", "m8[us]")])
def test_comparisons(device, pair):
    a = data(np.dtype(pair[0]), (5, 8), seed=6, span=50, nat=0.25)
    b = data(np.dtype(pair[1]), (5, 8), seed=7, span=50, nat=0.25)
    b[1] = a[1]  # equal values (and NaT == NaT is False)
    x, y = ca.asarray(a, device=device), ca.asarray(b, device=device)
    for op in CMP:
        same(getattr(x, op)(y), getattr(a, op)(b))
        same(getattr(x, op)(y[0]), getattr(a, op)(b[0]))  # broadcast
        same(getattr(x, op)(b[0, 0]), getattr(a, op)(b[0, 0]))  # a NumPy scalar
        same(getattr(y[2, 3], op)(x), getattr(b[2, 3], op)(a))  # a 0-d array
        with pytest.raises(TypeError, match="NumPy arrays"):  # as cuarray's ops
            getattr(x, op)(b)


def test_comparisons_nat_and_refusals(device):
    a = np.array(["NaT", "2020-01-01", "NaT"], "M8[s]")
    x = ca.asarray(a, device=device)
    nat = np.datetime64("NaT")
    for op in CMP:
        same(getattr(x, op)(nat), getattr(a, op)(nat))
        same(getattr(x, op)(x), getattr(a, op)(a))
    # == and != of operands NumPy has no loop for: all False / all True
    t = np.array([1, 2, 3], "m8[s]")
    same(x == ca.asarray(t, device=device), a == t)
    same(x != ca.asarray(t, device=device), a != t)
    same(x == 1, a == 1)
    same(x == "2020-01-01", a == "2020-01-01")
    for bad in (ca.asarray(t, device=device), 1):
        with pytest.raises(TypeError) as ref:
            a < (t if not isinstance(bad, int) else bad)
        with pytest.raises(type(ref.value)):
            x < bad


@pytest.mark.parametrize("dtype", ["M8[ns]", "m8[s]", "M8[D]"])
def test_isnat(device, dtype):
    h = data(np.dtype(dtype), (4, 5), nat=0.4, edges=True)
    x = ca.asarray(h, device=device)
    same(ca.isnat(x), np.isnat(h))
    same(ca.isnat(h), np.isnat(h))
    for bad in (ca.arange(3, device=device), np.arange(3)):
        with pytest.raises(TypeError):
            np.isnat(np.arange(3))
        with pytest.raises(TypeError):
            ca.isnat(bad)


@pytest.mark.parametrize("dtype", ["M8[ns]", "m8[s]", "M8[D]", "m8[Y]"])
def test_min_max(device, dtype):
    h = data(np.dtype(dtype), (6, 7), seed=8, nat=0.05, edges=True)
    h[:, 0] = np.array(1, dtype)  # a column without NaT
    h[1:, 0] = np.array(5, dtype)
    h[2] = np.array("NaT", dtype)  # a row of NaT only
    x = ca.asarray(h, device=device)
    for f in ("min", "max"):
        for axis in (None, 0, 1, (0, 1)):
            for keepdims in (False, True):
                want = getattr(h, f)(axis=axis, keepdims=keepdims)
                same(getattr(x, f)(axis=axis, keepdims=keepdims), np.asarray(want))
    for f in ("argmin", "argmax"):
        for axis in (None, 0, 1):
            same(getattr(ca, f)(x, axis=axis), np.asarray(getattr(np, f)(h, axis=axis)))
            same(getattr(x, f)(axis=axis), np.asarray(getattr(h, f)(axis=axis)))
    clean = h[3:, :1]
    if not np.isnat(clean).any():
        same(ca.asarray(clean, device=device).max(), np.asarray(clean.max()))
    with pytest.raises(ValueError):
        x[:0].max()


@pytest.mark.parametrize("dtype", ["M8[ns]", "m8[s]", "M8[D]"])
def test_sort_argsort(device, dtype):
    h = data(np.dtype(dtype), (5, 30), seed=9, span=20, nat=0.2, edges=True)
    x = ca.asarray(h, device=device)
    for axis in (-1, 0, None):
        same(ca.sort(x, axis=axis), np.sort(h, axis=axis))
        idx = ca.argsort(x, axis=axis, kind="stable")
        same(idx, np.argsort(h, axis=axis, kind="stable"))
        same(x.argsort(axis=axis, stable=True), np.argsort(h, axis=axis, kind="stable"))
    y = x.copy()
    y.sort(axis=0)
    s = h.copy()
    s.sort(axis=0)
    same(y, s)


# ---------------------------------------------------------------- arithmetic


def arith_data(dtype, seed, shape=(4, 9)):
    return data(np.dtype(dtype), shape, seed=seed, span=10**4, nat=0.2)


def check_binary(device, op, a, b):
    """op(x, y) against NumPy: NumPy arrays go to the device, scalars stay (Python's
    and NumPy's, which then meet DatetimeArray's __array_ufunc__ when on the left)."""
    def dev(v):
        return ca.asarray(v, device=device) if isinstance(v, np.ndarray) else v
    with np.errstate(all="ignore"):
        want = op(a, b)
    same(op(dev(a), dev(b)), np.asarray(want))


ADD_SUB = [("M8[s]", "m8[s]"), ("M8[s]", "m8[ms]"), ("M8[D]", "m8[h]"),
           ("m8[us]", "m8[ns]"), ("m8[h]", "M8[m]"), ("M8[ns]", "M8[ns]"),
           ("M8[s]", "M8[us]"), ("m8[W]", "m8[D]"), ("M8[M]", "m8[M]"),
           ("M8[Y]", "m8[Y]"), ("M8[D]", "int64"), ("m8[s]", "int32"),
           ("M8[D]", "M8[Y]")]


@pytest.mark.parametrize("pair", ADD_SUB, ids="-".join)
def test_add_subtract(device, pair):
    a = arith_data(pair[0], 10)
    b = arith_data(pair[1], 11) if pair[1][0] in "Mm" else \
        np.random.default_rng(0).integers(-99, 99, (4, 9)).astype(pair[1])
    for op in (lambda p, q: p + q, lambda p, q: q + p, lambda p, q: p - q,
               lambda p, q: q - p):
        try:
            with np.errstate(all="ignore"):
                op(a, b)
        except TypeError as e:  # datetime + datetime, int - datetime ...
            with pytest.raises(TypeError) as got:
                op(ca.asarray(a, device=device), ca.asarray(b, device=device))
            assert isinstance(got.value, type(e)) or type(e).__name__.startswith("_UFunc")
            continue
        check_binary(device, op, a, b)
        check_binary(device, op, a, b[0, 0])  # a NumPy scalar
        check_binary(device, op, a[1, 2], b)
    x = ca.asarray(a, device=device)
    same(x + 3, a + 3) if a.dtype.kind in "Mm" else None
    same(x - True, a - True)


@pytest.mark.parametrize("dtype", ["m8[s]", "m8[ns]", "m8[D]"])
def test_timedelta_scaling(device, dtype):
    a = arith_data(dtype, 12)
    a.flat[:2] = np.array([-7, 7], dtype)
    ints = np.random.default_rng(1).integers(-5, 6, (4, 9))
    floats = np.random.default_rng(2).uniform(-3, 3, (4, 9))
    floats.flat[:3] = [np.nan, np.inf, 0.0]
    for b in (ints, ints.astype(np.int16), 3, -2, 0, floats, 1.5, np.float32(2.5)):
        for op in (lambda p, q: p * q, lambda p, q: q * p, lambda p, q: p // q,
                   lambda p, q: p / q):
            check_binary(device, op, a, b)


@pytest.mark.parametrize("pair", [("m8[s]", "m8[s]"), ("m8[s]", "m8[ms]"),
                                  ("m8[h]", "m8[D]")])
def test_timedelta_division(device, pair):
    a, b = arith_data(pair[0], 13), arith_data(pair[1], 14)
    b.flat[:3] = np.array(0, b.dtype)
    a.flat[:2] = np.array([-7, 7], a.dtype)
    for op in (lambda p, q: p / q, lambda p, q: p // q, lambda p, q: p % q):
        check_binary(device, op, a, b)


@pytest.mark.parametrize("dtype", ["m8[s]", "m8[as]", "M8[s]"])
def test_unary(device, dtype):
    a = data(np.dtype(dtype), edges=True)
    x = ca.asarray(a, device=device)
    for op in (lambda p: -p, lambda p: abs(p), lambda p: +p):
        unary_as_numpy(op, a, x, same)


def test_refused_as_numpy(device):
    d = ca.asarray(arith_data("M8[s]", 15), device=device)
    t = ca.asarray(arith_data("m8[s]", 16), device=device)
    for op in (lambda p, q: p + p, lambda p, q: p * 2, lambda p, q: p * q,
               lambda p, q: t * t, lambda p, q: p / 2, lambda p, q: q + 1.5,
               lambda p, q: 2 // q, lambda p, q: p // p):
        with pytest.raises(TypeError) as ref:
            op(d.get(), t.get())
        with pytest.raises(TypeError) as got:
            op(d, t)
        assert type(got.value) is type(ref.value)  # NumPy's own exception class


def test_inplace(device):
    a = arith_data("M8[s]", 17)
    t = arith_data("m8[s]", 18)
    x, y = ca.asarray(a.copy(), device=device), ca.asarray(t, device=device)
    x += y
    a = a + t
    same(x, a)
    x -= y[0]
    a -= t[0]
    same(x, a)
    with pytest.raises(TypeError):
        x *= 2


def test_ufunc_functions_and_numpy_dispatch(device):
    a, t = arith_data("M8[s]", 19), arith_data("m8[ms]", 20)
    x, y = ca.asarray(a, device=device), ca.asarray(t, device=device)
    same(ca.add(x, y), a + t)
    same(ca.subtract(x, x), a - a)
    same(np.add(x, y), a + t)  # NumPy's dispatch to DatetimeArray.__array_ufunc__
    same(np.isnat(x), np.isnat(a))
    same(ca.less(x, x[0]), a < a[0])
    same(ca.maximum(x, x[::-1]), np.maximum(a, a[::-1]))
    same(np.minimum(x, x[0]), np.minimum(a, a[0]))
    same(np.subtract(x, x[0]), a - a[0])
    with pytest.raises(TypeError):
        np.sin(y)
    same(ca.minimum(y, y[0]), np.minimum(t, t[0]))
    same(ca.negative(y), -t)
    s = np.timedelta64(5, "s")
    i = np.arange(9)
    same(s + ca.asarray(i, device=device), s + i)  # NumPy scalar with a plain array
    same(ca.asarray(i, device=device) * s, i * s)
    same(ca.min(x, axis=0), a.min(axis=0))
    same(ca.max(x), np.asarray(a.max()))
    same(ca.sum(y, axis=1), t.sum(axis=1))
    same(y.sum(), np.asarray(t.sum()))
    same(ca.mean(y, axis=0), t.mean(axis=0))
    same(y[:, :3].mean(axis=1, keepdims=True), t[:, :3].mean(axis=1, keepdims=True))
    clean = ca.asarray(np.array([-7, 2, 3, -9, 1], "m8[s]"), device=device)
    same(clean.mean(), np.asarray(clean.get().mean()))
    with pytest.raises(TypeError):
        ca.sum(x)  # NumPy refuses datetime64 sums
    with pytest.raises(TypeError):
        ca.sin(y)
    o = ca.empty(a.shape, "M8[ms]", device=device)
    assert ca.add(x, y, out=o) is o
    same(o, a + t)


def test_concatenate_stack_where(device):
    a, b = arith_data("M8[s]", 21), arith_data("M8[ms]", 22)
    t = arith_data("m8[s]", 23)
    x, y, z = (ca.asarray(v, device=device) for v in (a, b, t))
    same(ca.concatenate([x, y]), np.concatenate([a, b]))
    same(ca.concatenate([x, x], axis=1), np.concatenate([a, a], axis=1))
    same(ca.concatenate([x, y], axis=None), np.concatenate([a, b], axis=None))
    same(ca.concat([x, y]), np.concatenate([a, b]))
    same(ca.stack([x, y], axis=1), np.stack([a, b], axis=1))
    with pytest.raises(TypeError):
        np.concatenate([a, t])
    with pytest.raises(TypeError):
        ca.concatenate([x, z])
    c = np.isnat(a) | (a.view(np.int64) % 3 == 0)
    cc = ca.asarray(c, device=device)
    same(ca.where(cc, x, y), np.where(c, a, b))
    same(ca.where(cc, x, np.datetime64("NaT")), np.where(c, a, np.datetime64("NaT")))
    same(ca.where(cc, np.timedelta64(4, "h"), z), np.where(c, np.timedelta64(4, "h"), t))


@pytest.mark.parametrize("dtype", ["M8[s]", "m8[ms]"])
def test_unique_searchsorted_isin_clip(device, dtype):
    h = data(np.dtype(dtype), (50,), seed=24, span=12, nat=0.2, edges=True)
    x = ca.asarray(h, device=device)
    same(ca.unique(x), np.unique(h))
    got, want = ca.unique(x, return_counts=True), np.unique(h, return_counts=True)
    same(got[0], want[0])
    same(got[1], want[1])
    s = np.sort(h)
    xs = ca.asarray(s, device=device)
    q = h[:10]
    for side in ("left", "right"):
        same(ca.searchsorted(xs, ca.asarray(q, device=device), side=side),
             np.searchsorted(s, q, side=side))
        same(xs.searchsorted(ca.asarray(q, device=device), side=side),
             s.searchsorted(q, side=side))
    same(ca.isin(x, x[:7]), np.isin(h, h[:7]))
    same(ca.isin(x, x[:7], invert=True), np.isin(h, h[:7], invert=True))
    lo, hi = np.array(-3, dtype)[()], np.array(4, dtype)[()]
    same(ca.clip(x, lo, hi), np.clip(h, lo, hi))
    same(x.clip(min=lo), h.clip(min=lo))
    same(ca.clip(x, x[::-1], None), np.clip(h, h[::-1], None))


@pytest.mark.parametrize("dtype", ["M8[us]", "m8[D]"])
def test_partition(device, dtype):
    h = data(np.dtype(dtype), (3, 40), seed=25, span=1000, nat=0.3, edges=True)
    x = ca.asarray(h, device=device)
    for kth in (0, 5, 39, (3, 20)):
        got, want = ca.partition(x, kth, axis=1), np.partition(h, kth, axis=1)
        k = np.atleast_1d(kth)
        same(got[:, k], want[:, k])  # the kth elements; the rest are only bounded
        idx = ca.argpartition(x, kth, axis=1)
        same(ca.take_along_axis(x, idx, axis=1)[:, k], want[:, k])
    y = x.copy()
    y.partition(7)
    same(y[:, 7], np.partition(h, 7)[:, 7])


@pytest.mark.parametrize("unit", UNITS + ["generic"])
@pytest.mark.parametrize("kind", KINDS)
def test_creation_every_unit(device, kind, unit):
    d = np.dtype(kind if unit == "generic" else f"{kind}[{unit}]")
    for f in (np.zeros, np.ones):
        try:
            want = f((2, 3), d)
        except (TypeError, ValueError) as e:
            with pytest.raises(type(e)):
                getattr(ca, f.__name__)((2, 3), dtype=d, device=device)
            continue
        same(getattr(ca, f.__name__)((2, 3), dtype=d, device=device), want)
    e = ca.empty((4,), dtype=d, device=device)
    assert e.dtype == d and e.shape == (4,)
    same(ca.full(3, "NaT", dtype=d, device=device), np.full(3, "NaT", d))
    h = data(d, (7,), edges=True) if unit != "generic" or kind == "m8" else \
        np.array(["NaT"] * 7, d)
    x = ca.asarray(h, device=device)
    same(x.astype(np.int64).astype(d), h.astype(np.int64).astype(d))
    same(ca.asarray(x.view(np.int64)).view(d), h)
