"""cuarray.transfer_guard (JAX's guard): implicit transfers warn at "log" and raise at
"disallow"; explicit ones (asarray, set, to_device, get, asnumpy) pass unless the level
is "log_explicit" / "disallow_explicit"; per thread; per direction.

JAX's documented behaviour followed here: five levels ("allow", "log", "disallow",
"log_explicit", "disallow_explicit"), a RuntimeError when a transfer is disallowed,
explicit transfers silent at "log" and "disallow", a thread-local setting through the
context manager (a new thread starts at the default). The guard's sites are the same
on both devices: on the cpu device a transfer is a host copy.
"""

import pickle
import sys
import threading
import warnings

import numpy as np
import pytest

import cuarray
from cuarray import TransferGuardError, TransferGuardWarning
from cuarray._transfer_guard import _current

HERE = __file__


def _arr(device, n=4, dtype=np.float32):
    with cuarray.Device(device):
        return cuarray.asarray(np.arange(n, dtype=dtype))


def _line():
    """The caller's line number (the line a guard message must name)."""
    return sys._getframe(1).f_lineno


IMPLICIT_D2H = {
    "float": lambda x: float(x[0]),
    "int": lambda x: int(x[1]),
    "bool": lambda x: bool(x[1]),
    "complex": lambda x: complex(x[1]),
    "index": lambda x: [0, 1, 2][x.astype(np.int64)[1]],
    "item": lambda x: x.item(2),
    "tolist": lambda x: x.tolist(),
    "repr": lambda x: repr(x),
    "str": lambda x: str(x),
    "pickle": lambda x: pickle.dumps(x),
}


def test_default_is_allow_and_silent(device):
    assert _current() == ("allow", "allow")
    x = _arr(device)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for f in IMPLICIT_D2H.values():
            f(x)
        x[np.array([0, 1])]


@pytest.mark.parametrize("what", sorted(IMPLICIT_D2H))
def test_implicit_device_to_host_disallowed(device, what):
    x = _arr(device)
    y = x + 1  # results computed before the guard
    with cuarray.transfer_guard("disallow"):
        with pytest.raises(TransferGuardError) as e:
            IMPLICIT_D2H[what](y)
    assert isinstance(e.value, RuntimeError)
    msg = str(e.value)
    assert "implicit device-to-host" in msg and "disallow" in msg
    assert HERE in msg  # the line of the program, not cuarray's


@pytest.mark.parametrize("what", sorted(IMPLICIT_D2H))
def test_implicit_device_to_host_logged(device, what):
    x = _arr(device)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with cuarray.transfer_guard("log"):
            out = IMPLICIT_D2H[what](x)
    got = [m for m in w if issubclass(m.category, TransferGuardWarning)]
    assert len(got) == 1
    # the lambda's own line is the innermost frame of the program
    assert got[0].filename == HERE
    assert got[0].lineno == IMPLICIT_D2H[what].__code__.co_firstlineno
    assert "implicit device-to-host" in str(got[0].message)
    assert out is not None  # the transfer happened


def test_float_message_names_the_line(device):
    x = _arr(device)
    with cuarray.transfer_guard("disallow"):
        try:
            line = _line() + 1
            float(x[1])
        except TransferGuardError as e:
            msg = str(e)
    assert f"{HERE}:{line}" in msg
    assert "float()" in msg and "4 bytes" in msg
    assert ("cpu" in msg) == (device == "cpu")


def test_warning_names_the_line(device):
    x = _arr(device)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with cuarray.transfer_guard("log"):
            line = _line() + 1
            v = float(x[3])
    assert v == 3.0
    (m,) = [m for m in w if issubclass(m.category, TransferGuardWarning)]
    assert (m.filename, m.lineno) == (HERE, line)
    assert str(m.message).startswith("implicit device-to-host transfer of 4 bytes")


def test_explicit_transfers_pass_at_disallow(device):
    x = _arr(device)
    h = np.arange(4, dtype=np.float32)
    with cuarray.Device(device), cuarray.transfer_guard("disallow"):
        np.testing.assert_array_equal(x.get(), h)
        np.testing.assert_array_equal(cuarray.asnumpy(x), h)
        y = cuarray.asarray(h.copy())
        z = cuarray.array(h)
        z.set(h[::-1].copy())
        w = x.to_device("cpu")
        v = cuarray.asarray([1.0, 2.0])  # a list, explicitly
    np.testing.assert_array_equal(y.get(), h)
    np.testing.assert_array_equal(z.get(), h[::-1])
    np.testing.assert_array_equal(w.get(), h)
    np.testing.assert_array_equal(v.get(), [1.0, 2.0])


def test_explicit_levels(device):
    x = _arr(device)
    h = np.ones(4, dtype=np.float32)
    with cuarray.transfer_guard("disallow_explicit"):
        with pytest.raises(TransferGuardError, match="explicit device-to-host.*get"):
            x.get()
        with pytest.raises(TransferGuardError, match="explicit device-to-host.*asnumpy"):
            cuarray.asnumpy(x)
        with pytest.raises(TransferGuardError, match="explicit host-to-device"):
            cuarray.asarray(h, device=device)
        with pytest.raises(TransferGuardError, match="explicit host-to-device.*set"):
            x.set(h)
        with pytest.raises(TransferGuardError, match="implicit"):
            float(x[0])
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with cuarray.transfer_guard("log_explicit"):
            x.get()
    assert [str(m.message) for m in w if issubclass(m.category, TransferGuardWarning)]


