"""cuarray.ufunc against numpy.ufunc, on every device.

Every op of kernels/ops.def is a ufunc object whose attributes match NumPy's
same-named ufunc (types restricted to cuarray's 14 dtypes); reduce, accumulate,
reduceat, outer and at give NumPy's results (random data, edge values, every
dtype the op takes) and raise NumPy's exceptions for bad axes, operands and out=.
"""

import pickle
import warnings

import numpy as np
import pytest

import cuarray as ca
from cuarray import _core
from cuarray._generated_ops import OPS as _ALL_OPS

from conftest import ALL_DTYPES, random_array

# cuarray.scipy.special's rows (_special_*) are tested in test_scipy_special.py
OPS = [op for op in _ALL_OPS if not op[0].startswith("_special_")]

SPECIAL = {"real", "imag", "round", "angle", "clip", "where"}


def _np_ufunc(name):
    return isinstance(getattr(np, name, None), np.ufunc)


# The ops that are NumPy ufuncs (the reference); the others (i0, which NumPy has as
# a function, and the internal '_' parts of frexp) are ufunc objects all the same.
UFUNC_NAMES = [name for name, *_ in OPS if name not in SPECIAL and _np_ufunc(name)]
OTHER_NAMES = [name for name, *_ in OPS if name not in SPECIAL and not _np_ufunc(name)]
BINARY = [name for name, nin, *_ in OPS if nin == 2 and name in UFUNC_NAMES]
OURS = set("?bBhHiIlLefdFD")
# Loops cuarray has beyond NumPy's 14-dtype ones: exact int64/uint64 comparisons
# (NumPy 2 has them under its 'q'/'Q' characters, outside the 14).
EXTRA_LOOPS = {"lL->?", "Ll->?"}


def dev(x, device):
    return ca.asarray(x, device=device)


def fresh(x, device):
    """A cuarray copy of x (on the cpu device asarray shares NumPy's memory: the
    in-place tests must not write their reference)."""
    return ca.asarray(np.array(x, copy=True), device=device)


def to_np(x):
    return x.get() if isinstance(x, ca.ndarray) else np.asarray(x)


