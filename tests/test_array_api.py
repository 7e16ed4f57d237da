"""Conformance with the Python array API standard (2024.12), written from its text.

The namespace's names; the inspection namespace; the type promotion tables; every
function's signature and result (checked against NumPy 2, which implements the same
standard, on both devices); and the special-case tables of the element-wise
functions' pages, real and complex (C99 Annex G), value by value.
"""

import cmath
import math

import numpy as np
import pytest

import cuarray as ca

nan, inf, pi = math.nan, math.inf, math.pi

# ---------------------------------------------------------------------------
# the namespace
# ---------------------------------------------------------------------------

FUNCTIONS = """
abs acos acosh add asin asinh atan atan2 atanh bitwise_and bitwise_left_shift
bitwise_invert bitwise_or bitwise_right_shift bitwise_xor ceil clip conj copysign cos
cosh divide equal exp expm1 floor floor_divide greater greater_equal hypot imag
isfinite isinf isnan less less_equal log log1p log2 log10 logaddexp logical_and
logical_not logical_or logical_xor maximum minimum multiply negative nextafter
not_equal positive pow real reciprocal remainder round sign signbit sin sinh square
sqrt subtract tan tanh trunc
arange asarray empty empty_like eye from_dlpack full full_like linspace meshgrid ones
ones_like tril triu zeros zeros_like
astype can_cast finfo iinfo isdtype result_type
take take_along_axis
matmul matrix_transpose tensordot vecdot
broadcast_arrays broadcast_to concat expand_dims flip moveaxis permute_dims repeat
reshape roll squeeze stack tile unstack
argmax argmin count_nonzero nonzero searchsorted where
unique_all unique_counts unique_inverse unique_values
argsort sort
cumulative_prod cumulative_sum max mean min prod std sum var
all any diff
__array_namespace_info__
""".split()
CONSTANTS = ["e", "inf", "nan", "newaxis", "pi"]
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
          "uint64", "float32", "float64", "complex64", "complex128"]
ARRAY_ATTRS = ["dtype", "device", "mT", "ndim", "shape", "size", "T", "to_device",
               "__array_namespace__", "__dlpack__", "__dlpack_device__", "__bool__",
               "__complex__", "__float__", "__index__", "__int__", "__getitem__",
               "__setitem__", "__abs__", "__add__", "__and__", "__eq__", "__floordiv__",
               "__ge__", "__gt__", "__invert__", "__le__", "__lshift__", "__lt__",
               "__matmul__", "__mod__", "__mul__", "__ne__", "__neg__", "__or__",
               "__pos__", "__pow__", "__rshift__", "__sub__", "__truediv__",
               "__xor__", "__iadd__", "__rmatmul__", "__rtruediv__"]


# Names another branch brings (in flight beside this one), as test_api_coverage.py
# lists them: the test fails for any other missing name.
OWNED_ELSEWHERE = {"matrix_transpose", "vecdot"}  # issue 10 (linear algebra)


def test_namespace_has_every_name():
    missing = [n for n in FUNCTIONS + CONSTANTS + DTYPES if not hasattr(ca, n)]
    assert set(missing) <= OWNED_ELSEWHERE, missing
    assert ca.__array_api_version__ == "2024.12"
    for n in DTYPES:
        assert np.dtype(getattr(ca, n)) == np.dtype(n)


def test_array_object_attributes():
    x = ca.zeros((2, 3))
    missing = [n for n in ARRAY_ATTRS if not hasattr(x, n)]
    assert not missing, missing
    assert x.__array_namespace__() is ca
    for v in ("2021.12", "2022.12", "2023.12", "2024.12", None):
        assert x.__array_namespace__(api_version=v) is ca
    with pytest.raises(ValueError):
        x.__array_namespace__(api_version="2019.01")


def test_constants():
    assert ca.e == math.e and ca.pi == math.pi and ca.inf == math.inf
    assert math.isnan(ca.nan) and ca.newaxis is None
    assert isinstance(ca.e, float) and isinstance(ca.inf, float)


# ---------------------------------------------------------------------------
# __array_namespace_info__
# ---------------------------------------------------------------------------

def test_namespace_info():
    info = ca.__array_namespace_info__()
    caps = info.capabilities()
    assert caps["boolean indexing"] is True
    assert caps["data-dependent shapes"] is True
    assert caps["max dimensions"] == 32
    devs = info.devices()
    assert info.default_device() in devs
    assert any(str(d).startswith("cpu") or getattr(d, "id", None) is not None for d in devs)
    dd = info.default_dtypes()
    assert set(dd) == {"real floating", "complex floating", "integral", "indexing"}
    assert dd["real floating"] == np.float64 and dd["complex floating"] == np.complex128
    assert dd["integral"] == np.int64 and dd["indexing"] == np.int64
    for d in devs:
        assert info.default_dtypes(device=d) == dd
    every = info.dtypes()
    assert set(every) == set(DTYPES)
    assert all(every[n] == np.dtype(n) for n in DTYPES)
    assert set(info.dtypes(kind="bool")) == {"bool"}
    assert set(info.dtypes(kind="signed integer")) == {"int8", "int16", "int32", "int64"}
    assert set(info.dtypes(kind="unsigned integer")) == {"uint8", "uint16", "uint32",
                                                          "uint64"}
    assert set(info.dtypes(kind="integral")) == set(info.dtypes(kind="signed integer")) | \
        set(info.dtypes(kind="unsigned integer"))
    assert set(info.dtypes(kind="real floating")) == {"float32", "float64"}
    assert set(info.dtypes(kind="complex floating")) == {"complex64", "complex128"}
    assert set(info.dtypes(kind="numeric")) == set(DTYPES) - {"bool"}
    assert set(info.dtypes(kind=("bool", "real floating"))) == {"bool", "float32",
                                                                "float64"}
    with pytest.raises(ValueError):
        info.dtypes(kind="quaternion")


def test_default_dtypes_of_creation(device):
    assert ca.asarray([1, 2], device=device).dtype == np.int64
    assert ca.asarray([1.0], device=device).dtype == np.float64
    assert ca.asarray([1j], device=device).dtype == np.complex128
    assert ca.asarray([True], device=device).dtype == np.bool_
    assert ca.arange(3, device=device).dtype == np.int64
    assert ca.zeros(3, device=device).dtype == np.float64
    assert ca.full(3, 1, device=device).dtype == np.int64
    assert ca.full(3, 1.0, device=device).dtype == np.float64
    assert ca.linspace(0, 1, 3, device=device).dtype == np.float64
    assert ca.argmax(ca.zeros(3, device=device)).dtype == np.int64
    assert ca.nonzero(ca.ones(3, device=device))[0].dtype == np.int64