def test_log_is_silent_for_explicit(device):
    x = _arr(device)
    with warnings.catch_warnings():
        warnings.simplefilter("error", TransferGuardWarning)
        with cuarray.transfer_guard("log"):
            x.get()
            cuarray.asnumpy(x)
            cuarray.asarray(np.ones(3), device=device)


IMPLICIT_H2D = {
    "numpy index": lambda x: x[np.array([0, 2])],
    "list index": lambda x: x[[0, 2]],
    "mask": lambda x: x[np.array([True, False, True, False])],
    "assigned array": lambda x: x.__setitem__(slice(None), np.zeros(4, np.float32)),
    "assigned list": lambda x: x.__setitem__(slice(0, 2), [7.0, 8.0]),
    "list in an index tuple": lambda x: x.reshape(2, 2)[[0, 1], 1],
    "searchsorted values": lambda x: cuarray.searchsorted(x, np.array([1.5])),
}


@pytest.mark.parametrize("what", sorted(IMPLICIT_H2D))
def test_implicit_host_to_device_disallowed(device, what):
    x = _arr(device)
    with cuarray.transfer_guard("disallow"):
        with pytest.raises(TransferGuardError, match="implicit host-to-device"):
            IMPLICIT_H2D[what](x)
    IMPLICIT_H2D[what](x)  # and it works once allowed


def test_scalars_are_not_transfers(device):
    x = _arr(device)
    with cuarray.transfer_guard("disallow"):
        y = x + 1
        y = y * np.float32(2)
        y[0] = 5
        y[1:3] = 2.5
        z = x[1:3]
        cuarray.sum(y)
    np.testing.assert_array_equal(y.get(), [5, 2.5, 2.5, 8])
    np.testing.assert_array_equal(z.get(), [1, 2])


def test_host_view_is_not_a_transfer():
    # numpy.asarray of host-accessible memory copies nothing (a view)
    x = _arr("cpu")
    with cuarray.transfer_guard("disallow"):
        v = np.asarray(x)
    assert v.base is not None
    np.testing.assert_array_equal(v, np.arange(4))


def test_directions(device):
    x = _arr(device)
    h = np.array([0, 1])
    with cuarray.transfer_guard_device_to_host("disallow"):
        assert _current() == ("allow", "disallow")
        x[h]  # host-to-device allowed
        with pytest.raises(TransferGuardError):
            float(x[0])
    with cuarray.transfer_guard_host_to_device("disallow"):
        assert _current() == ("disallow", "allow")
        float(x[0])
        with pytest.raises(TransferGuardError, match="host-to-device"):
            x[h]
    assert _current() == ("allow", "allow")


def test_nesting_restores(device):
    with cuarray.transfer_guard("disallow"):
        with cuarray.transfer_guard("log"):
            assert _current() == ("log", "log")
            with cuarray.transfer_guard_host_to_device("allow"):
                assert _current() == ("allow", "log")
            assert _current() == ("log", "log")
        assert _current() == ("disallow", "disallow")
    assert _current() == ("allow", "allow")


def test_restored_after_an_exception(device):
    x = _arr(device)
    with pytest.raises(TransferGuardError):
        with cuarray.transfer_guard("disallow"):
            float(x[0])
    assert _current() == ("allow", "allow")
    assert float(x[2]) == 2.0


def test_per_thread(device):
    x = _arr(device)
    seen = {}

    def other():
        seen["levels"] = _current()
        seen["value"] = float(x[1])  # the other thread's guard is "allow"

    with cuarray.transfer_guard("disallow"):
        t = threading.Thread(target=other)
        t.start()
        t.join()
        with pytest.raises(TransferGuardError):
            float(x[1])
    assert seen == {"levels": ("allow", "allow"), "value": 1.0}


def test_composition_reports_the_callers_line(device):
    # cuarray.allclose reads its answer back in cuarray's own Python code: the
    # message names this file, the caller
    a = _arr(device)
    with cuarray.transfer_guard("disallow"):
        with pytest.raises(TransferGuardError) as e:
            line = _line() + 1
            cuarray.allclose(a, a)
    assert f"{HERE}:{line}" in str(e.value)


def test_warning_filters_apply(device):
    x = _arr(device)
    with warnings.catch_warnings():
        warnings.simplefilter("error", TransferGuardWarning)
        with cuarray.transfer_guard("log"):
            with pytest.raises(TransferGuardWarning):
                float(x[0])


@pytest.mark.parametrize("bad, exc", [("never", ValueError), ("ALLOW", ValueError),
                                      (2, TypeError), (None, TypeError)])
def test_bad_levels(bad, exc):
    for f in (cuarray.transfer_guard, cuarray.transfer_guard_host_to_device,
              cuarray.transfer_guard_device_to_host):
        with pytest.raises(exc):
            f(bad)
    assert _current() == ("allow", "allow")


def test_names():
    assert issubclass(TransferGuardError, RuntimeError)
    assert issubclass(TransferGuardWarning, UserWarning)
    for n in ("transfer_guard", "transfer_guard_host_to_device",
              "transfer_guard_device_to_host", "TransferGuardError",
              "TransferGuardWarning"):
        assert n in cuarray.__all__ and hasattr(cuarray, n)