def close(got, want, rtol=None, atol=None):
    got = to_np(got)
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if want.dtype.kind in "fc":
        size = want.dtype.itemsize // (2 if want.dtype.kind == "c" else 1)
        r = {2: 1e-2, 4: 2e-6, 8: 1e-10}[size]
        np.testing.assert_allclose(got, want, rtol=rtol or r, atol=atol or r,
                                   equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


def both(fn_np, fn_ca):
    """Run the NumPy reference and cuarray; the same exception type, or results."""
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = fn_np()
    except Exception as e:  # noqa: BLE001
        with pytest.raises(type(e) if not isinstance(e, TypeError) else TypeError):
            fn_ca()
        return None, None
    return fn_ca(), want


# ---- the objects and their attributes --------------------------------------------

@pytest.mark.parametrize("name", UFUNC_NAMES)
def test_attributes_match_numpy(name):
    u, nu = getattr(ca, name), getattr(np, name)
    assert isinstance(u, ca.ufunc)
    assert u is _core._ops[name]
    assert u.__name__ == nu.__name__ == name
    assert (u.nin, u.nout, u.nargs) == (nu.nin, nu.nout, nu.nargs)
    assert u.signature is None and nu.signature is None
    if nu.identity is None:
        assert u.identity is None
    else:
        assert u.identity == nu.identity and type(u.identity) is type(nu.identity)
    want = list(dict.fromkeys(t for t in nu.types
                              if set(t.replace("->", "")) <= OURS))
    got = [t for t in u.types if t not in EXTRA_LOOPS]
    assert got == want
    assert u.ntypes == len(u.types)
    assert name in u.__doc__ and "reduce" in u.__doc__
    assert repr(u) == f"<ufunc '{name}'>"


@pytest.mark.parametrize("name", OTHER_NAMES)
def test_other_ops_are_ufuncs(name):
    u = _core._ops[name]
    nin, nout, sigs = next((o[1], o[2], o[4]) for o in OPS if o[0] == name)
    assert isinstance(u, ca.ufunc) and u.__name__ == name
    assert (u.nin, u.nout, u.nargs, u.types) == (nin, nout, nin + nout, sigs)
    if not name.startswith("_"):
        assert getattr(ca, name) is u
    else:
        assert not hasattr(ca, name)


def test_type_and_aliases():
    assert ca.ufunc is _core.ufunc
    with pytest.raises(TypeError):
        ca.ufunc()
    assert ca.true_divide is ca.divide and ca.mod is ca.remainder
    assert ca.abs is ca.absolute and ca.conj is ca.conjugate
    for name in SPECIAL:
        assert isinstance(_core._ops[name], ca.ufunc)
        assert not isinstance(getattr(ca, name), ca.ufunc)  # NumPy's are functions too
    assert pickle.loads(pickle.dumps(ca.add)) is ca.add


def test_call_is_the_elementwise_call(device):
    a = random_array((3, 4), np.float32)
    b = random_array((4,), np.float32)
    close(ca.add(dev(a, device), dev(b, device)), a + b)
    out = dev(np.zeros((3, 4), np.float64), device)
    r = ca.multiply(dev(a, device), 2.0, out=out)
    assert r is out
    close(out, (a * np.float32(2)).astype(np.float64))
    close(ca.add(dev(a, device), 1, dtype=np.float64), np.add(a, 1, dtype=np.float64))
    with pytest.raises(TypeError):
        ca.add(dev(a, device))
    with pytest.raises(TypeError):
        ca.add(dev(a, device), 1, bogus=1)


# ---- reduce ------------------------------------------------------------------------

RED_DTYPES = [np.bool_, np.int8, np.int32, np.uint64, np.float16, np.float32,
              np.float64, np.complex64]


def _data(shape, dt, seed=0):
    x = random_array(shape, dt, np.random.default_rng(seed))
    if np.dtype(dt).kind in "iu":
        # small magnitudes: power/shift/multiply stay meaningful, no zero divisors
        x = (np.abs(x.astype(np.int64)) % 5 + 1).astype(dt)
    return x


REORDERABLE = {"add", "multiply", "logaddexp", "logaddexp2", "gcd", "hypot", "maximum",
               "minimum", "fmax",
               "fmin", "logical_and", "logical_or", "logical_xor", "bitwise_and",
               "bitwise_or", "bitwise_xor"}


def np_reduce(nu, x, axis):
    """nu.reduce(x, axis), with the in-order definition for the ops NumPy does not
    reorder: NumPy 2.4's SIMD arctan2 loop reduces a contiguous axis as
    arctan2(x[0], x[-1]) (its vector loop ignores the accumulator's aliasing)."""
    want = nu.reduce(x, axis=axis)
    if nu.__name__ in REORDERABLE or not isinstance(axis, int):
        return want
    xm = np.moveaxis(x, axis, 0)
    acc = xm[0].astype(want.dtype)
    for i in range(1, xm.shape[0]):
        acc = nu(acc, xm[i].astype(want.dtype)).astype(want.dtype)
    return acc


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("dt", RED_DTYPES, ids=lambda d: np.dtype(d).name)
def test_reduce_every_op(device, name, dt):
    x = _data((4, 5), dt)
    u, nu = getattr(ca, name), getattr(np, name)
    # cuarray's gcd/lcm take bool as int8 (NumPy's call refuses bool): the reference
    # is NumPy's int8 reduction
    for axis in (0, 1, -1, None, (0, 1)):
        got, want = both(lambda: np_reduce(nu, x, axis),
                         lambda: u.reduce(dev(x, device), axis=axis))
        if want is not None:
            close(got, want)


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum",
                                  "logical_and", "logical_or"])
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
def test_reduce_table_ops_every_dtype(device, name, dt):
    x = _data((3, 6), dt, seed=3)
    u, nu = getattr(ca, name), getattr(np, name)
    for kw in ({}, {"axis": 1}, {"axis": None}, {"axis": 0, "keepdims": True},
               {"axis": (0, 1), "keepdims": True}):
        got, want = both(lambda: nu.reduce(x, **kw), lambda: u.reduce(dev(x, device), **kw))
        if want is not None:
            close(got, want)


def test_add_reduce_is_sum(device):
    x = dev(random_array((8, 9), np.int8), device)
    assert ca.add.reduce(x).dtype == np.int64 == ca.sum(x, axis=0).dtype
    close(ca.add.reduce(x, axis=None), ca.sum(x).get())
    close(ca.multiply.reduce(x, axis=1, dtype=np.float64),
          np.multiply.reduce(x.get(), axis=1, dtype=np.float64))


