"""casting= of the ufuncs (issue 37), against NumPy: every rule, with and without
dtype= and out=, for array operands of several dtypes (Python scalars are weak
and not checked, as in NumPy)."""
import itertools

import numpy as np
import pytest

import cuarray as ca

RULES = ["no", "equiv", "safe", "same_kind", "unsafe"]
DTYPES = [np.bool_, np.int32, np.int64, np.float32, np.float64, np.complex64]


def _outcome(xp, f):
    try:
        r = f(xp)
    except TypeError as e:  # NumPy's UFuncTypeError is a TypeError
        return "TypeError", str(e).split(" with casting")[0]
    except ValueError as e:
        return "ValueError", None
    return r.dtype, np.asarray(ca.asnumpy(r) if isinstance(r, ca.ndarray) else r).tolist()


def _args(xp, device, dt1, dt2):
    h1 = np.array([1, 0, 3]).astype(dt1)
    h2 = np.array([2, 1, 1]).astype(dt2)
    if xp is np:
        return h1, h2
    return ca.asarray(h1, device=device), ca.asarray(h2, device=device)


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("dt1,dt2", list(itertools.combinations_with_replacement(DTYPES, 2)))
def test_add_casting_rule(device, rule, dt1, dt2):
    def f(xp):
        a, b = _args(xp, device, dt1, dt2)
        return xp.add(a, b, casting=rule)
    assert _outcome(ca, f) == _outcome(np, f)


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("req", [np.int32, np.int64, np.float32, np.float64])
@pytest.mark.parametrize("dt", [np.int64, np.float64, np.float32])
def test_multiply_casting_with_dtype(device, rule, req, dt):
    def f(xp):
        a, b = _args(xp, device, dt, dt)
        return xp.multiply(a, b, dtype=req, casting=rule)
    assert _outcome(ca, f) == _outcome(np, f)


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("out_dt", [np.int32, np.int64, np.float32, np.float64, np.complex128])
def test_subtract_casting_with_out(device, rule, out_dt):
    def f(xp):
        a, b = _args(xp, device, np.float64, np.float64)
        out = xp.zeros(3, dtype=out_dt) if xp is np else ca.zeros(3, dtype=out_dt, device=device)
        return xp.subtract(a, b, out=out, casting=rule)
    assert _outcome(ca, f) == _outcome(np, f)


def test_python_scalars_are_not_checked(device):
    a = ca.asarray(np.array([1, 2], np.int32), device=device)
    for xp, x in ((np, np.array([1, 2], np.int32)), (ca, a)):
        assert xp.add(x, 1, casting="no").dtype == np.int32


def test_bad_casting_values(device):
    a = ca.ones(3, device=device)
    with pytest.raises(ValueError, match="casting must be one of"):
        ca.add(a, a, casting="bogus")
    with pytest.raises(TypeError, match="casting must be str"):
        ca.add(a, a, casting=3)


def test_complex_to_real_astype_warns_as_numpy(device):
    import warnings
    x = ca.asarray(np.array([1 + 2j, 3 - 1j]), device=device)
    with pytest.warns(np.exceptions.ComplexWarning, match="discards the imaginary part"):
        r = x.astype(np.float64)
    np.testing.assert_array_equal(ca.asnumpy(r), [1.0, 3.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x.astype(np.complex64), x.astype(bool)  # no warning, as NumPy


def test_reshape_copy_string_raises(device):
    with pytest.raises(ValueError, match="strings are not allowed for 'copy'"):
        ca.arange(4, device=device).reshape(2, 2, copy="never")
