"""Issue 37's long tail: behaviour NumPy has that cuarray matched one class at a time
(each test is a class of cases, compared with NumPy on every device)."""

import warnings

import numpy as np
import pytest

import cuarray as ca
from conftest import DEVICES


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("func", ["argsort", "argpartition"])
@pytest.mark.parametrize("axis", [0, -1, None, 1, -2])
def test_positions_of_a_0d_array(device, func, axis):
    """NumPy treats a 0-d array as a 1-d one here: [0], and the axis is checked
    against one dimension."""
    a = np.asarray(5.0)
    x = ca.asarray(a, device=device)
    extra = (0,) if func == "argpartition" else ()
    try:
        want = getattr(np, func)(a, *extra, axis=axis)
    except np.exceptions.AxisError:
        with pytest.raises(np.exceptions.AxisError):
            getattr(ca, func)(x, *extra, axis=axis)
        with pytest.raises(np.exceptions.AxisError):
            getattr(x, func)(*extra, axis=axis)
        return
    for got in (getattr(ca, func)(x, *extra, axis=axis), getattr(x, func)(*extra, axis=axis)):
        np.testing.assert_array_equal(got.get(), want)
        assert got.dtype == want.dtype


class _Plain:
    """An object with object's own == (NumPy: `x == object()` is all False)."""

    def __repr__(self):
        return "plain object"


UNCOMPARABLE = [[1, "a"], "a", b"x", None, (1, "x"), [[1, "a"]], np.str_("a"), _Plain()]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("other", UNCOMPARABLE, ids=repr)
@pytest.mark.parametrize("shape", [(2,), (3, 2), ()])
def test_equality_with_what_no_loop_compares(device, other, shape):
    """`x == [1, 'a']`, `x != None`: NumPy 2 answers element by element (all unequal,
    in the broadcast shape); the ordering comparisons are TypeErrors."""
    a = np.arange(int(np.prod(shape))).reshape(shape)
    x = ca.asarray(a, device=device)
    for op in ("__eq__", "__ne__"):
        want = getattr(a, op)(other)
        got = getattr(x, op)(other)
        assert isinstance(got, ca.ndarray), (op, got)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got.get(), want)
    with pytest.raises(TypeError):
        x < other


@pytest.mark.parametrize("device", DEVICES)
def test_equality_shape_mismatch_is_a_value_error(device):
    x = ca.arange(2, device=device)
    with pytest.raises(ValueError):
        np.arange(2) == [1, "a", "b"]
    with pytest.raises(ValueError):
        x == [1, "a", "b"]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("blocking", [True, False])
def test_asarray_takes_cupys_blocking(device, blocking):
    x = ca.asarray([1.5, 2.5], device=device, blocking=blocking)
    np.testing.assert_array_equal(x.get(), [1.5, 2.5])


class _OwnEquality:
    """A type with its own == keeps it: the array's comparison steps aside and the
    reflected one runs (NumPy calls it per element and keeps the truth values, an
    object loop cuarray does not have)."""

    def __eq__(self, other):
        return "own"

    __hash__ = object.__hash__