def test_reduce_edge_values(device):
    x = np.array([[1.0, np.nan, -np.inf], [np.inf, -0.0, 2.5], [0.0, 3.0, np.nan]])
    for name in ("add", "multiply", "maximum", "minimum", "fmax", "fmin", "subtract",
                 "divide", "hypot", "logaddexp", "arctan2", "copysign"):
        for axis in (0, 1):
            got, want = both(lambda: np_reduce(getattr(np, name), x, axis),
                             lambda: getattr(ca, name).reduce(dev(x, device), axis=axis))
            close(got, want)
    i = np.array([np.iinfo(np.int32).max, 1, np.iinfo(np.int32).min], np.int32)
    for name in ("add", "subtract", "multiply", "bitwise_xor", "maximum"):
        close(getattr(ca, name).reduce(dev(i, device)), getattr(np, name).reduce(i))


def test_reduce_initial_where_out(device):
    x = random_array((4, 5), np.float64)
    w = random_array((5,), np.bool_)
    d = dev(x, device)
    close(ca.add.reduce(d, axis=0, initial=5.0), np.add.reduce(x, axis=0, initial=5.0))
    close(ca.add.reduce(d, axis=1, where=dev(w, device)), np.add.reduce(x, axis=1, where=w))
    close(ca.add.reduce(d, axis=1, where=dev(w, device), initial=2.5),
          np.add.reduce(x, axis=1, where=w, initial=2.5))
    close(ca.multiply.reduce(d, axis=None, where=dev(w, device), initial=-1.0),
          np.multiply.reduce(x, axis=None, where=w, initial=-1.0))
    close(ca.maximum.reduce(d, axis=None, initial=100.0),
          np.maximum.reduce(x, axis=None, initial=100.0))
    close(ca.maximum.reduce(d, axis=1, initial=-100.0, where=dev(w, device), keepdims=True),
          np.maximum.reduce(x, axis=1, initial=-100.0, where=w, keepdims=True))
    close(ca.subtract.reduce(d, axis=0, initial=1.0),
          np.subtract.reduce(x, axis=0, initial=1.0))
    close(ca.minimum.reduce(dev(np.zeros((0, 3)), device), axis=0, initial=7.0),
          np.minimum.reduce(np.zeros((0, 3)), axis=0, initial=7.0))
    xi = random_array((4, 5), np.int8)
    close(ca.add.reduce(dev(xi, device), axis=1, initial=1000),
          np.add.reduce(xi, axis=1, initial=1000))
    out = dev(np.zeros(5), device)
    assert ca.add.reduce(d, axis=0, out=out) is out
    close(out, np.add.reduce(x, axis=0))
    out = dev(np.zeros(4), device)
    assert ca.bitwise_or.reduce(dev(xi, device), axis=1, out=(out,)) is out
    close(out, np.bitwise_or.reduce(xi, axis=1).astype(np.float64))
    # empty reductions: the identity, or NumPy's ValueError
    close(ca.add.reduce(dev(np.zeros((0, 3)), device), axis=0), np.zeros(3))
    close(ca.bitwise_and.reduce(dev(np.zeros((0,), np.int16), device)),
          np.bitwise_and.reduce(np.zeros((0,), np.int16)))
    for name in ("maximum", "subtract"):
        with pytest.raises(ValueError):
            getattr(ca, name).reduce(dev(np.zeros((0, 3)), device), axis=0)


def raise_each(cases):
    """Each (exception type, message pattern or None, call) of cases raises."""
    for exc, match, call in cases:
        with pytest.raises(exc, match=match):
            call()


def test_reduce_errors(device):
    d = dev(np.ones((2, 3)), device)
    raise_each([
        (np.exceptions.AxisError, None, lambda: ca.add.reduce(d, axis=2)),
        (np.exceptions.AxisError, None, lambda: ca.subtract.reduce(d, axis=-3)),
        (ValueError, "duplicate", lambda: ca.subtract.reduce(d, axis=(0, 0))),
        (ValueError, "reorderable", lambda: ca.subtract.reduce(d, axis=None)),
        (ValueError, "binary", lambda: ca.negative.reduce(d)),
        (ValueError, "identity",
         lambda: ca.maximum.reduce(d, where=np.array([True, False, True]))),
        (TypeError, None, lambda: ca.less.reduce(dev(np.arange(3), device))),
        (TypeError, None, lambda: ca.subtract.reduce(dev(np.ones(3, bool), device))),
        (ValueError, None,
         lambda: ca.subtract.reduce(d, axis=0, out=dev(np.zeros(2), device))),
        (TypeError, None, lambda: ca.add.reduce(np.ones(3))),
    ])


# ---- accumulate ---------------------------------------------------------------------

@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("dt", [np.bool_, np.int16, np.uint32, np.float32, np.float64,
                                np.complex128], ids=lambda d: np.dtype(d).name)
