"""apply_along_axis, apply_over_axes, piecewise, vectorize against NumPy."""

import math

import numpy as np
import pytest

import cuarray as ca
from conftest import requires_gpu

DEVICES = ["cpu", pytest.param("cuda:0", marks=requires_gpu)]
DTYPES = [np.float64, np.float32, np.int32, np.int64]
SHAPES = [(5,), (3, 4), (2, 3, 4)]


def data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * 10).astype(dtype)


def same(got, want, device=None):
    assert isinstance(got, ca.ndarray)
    if device is not None:
        assert str(got.device) == device
    g = got.get()
    want = np.asarray(want)
    assert g.shape == want.shape, (g.shape, want.shape)
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    np.testing.assert_allclose(g, want, rtol=1e-6)


def _stack2(v):
    mod = ca if isinstance(v, ca.ndarray) else np
    return mod.stack([v, v * 2])


def _outer(v):
    mod = ca if isinstance(v, ca.ndarray) else np
    return mod.reshape(v, (-1, 1)) * mod.reshape(v, (1, -1))


FUNC1D = {
    "same": lambda v: v * 2,
    "scalar": lambda v: v.sum(),
    "max": lambda v: v.max(),
    "stack": _stack2,
    "outer": _outer,
    "first2": lambda v: v[:2],
}


# ---------------------------------------------------------------- apply_along_axis


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("fname", list(FUNC1D))
def test_apply_along_axis(device, dtype, shape, fname):
    a = data(shape, dtype)
    f = FUNC1D[fname]
    for axis in range(-len(shape), len(shape)):
        got = ca.apply_along_axis(f, axis, ca.asarray(a, device=device))
        same(got, np.apply_along_axis(f, axis, a), device)


@pytest.mark.parametrize("device", DEVICES)
def test_apply_along_axis_args_kwargs(device):
    a = data((3, 4), np.float64)

    def f(v, k, scale=1.0):
        return v[:k] * scale

    got = ca.apply_along_axis(f, -1, ca.asarray(a, device=device), 2, scale=3.0)
    same(got, np.apply_along_axis(f, -1, a, 2, scale=3.0), device)


@pytest.mark.parametrize("device", DEVICES)
def test_apply_along_axis_list_input_and_python_results(device):
    a = [[1, 2, 3], [4, 5, 6]]
    got = ca.apply_along_axis(lambda v: float(v.sum()), 1, a)
    same(got, np.apply_along_axis(lambda v: float(v.sum()), 1, a))
    x = ca.asarray(np.array(a), device=device)
    got = ca.apply_along_axis(lambda v: v > 2, 0, x)
    same(got, np.apply_along_axis(lambda v: v > 2, 0, np.array(a)), device)


@pytest.mark.parametrize("device", DEVICES)
def test_apply_along_axis_first_result_decides_dtype(device):
    a = np.array([[1.5, 2.5], [3.5, 4.5]])
    calls = []

    def f(v):
        calls.append(1)
        return (v * 2).astype(np.int64) if len(calls) == 1 else v * 2

    got = ca.apply_along_axis(f, 1, ca.asarray(a, device=device))
    calls.clear()
    want = np.apply_along_axis(f, 1, a)
    same(got, want, device)


@pytest.mark.parametrize("device", DEVICES)
def test_apply_along_axis_errors(device):
    a = ca.asarray(np.ones((2, 3)), device=device)
    for axis in (2, -3):
        with pytest.raises(np.exceptions.AxisError):
            ca.apply_along_axis(np.sum, axis, a)
        with pytest.raises(np.exceptions.AxisError):
            np.apply_along_axis(np.sum, axis, np.ones((2, 3)))
    e = ca.asarray(np.ones((0, 3)), device=device)
    with pytest.raises(ValueError):
        ca.apply_along_axis(lambda v: v, 1, e)
    with pytest.raises(ValueError):
        np.apply_along_axis(lambda v: v, 1, np.ones((0, 3)))
    with pytest.raises(TypeError):
        ca.apply_along_axis(lambda v: v, 1.0, a)


