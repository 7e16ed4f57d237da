"""SciPy as cuarray.scipy's optional dependency: the host routines (the cpu
device's hand-off, host-side math) import it through here, so a missing SciPy is
one clear ImportError everywhere."""

import importlib


def scipy_module(name):
    """scipy.<name>, or an ImportError naming the optional dependency."""
    try:
        return importlib.import_module("scipy." + name)
    except ImportError as e:        # pragma: no cover - SciPy is installed in CI
        raise ImportError("this function needs SciPy on the host: "
                          "pip install cuarray[scipy] (or pip install scipy)") from e