# ---------------------------------------------------------------------------
# data type functions: finfo, iinfo, can_cast, isdtype, result_type, astype
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["float32", "float64", "complex64", "complex128"])
def test_finfo(name, device):
    x = ca.zeros(1, dtype=name, device=device)
    for arg in (getattr(ca, name), x, np.dtype(name)):
        fi = ca.finfo(arg)
        want = np.finfo(name)
        assert fi.bits == want.bits and fi.eps == want.eps
        assert fi.max == want.max and fi.min == want.min
        assert fi.smallest_normal == want.smallest_normal
        assert fi.dtype == np.dtype(name).type(0).real.dtype
        # the standard's types: Python floats (weak scalars) and ints
        for field in ("eps", "max", "min", "smallest_normal"):
            assert type(getattr(fi, field)) is float, field
        assert type(fi.bits) is int
        assert fi == want and ca.finfo(arg) is fi


@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
@pytest.mark.parametrize("dtype", [None, "float32", "float64"])
def test_fftfreq_dtype(name, dtype, device):
    """fftfreq(n, /, *, d=1.0, dtype=None, device=None): the float64 frequencies
    rounded once to a real floating dtype=; another kind raises ValueError."""
    for n, d in ((1, 1.0), (8, 0.1), (9, 2.5)):
        got = getattr(ca.fft, name)(n, d=d, dtype=dtype, device=device)
        want = getattr(np.fft, name)(n, d=d)
        want = want if dtype is None else want.astype(dtype)
        assert got.dtype == want.dtype and got.device == ca.asarray(0, device=device).device
        np.testing.assert_array_equal(got.get(), want)
    for bad in ("complex64", "int32", "bool"):
        with pytest.raises(ValueError):
            getattr(ca.fft, name)(4, dtype=bad, device=device)


@pytest.mark.parametrize("name", ["int8", "int16", "int32", "int64", "uint8", "uint16",
                                  "uint32", "uint64"])
def test_iinfo(name, device):
    x = ca.zeros(1, dtype=name, device=device)
    for arg in (getattr(ca, name), x):
        ii = ca.iinfo(arg)
        assert (ii.bits, ii.max, ii.min) == (np.iinfo(name).bits, np.iinfo(name).max,
                                             np.iinfo(name).min)
        assert ii.dtype == np.dtype(name)


def test_isdtype_kinds():
    kinds = {
        "bool": ["bool"],
        "signed integer": ["int8", "int16", "int32", "int64"],
        "unsigned integer": ["uint8", "uint16", "uint32", "uint64"],
        "real floating": ["float32", "float64"],
        "complex floating": ["complex64", "complex128"],
    }
    kinds["integral"] = kinds["signed integer"] + kinds["unsigned integer"]
    kinds["numeric"] = kinds["integral"] + kinds["real floating"] + kinds["complex floating"]
    for kind, members in kinds.items():
        for n in DTYPES:
            assert ca.isdtype(np.dtype(getattr(ca, n)), kind) == (n in members), (kind, n)
    assert ca.isdtype(np.dtype(ca.int8), ("bool", "signed integer"))
    assert ca.isdtype(np.dtype(ca.float32), np.dtype(ca.float32))


# The standard's promotion tables (its "Type Promotion Rules" page): within a kind
# the larger type; signed with unsigned as listed; float with complex.
_I, _U = ["int8", "int16", "int32", "int64"], ["uint8", "uint16", "uint32", "uint64"]
_MIXED = {("uint8", "int8"): "int16", ("uint8", "int16"): "int16",
          ("uint8", "int32"): "int32", ("uint8", "int64"): "int64",
          ("uint16", "int8"): "int32", ("uint16", "int16"): "int32",
          ("uint16", "int32"): "int32", ("uint16", "int64"): "int64",
          ("uint32", "int8"): "int64", ("uint32", "int16"): "int64",
          ("uint32", "int32"): "int64", ("uint32", "int64"): "int64"}
_FC = {("float32", "float32"): "float32", ("float32", "float64"): "float64",
       ("float64", "float64"): "float64", ("float32", "complex64"): "complex64",
       ("float32", "complex128"): "complex128", ("float64", "complex64"): "complex128",
       ("float64", "complex128"): "complex128", ("complex64", "complex64"): "complex64",
       ("complex64", "complex128"): "complex128",
       ("complex128", "complex128"): "complex128"}


def _promotion_table():
    t = {("bool", "bool"): "bool"}
    for grp in (_I, _U):
        for i, a in enumerate(grp):
            for b in grp[i:]:
                t[(a, b)] = b
    t.update(_MIXED)
    t.update(_FC)
    out = dict(t)
    out.update({(b, a): r for (a, b), r in t.items()})
    return out


PROMOTION = _promotion_table()


@pytest.mark.parametrize("pair", sorted(PROMOTION))
def test_type_promotion(device, pair):
    a, b = pair
    want = np.dtype(PROMOTION[pair])
    x = ca.ones(2, dtype=a, device=device)
    y = ca.ones(2, dtype=b, device=device)
    assert ca.result_type(x, y) == want
    assert ca.result_type(np.dtype(a), np.dtype(b)) == want
    op = ca.logical_and if want == np.bool_ else ca.multiply
    assert op(x, y).dtype == want
    if want != np.bool_:
        assert (x + y).dtype == want
        assert ca.can_cast(np.dtype(a), want) and ca.can_cast(np.dtype(b), want)
    z = ca.ones((), dtype=b, device=device)  # 0-d arrays promote as arrays
    assert (op(x, z)).dtype == want


@pytest.mark.parametrize("dtype", DTYPES)
def test_scalar_promotion(device, dtype):
    """Python scalars take the array's dtype where the kinds allow (2024.12: an int
    with a floating array, a float with a complex array too)."""
    x = ca.ones(3, dtype=dtype, device=device)
    dt = np.dtype(dtype)
    if dt == np.bool_:
        assert ca.logical_and(x, True).dtype == dt
        assert (x & True).dtype == dt
        return
    assert (x * 1).dtype == dt and (1 * x).dtype == dt
    assert ca.add(x, 1).dtype == dt and ca.add(1, x).dtype == dt
    if dt.kind in "fc":
        assert (x * 1.5).dtype == dt and ca.multiply(2.5, x).dtype == dt
    if dt.kind == "c":
        assert (x * 1j).dtype == dt
    assert ca.result_type(x, 1) == dt


