"""Shared fixtures: every test that can run on both devices takes `device`."""

import numpy as np
import pytest

import cuarray


def _gpu_count():
    try:
        return cuarray.cuda.device_count()
    except Exception:
        return 0


HAVE_GPU = _gpu_count() > 0
requires_gpu = pytest.mark.skipif(not HAVE_GPU, reason="no CUDA GPU on this machine")
# cuRAND (its host generators too, on the cpu device) is loaded by CUDA builds only
requires_curand = pytest.mark.skipif(not cuarray._core.built_with_cuda,
                                     reason="cuRAND needs a CUDA build (this one is host-only)")

DEVICES = ["cpu", pytest.param("cuda:0", marks=requires_gpu)]


def have_nvrtc():
    """Whether NVRTC loads here (compilation needs no GPU)."""
    try:
        cuarray.cuda.compiler.get_nvrtc_version()
        return True
    except ImportError:
        return False

# Every dtype cuarray supports, in ca_dtype order.
ALL_DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32,
              np.int64, np.uint64, np.float16, np.float32, np.float64,
              np.complex64, np.complex128]


def pytest_report_header(config):
    """The versions this run tested against (Dask and distributed must match each
    other: pip install ".[dask]" installs dask[array,distributed], which pins them)."""
    import importlib.metadata as md
    vers = []
    for name in ("numpy", "scipy", "dask", "distributed", "hypothesis", "cupy-cuda13x",
                 "torch", "ml_dtypes"):
        try:
            vers.append(f"{name} {md.version(name)}")
        except md.PackageNotFoundError:
            vers.append(f"{name} -")
    dev = "cuda:0 and cpu" if HAVE_GPU else "cpu only (no CUDA GPU)"
    return [f"cuarray {cuarray.__version__}, devices: {dev}", "tested with: " + ", ".join(vers)]


@pytest.fixture(params=DEVICES)
def device(request):
    """The device a test runs on: 'cpu' everywhere, 'cuda:0' where a GPU is present."""
    return request.param


def random_array(shape, dtype, rng=None):
    """Random NumPy data of any supported dtype (never all zeros)."""
    rng = rng or np.random.default_rng(1234)
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        lo, hi = max(info.min, -100), min(info.max, 100)
        return rng.integers(lo, hi, size=shape, endpoint=True).astype(dtype)
    if dtype.kind == "f":
        return (rng.standard_normal(shape) * 10).astype(dtype)
    re = rng.standard_normal(shape)
    im = rng.standard_normal(shape)
    return (re + 1j * im).astype(dtype)


@pytest.fixture
def host_threads():
    """ca._core._host_threads, the cpu device's pool size, restored after the test."""
    before = cuarray._core._host_threads()
    yield cuarray._core._host_threads
    cuarray._core._host_threads(before)


def same_bits_on_one_and_two_threads(host_threads, results, x):
    """results(x) on one host thread and on two: the same dtypes and bits; the first."""
    host_threads(1)
    one = results(x)
    host_threads(2)
    two = results(x)
    for k, (p, q) in enumerate(zip(one, two)):
        assert p.dtype == q.dtype and p.tobytes() == q.tobytes(), k
    return one


def errors_in_threads(work, args_list, exc=Exception):
    """The exceptions of type exc that work(*args) raised, run on one new thread per
    args of args_list (all started before any is joined; a new thread starts with no
    device or stream context of its own)."""
    import threading
    errs = []

    def body(*args):
        try:
            work(*args)
        except exc as e:
            errs.append(e)
    ts = [threading.Thread(target=body, args=tuple(a)) for a in args_list]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return errs


def errors_in_new_thread(fn, exc=RuntimeError):
    """The exceptions of type exc that fn() raised, run on a new thread."""
    return errors_in_threads(fn, [()], exc)


def empty_reductions_raise(x):
    """max/min (NumPy's zero-size message) and argmax/argmin of the empty x raise
    ValueError."""
    for fn in ("max", "min"):
        with pytest.raises(ValueError, match="zero-size array"):
            getattr(cuarray, fn)(x)
    for fn in ("argmax", "argmin"):
        with pytest.raises(ValueError):
            getattr(cuarray, fn)(x)


def count_calls(monkeypatch, module, name):
    """Wrap module.name so that each call appends whether it returned something (a
    path that takes the call) or None (it handed the call back); the list."""
    calls = []
    real = getattr(module, name)

    def counting(*args):
        r = real(*args)
        calls.append(r is not None)
        return r

    monkeypatch.setattr(module, name, counting)
    return calls