# ---------------------------------------------------------------- apply_over_axes


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(
    "axes", [0, -1, [0, 2], (1, -1), [2, 0, 1], np.array([0, 1])]
)
@pytest.mark.parametrize("fname", ["sum", "max", "mean"])
def test_apply_over_axes(device, dtype, axes, fname):
    a = data((2, 3, 4), dtype)
    got = ca.apply_over_axes(getattr(ca, fname), ca.asarray(a, device=device), axes)
    same(got, np.apply_over_axes(getattr(np, fname), a, axes), device)


@pytest.mark.parametrize("device", DEVICES)
def test_apply_over_axes_keepdims_func(device):
    a = data((3, 4), np.float64)

    def fk(x, axis):
        mod = ca if isinstance(x, ca.ndarray) else np
        return mod.sum(x, axis=axis, keepdims=True)

    same(ca.apply_over_axes(fk, ca.asarray(a, device=device), [1, 0]),
         np.apply_over_axes(fk, a, [1, 0]), device)


@pytest.mark.parametrize("device", DEVICES)
def test_apply_over_axes_bad_shape(device):
    a = data((2, 3, 4), np.float64)

    def flat(x, axis):
        return x.ravel()

    with pytest.raises(ValueError):
        ca.apply_over_axes(flat, ca.asarray(a, device=device), [0])
    with pytest.raises(ValueError):
        np.apply_over_axes(flat, a, [0])