@pytest.mark.parametrize("src", DTYPES)
@pytest.mark.parametrize("dst", DTYPES)
def test_astype_and_can_cast(device, src, dst):
    a = np.arange(4).astype(src)
    x = ca.asarray(a, device=device)
    y = ca.astype(x, getattr(ca, dst))
    assert y.dtype == np.dtype(dst) and y.device == x.device
    with np.errstate(all="ignore"):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            np.testing.assert_array_equal(y.get(), a.astype(dst))
    assert ca.can_cast(getattr(ca, src), getattr(ca, dst)) == np.can_cast(src, dst)
    if src == dst:
        assert ca.astype(x, getattr(ca, dst), copy=False) is x


# ---------------------------------------------------------------------------
# every function: the standard's signature, against NumPy
# ---------------------------------------------------------------------------

def _a(shape=(3, 4), dtype="float64", lo=-3, hi=3, seed=0):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        return rng.integers(0 if dt.kind == "u" else lo, hi + 1, shape).astype(dt)
    if dt.kind == "c":
        return (rng.uniform(lo, hi, shape) + 1j * rng.uniform(lo, hi, shape)).astype(dt)
    return rng.uniform(lo, hi, shape).astype(dt)


_F = _a()
_G = _a(seed=1)
_P = _a(lo=0.1, hi=3)
_U1 = _a(lo=-0.9, hi=0.9)
_I4 = _a(dtype="int32", lo=-5, hi=5)
_J4 = _a(dtype="int32", lo=0, hi=5, seed=3)
_B = _a(dtype="bool")
_C = _a(dtype="complex128")
_V = np.sort(_a((10,)))

# (name, call, args): `call(xp, *args)` with the arrays converted to each library's
# arrays (the plain calls xp.<name>(*args): PLAIN, below)
CALLS = [
    ("acosh", lambda xp, x: xp.acosh(x + 2), [_P]),
    ("clip", lambda xp, x: xp.clip(x, min=-1.0, max=1.5), [_F]),
    ("clip-arrays", lambda xp, x, y: xp.clip(x, min=y, max=y + 1), [_F, _G]),
    ("clip-one", lambda xp, x: xp.clip(x, max=0.5), [_F]),
    ("clip-int", lambda xp, x: xp.clip(x, min=-2, max=3), [_I4]),
    ("sign-complex", lambda xp, x: xp.sign(x), [_C]),
    ("scalar-operand", lambda xp, x: xp.add(x, 2), [_F]),
    ("scalar-first", lambda xp, x: xp.subtract(2, x), [_F]),
    # creation
    ("arange", lambda xp: xp.arange(1, 10, 2, dtype=xp.float32), []),
    ("empty-shape", lambda xp: xp.empty((2, 3), dtype=xp.int16).shape, []),
    ("empty_like", lambda xp, x: xp.empty_like(x, dtype=xp.float32).shape, [_F]),
    ("eye", lambda xp: xp.eye(3, 4, k=-1, dtype=xp.int8), []),
    ("full", lambda xp: xp.full((2, 2), 7, dtype=xp.uint8), []),
    ("full_like", lambda xp, x: xp.full_like(x, 3.5), [_F]),
    ("linspace", lambda xp: xp.linspace(0, 1, 7, endpoint=False), []),
    ("meshgrid", lambda xp, x, y: xp.meshgrid(x, y, indexing="ij"), [_V, _V[:4]]),
    ("ones", lambda xp: xp.ones((2,), dtype=xp.complex64), []),
    ("tril", lambda xp, x: xp.tril(x, k=1), [_F]),
    ("triu", lambda xp, x: xp.triu(x, k=-1), [_F]),
    ("zeros", lambda xp: xp.zeros((3,), dtype=xp.bool), []),
    ("zeros_like", lambda xp, x: xp.zeros_like(x, dtype=xp.int64), [_F]),
    # indexing
    ("take", lambda xp, x, i: xp.take(x, i, axis=1), [_F, np.array([0, 3, 1])]),
    ("take_along_axis", lambda xp, x, i: xp.take_along_axis(x, i, axis=1),
     [_F, np.argsort(_F, axis=1)]),
    # linear algebra
    ("tensordot", lambda xp, x, y: xp.tensordot(x, y, axes=1), [_F, _G.T]),
    # manipulation
    ("broadcast_to", lambda xp, x: xp.broadcast_to(x, (2, 3, 4)), [_F]),
    ("concat", lambda xp, x, y: xp.concat([x, y], axis=1), [_F, _G]),
    ("concat-none", lambda xp, x, y: xp.concat((x, y), axis=None), [_F, _G]),
    ("expand_dims", lambda xp, x: xp.expand_dims(x, axis=-1), [_F]),
    ("flip", lambda xp, x: xp.flip(x, axis=(0, 1)), [_F]),
    ("moveaxis", lambda xp, x: xp.moveaxis(x[None], 0, -1), [_F]),
    ("permute_dims", lambda xp, x: xp.permute_dims(x, axes=(1, 0)), [_F]),
    ("repeat", lambda xp, x: xp.repeat(x, 2, axis=1), [_F]),
    ("repeat-array", lambda xp, x, r: xp.repeat(x, r, axis=0), [_F, np.array([1, 0, 2])]),
    ("reshape", lambda xp, x: xp.reshape(x, (4, 3), copy=None), [_F]),
    ("roll", lambda xp, x: xp.roll(x, (1, -2), axis=(0, 1)), [_F]),
    ("squeeze", lambda xp, x: xp.squeeze(x[:, None], axis=1), [_F]),
    ("stack", lambda xp, x, y: xp.stack((x, y), axis=-1), [_F, _G]),
    ("tile", lambda xp, x: xp.tile(x, (2, 1)), [_F]),
    ("unstack", lambda xp, x: xp.unstack(x, axis=1), [_F]),
    ("unstack-0", lambda xp, x: xp.unstack(x), [_F]),
    # searching
    ("argmax", lambda xp, x: xp.argmax(x, axis=1, keepdims=True), [_F]),
    ("argmin", lambda xp, x: xp.argmin(x, axis=0, keepdims=False), [_F]),
    ("count_nonzero", lambda xp, x: xp.count_nonzero(x, axis=1, keepdims=True), [_I4]),
    ("count_nonzero-all", lambda xp, x: xp.count_nonzero(x), [_I4]),
    ("searchsorted", lambda xp, x, y: xp.searchsorted(x, y, side="right"),
     [_V, _V[::3]]),
    ("searchsorted-sorter", lambda xp, x, y, s: xp.searchsorted(x, y, sorter=s),
     [_V[::-1], _V[::3], np.arange(10)[::-1]]),
    ("where-scalars", lambda xp, c, x: xp.where(c, x, 0.5), [_B, _F]),
    # sets
    # sorting
    ("argsort", lambda xp, x: xp.argsort(x, axis=1, stable=True), [_J4]),
    ("sort", lambda xp, x: xp.sort(x, axis=0, stable=True), [_F]),
    # statistics
    ("cumulative_sum", lambda xp, x: xp.cumulative_sum(x, axis=1), [_F]),
    ("cumulative_sum-initial",
     lambda xp, x: xp.cumulative_sum(x, axis=0, include_initial=True), [_I4]),
    ("cumulative_sum-1d", lambda xp, x: xp.cumulative_sum(x, dtype=xp.float32), [_V]),
    ("cumulative_prod", lambda xp, x: xp.cumulative_prod(x, axis=0), [_U1]),
    ("cumulative_prod-initial",
     lambda xp, x: xp.cumulative_prod(x, axis=1, include_initial=True), [_J4]),
    ("max", lambda xp, x: xp.max(x, axis=1, keepdims=True), [_F]),
    ("mean", lambda xp, x: xp.mean(x, axis=(0, 1)), [_F]),
    ("min", lambda xp, x: xp.min(x, axis=0), [_F]),
    ("prod", lambda xp, x: xp.prod(x, axis=1, dtype=xp.float64), [_I4]),
    ("std", lambda xp, x: xp.std(x, axis=1, correction=1, keepdims=True), [_F]),
    ("std-half", lambda xp, x: xp.std(x, correction=0.5), [_F]),
    ("var", lambda xp, x: xp.var(x, axis=0, correction=1), [_F]),
    ("var-default", lambda xp, x: xp.var(x), [_F]),
    ("sum", lambda xp, x: xp.sum(x, axis=1, dtype=xp.int64, keepdims=True), [_I4]),
    # utility
    ("all", lambda xp, x: xp.all(x, axis=1, keepdims=True), [_B]),
    ("any", lambda xp, x: xp.any(x, axis=(0, 1)), [_B]),
    ("diff", lambda xp, x: xp.diff(x, axis=1, n=2), [_F]),
    ("diff-prepend", lambda xp, x, p: xp.diff(x, axis=0, prepend=p), [_F, _G[:1]]),
]


