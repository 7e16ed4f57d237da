"""NumPy's dispatch protocols on cuarray arrays, on every device.

np.add(x, 1) and the ufunc methods run cuarray's ufuncs (__array_ufunc__);
np.sum, np.concatenate, np.linalg.norm, np.fft.fft, ... run cuarray's function
of the same module path (__array_function__); results are cuarray arrays on the
operands' device. NumPy arrays mixed in raise TypeError for ufuncs (never a
silent copy to the device); for functions NumPy's own implementation runs,
which converts host-accessible arrays zero-copy and refuses device memory.
"""

import numpy as np
import pytest

import cuarray as ca

from conftest import random_array


def dev(x, device):
    return ca.asarray(x, device=device)


def check(got, want):
    assert isinstance(got, ca.ndarray), type(got)
    g = got.get()
    want = np.asarray(want)
    assert g.dtype == want.dtype and g.shape == want.shape
    np.testing.assert_allclose(g, want, rtol=1e-6, atol=1e-6)


def test_ufunc_call(device):
    a = random_array((3, 4), np.float32)
    x = dev(a, device)
    r = np.add(x, 1)
    check(r, a + np.float32(1))
    assert r.device == x.device
    check(np.sin(x), np.sin(a))
    check(np.multiply(x, x), a * a)
    check(np.greater(x, 0.5), a > 0.5)
    check(np.true_divide(x, 2), a / np.float32(2))
    check(np.abs(x), np.abs(a))
    out = dev(np.zeros((3, 4), np.float32), device)
    assert np.add(x, 2.0, out=out) is out
    check(out, a + np.float32(2))
    check(np.add(x, 1, dtype=np.float64), np.add(a, 1, dtype=np.float64))


def test_ufunc_methods(device):
    a = random_array((4, 5), np.float64)
    x = dev(a, device)
    check(np.add.reduce(x), np.add.reduce(a))
    check(np.add.reduce(x, axis=None, keepdims=True), np.add.reduce(a, axis=None, keepdims=True))
    check(np.maximum.reduce(x, axis=1), np.maximum.reduce(a, axis=1))
    check(np.add.accumulate(x, axis=1), np.add.accumulate(a, axis=1))
    check(np.multiply.outer(x[0], x[1]), np.multiply.outer(a[0], a[1]))
    check(np.add.reduceat(x, [0, 2], axis=0), np.add.reduceat(a, [0, 2], axis=0))
    y, b = dev(np.zeros(5), device), np.zeros(5)
    assert np.add.at(y, dev(np.array([0, 0, 4]), device), 1.5) is None
    np.add.at(b, [0, 0, 4], 1.5)
    check(y, b)


def test_ufunc_mixing_numpy_raises(device):
    x = dev(random_array((3,), np.float64), device)
    h = np.ones(3)
    with pytest.raises(TypeError):
        np.add(x, h)
    with pytest.raises(TypeError):
        np.add(h, x)
    with pytest.raises(TypeError):
        h + x
    with pytest.raises(TypeError):
        x + h
    with pytest.raises(TypeError):
        np.add(x, 1, out=np.zeros(3))


def test_ufunc_cuarray_lacks(device):
    x = dev(np.arange(4), device)
    with pytest.raises(TypeError, match="isnat"):
        np.isnat(x)


def test_functions(device):
    a = random_array((4, 6), np.float64)
    b = random_array((2, 6), np.float64)
    x, y = dev(a, device), dev(b, device)
    for got, want in (
        (np.sum(x), np.sum(a)),
        (np.sum(x, axis=1), np.sum(a, axis=1)),
        (np.mean(x, axis=0), np.mean(a, axis=0)),
        (np.concatenate([x, y]), np.concatenate([a, b])),
        (np.stack([x[0], x[1]]), np.stack([a[0], a[1]])),
        (np.reshape(x, (6, 4)), np.reshape(a, (6, 4))),
        (np.transpose(x), np.transpose(a)),
        (np.where(x > 0, x, 0.0), np.where(a > 0, a, 0.0)),
        (np.fft.fft(x[0]), np.fft.fft(a[0])),
        (np.cumsum(x, axis=1), np.cumsum(a, axis=1)),
        (np.sort(x, axis=1), np.sort(a, axis=1)),
        (np.dot(x, x.T), np.dot(a, a.T)),
    ):
        check(got, want)
    assert np.shape(x) == (4, 6) and np.ndim(x) == 2 and np.size(x) == 24
    # numpy.linalg.X -> cuarray.linalg.X (a TypeError naming it where cuarray lacks it)
    if hasattr(ca.linalg, "norm"):
        check(np.linalg.norm(x), np.linalg.norm(a))
    else:
        with pytest.raises(TypeError, match="norm"):
            np.linalg.norm(x)
    sq = dev(a[:, :4].T @ a[:, :4] + 4 * np.eye(4), device)
    check(np.linalg.matmul(sq, sq) if hasattr(np.linalg, "matmul") else sq @ sq,
          (a[:, :4].T @ a[:, :4] + 4 * np.eye(4)) @ (a[:, :4].T @ a[:, :4] + 4 * np.eye(4)))