def test_accumulate_every_op(device, name, dt):
    x = _data((5, 4), dt, seed=1)
    u, nu = getattr(ca, name), getattr(np, name)
    for axis in (0, 1, -1):
        got, want = both(lambda: nu.accumulate(x, axis=axis),
                         lambda: u.accumulate(dev(x, device), axis=axis))
        if want is not None:
            close(got, want)


def test_accumulate_long_and_options(device):
    x = random_array((300,), np.float64)
    for name in ("add", "maximum", "minimum", "fmax", "logaddexp", "subtract"):
        close(getattr(ca, name).accumulate(dev(x, device)), getattr(np, name).accumulate(x))
    xi = random_array((6, 3), np.int8)
    close(ca.add.accumulate(dev(xi, device), axis=1), np.add.accumulate(xi, axis=1))
    close(ca.multiply.accumulate(dev(xi, device), dtype=np.float64),
          np.multiply.accumulate(xi, dtype=np.float64))
    close(ca.bitwise_xor.accumulate(dev(xi, device), axis=0),
          np.bitwise_xor.accumulate(xi, axis=0))
    out = dev(np.zeros((6, 3)), device)
    assert ca.maximum.accumulate(dev(xi.astype(np.float64), device), out=out) is out
    close(out, np.maximum.accumulate(xi.astype(np.float64)))
    d = dev(np.ones((2, 2)), device)
    raise_each([
        (ValueError, "multiple axes", lambda: ca.add.accumulate(d, axis=(0, 1))),
        (ValueError, "multiple axes", lambda: ca.maximum.accumulate(d, axis=None)),
        (ValueError, "binary", lambda: ca.negative.accumulate(d)),
        (np.exceptions.AxisError, None, lambda: ca.add.accumulate(d, axis=2)),
    ])


# ---- reduceat ---------------------------------------------------------------------

@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "subtract",
                                  "bitwise_or", "fmax"])
def test_reduceat(device, name):
    x = _data((8, 3), np.int32, seed=2)
    xf = random_array((8, 3), np.float64)
    u, nu = getattr(ca, name), getattr(np, name)
    for idx in ([0, 4, 1, 5], [0, 2, 3, 7], [3], [0, 0, 5, 5, 7]):
        close(u.reduceat(dev(x, device), idx), nu.reduceat(x, idx))
        if name != "bitwise_or":
            close(u.reduceat(dev(xf, device), idx, axis=1 if max(idx) < 3 else 0),
                  nu.reduceat(xf, idx, axis=1 if max(idx) < 3 else 0))
    close(u.reduceat(dev(x, device), dev(np.array([1, 6]), device), axis=0),
          nu.reduceat(x, np.array([1, 6]), axis=0))


def test_reduceat_errors(device):
    d = dev(np.ones(4), device)
    with pytest.raises(IndexError):
        ca.add.reduceat(d, [0, 8])
    with pytest.raises(IndexError):
        ca.add.reduceat(d, [-1])
    with pytest.raises(ValueError):
        ca.negative.reduceat(d, [0])
    close(ca.add.reduceat(dev(np.ones(4, np.int8), device), [0, 2]),
          np.add.reduceat(np.ones(4, np.int8), [0, 2]))


# ---- outer ----------------------------------------------------------------------

@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "power", "less",
                                  "maximum", "arctan2", "bitwise_and", "logical_xor"])
def test_outer(device, name):
    a = _data((4,), np.int32)
    b = _data((2, 3), np.int32, seed=5)
    af = random_array((3,), np.float32)
    u, nu = getattr(ca, name), getattr(np, name)
    for x, y in ((a, b), (b, a), (af, af), (af, b)):
        got, want = both(lambda: nu.outer(x, y), lambda: u.outer(dev(x, device), dev(y, device)))
        if want is not None:
            close(got, want)
    got, want = both(lambda: nu.outer(a, 2), lambda: u.outer(dev(a, device), 2))
    if want is not None:
        close(got, want)


def test_outer_options_and_errors(device):
    a = random_array((3,), np.float32)
    b = random_array((4,), np.float32)
    out = dev(np.zeros((3, 4), np.float32), device)
    assert ca.add.outer(dev(a, device), dev(b, device), out=out) is out
    close(out, np.add.outer(a, b))
    close(ca.multiply.outer(dev(a, device), dev(b, device), dtype=np.float64),
          np.multiply.outer(a, b, dtype=np.float64))
    with pytest.raises(ValueError, match="binary"):
        ca.negative.outer(dev(a, device), dev(b, device))
    with pytest.raises(ValueError):
        ca.add.outer(dev(a, device), dev(b, device), out=dev(np.zeros(3), device))
    with pytest.raises(TypeError):
        ca.add.outer(dev(a, device), b)