def _to(xp, v, device):
    if isinstance(v, np.ndarray):
        return v if xp is np else ca.asarray(v, device=device)
    return v


def _same(got, want, name):
    if isinstance(want, (tuple, list)):
        assert len(got) == len(want), name
        for g, w in zip(got, want):
            _same(g, w, name)
        return
    if hasattr(want, "_fields"):  # unique_* named tuples
        assert tuple(got._fields) == tuple(want._fields), name
    if isinstance(want, tuple) and not isinstance(want, np.ndarray):
        return
    if not isinstance(want, np.ndarray):
        assert got == want, name
        return
    g = got.get() if isinstance(got, ca.ndarray) else np.asarray(got)
    assert g.dtype == want.dtype, (name, g.dtype, want.dtype)
    assert g.shape == want.shape, (name, g.shape, want.shape)
    if want.dtype.kind in "fc":
        tol = 1e-12 if want.dtype.itemsize >= 8 and want.dtype != np.complex64 else 2e-6
        np.testing.assert_allclose(g, want, rtol=tol, atol=tol, err_msg=name)
    else:
        np.testing.assert_array_equal(g, want, err_msg=name)


# the functions called on the arguments as they are, by argument list
PLAIN = [
    ([_F],
     "abs asinh atan ceil cos cosh exp expm1 floor isfinite isinf isnan "
     "negative positive round sign signbit sin sinh square tanh trunc"),
    ([_U1], "acos asin atanh tan"),
    ([_F, _G],
     "add atan2 copysign greater greater_equal hypot less less_equal "
     "logaddexp maximum minimum multiply subtract"),
    ([_I4, _J4],
     "bitwise_and bitwise_left_shift bitwise_or bitwise_right_shift "
     "bitwise_xor equal not_equal"),
    ([_I4], "bitwise_invert ones_like nonzero"),
    ([_C], "conj imag real"),
    ([_F, _P], "divide floor_divide remainder"),
    ([_P], "log log1p log2 log10 reciprocal sqrt"),
    ([_B, ~_B], "logical_and"),
    ([_B], "logical_not"),
    ([_B, _B[::-1]], "logical_or logical_xor"),
    ([_P, _G], "pow"),
    ([_F, _G.T], "matmul"),
    ([_F, _V[:4]], "broadcast_arrays"),
    ([_B, _F, _G], "where"),
    ([_J4], "unique_all unique_counts unique_inverse unique_values"),
]
CALLS += [(name, lambda xp, *a, _n=name: getattr(xp, _n)(*a), args)
          for args, names in PLAIN for name in names.split()]


@pytest.mark.parametrize("name,call,args", CALLS, ids=[c[0] for c in CALLS])
def test_function_against_numpy(device, name, call, args):
    with np.errstate(all="ignore"):
        want = call(np, *[_to(np, a, device) for a in args])
    if name in ("arange", "eye", "full", "linspace", "ones", "zeros"):
        got = call(_DeviceNS(device), *[_to(ca, a, device) for a in args])
    else:
        got = call(ca, *[_to(ca, a, device) for a in args])
    if hasattr(want, "_fields"):
        assert tuple(got._fields) == tuple(want._fields), name
        want, got = tuple(want), tuple(got)
    if name == "unique_values":  # the standard leaves the order unspecified
        want, got = np.sort(want), ca.sort(got)
    if isinstance(want, tuple) and isinstance(got, tuple):
        assert len(got) == len(want), name
        for g, w in zip(got, want):
            _same(g, np.asarray(w) if not isinstance(w, tuple) else w, name)
    else:
        _same(got, np.asarray(want) if not isinstance(want, tuple) else want, name)
    if isinstance(got, ca.ndarray) and name not in ("arange", "eye", "full", "linspace",
                                                    "ones", "zeros"):
        assert got.device == ca.empty(0, device=device).device


