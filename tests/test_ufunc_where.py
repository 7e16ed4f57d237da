"""NumPy's keywords beyond out=/dtype=/casting= (issue 37): a ufunc call's where=,
order=, subok= and signature=, and the reductions' initial= and where=, against
NumPy on every device (random data, broadcasting masks, out= given or not, empty
selections, NumPy's exceptions)."""

import warnings

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
