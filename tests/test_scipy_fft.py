"""cuarray.scipy.fft and cuarray.scipy.fftpack against scipy.fft / scipy.fftpack.

Every test that takes `route` runs twice on the cpu device: through SciPy's own
transform on views ('scipy', the default there) and through the compositions a
GPU runs ('composition', _basic.CPU_SCIPY off); a GPU runs the compositions.
Values are compared with SciPy's float64 (complex128) transform of the same data,
with tolerances of the working precision; dtypes must be SciPy's exactly; bad
input must raise the exception type SciPy raises for it.
"""

import inspect
import json
import warnings
from pathlib import Path

import numpy as np
import pytest
import scipy.fft as sf
import scipy.fftpack as sp

import cuarray as ca
import cuarray.scipy.fft as cf
import cuarray.scipy.fftpack as cp
from cuarray.scipy.fft import _basic

from conftest import random_array



def _names():
    """../shared/scipy-names.json (or shared/ in the checkout), None if absent."""
    root = Path(__file__).resolve().parents[1]
    for path in (root / "shared", root.parent / "shared"):
        if (path / "scipy-names.json").exists():
            return json.loads((path / "scipy-names.json").read_text())
    return None


NAMES = _names()
NORMS = [None, "backward", "ortho", "forward"]
DTYPES = [np.bool_, np.int8, np.uint16, np.int32, np.int64, np.float16, np.float32,
          np.float64, np.complex64, np.complex128]
LENGTHS = [1, 2, 3, 4, 5, 8, 9, 16, 17]


@pytest.fixture(params=["scipy", "composition"])
def route(request, monkeypatch, device):
    if request.param == "scipy" and device != "cpu":
        pytest.skip("SciPy's route is the cpu device's")
    if request.param == "composition":
        monkeypatch.setattr(_basic, "CPU_SCIPY", False)
    return request.param


def host(r):
    assert isinstance(r, ca.ndarray), type(r)
    return r.get()


def tol(dtype):
    """Relative tolerance (to the largest magnitude) of a result of this dtype."""
    return 2e-5 if np.dtype(dtype).char in "fF" else 1e-11


def check(got, want_dtype, want, scale=None):
    """got (cuarray) has SciPy's dtype want_dtype and is close to want (float64)."""
    g = host(got)
    assert g.dtype == want_dtype, (g.dtype, want_dtype)
    assert g.shape == want.shape, (g.shape, want.shape)
    scale = max(1.0, float(np.max(np.abs(want), initial=0))) if scale is None else scale
    np.testing.assert_allclose(g, want, rtol=0, atol=tol(g.dtype) * scale)


def same_error(ref_call, call):
    """ref_call() raises; call() raises the same exception type (or a subclass)."""
    with pytest.raises(Exception) as want:
        ref_call()
    with pytest.raises(want.type):
        call()


def reference(fn, x, *args, **kw):
    """SciPy's transform of x in double precision (complex stays complex)."""
    wide = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
    return fn(wide, *args, **kw)


# ---- the module -------------------------------------------------------------------

@pytest.mark.parametrize("mod, ref", [(cf, sf), (cp, sp)])
def test_scipys_signatures(mod, ref):
    for name in mod.__all__:
        ours = inspect.signature(getattr(mod, name))
        theirs = inspect.signature(getattr(ref, name))
        assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == \
            [(p.name, p.kind, p.default) for p in theirs.parameters.values()], name


@pytest.mark.skipif(NAMES is None, reason="scipy-names.json not present")
@pytest.mark.parametrize("mod, key", [(cf, "scipy.fft"), (cp, "scipy.fftpack")])
def test_every_listed_name(mod, key):
    assert sorted(mod.__all__) == sorted(NAMES[key])
    assert len(mod.__all__) == {"scipy.fft": 33, "scipy.fftpack": 8}[key]


def test_submodules_importable():
    import cuarray.scipy
    from cuarray.scipy import fft, fftpack
    assert fft is cf and fftpack is cp
    assert cuarray.scipy.fft is cf and "fftpack" in dir(cuarray.scipy)


def test_needs_a_cuarray_array():
    with pytest.raises(TypeError):
        cf.fft(np.ones(4))
    with pytest.raises(TypeError):
        cf.dct(np.ones(4))
    with pytest.raises(TypeError):
        cp.rfft(np.ones(4))


# ---- DCT / DST ----------------------------------------------------------------------

R2R = ["dct", "idct", "dst", "idst"]