class _DeviceNS:
    """cuarray with device= added to the creation functions."""

    def __init__(self, device):
        self._device = device

    def __getattr__(self, name):
        f = getattr(ca, name)
        if name in ("arange", "eye", "full", "linspace", "ones", "zeros", "empty"):
            return lambda *a, **k: f(*a, device=self._device, **k)
        return f


def test_clip_signature_and_spellings(device):
    """clip's bound slots carry the standard's names (min, max: positional or
    keyword, as its signature test reads them); NumPy's a_min=/a_max= still work,
    and every spelling gives NumPy's values."""
    import inspect

    p = list(inspect.signature(ca.clip).parameters.values())
    assert [q.name for q in p[1:3]] == ["min", "max"]
    assert all(q.kind == q.POSITIONAL_OR_KEYWORD for q in p[1:3])
    x, lo, hi = _F, -1.0, np.full(4, 1.5)
    want = np.clip(x, lo, hi)
    xc, hc = ca.asarray(x, device=device), ca.asarray(hi, device=device)
    for got in (ca.clip(xc, lo, hc), ca.clip(xc, min=lo, max=hc),
                ca.clip(xc, a_min=lo, a_max=hc), ca.clip(xc, lo, a_max=hc),
                ca.clip(xc, a_min=lo, max=hc)):
        np.testing.assert_array_equal(got.get(), want)
    np.testing.assert_array_equal(ca.clip(xc, max=hc).get(), np.clip(x, max=hi))
    out = ca.empty_like(xc)
    assert ca.clip(xc, lo, hc, out) is out
    np.testing.assert_array_equal(out.get(), want)
    with pytest.raises(TypeError):
        ca.clip(xc, lo, a_min=lo)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_sort_descending_stable(device, axis):
    """descending=True: the reverse order, equal elements keeping their order (stable),
    NaNs last in both directions' NumPy order for sort."""
    a = np.array([[3, 1, 3, 2], [1, 1, 0, 5], [2, 2, 2, 2]], dtype=np.int32)
    x = ca.asarray(a, device=device)
    np.testing.assert_array_equal(ca.sort(x, axis=axis, descending=True).get(),
                                  -np.sort(-a, axis=axis))
    np.testing.assert_array_equal(ca.argsort(x, axis=axis, descending=True, stable=True)
                                  .get(), np.argsort(-a, axis=axis, stable=True))
    f = ca.asarray(_F, device=device)
    np.testing.assert_array_equal(ca.sort(f, axis=axis, descending=True).get(),
                                  np.flip(np.sort(_F, axis=axis), axis=axis))


def test_std_var_correction_errors(device):
    x = ca.asarray(_F, device=device)
    with pytest.raises(ValueError):
        ca.std(x, ddof=1, correction=1)
    with pytest.raises(ValueError):
        x.var(ddof=0, correction=1)
    np.testing.assert_allclose(x.std(correction=2).get(), np.std(_F, correction=2))


def test_cumulative_errors_and_empty(device):
    x = ca.asarray(_F, device=device)
    with pytest.raises(ValueError):
        ca.cumulative_sum(x)
    with pytest.raises(np.exceptions.AxisError):
        ca.cumulative_prod(x, axis=2)
    e = ca.zeros((0,), device=device)
    r = ca.cumulative_sum(e, include_initial=True)
    assert r.shape == (1,) and float(r[0]) == 0.0
    assert ca.cumulative_prod(ca.zeros((2, 0), device=device), axis=1,
                              include_initial=True).shape == (2, 1)
    with pytest.raises(ValueError):
        ca.unstack(ca.asarray(1.0, device=device))
    parts = ca.unstack(x, axis=-1)
    assert all(p.base is not None for p in parts)  # views


def test_copy_and_device_keywords(device):
    a = np.arange(6.0)
    x = ca.asarray(a, device=device)
    y = ca.asarray(x, copy=True)
    assert not ca.shares_memory(x, y)
    assert ca.asarray(x, copy=False) is x or ca.shares_memory(ca.asarray(x, copy=False), x)
    z = x.to_device("cpu")
    assert z.device == ca.empty(0, device="cpu").device
    np.testing.assert_array_equal(z.get(), a)
    assert ca.reshape(x, (2, 3), copy=False).base is not None
    m = ca.asarray(np.ones((3, 4)), device=device)[:, :2]
    with pytest.raises(ValueError):
        ca.reshape(m, (6,), copy=False)  # no view can do it
    assert not ca.shares_memory(ca.reshape(m, (6,), copy=True), m)


def test_boolean_indexing_and_shape_behaviour(device):
    a = np.arange(12.0).reshape(3, 4)
    x = ca.asarray(a, device=device)
    m = a > 4
    np.testing.assert_array_equal(x[ca.asarray(m, device=device)].get(), a[m])
    x[ca.asarray(m, device=device)] = -1.0
    a[m] = -1.0
    np.testing.assert_array_equal(x.get(), a)
    assert x[..., None].shape == (3, 4, 1) and x[None, 1:, ::2].shape == (1, 2, 2)
    assert x.mT.shape == (4, 3) and ca.asarray(np.zeros((2, 3, 4)), device=device).mT.shape \
        == (2, 4, 3)


# ---------------------------------------------------------------------------
# special cases: real operands (the element-wise functions' pages)
# ---------------------------------------------------------------------------

def _same_float(g, w):
    if math.isnan(w):
        return math.isnan(g)
    if w == 0:
        return g == 0 and math.copysign(1, g) == math.copysign(1, w)
    return g == w or math.isclose(g, w, rel_tol=1e-15)