# ---------------------------------------------------------------- piecewise


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_piecewise_functions(device, dtype, shape):
    x = data(shape, dtype)
    conds = [x < -3, (x >= -3) & (x < 4)]
    funcs = [lambda v: -v, lambda v: v * 3, lambda v: v + 1]
    got = ca.piecewise(ca.asarray(x, device=device), conds, funcs)
    same(got, np.piecewise(x, conds, funcs), device)
    dconds = [ca.asarray(c, device=device) for c in conds]
    got = ca.piecewise(ca.asarray(x, device=device), dconds, funcs)
    same(got, np.piecewise(x, conds, funcs), device)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_piecewise_scalars_and_mixed(device, dtype):
    x = data((4, 5), dtype)
    conds = [x < 0, x >= 0]
    got = ca.piecewise(ca.asarray(x, device=device), conds, [-1, 1])
    same(got, np.piecewise(x, conds, [-1, 1]), device)
    funcs = [7, lambda v: v // 2 if v.dtype.kind == "i" else v / 2]
    got = ca.piecewise(ca.asarray(x, device=device), [x < 0], funcs)
    same(got, np.piecewise(x, [x < 0], funcs), device)


@pytest.mark.parametrize("device", DEVICES)
def test_piecewise_args_kw_and_unselected_zero(device):
    x = np.linspace(-2.5, 2.5, 6)

    def f(v, a, b=0.0):
        return v * a + b

    conds = [x > 1]
    got = ca.piecewise(ca.asarray(x, device=device), conds, [f], 2.0, b=1.0)
    same(got, np.piecewise(x, conds, [f], 2.0, b=1.0), device)
    # a condition that selects nothing: its function is not called
    got = ca.piecewise(ca.asarray(x, device=device), [x > 10], [lambda v: 1 / 0, 5])
    same(got, np.piecewise(x, [x > 10], [lambda v: 1 / 0, 5]), device)


@pytest.mark.parametrize("device", DEVICES)
def test_piecewise_single_condition_forms(device):
    x = np.arange(-3, 4)
    for cond in ([True, False, True, False, True, False, True], x > 0):
        got = ca.piecewise(ca.asarray(x, device=device), cond, [lambda v: v * 10])
        same(got, np.piecewise(x, cond, [lambda v: v * 10]), device)
    got = ca.piecewise(ca.asarray(x, device=device), ca.asarray(x > 0, device=device),
                       [lambda v: v * 10])
    same(got, np.piecewise(x, x > 0, [lambda v: v * 10]), device)


@pytest.mark.parametrize("device", DEVICES)
def test_piecewise_0d(device):
    x = np.array(3.0)
    for cond in (True, False, [True], [False]):
        got = ca.piecewise(ca.asarray(x, device=device), cond, [lambda v: v * 2, -1.0])
        same(got, np.piecewise(x, cond, [lambda v: v * 2, -1.0]), device)


@pytest.mark.parametrize("device", DEVICES)
def test_piecewise_errors(device):
    x = np.arange(5.0)
    conds = [x < 1, x > 3]
    for funcs in ([1], [1, 2, 3, 4]):
        with pytest.raises(ValueError):
            ca.piecewise(ca.asarray(x, device=device), conds, funcs)
        with pytest.raises(ValueError):
            np.piecewise(x, conds, funcs)


# ---------------------------------------------------------------- vectorize


def _branchy(a, b):
    """Subtract if a > b, else add."""
    if a > b:
        return a - b
    return a + b


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_vectorize_elementwise(device, dtype, shape):
    x = data(shape, dtype)
    y = data(shape[-1:], dtype, seed=1)

    def f(a, b):
        return a * b + a - 2

    got = ca.vectorize(f)(ca.asarray(x, device=device), ca.asarray(y, device=device))
    same(got, np.vectorize(f)(x, y), device)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_vectorize_fallback(device, dtype):
    x = data((3, 4), dtype)
    v = ca.vectorize(_branchy)
    assert v.__doc__ == _branchy.__doc__
    got = v(ca.asarray(x, device=device), 1)
    same(got, np.vectorize(_branchy)(x, 1), device)
    fm = ca.vectorize(math.floor)
    same(fm(ca.asarray(x, device=device)), np.vectorize(math.floor)(x), device)


@pytest.mark.parametrize("device", DEVICES)
def test_vectorize_ufunc_calls(device):
    x = data((2, 5), np.float64)

    def f(a):
        mod = ca if isinstance(a, ca.ndarray) else np
        return mod.sin(a) * mod.exp(-a / 10) + mod.where(a > 0, a, 0)

    same(ca.vectorize(f)(ca.asarray(x, device=device)), np.vectorize(f)(x), device)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("otypes", ["f", [np.float32], "d", [np.int32], "?"])
def test_vectorize_otypes(device, otypes):
    x = data((3, 4), np.float64)
    got = ca.vectorize(lambda a: a * 2, otypes=otypes)(ca.asarray(x, device=device))
    same(got, np.vectorize(lambda a: a * 2, otypes=otypes)(x), device)
    got = ca.vectorize(_branchy, otypes=otypes)(ca.asarray(x, device=device), 0.5)
    same(got, np.vectorize(_branchy, otypes=otypes)(x, 0.5), device)


@pytest.mark.parametrize("device", DEVICES)
def test_vectorize_scalar_and_constant_results(device):
    same(ca.vectorize(lambda a: a + 1)(3), np.vectorize(lambda a: a + 1)(3))
    x = np.arange(6).reshape(2, 3)
    got = ca.vectorize(lambda a: 1)(ca.asarray(x, device=device))
    same(got, np.vectorize(lambda a: 1)(x), device)
    got = ca.vectorize(lambda a: 2.5)(ca.asarray(x, device=device))
    same(got, np.vectorize(lambda a: 2.5)(x), device)


@pytest.mark.parametrize("device", DEVICES)
def test_vectorize_identity_is_a_copy(device):
    x = ca.asarray(np.arange(4.0), device=device)
    y = ca.vectorize(lambda a: a)(x)
    y[0] = 100.0
    assert x.get()[0] == 0.0


@pytest.mark.parametrize("device", DEVICES)
def test_vectorize_multiple_outputs(device):
    x = data((3, 4), np.float64)

    def f(a):
        return a + 1, a * 2

    got = ca.vectorize(f)(ca.asarray(x, device=device))
    want = np.vectorize(f)(x)
    assert isinstance(got, tuple) and len(got) == 2
    for g, w in zip(got, want):
        same(g, w, device)

    def h(a):
        if a > 0:
            return a, 1
        return -a, -1

    got = ca.vectorize(h)(ca.asarray(x, device=device))
    for g, w in zip(got, np.vectorize(h)(x)):
        same(g, w, device)


@pytest.mark.parametrize("device", DEVICES)
def test_vectorize_excluded(device):
    x = data((5,), np.float64)

    def f(a, coeffs, shift=0.0):
        return sum(c * a ** i for i, c in enumerate(coeffs)) + shift

    for excl in ([1], ["coeffs"]):
        vf = ca.vectorize(f, excluded=set(excl))
        nf = np.vectorize(f, excluded=set(excl))
        if excl == [1]:
            got, want = vf(ca.asarray(x, device=device), [1, 2, 3]), nf(x, [1, 2, 3])
        else:
            got = vf(ca.asarray(x, device=device), coeffs=[1, 2, 3], shift=1.0)
            want = nf(x, coeffs=[1, 2, 3], shift=1.0)
        same(got, want, device)


@pytest.mark.parametrize("device", DEVICES)
def test_vectorize_keywords(device):
    x = data((2, 3), np.float64)
    got = ca.vectorize(_branchy)(a=ca.asarray(x, device=device), b=0.0)
    same(got, np.vectorize(_branchy)(a=x, b=0.0), device)


@pytest.mark.parametrize("device", DEVICES)
def test_vectorize_signature(device):
    a = data((2, 3, 4), np.float64)
    b = data((4,), np.float64, seed=2)
    v = ca.vectorize(np.dot, signature="(n),(n)->()")
    same(v(ca.asarray(a, device=device), ca.asarray(b, device=device)),
         np.vectorize(np.dot, signature="(n),(n)->()")(a, b), device)
    w = ca.vectorize(lambda m: m.T, signature="(m,n)->(n,m)")
    same(w(ca.asarray(a, device=device)),
         np.vectorize(lambda m: m.T, signature="(m,n)->(n,m)")(a), device)
    with pytest.raises(ValueError):
        v(ca.asarray(a, device=device), ca.asarray(np.ones(3), device=device))


@pytest.mark.parametrize("device", DEVICES)
def test_vectorize_decorator_cache_doc(device):
    @ca.vectorize(otypes=[np.float64])
    def half(a):
        return a / 2

    x = np.arange(4)
    same(half(ca.asarray(x, device=device)), x / 2, device)
    calls = []

    def counted(a):
        calls.append(1)
        return a + 1

    same(ca.vectorize(counted, cache=True)(ca.asarray(x, device=device)), x + 1,
         device)
    v = ca.vectorize(lambda a: a, doc="my doc")
    assert v.__doc__ == "my doc"


@pytest.mark.parametrize("device", DEVICES)
def test_vectorize_errors(device):
    e = ca.asarray(np.zeros((0,)), device=device)
    with pytest.raises(ValueError):
        ca.vectorize(lambda a: a)(e)
    with pytest.raises(ValueError):
        np.vectorize(lambda a: a)(np.zeros((0,)))
    got = ca.vectorize(lambda a: a, otypes="d")(e)
    same(got, np.vectorize(lambda a: a, otypes="d")(np.zeros((0,))), device)
    for bad in (dict(otypes="Q!"), dict(signature="(n->()")):
        with pytest.raises(ValueError):
            ca.vectorize(lambda a: a, **bad)
        with pytest.raises(ValueError):
            np.vectorize(lambda a: a, **bad)
    # an error the function raises on host elements is raised, NumPy's type
    with pytest.raises(ZeroDivisionError):
        ca.vectorize(lambda a: 1 // 0 if a > 0 else a)(
            ca.asarray([1, 2], device=device))
    x, y = ca.asarray(np.ones(3), device=device), ca.asarray(np.ones(4), device=device)
    with pytest.raises(ValueError):
        ca.vectorize(_branchy)(x, y)
    with pytest.raises(ValueError):
        np.vectorize(_branchy)(np.ones(3), np.ones(4))


def test_names_exported():
    for name in ("apply_along_axis", "apply_over_axes", "piecewise", "vectorize"):
        assert name in dir(ca)
    from cuarray import _functional
    assert sorted(_functional.__all__) == sorted(
        ["apply_along_axis", "apply_over_axes", "piecewise", "vectorize"])


@pytest.mark.parametrize("device", DEVICES)
def test_vectorize_calls_once_on_arrays(device):
    calls = []

    def f(a, b):
        calls.append(type(a))
        return a * 2 + b

    x = data((4, 6), np.float32)
    got = ca.vectorize(f)(ca.asarray(x, device=device), np.float32(1.5))
    assert calls == [ca.ndarray]
    same(got, np.vectorize(f)(x, np.float32(1.5)), device)
    calls.clear()
    xs, ys = x.tolist(), [1.0] * 6
    same(ca.vectorize(_branchy)(xs, ys), np.vectorize(_branchy)(xs, ys))
    calls.clear()

    def g(a):
        calls.append(type(a))
        return 1.0 if a > 0 else 0.0

    same(ca.vectorize(g)(ca.asarray(x, device=device)), np.vectorize(g)(x), device)
    assert calls[0] is ca.ndarray and len(calls) > 1
