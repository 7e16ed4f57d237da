"""NumPy's keywords beyond out=/dtype=/casting= (issue 37): a ufunc call's where=,
order=, subok= and signature=, and the reductions' initial= and where=, against
NumPy on every device (random data, broadcasting masks, out= given or not, empty
selections, NumPy's exceptions)."""

import warnings
import zlib

import numpy as np
import pytest

import cuarray as ca
from cuarray import _core
from cuarray._generated_ops import OPS as _ALL_OPS

SPECIAL = {"real", "imag", "round", "angle", "clip", "where"}
NAMES = [name for name, *_ in _ALL_OPS
         if name not in SPECIAL and not name.startswith("_")
         and isinstance(getattr(np, name, None), np.ufunc)]


def _operands(name, rng):
    """NumPy operands of the first of float64, int64, bool the ufunc takes."""
    u = getattr(np, name)
    for dt in ("float64", "int64", "bool", "mixed"):
        if dt == "mixed":  # ldexp: (float64, int64)
            xs = [rng.uniform(0.1, 0.9, (3, 4)), rng.integers(1, 5, (3, 4))][:u.nin]
        elif dt == "bool":
            xs = [rng.random((3, 4)) > 0.5 for _ in range(u.nin)]
        elif dt == "int64":
            xs = [rng.integers(1, 5, (3, 4)) for _ in range(u.nin)]
        else:
            xs = [rng.uniform(0.1, 0.9, (3, 4)) for _ in range(u.nin)]
        try:
            with np.errstate(all="ignore"):
                u(*xs, casting="no")
        except TypeError:
            continue
        return xs
    pytest.skip(f"{name}: no float64/int64/bool loop")


def _close(got, want):
    got = ca.asnumpy(got) if isinstance(got, ca.ndarray) else np.asarray(got)
    assert got.dtype == np.asarray(want).dtype, (got.dtype, np.asarray(want).dtype)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=0, equal_nan=True)


@pytest.mark.parametrize("name", NAMES)
def test_where_every_ufunc(device, name):
    rng = np.random.default_rng(len(name))
    xs = _operands(name, rng)
    u, cu = getattr(np, name), _core._ops[name]
    mask = rng.random((4,)) > 0.4  # broadcast over the rows
    with np.errstate(all="ignore"):
        want = u(*xs)
        out = np.full(want.shape, 7, dtype=want.dtype)
        ref = u(*xs, out=out.copy(), where=mask)
    X = [ca.asarray(x, device=device) for x in xs]
    M = ca.asarray(mask, device=device)
    o = ca.asarray(out, device=device)
    with np.errstate(all="ignore"):
        r = cu(*X, out=o, where=M)
        fresh = cu(*X, where=M)
    assert r is o
    _close(o, ref)
    sel = np.broadcast_to(mask, want.shape)
    _close(ca.asnumpy(fresh)[sel], want[sel])


@pytest.mark.parametrize("mask_shape", [(), (4,), (3, 1), (2, 3, 4)])
def test_where_broadcasts(device, mask_shape):
    rng = np.random.default_rng(1)
    x, y = rng.random((3, 4)), rng.random((4,))
    m = rng.random(mask_shape) > 0.5
    want = np.add(x, y, where=m, out=None)
    got = ca.add(ca.asarray(x, device=device), ca.asarray(y, device=device),
                 where=ca.asarray(m, device=device))
    assert got.shape == want.shape
    sel = np.broadcast_to(m, want.shape)
    _close(ca.asnumpy(got)[sel], want[sel])


def test_where_scalars_lists_and_positional_out(device):
    x = np.arange(6.0).reshape(2, 3)
    X = ca.asarray(x, device=device)
    o, O = np.zeros(3), ca.zeros(3, device=device)
    np.multiply(x[0], 2, o, where=[True, False, True])
    ca.multiply(X[0], 2, O, where=[True, False, True])
    _close(O, o)
    _close(ca.subtract(X, 1, where=True), x - 1)
    _close(ca.subtract(X, 1, where=1), x - 1)
    o2 = ca.full((2, 3), 5.0, device=device)
    ca.negative(X, out=(o2,), where=False)
    _close(o2, np.full((2, 3), 5.0))


def test_where_errors(device):
    X = ca.ones((3,), device=device)
    with pytest.raises(TypeError, match="to dtype\\('bool'\\) according to the rule 'safe'"):
        ca.add(X, 1, where=ca.ones((3,), device=device))
    with pytest.raises(ValueError):
        ca.add(X, 1, where=ca.ones((4,), dtype=bool, device=device))
    with pytest.raises(ValueError):  # the mask does not fit out
        ca.add(X, 1, out=ca.zeros((3,), device=device),
               where=ca.ones((2, 3), dtype=bool, device=device))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output"):
        ca.add(X, 1.5, out=ca.zeros((3,), dtype=ca.int64, device=device),
               where=ca.ones((3,), dtype=bool, device=device))