UNARY_REAL = {
    "abs": [(nan, nan), (-0.0, 0.0), (-inf, inf), (inf, inf)],
    "acos": [(nan, nan), (1.5, nan), (-1.5, nan), (1.0, 0.0)],
    "acosh": [(nan, nan), (0.5, nan), (1.0, 0.0), (inf, inf)],
    "asin": [(nan, nan), (1.5, nan), (-1.5, nan), (0.0, 0.0), (-0.0, -0.0)],
    "asinh": [(nan, nan), (0.0, 0.0), (-0.0, -0.0), (inf, inf), (-inf, -inf)],
    "atan": [(nan, nan), (0.0, 0.0), (-0.0, -0.0), (inf, pi / 2), (-inf, -pi / 2)],
    "atanh": [(nan, nan), (-1.5, nan), (1.5, nan), (-1.0, -inf), (1.0, inf), (0.0, 0.0),
              (-0.0, -0.0)],
    "ceil": [(nan, nan), (inf, inf), (-inf, -inf), (0.0, 0.0), (-0.0, -0.0),
             (-0.5, -0.0), (2.0, 2.0)],
    "cos": [(nan, nan), (0.0, 1.0), (-0.0, 1.0), (inf, nan), (-inf, nan)],
    "cosh": [(nan, nan), (0.0, 1.0), (-0.0, 1.0), (inf, inf), (-inf, inf)],
    "exp": [(nan, nan), (0.0, 1.0), (-0.0, 1.0), (inf, inf), (-inf, 0.0)],
    "expm1": [(nan, nan), (0.0, 0.0), (-0.0, -0.0), (inf, inf), (-inf, -1.0)],
    "floor": [(nan, nan), (inf, inf), (-inf, -inf), (0.0, 0.0), (-0.0, -0.0),
              (0.5, 0.0), (-2.0, -2.0)],
    "log": [(nan, nan), (-1.0, nan), (0.0, -inf), (-0.0, -inf), (1.0, 0.0), (inf, inf)],
    "log1p": [(nan, nan), (-2.0, nan), (-1.0, -inf), (0.0, 0.0), (-0.0, -0.0),
              (inf, inf)],
    "log2": [(nan, nan), (-1.0, nan), (0.0, -inf), (-0.0, -inf), (1.0, 0.0), (inf, inf)],
    "log10": [(nan, nan), (-1.0, nan), (0.0, -inf), (-0.0, -inf), (1.0, 0.0),
              (inf, inf)],
    "negative": [(0.0, -0.0), (-0.0, 0.0), (inf, -inf), (nan, nan)],
    "positive": [(-0.0, -0.0), (inf, inf), (nan, nan)],
    "reciprocal": [(0.0, inf), (-0.0, -inf), (inf, 0.0), (-inf, -0.0), (nan, nan)],
    "round": [(nan, nan), (inf, inf), (-inf, -inf), (0.0, 0.0), (-0.0, -0.0),
              (2.5, 2.0), (3.5, 4.0), (-0.5, -0.0), (-1.5, -2.0)],
    "sign": [(nan, nan), (-3.0, -1.0), (3.0, 1.0), (inf, 1.0), (-inf, -1.0)],
    "sin": [(nan, nan), (0.0, 0.0), (-0.0, -0.0), (inf, nan), (-inf, nan)],
    "sinh": [(nan, nan), (0.0, 0.0), (-0.0, -0.0), (inf, inf), (-inf, -inf)],
    "sqrt": [(nan, nan), (-1.0, nan), (0.0, 0.0), (-0.0, -0.0), (inf, inf)],
    "square": [(nan, nan), (-0.0, 0.0), (-inf, inf)],
    "tan": [(nan, nan), (0.0, 0.0), (-0.0, -0.0), (inf, nan), (-inf, nan)],
    "tanh": [(nan, nan), (0.0, 0.0), (-0.0, -0.0), (inf, 1.0), (-inf, -1.0)],
    "trunc": [(nan, nan), (inf, inf), (-inf, -inf), (0.0, 0.0), (-0.0, -0.0),
              (-0.7, -0.0), (0.7, 0.0)],
}

BINARY_REAL = {
    "add": [(nan, 1.0, nan), (inf, -inf, nan), (inf, 1.0, inf), (-0.0, -0.0, -0.0),
            (-0.0, 0.0, 0.0), (0.0, -0.0, 0.0), (1.0, -1.0, 0.0)],
    "subtract": [(inf, inf, nan), (-0.0, 0.0, -0.0), (0.0, 0.0, 0.0), (nan, 0.0, nan)],
    "multiply": [(nan, 1.0, nan), (inf, 0.0, nan), (-0.0, 0.0, -0.0), (inf, -2.0, -inf),
                 (-inf, -inf, inf)],
    "divide": [(nan, 1.0, nan), (inf, inf, nan), (0.0, 0.0, nan), (0.0, 2.0, 0.0),
               (-0.0, 2.0, -0.0), (2.0, 0.0, inf), (2.0, -0.0, -inf), (-2.0, 0.0, -inf),
               (inf, 2.0, inf), (inf, -2.0, -inf), (2.0, inf, 0.0), (-2.0, inf, -0.0)],
    "atan2": [(nan, 1.0, nan), (1.0, nan, nan), (0.0, 0.0, 0.0), (0.0, -0.0, pi),
              (-0.0, 0.0, -0.0), (-0.0, -0.0, -pi), (0.0, 2.0, 0.0), (0.0, -2.0, pi),
              (-0.0, 2.0, -0.0), (-0.0, -2.0, -pi), (2.0, 0.0, pi / 2),
              (-2.0, 0.0, -pi / 2), (inf, inf, pi / 4), (inf, -inf, 3 * pi / 4),
              (-inf, inf, -pi / 4), (-inf, -inf, -3 * pi / 4), (2.0, inf, 0.0),
              (2.0, -inf, pi), (-2.0, inf, -0.0), (-2.0, -inf, -pi), (inf, 2.0, pi / 2),
              (-inf, 2.0, -pi / 2)],
    "pow": [(nan, 0.0, 1.0), (nan, -0.0, 1.0), (2.0, 0.0, 1.0), (nan, 1.0, nan),
            (2.0, inf, inf), (2.0, -inf, 0.0), (-1.0, inf, 1.0), (1.0, -inf, 1.0),
            (0.5, inf, 0.0), (0.5, -inf, inf), (inf, 2.0, inf), (inf, -2.0, 0.0),
            (-inf, 3.0, -inf), (-inf, 2.0, inf), (-inf, -3.0, -0.0), (-inf, -2.0, 0.0),
            (0.0, 2.0, 0.0), (-0.0, 3.0, -0.0), (-0.0, 2.0, 0.0), (0.0, -2.0, inf),
            (-0.0, -3.0, -inf), (-0.0, -2.0, inf), (-2.0, 0.5, nan)],
    "hypot": [(inf, nan, inf), (nan, -inf, inf), (nan, 1.0, nan), (1.0, nan, nan),
              (-inf, 2.0, inf), (0.0, -0.0, 0.0)],
    "logaddexp": [(nan, 1.0, nan), (1.0, nan, nan), (inf, 1.0, inf), (1.0, inf, inf),
                  (inf, -inf, inf)],
    "maximum": [(nan, 1.0, nan), (1.0, nan, nan), (inf, -inf, inf)],
    "minimum": [(nan, 1.0, nan), (1.0, nan, nan), (inf, -inf, -inf)],
    "copysign": [(2.0, -0.0, -2.0), (-2.0, 0.0, 2.0), (inf, -1.0, -inf)],
    "floor_divide": [(nan, 1.0, nan), (1.0, nan, nan), (7.0, 2.0, 3.0), (-7.0, 2.0, -4.0)],
    "remainder": [(nan, 1.0, nan), (1.0, nan, nan), (inf, 2.0, nan), (5.0, 3.0, 2.0),
                  (-5.0, 3.0, 1.0), (5.0, -3.0, -1.0)],
    "equal": [(nan, nan, False), (0.0, -0.0, True), (inf, inf, True)],
    "not_equal": [(nan, nan, True), (0.0, -0.0, False)],
    "less": [(nan, 1.0, False), (-inf, inf, True)],
}


