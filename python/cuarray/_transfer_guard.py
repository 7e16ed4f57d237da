"""cuarray.transfer_guard: flag implicit copies between host and device (JAX's guard).

``with cuarray.transfer_guard("disallow"):`` makes every *implicit* transfer in the
block raise ``cuarray.TransferGuardError`` (a RuntimeError); ``"log"`` lets it run
after a ``cuarray.TransferGuardWarning`` (warnings module) at the program's line
that asked for it. JAX's five levels, per thread (a new thread starts at "allow"):

    "allow"              every transfer (the default)
    "log"                warn of implicit transfers
    "disallow"           raise on implicit transfers
    "log_explicit"       warn of every transfer
    "disallow_explicit"  raise on every transfer

Explicit transfers are the calls that name one: ``cuarray.asarray`` / ``array``
(and ``ascontiguousarray`` & co.) of host data, ``x.set()``, ``x.to_device()``,
``x.get()`` and ``cuarray.asnumpy()``. Implicit ones are everything else that moves
array data: ``float(x)``, ``int(x)``, ``bool(x)``, ``complex(x)``,
``operator.index(x)``, ``x.item()``, ``x.tolist()``, printing (repr/str), pickling,
a DLPack export to the host, and host data (NumPy arrays, lists) that an operation
copies to the device by itself (index arrays, assigned values, operands of
concatenate, matmul, ...). Python and NumPy scalars are values, not
transfers: ``x + 1`` passes. A NumPy view of host-accessible memory
(``numpy.asarray(x)`` of a cpu-device, managed or pinned array) copies nothing and
is not a transfer; of device memory it is refused anyway (TypeError).
Functions written in Python over cuarray (take, put, pad, ...) that convert a host
argument with cuarray.asarray make an explicit transfer in the guard's eyes.

The guard sees the same sites on every device: on the cpu device a transfer is a
copy between host buffers, but a program tested there meets the guard where it
would on a GPU. With both directions at "allow" a site costs one thread-local read
in C. The Python file:line named is the innermost frame outside the cuarray
package (where a composition such as ``cuarray.median`` reads a value, its caller).
"""

import contextlib

from . import _core

# (TransferGuardError and TransferGuardWarning are cuarray's, from _core, at import)
__all__ = ["transfer_guard", "transfer_guard_host_to_device",
           "transfer_guard_device_to_host"]

_LEVELS = ("allow", "log", "disallow", "log_explicit", "disallow_explicit")


def _level(level):
    if not isinstance(level, str):
        raise TypeError(f"transfer guard level must be a str, not {type(level).__name__}")
    try:
        return _LEVELS.index(level)
    except ValueError:
        raise ValueError(f"transfer guard level must be one of {', '.join(map(repr, _LEVELS))}; "
                         f"got {level!r}") from None


@contextlib.contextmanager
def _guard(h2d, d2h):
    old = _core._transfer_guard(h2d, d2h)
    try:
        yield
    finally:
        _core._transfer_guard(*old)


def transfer_guard(level):
    """Context manager: this thread's guard level for both directions in the block
    ("allow", "log", "disallow", "log_explicit" or "disallow_explicit")."""
    v = _level(level)
    return _guard(v, v)


def transfer_guard_host_to_device(level):
    """Context manager: the guard level for host-to-device transfers only."""
    return _guard(_level(level), -1)


def transfer_guard_device_to_host(level):
    """Context manager: the guard level for device-to-host transfers only."""
    return _guard(-1, _level(level))


def _current():
    """This thread's levels as (host_to_device, device_to_host) names."""
    h, d = _core._transfer_guard()
    return _LEVELS[h], _LEVELS[d]