@pytest.mark.parametrize("device", DEVICES)
def test_equality_with_an_object_that_has_its_own(device):
    x = ca.arange(3, device=device)
    assert (x == _OwnEquality()) == "own"


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("func", ["argmax", "argmin"])
@pytest.mark.parametrize("dtype", ["int8", "int32", "uint16", "int64"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_arg_reductions_take_cupys_dtype(device, func, dtype, axis):
    """CuPy's argmax/argmin(dtype=): the indices in that integer type (a keyword
    after NumPy's parameters; NumPy has none)."""
    a = np.random.default_rng(1).integers(0, 50, size=(4, 5)).astype(np.float32)
    x = ca.asarray(a, device=device)
    want = getattr(np, func)(a, axis=axis).astype(dtype)
    for got in (getattr(ca, func)(x, axis=axis, dtype=dtype),
                getattr(x, func)(axis=axis, dtype=dtype)):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.get(), want)
    with pytest.raises(TypeError):
        getattr(ca, func)(x, dtype="float32")
    with pytest.raises(TypeError):
        getattr(ca, func)(x, out=ca.zeros((), dtype="int64", device=device), dtype="int32")


_SPECIAL = [0.0, -0.0, 0.5, -1.0, 2.0, np.inf, -np.inf, np.nan, 1e300, -1e300]


def _same_parts(got, want):
    """Equal values (1e-12 relative), NaN where NumPy has NaN, and the signs of
    zeros and infinities where the value is not NaN."""
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        nan = np.isnan(w)
        assert np.array_equal(np.isnan(g), nan)
        np.testing.assert_allclose(g[~nan], w[~nan], rtol=1e-12 if g.dtype == np.float64 else 1e-6)
        assert np.array_equal(np.signbit(g[~nan]), np.signbit(w[~nan]))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("func", ["arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctanh"])
@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_complex_inverse_functions_special_values(device, func, dtype):
    """C99 Annex G's special cases (the Array API's), as NumPy gives them: every
    pair of zeros of both signs, infinities, NaN and huge values."""
    z = np.array([complex(a, b) for a in _SPECIAL for b in _SPECIAL], dtype=dtype)
    with np.errstate(all="ignore"):
        want = getattr(np, func)(z)
    got = getattr(ca, func)(ca.asarray(z, device=device)).get()
    assert got.dtype == want.dtype
    _same_parts(got, want)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("axes", [None, (1, 0, 2), (2, 0, 1)])
def test_permute_dims_as_numpy(device, axes):
    """NumPy 2's permute_dims(a, axes=None): the axes default to reversed, as transpose."""
    a = np.arange(24.0).reshape(2, 3, 4)
    x = ca.asarray(a, device=device)
    want = np.permute_dims(a) if axes is None else np.permute_dims(a, axes)
    got = ca.permute_dims(x) if axes is None else ca.permute_dims(x, axes)
    np.testing.assert_array_equal(got.get(), want)
    np.testing.assert_array_equal(ca.permute_dims(a=x, axes=axes).get(), want)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", ["matvec", "vecmat"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.int64, np.bool_])
@pytest.mark.parametrize("shapes", [((3, 4), (4,)), ((2, 3, 4), (4,)), ((3, 4), (5, 4)),
                                    ((1, 3, 4), (2, 1, 4))])
def test_matvec_vecmat_as_numpy(device, name, dtype, shapes):
    """NumPy 2.2's matvec ((m,n),(n)->(m)) and vecmat ((n),(n,m)->(m), conjugating the
    vector), with their broadcasting of the stacks and their result dtypes."""
    rng = np.random.default_rng(3)
    ms, vs = shapes
    if name == "vecmat":
        ms = ms[:-2] + (ms[-1], ms[-2])
    def make(shape):
        r = rng.standard_normal(shape) * 3
        if dtype == np.complex128:
            r = r + 1j * rng.standard_normal(shape)
        return r.astype(dtype)
    m, v = make(ms), make(vs)
    args = (m, v) if name == "matvec" else (v, m)
    want = getattr(np, name)(*args)
    got = getattr(ca, name)(*(ca.asarray(x, device=device) for x in args))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got.get(), want, rtol=1e-5, atol=1e-5)
    out = ca.empty(want.shape, dtype=want.dtype, device=device)
    assert getattr(ca, name)(*(ca.asarray(x, device=device) for x in args), out=out) is out
    np.testing.assert_allclose(out.get(), want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("device", DEVICES)
def test_matvec_vecmat_errors_as_numpy(device):
    m, v = np.ones((3, 4)), np.ones(5)
    for name, args in (("matvec", (m, v)), ("vecmat", (v, m)), ("matvec", (v, v)),
                       ("vecmat", (v, v)), ("matvec", (np.float64(1), v))):
        with pytest.raises(ValueError):
            getattr(np, name)(*args)
        with pytest.raises(ValueError):
            getattr(ca, name)(*(ca.asarray(x, device=device) for x in args))


def _same_exception(np_call, ca_call):
    with pytest.raises(Exception) as want:
        np_call()
    with pytest.raises(Exception) as got:
        ca_call()
    assert type(got.value) is type(want.value)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name, dtypes", [
    ("gcd", ("float64", "float64")), ("lcm", ("float32", "int64")),
    ("bitwise_and", ("float64", "float64")), ("invert", ("float32",)),
    ("left_shift", ("float64", "int64")), ("isnat", ("int64",)),
    ("remainder", ("complex128", "complex128")), ("arctan2", ("complex128", "float64")),
])
def test_no_loop_errors_are_numpys(device, name, dtypes):
    """No loop for the inputs: NumPy's own exception (a UFuncTypeError or, for the
    ufuncs NumPy resolves the old way, a plain TypeError) with its message."""
    ins = [np.zeros(2, d) for d in dtypes]
    _same_exception(lambda: getattr(np, name)(*ins),
                    lambda: getattr(ca, name)(*(ca.asarray(x, device=device) for x in ins)))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", ["input-1", "input-2", "output"])