# ---- at ---------------------------------------------------------------------------

AT_BINARY = ["add", "subtract", "multiply", "maximum", "minimum", "fmax", "fmin",
             "bitwise_and", "bitwise_or", "bitwise_xor", "logical_and", "logical_or",
             "divide", "power", "floor_divide", "arctan2", "less", "hypot"]


def _at_case(dt, seed):
    rng = np.random.default_rng(seed)
    a = _data((7,), dt, seed=seed)
    idx = rng.integers(-7, 7, size=40)
    v = _data((40,), dt, seed=seed + 1)
    if np.dtype(dt).kind in "iu" and np.dtype(dt).itemsize == 8:
        v = v % 3  # no overflow in power / multiply chains beyond NumPy's wrap
    return a, idx, v


def _at_tol(device, dt, name):
    # atomics on a GPU apply repeats of one element in no fixed order
    k = np.dtype(dt).kind
    if device != "cpu" and k in "fc" and name in ("add", "subtract", "multiply"):
        return {"e": 1e-1, "f": 1e-4, "F": 1e-4}.get(np.dtype(dt).char, 1e-9)
    return None


@pytest.mark.parametrize("name", AT_BINARY)
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
def test_at_every_op(device, name, dt):
    a, idx, v = _at_case(dt, 11)
    if name == "multiply" and np.dtype(dt).kind in "fc":
        v = (np.abs(v) % 2 + 0.5).astype(dt)  # no overflow to inf
    u, nu = getattr(ca, name), getattr(np, name)
    want = a.copy()
    try:
        with np.errstate(all="ignore"):
            nu.at(want, idx, v)
    except Exception as e:  # noqa: BLE001
        with pytest.raises(TypeError if isinstance(e, TypeError) else type(e)):
            u.at(dev(a, device), dev(idx, device), dev(v, device))
        return
    got = fresh(a, device)
    assert u.at(got, dev(idx, device), dev(v, device)) is None
    r = _at_tol(device, dt, name)
    close(got, want, rtol=r, atol=r)


@pytest.mark.parametrize("name", ["negative", "absolute", "invert", "sqrt", "square"])
def test_at_unary(device, name):
    for dt in (np.int32, np.float64, np.bool_):
        a = _data((6,), dt)
        idx = np.array([0, 0, 3, 5, 5, 5])
        want = a.copy()
        try:
            with np.errstate(all="ignore"):
                getattr(np, name).at(want, idx)
        except TypeError:
            with pytest.raises(TypeError):
                getattr(ca, name).at(dev(a, device), dev(idx, device))
            continue
        got = fresh(a, device)
        getattr(ca, name).at(got, dev(idx, device))
        close(got, want)


def test_at_edge_values_and_casts(device):
    # NaNs through maximum/minimum, skipped by fmax/fmin
    a = np.array([1.0, 2.0, np.nan, 4.0], np.float32)
    idx = np.array([0, 0, 1, 2, 3, 3])
    v = np.array([np.nan, 5.0, -1.0, 3.0, np.inf, -np.inf], np.float32)
    for name in ("maximum", "minimum", "fmax", "fmin"):
        want = a.copy()
        with np.errstate(invalid="ignore"):
            getattr(np, name).at(want, idx, v)
        got = fresh(a, device)
        getattr(ca, name).at(got, dev(idx, device), dev(v, device))
        close(got, want)
    # Python scalars and other dtypes: NumPy's casts (int8 wraps, float -> int)
    for a, vals, name in ((np.zeros(3, np.int8), 300, "add"),
                          (np.zeros(3, np.int8), 300, "maximum"),
                          (np.zeros(3, np.int64), 1.5, "add"),
                          (np.zeros(3, np.float32), 1.5, "add"),
                          (np.zeros(3, np.float32), 0.1, "add"),
                          (np.ones(3, np.float16), np.float64(3.3), "multiply"),
                          (np.zeros(3, np.uint8), -1, "subtract")):
        want = a.copy()
        getattr(np, name).at(want, [0, 0, 2], vals)
        got = fresh(a, device)
        getattr(ca, name).at(got, [0, 0, 2], vals)
        close(got, want)
    # complex128 multiply (no 16-byte atomic: the ordered rounds)
    c = random_array((5,), np.complex128)
    cv = random_array((9,), np.complex128)
    ci = np.array([0, 1, 1, 1, 4, 4, 0, 2, 2])
    want = c.copy()
    np.multiply.at(want, ci, cv)
    got = fresh(c, device)
    ca.multiply.at(got, dev(ci, device), dev(cv, device))
    close(got, want)