@pytest.mark.parametrize("order", ["K", "C", "F", "A", "c", None])
def test_order(device, order):
    x = np.asfortranarray(np.arange(12.0).reshape(3, 4))
    X = ca.asarray(x, device=device)
    want = np.sqrt(x, order=order)
    got = ca.sqrt(X, order=order)
    _close(got, want)
    assert got.flags.c_contiguous == want.flags.c_contiguous
    assert got.flags.f_contiguous == want.flags.f_contiguous
    got2 = ca.add(X, X.T.T, order=order)
    want2 = np.add(x, x, order=order)
    assert got2.flags.f_contiguous == want2.flags.f_contiguous


def test_order_subok_errors(device):
    X = ca.ones((3,), device=device)
    with pytest.raises(ValueError, match="order must be one of 'C', 'F', 'A', or 'K'"):
        ca.add(X, 1, order="X")
    with pytest.raises(TypeError, match="'subok' must be a boolean"):
        ca.add(X, 1, subok=3)
    _close(ca.add(X, 1, subok=True), np.full(3, 2.0))
    _close(ca.add(X, 1, subok=False), np.full(3, 2.0))


@pytest.mark.parametrize("sig", ["ff->f", "dd->d", (None, None, "float32"),
                                 (None, None, np.float64), ("float32", None, None),
                                 (np.int64, np.int64, None), "ll->l"])
def test_signature(device, sig):
    x = np.arange(1, 7, dtype=np.int32).reshape(2, 3)
    X = ca.asarray(x, device=device)
    want = np.add(x, 3, signature=sig)
    got = ca.add(X, 3, signature=sig)
    _close(got, want)
    want = np.sqrt(x, signature=(None, np.float32))
    _close(ca.sqrt(X, signature=(None, np.float32)), want)


def test_signature_errors(device):
    X = ca.ones((3,), device=device)
    for sig, exc in [("f", TypeError), ((None, "f8"), ValueError), (np.float64, TypeError),
                     (("i8", "i8", None), TypeError), ("ii->i", TypeError)]:
        with pytest.raises(exc):
            np.add(np.ones(3), 1, signature=sig)
        with pytest.raises(exc):
            ca.add(X, 1, signature=sig)


def test_numpy_dispatch_where(device):
    # np.add on a cuarray array goes through __array_ufunc__ to the same call
    x = np.arange(4.0)
    X = ca.asarray(x, device=device)
    o = ca.zeros(4, device=device)
    np.add(X, 1, out=o, where=ca.asarray(x > 1, device=device))
    _close(o, np.array([0, 0, 3.0, 4.0]))


# ---- reductions: initial= and where= --------------------------------------------

WITH_INITIAL = ["sum", "prod", "max", "min", "amax", "amin", "nansum", "nanprod",
                "nanmax", "nanmin"]
WHERE_ONLY = ["mean", "std", "var", "nanmean", "nanstd", "nanvar", "any", "all"]
METHODS = ["sum", "prod", "max", "min", "mean", "std", "var", "any", "all"]


def _red_data(rng, dtype="float64"):
    x = rng.uniform(-1, 2, (4, 5))
    if dtype == "float64":
        x[1, 2] = np.nan
        x[3, 0] = np.nan
        return x
    return (x * 3).astype(dtype)


def _red_close(got, want):
    got = ca.asnumpy(got) if isinstance(got, ca.ndarray) else np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12, equal_nan=True)


@pytest.mark.parametrize("name", WITH_INITIAL + WHERE_ONLY)
@pytest.mark.parametrize("axis", [None, 0, -1])
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("mask_shape", [(4, 5), (5,), (4, 1)])
def test_reduction_where(device, name, axis, keepdims, mask_shape):
    rng = np.random.default_rng(zlib.crc32(repr((name, axis, keepdims, mask_shape)).encode()))
    x = _red_data(rng)
    m = rng.random(mask_shape) > 0.3
    kw = dict(axis=axis, keepdims=keepdims)
    if name in WITH_INITIAL:
        kw["initial"] = 0.25
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = getattr(np, name)(x, where=m, **kw)
        got = getattr(ca, name)(ca.asarray(x, device=device),
                                where=ca.asarray(m, device=device), **kw)
    _red_close(got, want)