def test_casting_errors_are_numpys(device, case):
    """casting= refusing an input or output cast: NumPy's UFuncTypeError subclass,
    whose message names the input only where the ufunc has several."""
    a = np.ones(3)
    x = ca.asarray(a, device=device)
    if case == "input-1":
        _same_exception(lambda: np.sqrt(a, casting="no", dtype=np.float32),
                        lambda: ca.sqrt(x, casting="no", dtype=np.float32))
    elif case == "input-2":
        _same_exception(lambda: np.add(a, a, casting="safe", dtype=np.float32),
                        lambda: ca.add(x, x, casting="safe", dtype=np.float32))
    else:
        _same_exception(lambda: np.add(a, a, out=np.empty(3, np.int32)),
                        lambda: ca.add(x, x, out=ca.empty(3, dtype=np.int32, device=device)))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", ["matmul-input", "matmul-output", "keywords-input"])
def test_python_casting_errors_are_numpys(device, case):
    """The casting= checks made in Python (matmul's, and a call with NumPy's other
    ufunc keywords) raise NumPy's exception too."""
    a = np.ones((2, 2))
    x = ca.asarray(a, device=device)
    if case == "matmul-input":
        _same_exception(lambda: np.matmul(a, a, casting="no", dtype=np.float32),
                        lambda: ca.matmul(x, x, casting="no", dtype=np.float32))
    elif case == "matmul-output":
        _same_exception(
            lambda: np.matmul(a, a, out=np.empty((2, 2), np.int32)),
            lambda: ca.matmul(x, x, out=ca.empty((2, 2), dtype=np.int32, device=device)))
    else:
        _same_exception(
            lambda: np.add(a, a, casting="no", dtype=np.float32, order="K"),
            lambda: ca.add(x, x, casting="no", dtype=np.float32, order="K"))


def _same_outcome(np_call, ca_call, check=None):
    """Both raise the same exception type (cuarray's may be a subclass), or both
    return equal arrays of one dtype and shape."""
    try:
        want = np_call()
    except Exception as e:
        with pytest.raises(type(e)):
            ca_call()
        return
    got = ca_call()
    for g, w in zip(got if isinstance(want, tuple) else (got,),
                    want if isinstance(want, tuple) else (want,)):
        g = g.get() if hasattr(g, "get") else np.asarray(g)
        w = np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("func", ["mean", "std", "var", "sum", "max", "argmax", "prod",
                                  "nanmean", "nanvar", "nanstd"])
