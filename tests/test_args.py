"""csrc/array/args.c: the argument converters and messages shared by the C functions."""

import numpy as np
import pytest

import cuarray as ca
from conftest import requires_gpu


# ---- ndarray(...) is the C allocator, with empty()'s arguments --------------------


def test_ndarray_constructor_does_not_go_through_python(device, monkeypatch):
    def boom(*args, **kwargs):
        raise AssertionError("ndarray() called cuarray._core.empty")

    monkeypatch.setattr(ca._core, "empty", boom)
    a = ca.ndarray((2, 3), np.float32, "F", device=device)
    assert a.shape == (2, 3) and a.dtype == np.float32
    assert a.flags.f_contiguous and not a.flags.c_contiguous
    assert str(a.device) == device
    b = ca.ndarray(4, device=device)
    assert b.shape == (4,) and b.dtype == np.float64


def test_ndarray_constructor_arguments(device):
    with pytest.raises(TypeError):
        ca.ndarray((2,), np.float32, "C", device)  # device is keyword-only
    with pytest.raises(ValueError, match="negative dimensions"):
        ca.ndarray((2, -1), device=device)
    with pytest.raises(ValueError, match="only 'C' or 'F' order"):
        ca.ndarray((2,), order="K", device=device)
    with pytest.raises(ValueError, match="unknown device"):
        ca.ndarray((2,), device="tpu")
    with pytest.raises(ValueError, match="memory"):
        ca.ndarray((2,), device="cpu", memory="pinned")


# ---- out= -----------------------------------------------------------------------


def test_out_must_be_an_array(device):
    a = ca.ones((2, 2), device=device)
    calls = [
        lambda o: ca.add(a, a, out=o),
        lambda o: ca.sum(a, axis=0, out=o),
        lambda o: ca.matmul(a, a, out=o),
        lambda o: ca.concatenate([a, a], out=o),
    ]
    for call in calls:
        with pytest.raises(TypeError, match="out= must be a cuarray.ndarray"):
            call(np.zeros((2, 2)))
        with pytest.raises(ValueError, match="1-tuple"):
            call((ca.empty((2, 2), device=device),) * 2)


def test_out_one_tuple_is_unwrapped(device):
    a = ca.ones((2, 2), device=device)
    out = ca.empty((2, 2), device=device)
    assert ca.add(a, a, out=(out,)) is out
    assert ca.matmul(a, a, out=(out,)) is out
    np.testing.assert_array_equal(out.get(), np.full((2, 2), 2.0))
    assert ca.add(a, a, out=(None,)).shape == (2, 2)


def test_out_read_only(device):
    a = ca.ones((2,), device=device)
    ro = a.imag  # read-only zeros of a real array
    for call in (lambda: ca.add(a, a, out=ro), lambda: ca.sum(a, out=ro[0]),
                 lambda: ca.concatenate([a[:1], a[:1]], out=ro)):
        with pytest.raises(ValueError, match="read-only"):
            call()


def test_out_shape_and_cast(device):
    a = ca.ones((2, 3), device=device)
    with pytest.raises(ValueError, match=r"has shape \(3, 3\), but the result has "
                                         r"shape \(2, 2\)"):
        ca.matmul(a, a.T, out=ca.empty((3, 3), device=device))
    with pytest.raises(ValueError, match="Output array is the wrong shape"):  # NumPy's words
        ca.concatenate([a, a], axis=1, out=ca.empty((4, 3), device=device))
    with pytest.raises(TypeError, match="Cannot cast ufunc .matmul. output"):
        ca.matmul(a, a.T, out=ca.empty((2, 2), dtype=np.int32, device=device))


@requires_gpu
def test_out_on_another_device():
    a = ca.ones((2, 2), device="cuda:0")
    out = ca.empty((2,), device="cpu")
    with pytest.raises(ValueError, match="out= is on cpu but the operands are on cuda:0"):
        ca.sum(a, axis=0, out=out)


# ---- axes and device names ------------------------------------------------------


def test_axis_errors(device):
    a = ca.ones((2, 3), device=device)
    with pytest.raises(np.exceptions.AxisError, match="axis 2 is out of bounds for "
                                                      "array of dimension 2"):
        ca.swapaxes(a, 0, 2)
    with pytest.raises(np.exceptions.AxisError, match="^tensordot: axis 5"):
        ca.tensordot(a, a, axes=([5], [0]))
    with pytest.raises(np.exceptions.AxisError):
        ca.sum(a, axis=-3)
    with pytest.raises(TypeError, match="integer axis"):
        ca.swapaxes(a, 0, 1.5)


def test_device_names_in_messages():
    a = ca.ones((2,), device="cpu")
    assert "on cpu" in repr(a.data)
    assert "device=cpu" in repr(a.data.mem)
    assert str(a.device) == "cpu"


@requires_gpu
def test_device_names_in_messages_gpu():
    a = ca.ones((2,), device="cpu")
    b = ca.ones((2,), device="cuda:0")
    with pytest.raises(ValueError, match="the value is on device cpu but the array is on "
                                         "device cuda:0"):
        b[...] = a
    with pytest.raises(ValueError, match=r"different devices \(cpu and cuda:0\)"):
        a + b
    assert "on cuda:0" in repr(b.data)