def test_at_indices_and_layouts(device):
    a = random_array((4, 5), np.float64)
    for ind, vals in (((np.array([0, 0, 3]), np.array([1, 1, 4])), np.array([1.0, 2.0, 3.0])),
                      ((slice(1, 3), np.array([0, 0])), 1.0),
                      (np.array([1, 1, -1]), np.arange(5.0)),
                      ((Ellipsis, 2), 5.0),
                      (np.array([[0, 1], [1, 1]]), np.ones((2, 2, 5)))):
        want = a.copy()
        np.add.at(want, ind, vals)
        got = fresh(a, device)
        cind = tuple(dev(i, device) if isinstance(i, np.ndarray) else i for i in ind) \
            if isinstance(ind, tuple) else dev(ind, device)
        cvals = dev(vals, device) if isinstance(vals, np.ndarray) else vals
        ca.add.at(got, cind, cvals)
        close(got, want)
    # a non-contiguous target (a view of a bigger array)
    big = random_array((6, 8), np.int32)
    want = big.copy()
    np.add.at(want[:, ::2], (np.array([0, 0, 5]), np.array([3, 3, 1])), 7)
    got = fresh(big, device)
    ca.add.at(got[:, ::2], (dev(np.array([0, 0, 5]), device), dev(np.array([3, 3, 1]), device)), 7)
    close(got, want)
    # many repeats (the kernel's atomics / the rounds' many rounds)
    rng = np.random.default_rng(7)
    idx = rng.integers(0, 16, size=5000)
    v = rng.integers(-3, 4, size=5000).astype(np.int64)
    for name in ("add", "maximum", "power"):
        base = np.ones(16, np.int64)
        want = base.copy()
        vv = np.abs(v) % 2 if name == "power" else v
        getattr(np, name).at(want, idx, vv)
        got = fresh(base, device)
        getattr(ca, name).at(got, dev(idx, device), dev(vv, device))
        close(got, want)


def test_at_errors(device):
    a = dev(np.zeros(4), device)
    with pytest.raises(IndexError):
        ca.add.at(a, dev(np.array([4]), device), 1.0)
    with pytest.raises(IndexError):
        ca.add.at(a, [-5], 1.0)
    with pytest.raises(ValueError, match="second operand"):
        ca.add.at(a, [0])
    with pytest.raises(ValueError):
        ca.negative.at(a, [0], 1.0)
    with pytest.raises(TypeError):
        ca.add.at(np.zeros(4), [0], 1.0)
    with pytest.raises(TypeError):
        ca.add.at(a, [0], np.ones(1))
    with pytest.raises(TypeError):
        ca.subtract.at(dev(np.zeros(3, bool), device), [0], True)
    ro = ca.imag(dev(np.zeros(4), device))  # NumPy's imag of a real array: read-only
    with pytest.raises(ValueError, match="read-only"):
        ca.add.at(ro, [0], 1.0)