@pytest.mark.parametrize("axis", [0, -1, 1, (0,)])
def test_axis_of_a_0d_array_in_reductions(device, func, axis):
    """NumPy's ufunc reductions take axis 0 or -1 of a 0-d array (reducing
    nothing); mean/var/std count the items of the axis first and raise AxisError."""
    a = np.asarray(2.5)
    x = ca.asarray(a, device=device)
    with np.errstate(all="ignore"):
        _same_outcome(lambda: getattr(np, func)(a, axis=axis),
                      lambda: getattr(ca, func)(x, axis=axis))
    if hasattr(a, func):
        _same_outcome(lambda: getattr(a, func)(axis=axis), lambda: getattr(x, func)(axis=axis))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("func", ["sign", "positive", "negative", "subtract", "gcd", "lcm"])
def test_bool_inputs_without_a_loop(device, func):
    """All-bool inputs of ufuncs NumPy gives no bool loop: NumPy's own exception
    (UFuncTypeError for most, its plain TypeError for `-`)."""
    u = getattr(np, func)
    args = [np.array([True, False])] * u.nin
    with pytest.raises(TypeError) as want:
        u(*args)
    with pytest.raises(type(want.value)) as got:
        getattr(ca, func)(*[ca.asarray(v, device=device) for v in args])
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("func", ["histogram", "histogram_bin_edges"])
@pytest.mark.parametrize("bins", [10, 3, "auto", [0, 0.5, 1]])
def test_histogram_of_bools(device, func, bins):
    """NumPy converts bool samples to uint8 with a RuntimeWarning."""
    a = np.array([True, False, True, True])
    x = ca.asarray(a, device=device)
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        want = getattr(np, func)(a, bins=bins)
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        got = getattr(ca, func)(x, bins=bins)
    _same_outcome(lambda: want, lambda: got)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("func,q", [("nanquantile", 0.3), ("nanquantile", [0.1, 0.9]),
                                    ("nanpercentile", 30), ("nanpercentile", [10, 90])])
@pytest.mark.parametrize("axis,keepdims", [(None, False), (0, False), (0, True), (1, False)])
def test_nan_quantiles_of_nothing(device, func, q, axis, keepdims):
    """No samples: NumPy answers nanmean's NaN (a RuntimeWarning), shaped without
    q's dims."""
    a = np.zeros((0, 3))
    x = ca.asarray(a, device=device)
    with warnings.catch_warnings(record=True) as w_np:
        warnings.simplefilter("always")
        want = getattr(np, func)(a, q, axis=axis, keepdims=keepdims)
    with warnings.catch_warnings(record=True) as w_ca:
        warnings.simplefilter("always")
        got = getattr(ca, func)(x, q, axis=axis, keepdims=keepdims)
    assert [type(w.message) for w in w_ca] == [type(w.message) for w in w_np]
    _same_outcome(lambda: want, lambda: got)


@pytest.mark.parametrize("device", DEVICES)
def test_small_edge_errors(device):
    """tril/triu of a 0-d array (NumPy: TypeError); bincount of a uint64 past
    int64 (NumPy casts it to a negative int64: ValueError)."""
    z = np.asarray(2.5)
    for f in ("tril", "triu"):
        _same_outcome(lambda: getattr(np, f)(z), lambda: getattr(ca, f)(ca.asarray(z, device=device)))
    u = np.array([3, 2, 2**64 - 1], np.uint64)
    _same_outcome(lambda: np.bincount(u), lambda: ca.bincount(ca.asarray(u, device=device)))
    ok = np.array([3, 2, 0], np.uint64)
    _same_outcome(lambda: np.bincount(ok), lambda: ca.bincount(ca.asarray(ok, device=device)))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("func", ["logical_and", "logical_or", "logical_xor"])
@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint32])
@pytest.mark.parametrize("value", [300, -3, 2**40, -(2**63), 2**64 + 5, 0, 1])
def test_logical_ops_take_any_python_int(device, func, dtype, value):
    """Only the truth of a Python int counts in the logical ufuncs: NumPy takes
    one that fits no loop type (where the arithmetic ufuncs raise OverflowError)."""
    a = np.array([3, 0, 1, 0], dtype)
    x = ca.asarray(a, device=device)
    for args_np, args_ca in (((a, value), (x, value)), ((value, a), (value, x))):
        _same_outcome(lambda: getattr(np, func)(*args_np), lambda: getattr(ca, func)(*args_ca))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.int64, np.uint64, np.bool_])