@pytest.mark.parametrize("name", WITH_INITIAL)
@pytest.mark.parametrize("axis", [None, 0, -1])
@pytest.mark.parametrize("dtype", ["float64", "int8", "int64", "uint16"])
def test_reduction_initial(device, name, axis, dtype):
    rng = np.random.default_rng(3)
    x = _red_data(rng, dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = getattr(np, name)(x, axis=axis, initial=2)
        got = getattr(ca, name)(ca.asarray(x, device=device), axis=axis, initial=2)
    _red_close(got, want)


@pytest.mark.parametrize("name", WITH_INITIAL)
def test_reduction_empty_initial(device, name):
    x = np.ones((0, 3))
    for axis in (None, 0):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = getattr(np, name)(x, axis=axis, initial=5.0)
            got = getattr(ca, name)(ca.asarray(x, device=device), axis=axis, initial=5.0)
        _red_close(got, want)


@pytest.mark.parametrize("name", WITH_INITIAL + WHERE_ONLY)
def test_reduction_empty_selection(device, name):
    x = np.arange(6.0).reshape(2, 3)
    m = np.array([[False, True, False], [False, True, False]])
    X, M = ca.asarray(x, device=device), ca.asarray(m, device=device)
    kw = {"initial": -3.0} if name in WITH_INITIAL else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = getattr(np, name)(x, axis=0, where=m, **kw)
        got = getattr(ca, name)(X, axis=0, where=M, **kw)
    _red_close(got, want)
    if name in ("max", "min", "amax", "amin", "nanmax", "nanmin"):
        for mod, arr, mask in ((np, x, m), (ca, X, M)):
            with pytest.raises(ValueError, match="to use a where mask one has to specify "
                               "'initial'"):
                getattr(mod, name)(arr, axis=0, where=mask)


@pytest.mark.parametrize("name", ["sum", "prod", "max", "mean", "var", "any", "nansum"])
def test_reduction_where_out(device, name):
    rng = np.random.default_rng(5)
    x = rng.random((4, 5))
    m = rng.random((4, 5)) > 0.5
    kw = {"initial": 1.0} if name in WITH_INITIAL else {}
    want = getattr(np, name)(x, axis=1, where=m, **kw)
    o = ca.zeros(want.shape, dtype=want.dtype, device=device)
    r = getattr(ca, name)(ca.asarray(x, device=device), axis=1, out=o,
                          where=ca.asarray(m, device=device), **kw)
    assert r is o
    _red_close(o, want)


@pytest.mark.parametrize("name", METHODS)
def test_reduction_methods(device, name):
    rng = np.random.default_rng(6)
    x = rng.random((3, 4))
    m = rng.random((4,)) > 0.3
    kw = {"initial": 0.5} if name in WITH_INITIAL else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # var/std of a one-element selection
        want = getattr(x, name)(axis=0, where=m, **kw)
        got = getattr(ca.asarray(x, device=device), name)(
            axis=0, where=ca.asarray(m, device=device), **kw)
    _red_close(got, want)


@pytest.mark.parametrize("dtype", ["int32", "bool", "float32", "float16", "complex128"])
@pytest.mark.parametrize("name", ["sum", "mean", "var", "std", "any", "nanmean"])
def test_reduction_where_dtypes(device, dtype, name):
    rng = np.random.default_rng(7)
    x = (rng.random((3, 4)) * 4).astype(dtype)
    if dtype == "complex128":
        x = x + 1j * rng.random((3, 4))
    m = rng.random((3, 4)) > 0.3
    want = getattr(np, name)(x, axis=1, where=m)
    got = getattr(ca, name)(ca.asarray(x, device=device), axis=1,
                            where=ca.asarray(m, device=device))
    got_h = ca.asnumpy(got)
    assert got_h.dtype == want.dtype
    tol = 2e-3 if dtype == "float16" else 1e-5 if dtype == "float32" else 1e-10
    np.testing.assert_allclose(got_h, want, rtol=tol, atol=tol)


def test_reduction_kw_errors(device):
    X = ca.ones((3, 4), device=device)
    x = np.ones((3, 4))
    for mod, arr, bad in ((np, x, np.ones((3, 4))), (ca, X, ca.ones((3, 4), device=device))):
        with pytest.raises(TypeError, match="to dtype\\('bool'\\)"):
            mod.sum(arr, where=bad)
    with pytest.raises(ValueError):
        np.sum(x, where=np.ones((5,), bool))
    with pytest.raises(ValueError):
        ca.sum(X, where=ca.ones((5,), dtype=bool, device=device))
    with pytest.raises(ValueError):
        ca.sum(X, where=ca.ones((2, 3, 4), dtype=bool, device=device))
    for name, kw in (("any", {"initial": 1}), ("mean", {"initial": 1}),
                     ("argmax", {"where": True}), ("cumsum", {"initial": 0})):
        with pytest.raises(TypeError, match=f"{name}\\(\\) got an unexpected keyword"):
            getattr(ca, name)(X, **kw)
    with pytest.raises(TypeError, match="requires a cuarray.ndarray"):
        ca.sum([1, 2], where=True)


def test_reduction_positional_initial(device):
    x = np.arange(6.0).reshape(2, 3)
    X = ca.asarray(x, device=device)
    _red_close(X.sum(0, None, None, False, 7), x.sum(0, None, None, False, 7))
    _red_close(ca.max(X, 1, None, True, 4.5), np.max(x, 1, None, True, 4.5))
    m = np.array([True, False, True])
    _red_close(ca.prod(X, None, None, None, False, 2, ca.asarray(m, device=device)),
               np.prod(x, None, None, None, False, 2, m))
    with pytest.raises(TypeError):
        ca.any(X, 0, None, False, True)