@pytest.fixture(params=["numpy", "composition"])
def np_route(request, monkeypatch):
    """The cpu device's hand-off to NumPy's own routine (unique, isin, histogram,
    histogram_bin_edges, quantile, percentile and the nan- forms, nan_to_num,
    interp, convolve, correlate), every size threshold lowered so that small test
    data takes it, or the composition every device runs. The NumPy route is only
    the plain cpu device's: skipped with the others ('cpu-kernels', GPUs)."""
    from cuarray import _sets, _statistics, _statistics_extra
    numpy = request.param == "numpy"
    callspec = getattr(request.node, "callspec", None)
    params = callspec.params if callspec else {}
    dev = params.get("dev", params.get("device", "cpu"))
    if numpy and dev != "cpu":
        pytest.skip("the NumPy route is the plain cpu device's")
    for mod in (_sets, _statistics, _statistics_extra):
        monkeypatch.setattr(mod, "CPU_NUMPY", numpy)
    if numpy:
        monkeypatch.setattr(_sets, "NP_UNIQUE_MIN", {"f": 0, "i": 0, "u": 0})
        monkeypatch.setattr(_sets, "NP_ISIN_MIN", 0)
        monkeypatch.setattr(_statistics, "NP_HISTOGRAM_MIN", 0)
        monkeypatch.setattr(_statistics, "NP_QUANTILE_MIN", 0)
        monkeypatch.setattr(_statistics, "NAN_ROW_MIN", 0)
        monkeypatch.setattr(_statistics_extra, "NP_NAN_TO_NUM_MIN", 0)
    return request.param


# ---- one call with NumPy and with cuarray: the same outcome ----

ROUTES = ["scipy", "composition"]


def scipy_route(request, monkeypatch, device, *modules):
    """The cuarray.scipy tests' `route` fixture body (params ROUTES): "scipy" is the cpu
    device's hand-off to SciPy (skipped on a GPU); "composition" turns the modules'
    CPU_SCIPY flags off, so the code a GPU runs is also tested on the cpu device."""
    if request.param == "scipy" and device != "cpu":
        pytest.skip("SciPy's route is the cpu device's")
    if request.param == "composition":
        for mod in modules:
            monkeypatch.setattr(mod, "CPU_SCIPY", False)
    return request.param


def close_to(got, want, rtol, atol=None):
    """got (a cuarray array, or what NumPy takes) against NumPy's want: the same shape
    and dtype, then within rtol/atol (atol defaults to rtol) for inexact dtypes with
    NaNs equal, bit-equal for the others. The callers choose rtol per dtype."""
    g = got.get() if isinstance(got, cuarray.ndarray) else np.asarray(got)
    want = np.asarray(want)
    assert g.shape == want.shape, (g.shape, want.shape)
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    if want.dtype.kind in "fc":
        np.testing.assert_allclose(g, want, rtol=rtol, atol=rtol if atol is None else atol,
                                   equal_nan=True)
    else:
        np.testing.assert_array_equal(g, want)


def unary_as_numpy(op, x, a, check):
    """check(op(a), op(x)): cuarray's unary op on a against NumPy's on x (floating
    point errors ignored); where NumPy raises TypeError, that cuarray does too."""
    try:
        with np.errstate(all="ignore"):
            want = op(x)
    except TypeError:
        with pytest.raises(TypeError):
            op(a)
        return
    check(op(a), want)


def _outcome_norm(r):
    if isinstance(r, cuarray.ndarray):
        r = r.get()
    if isinstance(r, (np.ndarray, np.generic)):
        r = np.asarray(r)
        return ("array", r.dtype, r.shape, r)
    if isinstance(r, (tuple, list)):
        return (type(r).__name__,) + tuple(_outcome_norm(x) for x in r)
    return r


def _outcome(fn, xp):
    try:
        return _outcome_norm(fn(xp)), None
    except Exception as e:  # noqa: BLE001  (the type is what is compared)
        return None, e


def _same(got, want, rtol):
    """Equal normalized results: arrays by dtype, shape and values (NaNs equal;
    within rtol where given), tuples item by item, anything else by ==."""
    if isinstance(want, tuple) and len(want) == 4 and want[0] == "array":
        assert isinstance(got, tuple) and got[:3] == want[:3], (got[:3], want[:3])
        if rtol:
            np.testing.assert_allclose(got[3], want[3], rtol=rtol)
        else:
            np.testing.assert_array_equal(got[3], want[3])
    elif isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w, rtol)
    else:
        assert got == want


def agree(fn, message=True, rtol=0):
    """fn(numpy) and fn(cuarray): the same result (values within rtol where given),
    or the same exception (its builtin base: NumPy's UFuncTypeError is a
    TypeError) and, by default, the same message."""
    got, gerr = _outcome(fn, cuarray)
    want, werr = _outcome(fn, np)
    if werr is None:
        assert gerr is None, f"NumPy returns, cuarray raises {gerr!r}"
        _same(got, want, rtol)
        return
    assert gerr is not None, f"NumPy raises {werr!r}, cuarray returns {got!r}"
    base = next(t for t in type(werr).__mro__ if t.__module__ == "builtins")
    assert isinstance(gerr, base), (gerr, werr)
    if message:
        assert str(gerr) == str(werr)