@pytest.mark.parametrize("decimals", [-1, -2, -5])
def test_round_integers_to_negative_decimals(device, dtype, decimals):
    """NumPy rounds in float64 (a / 10^-d, half to even, times 10^-d) and casts
    back to a's type; with out= it rounds into out; bool raises its cast error."""
    a = np.array([15, 25, 35, 5, 0, 94, 105, 1, 6], dtype) if dtype != np.bool_ else \
        np.array([True, False])
    if dtype not in (np.uint8, np.uint64, np.bool_):
        a = np.concatenate([a, -a[:4]])
    x = ca.asarray(a, device=device)
    _same_outcome(lambda: np.round(a, decimals), lambda: ca.round(x, decimals))
    _same_outcome(lambda: a.round(decimals), lambda: x.round(decimals))
    o_np, o_ca = np.zeros(a.shape), ca.zeros(a.shape, device=device)
    _same_outcome(lambda: np.round(a, decimals, out=o_np), lambda: ca.round(x, decimals, out=o_ca))
    _same_outcome(lambda: np.round(a, decimals, out=np.zeros(a.shape, dtype)),
                  lambda: ca.round(x, decimals, out=ca.zeros(a.shape, dtype=dtype, device=device)))


@pytest.mark.parametrize("device", DEVICES)
def test_ndarray_sort_axis_none(device):
    """ndarray.sort takes an int axis (TypeError for None); np.sort flattens."""
    a = np.array([[3, 1], [2, 0]])
    x = ca.asarray(a, device=device)
    with pytest.raises(TypeError):
        a.copy().sort(axis=None)
    with pytest.raises(TypeError):
        x.copy().sort(axis=None)
    _same_outcome(lambda: np.sort(a, axis=None), lambda: ca.sort(x, axis=None))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("args,kw", [
    ((0, 2, 3), {"base": [2, 10]}), ((0, 2, 3), {"base": [2, 10], "axis": 1}),
    (([0, 1], 2, 3), {"base": [[2], [10]], "axis": -1}), ((0, 2, 4), {"base": np.array([2.0, 3.0])}),
    (([0, 1], [2, 3], 3), {"base": 2.0}), ((0, 2, 3), {"base": [2, 10], "dtype": np.float32})])
def test_logspace_with_array_bases(device, args, kw):
    """A non-scalar base is broadcast with start and stop before the new axis goes in."""
    want = np.logspace(*args, **kw)
    # the start on the device says where the result belongs
    got = ca.logspace(ca.asarray(np.asarray(args[0], float), device=device), *args[1:], **kw)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got.get(), want, rtol=1e-6 if want.dtype == np.float32 else 1e-13)


@pytest.mark.parametrize("device", DEVICES)
def test_interp_and_polyval_dtypes(device):
    """interp refuses complex x or xp (NumPy casts them to float64 safely; only fp
    may be complex); polyval of bools stays bool (NumPy's zeros_like start)."""
    c = np.array([0.5 + 1j, 1.0])
    xp, fp = np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0, 4.0])
    on = lambda v: ca.asarray(v, device=device)  # noqa: E731
    _same_outcome(lambda: np.interp(c, xp, fp), lambda: ca.interp(on(c), on(xp), on(fp)))
    _same_outcome(lambda: np.interp(xp, c.real + 1j, fp[:2]),
                  lambda: ca.interp(on(xp), on(c.real + 1j), on(fp[:2])))
    _same_outcome(lambda: np.interp(xp, xp, fp * 1j), lambda: ca.interp(on(xp), on(xp), on(fp * 1j)))
    b = np.array([True, False, True])
    _same_outcome(lambda: np.polyval(b, b), lambda: ca.polyval(on(b), on(b)))
    i8 = np.array([1, -2, 3], np.int8)
    _same_outcome(lambda: np.polyval(i8, i8), lambda: ca.polyval(on(i8), on(i8)))