@pytest.mark.parametrize("name", R2R)
@pytest.mark.parametrize("type_", [1, 2, 3, 4])
@pytest.mark.parametrize("norm", NORMS)
def test_r2r_values(route, device, name, type_, norm):
    rng = np.random.default_rng(type_)
    for n in LENGTHS:
        h = rng.standard_normal((3, n))
        x = ca.asarray(h, device=device)
        for orth in (None, True, False):
            kw = dict(type=type_, norm=norm, orthogonalize=orth)
            ref, ours = getattr(sf, name), getattr(cf, name)
            if name == "dct" and type_ == 1 and n == 1 or \
                    name == "idct" and type_ == 1 and n == 1:
                same_error(lambda: ref(h, **kw), lambda: ours(x, **kw))
                continue
            check(ours(x, **kw), np.float64, ref(h, **kw))
            check(ours(x, axis=0, **kw), np.float64, ref(h, axis=0, **kw))
            for m in (n + 3, max(2, n - 1)):       # zero-padded, cropped
                check(ours(x, n=m, **kw), np.float64, ref(h, n=m, **kw))


@pytest.mark.parametrize("name", R2R)
@pytest.mark.parametrize("dtype", DTYPES)
def test_r2r_dtypes(route, device, name, dtype):
    h = random_array((4, 33), dtype, np.random.default_rng(5))
    x = ca.asarray(h, device=device)
    for type_ in (1, 2, 3, 4):
        want = getattr(sf, name)(h, type=type_)
        check(getattr(cf, name)(x, type=type_), want.dtype,
              reference(getattr(sf, name), h, type=type_))


@pytest.mark.parametrize("name", ["dctn", "idctn", "dstn", "idstn"])
@pytest.mark.parametrize("type_", [1, 2, 3, 4])
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
def test_r2rn(route, device, name, type_, norm):
    h = np.random.default_rng(type_).standard_normal((4, 5, 6))
    x = ca.asarray(h, device=device)
    ref, ours = getattr(sf, name), getattr(cf, name)
    for s, axes in [(None, None), (None, (0, 2)), ((3, 7), None), ((7, -1), (2, 0)),
                    (None, 1), ((4,), (-1,)), (None, ())]:
        kw = dict(type=type_, s=s, axes=axes, norm=norm)
        check(ours(x, **kw), np.float64, ref(h, **kw))
    check(ours(x, type_, orthogonalize=not (norm == "ortho")), np.float64,
          ref(h, type_, orthogonalize=not (norm == "ortho")))
    h32 = h.astype(np.complex64)
    check(ours(ca.asarray(h32, device=device), type_), np.complex64,
          ref(h.astype(complex), type_))


def test_r2r_errors(route, device):
    h = np.ones((3, 4))
    x = ca.asarray(h, device=device)
    e = ca.asarray(np.ones(0), device=device)
    cases = [
        ("dct", (h,), dict(type=5)), ("dst", (h,), dict(type=0)),
        ("idct", (h,), dict(norm="bad")), ("dct", (h,), dict(n=0)),
        ("dst", (h,), dict(n=-1)), ("dct", (h,), dict(axis=2)),
        ("dct", (np.ones(1),), dict(type=1)), ("dct", (np.ones(0),), {}),
        ("dst", (h,), dict(workers=0)),
        ("dctn", (h,), dict(axes=(0, 0))), ("dstn", (h,), dict(s=(3,), axes=(0, 1))),
        ("idctn", (h,), dict(s=(0, 3))), ("idstn", (h,), dict(axes=(3,))),
        ("dctn", (h,), dict(type=7)),
    ]
    for name, args, kw in cases:
        ours_args = [ca.asarray(a, device=device) for a in args]
        same_error(lambda: getattr(sf, name)(*args, **kw),
                   lambda: getattr(cf, name)(*ours_args, **kw))
    assert e.size == 0 and x.size == 12


def test_r2r_leaves_input_and_takes_workers(route, device):
    h = np.random.default_rng(0).standard_normal((5, 8)).astype(np.float32)
    x = ca.asarray(h, device=device)
    for name in R2R:
        r = getattr(cf, name)(x, 2, None, -1, "ortho", True, 4)
        check(r, np.float32, reference(getattr(sf, name), h, 2, norm="ortho"))
        np.testing.assert_array_equal(host(x), h)


def test_dct_round_trips(device):
    h = np.random.default_rng(2).standard_normal((3, 64)).astype(np.float32)
    x = ca.asarray(h, device=device)
    for t in (1, 2, 3, 4):
        for norm in NORMS:
            check(cf.idct(cf.dct(x, t, norm=norm), t, norm=norm), np.float32, h)
            check(cf.idst(cf.dst(x, t, norm=norm), t, norm=norm), np.float32, h)