def test_function_cuarray_lacks(device):
    x = dev(np.arange(4.0), device)
    with pytest.raises(TypeError, match="sliding_window_view"):
        np.lib.stride_tricks.sliding_window_view(x, 2)


def test_function_mixing_numpy(device):
    a = np.arange(3.0)
    x = dev(a, device)
    if device == "cpu":
        # NumPy's implementation over a zero-copy view: a NumPy result
        r = np.concatenate([x, a])
        assert isinstance(r, np.ndarray)
        np.testing.assert_array_equal(r, np.concatenate([a, a]))
    else:
        with pytest.raises(TypeError, match=r"\.get\(\)"):
            np.concatenate([x, a])


def test_array_conversion(device):
    a = np.arange(6.0)
    x = dev(a, device)
    if device == "cpu":
        h = np.asarray(x)
        assert h.__array_interface__["data"][0] == x.data.ptr  # zero-copy
        h[0] = 42.0
        assert float(x[0]) == 42.0
    else:
        with pytest.raises(TypeError, match=r"\.get\(\)"):
            np.asarray(x)
        with pytest.raises(TypeError, match=r"\.get\(\)"):
            x.__array__()
        m = ca.asarray(a, device=device, memory="managed")
        np.testing.assert_array_equal(np.asarray(m), a)


def test_protocol_attributes():
    assert callable(ca.ndarray.__array_ufunc__)
    assert callable(ca.ndarray.__array_function__)
    x = ca.asarray(np.ones(2), device="cpu")
    assert x.__array_function__(np.sum, (ca.ndarray,), (x,), {}).get() == 2.0
    assert x.__array_function__(np.sum, (ca.ndarray, list), (x,), {}) is NotImplemented


def test_array_ufunc_c_fast_path_and_fallback():
    """ndarray.__array_ufunc__ is C: a ufunc's __call__ seen before runs there (the
    first sight, other methods and bad calls go to _dispatch.py, same results)."""
    x = ca.asarray(np.arange(4.0), device="cpu")
    assert type(ca.ndarray.__dict__["__array_ufunc__"]).__name__ == "method_descriptor"
    for _ in range(2):  # the first call fills the cache, the second takes the C path
        check(np.hypot(x, 3.0), np.hypot(np.arange(4.0), 3.0))
        check(x.__array_ufunc__(np.subtract, "__call__", x, 1.5), np.arange(4.0) - 1.5)
        check(np.subtract.reduce(x), np.subtract.reduce(np.arange(4.0)))
        out = ca.empty(4, device="cpu")
        assert np.multiply(x, 2, out=out) is out
        check(out, np.arange(4.0) * 2)
        with pytest.raises(TypeError, match="isnat"):
            np.isnat(x)
        with pytest.raises(TypeError):
            x.__array_ufunc__(np.add, "no_such_method", x, 1)
        with pytest.raises(TypeError):
            np.add(x, 1, no_such_keyword=1)
    # the cached __call__ never reaches the Python function (NumPy hands over a new
    # "__call__" string each time: compared by value)
    from cuarray import _dispatch
    calls = []

    def counting(*args, **kwargs):
        calls.append(args[2])
        return _dispatch.__array_ufunc__(*args, **kwargs)
    ca._core._array_ufunc_setup(_dispatch._UFUNCS, counting)
    try:
        check(np.hypot(x, 3.0), np.hypot(np.arange(4.0), 3.0))
        check(np.hypot(x, 3.0, out=ca.empty(4, device="cpu")), np.hypot(np.arange(4.0), 3.0))
        check(np.add.reduce(x), np.add.reduce(np.arange(4.0)))
        assert calls == ["reduce"]
    finally:
        ca._core._array_ufunc_setup(_dispatch._UFUNCS, _dispatch.__array_ufunc__)


def test_like_creation_follows_the_like_arrays_device(device):
    # NEP 35: np.asarray(..., like=x) and the other creation functions dispatch to
    # cuarray's, and the result is made on x's device (not the default device)
    x = ca.asarray(np.arange(3.0), device=device)
    cases = ((np.asarray([1, 2], like=x), np.asarray([1, 2])),
             (np.array([[1.5]], like=x), np.array([[1.5]])),
             (np.zeros((2, 2), like=x), np.zeros((2, 2))),
             (np.ones(3, dtype=np.int32, like=x), np.ones(3, np.int32)),
             (np.full(2, 7.0, like=x), np.full(2, 7.0)),
             (np.arange(5, like=x), np.arange(5)),
             (np.eye(2, like=x), np.eye(2)))
    for got, want in cases:
        assert isinstance(got, ca.ndarray) and got.device == x.device
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got.get(), want)
    e = np.empty((0, 2), like=x)
    assert isinstance(e, ca.ndarray) and e.device == x.device and e.shape == (0, 2)