def test_at_direct_path(device):
    """One integer index array into a contiguous 1-D target: the checked scatter
    with no positions gather (negatives wrap, a bad index changes nothing)."""
    rng = np.random.default_rng(11)
    n = 1000
    base = random_array((n,), np.float64, rng)
    idx = rng.integers(-n, n, size=1 << 16)
    vals = rng.random(1 << 16)
    for it in (np.int64, np.int32, np.int16, np.uint32, np.uint16):
        ii = (idx if np.dtype(it).kind == "i" else np.abs(idx) % n).astype(it)
        want = base.copy()
        np.add.at(want, ii, vals)
        got = fresh(base, device)
        ca.add.at(got, dev(ii, device), dev(vals, device))
        close(got, want, rtol=1e-9, atol=1e-9)
    # int8 indices into a short target; scalar and broadcast values; maximum
    small = random_array((100,), np.int32, rng)
    i8 = rng.integers(-100, 100, size=500).astype(np.int8)
    for name, v in (("add", 3), ("maximum", rng.integers(-9, 9, size=500).astype(np.int32)),
                    ("bitwise_xor", np.int32(5))):
        want = small.copy()
        getattr(np, name).at(want, i8, v)
        got = fresh(small, device)
        cv = dev(v, device) if isinstance(v, np.ndarray) and v.ndim else v
        getattr(ca, name).at(got, dev(i8, device), cv)
        close(got, want)
    # a 2-D index array, values broadcast along its last axis; a strided index view
    i2 = rng.integers(0, n, size=(30, 40))
    v2 = rng.random(40)
    want = base.copy()
    # (NumPy 2.4's add.at reads past values it broadcasts here: the reference gets
    # them broadcast already)
    np.add.at(want, i2, np.broadcast_to(v2, i2.shape).copy())
    got = fresh(base, device)
    ca.add.at(got, dev(i2, device), dev(v2, device))
    close(got, want)
    want = base.copy()
    np.add.at(want, idx[::3], vals[::3])
    got = fresh(base, device)
    ca.add.at(got, dev(idx, device)[::3], dev(vals, device)[::3])
    close(got, want, rtol=1e-9, atol=1e-9)
    # a 0-d index array is one index
    want = base.copy()
    np.add.at(want, np.array(-3), 2.5)
    got = fresh(base, device)
    ca.add.at(got, dev(np.array(-3), device), 2.5)
    close(got, want)
    # one bad index anywhere: IndexError naming it, and nothing is updated
    for bad in (n, -n - 1, 10**12):
        ii = idx.copy()
        ii[len(ii) // 2] = bad
        got = fresh(base, device)
        with pytest.raises(IndexError, match=f"index {bad} is out of bounds for axis 0 "
                                             f"with size {n}"):
            ca.add.at(got, dev(ii, device), dev(vals, device))
        close(got, base)
    empty = dev(np.zeros(0), device)
    with pytest.raises(IndexError):
        ca.add.at(empty, dev(np.array([0]), device), 1.0)
    ca.add.at(empty, dev(np.zeros(0, np.int64), device), 1.0)  # nothing to do
    with pytest.raises(ValueError):
        ca.add.at(fresh(base, device), dev(idx[:10], device), dev(vals[:7], device))
    # the primitive's extent argument
    with pytest.raises(ValueError):
        _core._ufunc_at(ca.add, fresh(base, device), dev(idx[:4], device),
                        dev(vals[:4], device), -1)


def _exact_values(shape, dt, rng):
    """Small integers as dt (sums stay exact in any order, float16 included)."""
    dt = np.dtype(dt)
    if dt == np.bool_:
        return rng.random(shape) < 0.5
    x = rng.integers(-4, 5, size=shape)
    if dt.kind == "u":
        x = np.abs(x)
    if dt.kind == "c":
        return (x + 1j * rng.integers(-4, 5, size=shape)).astype(dt)
    return x.astype(dt)


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
def test_at_checked_paths(device, dt):
    """ufunc.at's checked scatter for targets small and big beside their indices:
    negatives, repeats, lengths that are not multiples of 4, views one element in,
    and one bad index at the first, a middle or the last place: IndexError and the
    target unchanged."""
    rng = np.random.default_rng(np.dtype(dt).num)
    for size, n in ((37, 1003), (4099, 9), (64, 4096)):
        base = _exact_values((size,), dt, rng)
        idx = rng.integers(-size, size, size=n + 1)
        vals = _exact_values((n + 1,), dt, rng)
        for name in ("add", "maximum"):
            for lo in (0, 1):  # 1: views one element in, off the vector alignment
                want = base.copy()
                with np.errstate(all="ignore"):
                    getattr(np, name).at(want, idx[lo:lo + n], vals[lo:lo + n])
                got = fresh(base, device)
                getattr(ca, name).at(got, dev(idx, device)[lo:lo + n],
                                     dev(vals, device)[lo:lo + n])
                close(got, want)
        for where in (0, n // 2, n - 1):
            for bad in (size, -size - 1):
                ii = idx[:n].copy()
                ii[where] = bad
                got = fresh(base, device)
                with pytest.raises(IndexError, match=f"index {bad} is out of bounds for "
                                                     f"axis 0 with size {size}"):
                    ca.add.at(got, dev(ii, device), dev(vals[:n], device))
                np.testing.assert_array_equal(to_np(got), base)
        # strided (copied) indices and a scalar value
        want = base.copy()
        np.add.at(want, idx[::2], vals[0])
        got = fresh(base, device)
        ca.add.at(got, dev(idx, device)[::2], vals[0])
        close(got, want)


@pytest.mark.parametrize("dt", [np.float32, np.int64, np.complex128, np.float16])
def test_at_scatter_checked_in_one_launch(device, dt):
    """A target small beside its indices (2 * size * itemsize <= 8 * n) takes the
    scatter that checks each position itself, with the target copied aside: many
    blocks of updates, negatives, every index bad, and bad ones at block edges
    leave it unchanged; a good call after a bad one sees the restored target."""
    rng = np.random.default_rng(11)
    size, n = 1000, 300_001
    base = _exact_values((size,), dt, rng)
    idx = rng.integers(-size, size, size=n)
    vals = _exact_values((n,), dt, rng)
    for where in ((0,), (255, 256), (n - 1,), tuple(range(0, n, 4096))):
        ii = idx.copy()
        ii[list(where)] = size + 3
        got = fresh(base, device)
        with pytest.raises(IndexError, match=f"index {size + 3} is out of bounds"):
            ca.add.at(got, dev(ii, device), dev(vals, device))
        np.testing.assert_array_equal(to_np(got), base)
    got = fresh(base, device)
    with pytest.raises(IndexError, match="out of bounds for axis 0 with size 1000"):
        ca.add.at(got, dev(np.full(n, -size - 1), device), dev(vals, device))
    np.testing.assert_array_equal(to_np(got), base)
    ca.add.at(got, dev(idx[:4096], device), dev(vals[:4096], device))
    want = base.copy()
    np.add.at(want, idx[:4096], vals[:4096])  # small integers: exact in any order
    np.testing.assert_array_equal(to_np(got), want)


@pytest.mark.parametrize("dt", [np.float32, np.int32, np.float64])
def test_at_check_pass_then_gated_scatter(device, dt):
    """A target big beside its indices takes the check pass; on a GPU the scatter
    is queued behind it and reads its flag, so a bad index anywhere (first, a
    block edge, last) leaves the target unchanged, and work queued after a good
    call sees every update (the call returns before the scatter ends)."""
    rng = np.random.default_rng(12)
    size, n = 1 << 20, 70_001
    base = _exact_values((size,), dt, rng)
    idx = rng.integers(-size, size, size=n)
    vals = _exact_values((n,), dt, rng)
    for where in (0, 256 * 64, n - 1):
        ii = idx.copy()
        ii[where] = -size - 2
        got = fresh(base, device)
        with pytest.raises(IndexError, match=f"index {-size - 2} is out of bounds"):
            ca.add.at(got, dev(ii, device), dev(vals, device))
        np.testing.assert_array_equal(to_np(got), base)
    got = fresh(base, device)
    for _ in range(3):
        ca.add.at(got, dev(idx, device), dev(vals, device))
    twice = got * 2  # queued behind the scatters
    want = base.copy()
    for _ in range(3):
        np.add.at(want, idx, vals)
    np.testing.assert_array_equal(to_np(twice), want * 2)


def test_at_into_an_empty_target(device):
    """Every index is out of bounds of an empty target (both scatter paths: a few
    updates and many): NumPy's IndexError; no updates is no error."""
    for n in (1, 70_000):
        t = dev(np.zeros(0, np.float32), device)
        with pytest.raises(IndexError, match="out of bounds for axis 0 with size 0"):
            ca.add.at(t, dev(np.zeros(n, np.int64), device),
                      dev(np.ones(n, np.float32), device))
    ca.add.at(t, dev(np.zeros(0, np.int64), device), dev(np.ones(0, np.float32), device))
    assert t.shape == (0,)


def test_at_extent_past_target(device):
    t = dev(np.zeros(4), device)
    with pytest.raises(ValueError, match="extent"):
        _core._ufunc_at(ca.add, t, dev(np.array([5]), device), dev(np.ones(1), device), 6)
    np.testing.assert_array_equal(to_np(t), np.zeros(4))


def test_at_kernel_primitive(device):
    """_ufunc_at itself: every pair it claims, against a serial NumPy loop."""
    rng = np.random.default_rng(3)
    for name in ("add", "subtract", "multiply", "maximum", "minimum", "fmax", "fmin",
                 "bitwise_and", "bitwise_or", "bitwise_xor", "logical_and", "logical_or"):
        for dt in ALL_DTYPES:
            t = _data((9,), dt, seed=4)
            pos = rng.integers(0, 9, size=30).astype(np.int64)
            v = _data((30,), dt, seed=5)
            if name == "multiply" and np.dtype(dt).kind in "fc":
                v = (np.abs(v) % 2 + 0.5).astype(dt)
            got = fresh(t, device)
            ok = _core._ufunc_at(getattr(ca, name), got, dev(pos, device), dev(v, device))
            want = t.copy()
            try:
                with np.errstate(all="ignore"):
                    getattr(np, name).at(want, pos, v)
            except TypeError:
                assert not ok
                continue
            if ok:
                close(got, want, rtol=_at_tol(device, dt, name), atol=_at_tol(device, dt, name))
            else:
                assert np.dtype(dt) == np.complex128 or name in ("logical_and", "logical_or")
    with pytest.raises(ValueError):
        _core._ufunc_at(ca.add, dev(np.zeros(3), device), dev(np.zeros(2, np.int32), device),
                        dev(np.zeros(2), device))