def _run_unary(fn, cases, device, dtype):
    xs = np.array([c[0] for c in cases], dtype=dtype)
    with np.errstate(all="ignore"):
        got = getattr(ca, fn)(ca.asarray(xs, device=device)).get()
    for (x, w), g in zip(cases, got.tolist()):
        w = float(np.dtype(dtype).type(w))  # the standard's value in the dtype
        assert _same_float(float(g), w), f"{fn}({x}) = {g}, the standard says {w}"


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("fn", sorted(UNARY_REAL))
def test_special_cases_unary_real(device, fn, dtype):
    _run_unary(fn, UNARY_REAL[fn], device, dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("fn", sorted(BINARY_REAL))
def test_special_cases_binary_real(device, fn, dtype):
    cases = BINARY_REAL[fn]
    x1 = ca.asarray(np.array([c[0] for c in cases], dtype=dtype), device=device)
    x2 = ca.asarray(np.array([c[1] for c in cases], dtype=dtype), device=device)
    with np.errstate(all="ignore"):
        got = getattr(ca, fn)(x1, x2).get()
    for (a, b, w), g in zip(cases, got.tolist()):
        if not isinstance(w, bool):
            w = float(np.dtype(dtype).type(w))
        if isinstance(w, bool):
            assert g == w, f"{fn}({a}, {b}) = {g}, the standard says {w}"
        else:
            assert _same_float(float(g), w), f"{fn}({a}, {b}) = {g}, the standard says {w}"


# ---------------------------------------------------------------------------
# special cases: complex operands (C99 Annex G, the standard's tables)
# ---------------------------------------------------------------------------

ANY = object()  # a zero whose sign, or an infinity whose sign, the standard leaves open


def _cplx_ok(g, w):
    """g (complex) against the standard's w: a pair of floats, ANY-signed zeros and
    infinities given as ('0', x) or ('inf', x) tuples."""
    for gv, wv in ((g.real, w[0]), (g.imag, w[1])):
        if isinstance(wv, str):
            if wv == "0" and gv != 0:
                return False
            if wv == "inf" and not math.isinf(gv):
                return False
        elif not _same_float(gv, wv):
            return False
    return True


FINITE = [2.0, 0.5, 7.25]   # positive finite numbers the tables quantify over
NZ_FIN = [2.0, -0.5, 3.0]   # nonzero finite numbers


def _cis_inf(b):
    return (math.copysign(inf, math.cos(b)), math.copysign(inf, math.sin(b)))


def _nan_rows(reals):
    """a + inf i and a + nan i give nan + nan i, for each a of `reals`."""
    return [r for a in reals for r in (((a, inf), (nan, nan)), ((a, nan), (nan, nan)))]


def _cis_rows(imags):
    """inf + b i gives inf cis(b) and nan + b i gives nan + nan i, for each b."""
    return [r for b in imags for r in (((inf, b), _cis_inf(b)), ((nan, b), (nan, nan)))]


def _expm1_cases():
    c = [((0.0, 0.0), (0.0, 0.0)), ((-0.0, 0.0), ("0", 0.0)),
         ((inf, 0.0), (inf, 0.0)), ((-inf, inf), (-1.0, "0")), ((inf, inf), ("inf", nan)),
         ((-inf, nan), (-1.0, "0")), ((inf, nan), ("inf", nan)), ((nan, 0.0), (nan, 0.0)),
         ((nan, nan), (nan, nan))]
    c += _nan_rows([0.0, -3.0, 2.0]) + _cis_rows(FINITE)
    return c + [((-inf, b), (-1.0, 0.0)) for b in FINITE]


def _sinh_cases():
    c = [((0.0, 0.0), (0.0, 0.0)), ((0.0, inf), ("0", nan)), ((0.0, nan), ("0", nan)),
         ((inf, 0.0), (inf, 0.0)), ((inf, inf), ("inf", nan)), ((inf, nan), ("inf", nan)),
         ((nan, 0.0), (nan, 0.0)), ((nan, nan), (nan, nan))]
    return c + _nan_rows(FINITE) + _cis_rows(FINITE)


def _cosh_cases():
    c = [((0.0, 0.0), (1.0, 0.0)), ((0.0, inf), (nan, "0")), ((0.0, nan), (nan, "0")),
         ((inf, 0.0), (inf, 0.0)), ((inf, inf), ("inf", nan)), ((inf, nan), (inf, nan)),
         ((nan, 0.0), (nan, "0")), ((nan, nan), (nan, nan))]
    return c + _nan_rows(NZ_FIN) + _cis_rows(NZ_FIN)


def _tanh_cases():
    c = [((0.0, 0.0), (0.0, 0.0)), ((0.0, inf), (0.0, nan)), ((0.0, nan), (0.0, nan)),
         ((inf, inf), (1.0, "0")), ((inf, nan), (1.0, "0")), ((nan, 0.0), (nan, 0.0)),
         ((nan, nan), (nan, nan))]
    c += _nan_rows(NZ_FIN)
    for b in FINITE:
        c += [((inf, b), (1.0, 0.0)), ((nan, b), (nan, nan)), ((nan, -b), (nan, nan))]
    return c


def _exp_cases():
    c = [((0.0, 0.0), (1.0, 0.0)), ((-0.0, 0.0), (1.0, 0.0)), ((inf, 0.0), (inf, 0.0)),
         ((-inf, inf), ("0", "0")), ((inf, inf), ("inf", nan)), ((-inf, nan), ("0", "0")),
         ((inf, nan), ("inf", nan)), ((nan, 0.0), (nan, 0.0)), ((nan, nan), (nan, nan))]
    c += _nan_rows([0.0, -3.0, 2.0]) + _cis_rows(FINITE)
    return c + [((-inf, b), (0.0 * math.cos(b), 0.0 * math.sin(b))) for b in FINITE]


COMPLEX_TABLES = {"expm1": _expm1_cases(), "sinh": _sinh_cases(), "cosh": _cosh_cases(),
                  "tanh": _tanh_cases(), "exp": _exp_cases()}


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("fn", sorted(COMPLEX_TABLES))
def test_special_cases_complex(device, fn, dtype):
    cases = COMPLEX_TABLES[fn]
    z = np.array([complex(*c[0]) for c in cases], dtype=dtype)
    # complex(a, b) of NaN/inf parts keeps them (no arithmetic)
    for i, c in enumerate(cases):
        z.real[i], z.imag[i] = c[0]
    with np.errstate(all="ignore"):
        got = getattr(ca, fn)(ca.asarray(z, device=device)).get()
    for c, g in zip(cases, got.tolist()):
        assert _cplx_ok(g, c[1]), f"{fn}({c[0][0]}{c[0][1]:+}j) = {g}, the standard says {c[1]}"


@pytest.mark.parametrize("fn", ["expm1", "sinh", "cosh", "tanh", "exp", "sin", "cos",
                                "tan"])
def test_complex_symmetries(device, fn):
    """f(conj(z)) == conj(f(z)) for all of them; sinh and tanh are odd, cosh even
    (the standard's notes), on random values and on the special ones."""
    rng = np.random.default_rng(5)
    vals = [0.0, -0.0, 1.5, -2.0, inf, -inf, nan]
    z = np.array([complex(a, b) for a in vals for b in vals] +
                 list(rng.standard_normal(50) * 3 + 1j * rng.standard_normal(50) * 3))
    for i, (a, b) in enumerate((a, b) for a in vals for b in vals):
        z.real[i], z.imag[i] = a, b
    f = getattr(ca, fn)
    with np.errstate(all="ignore"):
        w = f(ca.asarray(z, device=device)).get()
        wc = f(ca.asarray(np.conj(z), device=device)).get()
        wn = f(ca.asarray(-z, device=device)).get()
    finite = np.isfinite(z)
    np.testing.assert_array_equal(wc[finite], np.conj(w)[finite])
    # with non-finite parts: the same NaN pattern, equal where not NaN
    for g, h in zip(wc[~finite], np.conj(w)[~finite]):
        for p, q in ((g.real, h.real), (g.imag, h.imag)):
            assert (math.isnan(p) and math.isnan(q)) or p == q or (p == 0 and q == 0) or \
                (math.isinf(p) and math.isinf(q)), (fn, g, h)
    if fn in ("sinh", "tanh"):
        np.testing.assert_allclose(wn[finite], -w[finite], rtol=1e-15)
    if fn == "cosh":
        np.testing.assert_allclose(wn[finite], w[finite], rtol=1e-15)


@pytest.mark.parametrize("fn", ["expm1", "sinh", "cosh", "tanh"])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_values_against_numpy(device, fn, dtype):
    """Away from the special values the results are NumPy's (complex128 reference)."""
    rng = np.random.default_rng(9)
    z = (rng.standard_normal(400) * 4 + 1j * rng.standard_normal(400) * 4).astype(dtype)
    z[:20] = (rng.standard_normal(20) * 1e-9 + 1j * rng.standard_normal(20) * 1e-9)
    got = getattr(ca, fn)(ca.asarray(z, device=device)).get()
    want = getattr(np, fn)(z.astype(np.complex128))
    tol = 1e-12 if dtype == "complex128" else 2e-6
    np.testing.assert_allclose(got, want.astype(dtype), rtol=tol, atol=0)


# Where the standard leaves a zero's sign open or has no row (finite parts beside a
# zero, 0 ** z), the results are NumPy's: exp, sinh and cosh as glibc's cexp, csinh
# and ccosh (which NumPy calls), sin and cos through them, and npy_cpow's 0 ** z
# (0 where re(z) > 0, else NaN). tanh and tan keep the standard's 1 + 0i at an
# infinite real part (NumPy: the sign of sin(2y)); expm1 keeps the standard's table.
SIGN_GRID = [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, inf, -inf, nan]


def _cgrid(parts, dtype):
    z = np.zeros(len(parts) ** 2, dtype=dtype)
    z.real[:], z.imag[:] = zip(*[(a, b) for a in parts for b in parts])
    return z


def _assert_same_complex(got, want, rtol, what):
    for g, w, z in zip(got.tolist(), want.tolist(), what):
        for p, q in ((g.real, w.real), (g.imag, w.imag)):
            ok = (math.isnan(p) and math.isnan(q)) or (
                p == q if p == 0 or math.isinf(q) else math.isclose(p, q, rel_tol=rtol))
            assert ok and (math.isnan(q) or math.copysign(1, p) == math.copysign(1, q)), \
                f"{z}: {g}, NumPy {w}"


@pytest.mark.parametrize("fn", ["exp", "sinh", "cosh", "sin", "cos"])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_zero_signs_as_numpy(device, fn, dtype):
    z = _cgrid(SIGN_GRID, dtype)
    with np.errstate(all="ignore"):
        want = getattr(np, fn)(z)
        got = getattr(ca, fn)(ca.asarray(z, device=device)).get()
    _assert_same_complex(got, want, 1e-5 if dtype == "complex64" else 1e-13,
                         [f"{fn}({v})" for v in z.tolist()])


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_pow_zero_base_as_numpy(device, dtype):
    zeros = np.array([0j, complex(-0.0, 0.0), complex(0.0, -0.0), complex(-0.0, -0.0)],
                     dtype=dtype)
    b = np.tile(_cgrid(SIGN_GRID + [0.5, -0.5], dtype), 4)
    a = np.repeat(zeros, b.size // 4)
    with np.errstate(all="ignore"):
        want = np.power(a, b)
        got = ca.power(ca.asarray(a, device=device), ca.asarray(b, device=device)).get()
    _assert_same_complex(got, want, 0, [f"{p} ** {q}" for p, q in zip(a, b)])
