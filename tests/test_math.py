"""The math functions of issue 13 against NumPy, on both devices.

The new ops.def rows (deg2rad ... bitwise_count, i0, the frexp parts) run every
loop on random data and edge values in test_elementwise.py; this file checks the
public names and aliases, the exact edge cases NumPy documents (signed zeros,
binary16 steps, integer wrap-around), and the compositions of python/cuarray/
_math.py: fix, modf, frexp, divmod, packbits, unpackbits.
"""

import warnings

import numpy as np
import pytest

import cuarray as ca
from cuarray import _host_threads, _math

FLOATS = [np.float16, np.float32, np.float64]
INTS = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]


def get(x):
    return x.get() if isinstance(x, ca.ndarray) else np.asarray(x)


def same(got, want, exact=True):
    got, want = get(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    if exact or want.dtype.kind not in "fc":
        np.testing.assert_array_equal(got, want)
        if want.dtype.kind == "f":
            ok = ~np.isnan(want)
            np.testing.assert_array_equal(np.signbit(got[ok]), np.signbit(want[ok]))
    else:
        r = {2: 2e-3, 4: 2e-6, 8: 1e-13, 16: 1e-13}[want.dtype.itemsize]
        np.testing.assert_allclose(got, want, rtol=r, atol=r, equal_nan=True)


def edges(dt):
    fi = np.finfo(dt)
    v = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -2.5, 2.0, 7.25, -7.75,
         float(fi.max), -float(fi.max), float(fi.tiny), float(fi.smallest_subnormal),
         -float(fi.smallest_subnormal), 1e30, -3e-30]
    with np.errstate(all="ignore"):
        return np.array(v).astype(dt)


def npq(f, *a, **k):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return f(*a, **k)


# ---------------------------------------------------------------------------
# names, aliases, table ops
# ---------------------------------------------------------------------------

def test_public_names():
    for name in ("deg2rad", "rad2deg", "degrees", "radians", "fabs", "float_power",
                 "logaddexp2", "heaviside", "nextafter", "spacing", "ldexp", "gcd", "lcm",
                 "bitwise_count", "i0", "fix", "modf", "frexp", "divmod", "packbits",
                 "unpackbits"):
        assert callable(getattr(ca, name)), name
    assert ca.degrees is ca.rad2deg and ca.radians is ca.deg2rad
    assert not hasattr(ca, "_frexp_mant") and not hasattr(ca, "_frexp_exp")
    assert "_frexp_mant" not in ca.__dict__


@pytest.mark.parametrize("dt", FLOATS, ids=lambda t: np.dtype(t).name)
def test_exact_unary(dt, device):
    x = edges(dt)
    a = ca.asarray(x, device=device)
    for f in ("fabs", "spacing", "deg2rad", "rad2deg", "degrees", "radians"):
        same(npq(getattr(ca, f), a), npq(getattr(np, f), x), exact=f in ("fabs", "spacing"))


@pytest.mark.parametrize("dt", FLOATS, ids=lambda t: np.dtype(t).name)
def test_nextafter_every_direction(dt, device):
    x = edges(dt)
    gx, gy = np.meshgrid(x, x)
    gx, gy = gx.ravel(), gy.ravel()
    got = ca.nextafter(ca.asarray(gx, device=device), ca.asarray(gy, device=device))
    want = npq(np.nextafter, gx, gy)
    eq = gx == gy
    want[eq] = gy[eq]  # C99's rule for x == y (NumPy < 2.5's float16 answered x)
    same(got, want)


def test_half_steps(device):
    """binary16's own neighbours, not float32's (the f16 flag of ops.def)."""
    h = np.array([1.0, -1.0, 0.0, -0.0, 65504.0, -65504.0, 6e-8, 2048.0], np.float16)
    a = ca.asarray(h, device=device)
    same(ca.spacing(a), npq(np.spacing, h))
    inf = ca.asarray(np.full(h.shape, np.inf, np.float16), device=device)
    same(ca.nextafter(a, inf), npq(np.nextafter, h, np.float16(np.inf)))
    same(ca.nextafter(a, -inf), npq(np.nextafter, h, np.float16(-np.inf)))


def test_heaviside_and_logaddexp2(device):
    x = np.array([np.nan, 0.0, -0.0, 1.0, -1.0, np.inf, -np.inf])
    h0 = np.array([5.0, np.nan, 2.0, 3.0, 4.0, 0.5, 0.5])
    same(ca.heaviside(ca.asarray(x, device=device), ca.asarray(h0, device=device)),
         np.heaviside(x, h0))
    same(ca.heaviside(ca.asarray(x, device=device), 0.5), np.heaviside(x, 0.5))
    gx, gy = np.meshgrid(x, x)
    same(ca.logaddexp2(ca.asarray(gx, device=device), ca.asarray(gy, device=device)),
         npq(np.logaddexp2, gx, gy), exact=False)
    f = np.float32([1, 2, 100, -100])
    same(ca.logaddexp2(ca.asarray(f, device=device), ca.asarray(f[::-1].copy(), device=device)),
         np.logaddexp2(f, f[::-1]), exact=False)


def test_ldexp(device):
    m = np.array([1.0, -1.5, 0.0, -0.0, np.inf, np.nan, 3.0], np.float32)
    e = np.array([3, -2, 5, 1, 0, 2, -200], np.int32)
    same(ca.ldexp(ca.asarray(m, device=device), ca.asarray(e, device=device)),
         npq(np.ldexp, m, e))
    big = np.array([2**40, -2**40, 0], np.int64)
    m3 = m[:3].copy()
    same(ca.ldexp(ca.asarray(m3, device=device), ca.asarray(big, device=device)),
         npq(np.ldexp, m3, big))
    h = np.array([1.5, 1.0], np.float16)
    same(ca.ldexp(ca.asarray(h, device=device), ca.asarray(np.int32([-20, 15]), device=device)),
         npq(np.ldexp, h, np.int32([-20, 15])))
    d = np.array([1.0, 2.0])
    same(ca.ldexp(ca.asarray(d, device=device), 3), np.ldexp(d, 3))
    with pytest.raises(TypeError):
        ca.ldexp(ca.asarray(d, device=device), ca.asarray(d, device=device))


@pytest.mark.parametrize("dt", INTS, ids=lambda t: np.dtype(t).name)
def test_gcd_lcm_bitwise_count_extremes(dt, device):
    info = np.iinfo(dt)
    v = sorted({0, 1, 2, 3, 6, 8, 100, int(info.max), int(info.max) - 1} |
               ({-1, -6, -100, int(info.min), int(info.min) + 1} if info.min else set()))
    v = np.array([x for x in v if info.min <= x <= info.max], dt)
    gx, gy = np.meshgrid(v, v)
    a, b = ca.asarray(gx.ravel(), device=device), ca.asarray(gy.ravel(), device=device)
    same(ca.gcd(a, b), np.gcd(gx.ravel(), gy.ravel()))
    same(ca.lcm(a, b), npq(np.lcm, gx.ravel(), gy.ravel()))
    same(ca.bitwise_count(a), np.bitwise_count(gx.ravel()))


def test_gcd_lcm_mixed_and_errors(device):
    a = ca.asarray(np.array([12, -18, 0], np.int16), device=device)
    b = ca.asarray(np.array([8, 12, 5], np.uint8), device=device)
    same(ca.gcd(a, b), np.gcd(np.array([12, -18, 0], np.int16), np.array([8, 12, 5], np.uint8)))
    same(ca.lcm(a, 4), np.lcm(np.array([12, -18, 0], np.int16), 4))
    with pytest.raises(TypeError):
        ca.gcd(ca.asarray(np.ones(2), device=device), a[:2])
    with pytest.raises(TypeError):
        ca.bitwise_count(ca.asarray(np.ones(2), device=device))
    same(ca.bitwise_count(ca.asarray(np.array([True, False]), device=device)),
         np.bitwise_count(np.array([True, False])))


def test_float_power(device):
    x = np.array([2, 3, -1], np.int8)
    y = np.array([3, -1, 2], np.int8)
    # float64 pow: the GPU's is within 1 ulp of the host's (3 ** -1 is one ulp above)
    same(ca.float_power(ca.asarray(x, device=device), ca.asarray(y, device=device)),
         np.float_power(x, y), exact=device == "cpu")
    f = np.array([2.0, -8.0], np.float32)
    same(ca.float_power(ca.asarray(f, device=device), 1 / 3), npq(np.float_power, f, 1 / 3),
         exact=False)
    z = np.array([1 + 1j, -2j], np.complex64)
    same(ca.float_power(ca.asarray(z, device=device), 2), np.float_power(z, 2), exact=False)


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64, np.int8, np.int32,
                                np.uint64, np.bool_], ids=lambda t: np.dtype(t).name)
def test_i0(dt, device):
    if np.dtype(dt).kind == "f":
        x = np.array([0.0, -0.0, 1.0, -3.0, 7.9, 8.1, 29.9, 30.1, 100.0, -700.0, 709.0,
                      715.0, np.nan, np.inf, -np.inf], np.float64)
        x = x[np.abs(x) < (11 if dt == np.float16 else 85 if dt == np.float32 else 1e9)]
        x = x.astype(dt)
    elif dt == np.bool_:
        x = np.array([True, False])
    else:
        x = np.array([0, 1, 5, 20, 100], dt)
    got = ca.i0(ca.asarray(x, device=device))
    want = npq(np.i0, x.astype(np.float64) if x.dtype.kind == "f" else x)
    want = want.astype(np.i0(np.ones(1, dt)).dtype)
    r = {np.float16: 2e-3, np.float32: 2e-6}.get(dt, 1e-13)
    g = get(got)
    assert g.dtype == want.dtype
    np.testing.assert_allclose(g, want, rtol=r, equal_nan=True)
    with pytest.raises(TypeError):
        ca.i0(ca.asarray(np.ones(2, np.complex128), device=device))


# ---------------------------------------------------------------------------
# fix, modf, frexp, divmod
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("dt", FLOATS + [np.int8, np.int16, np.int64, np.bool_],
                         ids=lambda t: np.dtype(t).name)
def test_fix_modf_frexp(dt, device):
    x = edges(dt) if np.dtype(dt).kind == "f" else (
        np.array([True, False]) if dt == np.bool_ else np.array([-7, 0, 3, 100], dt))
    a = ca.asarray(x, device=device)
    same(ca.fix(a), np.fix(x))
    f, i = ca.modf(a)
    wf, wi = np.modf(x)
    same(f, wf)
    same(i, wi)
    m, e = ca.frexp(a)
    wm, we = np.frexp(x)
    same(m, wm)
    same(e, we)


def test_two_result_out(device):
    x = np.array([-2.5, 3.75, -0.0])
    a = ca.asarray(x, device=device)
    o1, o2 = ca.empty(3, np.float64, device=device), ca.empty(3, np.float64, device=device)
    r = ca.modf(a, o1, o2)
    assert r[0] is o1 and r[1] is o2
    same(o1, np.modf(x)[0])
    o3 = ca.empty(3, np.int32, device=device)
    r = ca.frexp(a, out=(o1, o3))
    assert r[0] is o1 and r[1] is o3
    same(o3, np.frexp(x)[1])
    with pytest.raises(ValueError, match="exactly 2"):
        ca.modf(a, out=(o1,))
    with pytest.raises(TypeError, match="both a positional and keyword"):
        ca.modf(a, o1, out=(o1, o2))
    out = ca.fix(a, out=o2)
    assert out is o2
    same(o2, np.fix(x))


def test_two_result_errors(device):
    z = ca.asarray(np.ones(2, np.complex64), device=device)
    for f in (ca.modf, ca.frexp):
        with pytest.raises(TypeError, match=f"ufunc '{f.__name__}' not supported"):
            f(z)
    with pytest.raises(TypeError):
        ca.fix(z)
    with pytest.raises(TypeError):
        ca.divmod(z, z)


@pytest.mark.parametrize("dt", [np.int8, np.uint16, np.int64, np.float16, np.float32,
                                np.float64, np.bool_], ids=lambda t: np.dtype(t).name)
def test_divmod(dt, device):
    rng = np.random.default_rng(4)
    if dt == np.bool_:
        x, y = np.array([True, False, True]), np.array([True, True, False])
    elif np.dtype(dt).kind == "f":
        x = (rng.standard_normal(50) * 10).astype(dt)
        y = (rng.standard_normal(50) * 3).astype(dt)
        x[:6] = [np.inf, -np.inf, np.nan, -0.0, 5, -5]
        y[:6] = [2, 3, 1, 2, 0, -0.0]
    else:
        info = np.iinfo(dt)
        x = rng.integers(max(info.min, -100), 100, 50).astype(dt)
        y = rng.integers(1, 9, 50).astype(dt)
        x[0], y[0] = info.min, (-1 if info.min else 1)
        y[1] = 0
    q, r = ca.divmod(ca.asarray(x, device=device), ca.asarray(y, device=device))
    wq, wr = npq(np.divmod, x, y)
    same(q, wq)
    same(r, wr)
    q, r = ca.divmod(ca.asarray(x, device=device), 7)
    wq, wr = npq(np.divmod, x, dt(7) if dt != np.bool_ else 7)
    assert get(q).dtype == wq.dtype


# ---------------------------------------------------------------------------
# packbits, unpackbits
# ---------------------------------------------------------------------------

@pytest.fixture(params=["numpy", "composition"])
def pack_path(request, monkeypatch):
    """The cpu device's NumPy call, or the composition every device can run."""
    monkeypatch.setattr(_math, "CPU_NUMPY", request.param == "numpy")
    return request.param


@pytest.mark.parametrize("shape,axis", [((13,), None), ((13,), 0), ((3, 17), 1),
                                        ((3, 17), 0), ((2, 3, 9), -1), ((2, 3, 9), None),
                                        ((4, 8), 1), ((0, 3), 0), ((), None)])
@pytest.mark.parametrize("order", ["big", "little"])
def test_packbits(shape, axis, order, device, pack_path):
    rng = np.random.default_rng(11)
    for x in (rng.random(shape) < 0.5, rng.integers(-3, 3, shape).astype(np.int16),
              rng.integers(0, 2, shape).astype(np.uint64)):
        got = ca.packbits(ca.asarray(x, device=device), axis=axis, bitorder=order)
        same(got, np.packbits(x, axis=axis, bitorder=order))


@pytest.mark.parametrize("shape,axis", [((5,), None), ((3, 4), 1), ((3, 4), 0),
                                        ((2, 2, 3), -1), ((0,), None)])
@pytest.mark.parametrize("count", [None, 0, 3, 9, -3, 40])
@pytest.mark.parametrize("order", ["big", "little"])
def test_unpackbits(shape, axis, count, order, device, pack_path):
    x = np.random.default_rng(12).integers(0, 256, shape).astype(np.uint8)
    n = (x.size if axis is None else x.shape[axis]) * 8
    if count is not None and (count < -n or (n == 0 and count > 0)):
        return  # NumPy pads an empty input with uninitialised bytes; ours are zeros
    got = ca.unpackbits(ca.asarray(x, device=device), axis=axis, count=count, bitorder=order)
    same(got, np.unpackbits(x, axis=axis, count=count, bitorder=order))
    packed = ca.packbits(got, axis=axis if axis is not None else None, bitorder=order)
    if count is None:
        same(packed, x.reshape(-1) if axis is None else x)


def test_packbits_errors(device, pack_path):
    f = ca.asarray(np.ones(3), device=device)
    with pytest.raises(TypeError, match="integer or boolean"):
        ca.packbits(f)
    with pytest.raises(TypeError, match="unsigned byte"):
        ca.unpackbits(ca.asarray(np.ones(3, np.int8), device=device))
    b = ca.asarray(np.ones(3, bool), device=device)
    with pytest.raises(ValueError, match="'order' must be either 'little' or 'big'"):
        ca.packbits(b, bitorder="middle")
    with pytest.raises(np.exceptions.AxisError):
        ca.packbits(b, axis=1)
    u = ca.asarray(np.ones(2, np.uint8), device=device)
    with pytest.raises(ValueError, match="-count larger than number of elements"):
        ca.unpackbits(u, count=-17)
    with pytest.raises(TypeError):
        ca.unpackbits(u, count=1.5)


def test_packbits_views(device, pack_path):
    """Offset, strided and transposed bool views (the uint64 words must be aligned)."""
    h = np.random.default_rng(13).random((5, 33)) < 0.5
    a = ca.asarray(h, device=device)
    for v, hv in ((a[0, 1:17], h[0, 1:17]), (a[:, ::2], h[:, ::2]), (a.T, h.T),
                  (a[1:3, 1:], h[1:3, 1:])):
        for order in ("big", "little"):
            same(ca.packbits(v, axis=-1, bitorder=order), np.packbits(hv, axis=-1, bitorder=order))
            same(ca.packbits(v, bitorder=order), np.packbits(hv, bitorder=order))
    assert a.get().tolist() == h.tolist()  # the input is not written


@pytest.mark.parametrize("n", [64, 65, 127, 1000, 4099])
@pytest.mark.parametrize("order", ["big", "little"])
def test_packbits_halves_on_two_threads(n, order, monkeypatch):
    """A flat cpu packbits from PACK_SPLIT_MIN on: two halves, NumPy's bytes."""
    monkeypatch.setattr(_math, "PACK_SPLIT_MIN", 64)
    monkeypatch.setattr(_host_threads, "ENABLED", True)
    rng = np.random.default_rng(n)
    for x in (rng.random(n) < 0.5, rng.integers(-2, 2, (n, 1)).astype(np.int32)):
        got = ca.packbits(ca.asarray(x, device="cpu"), bitorder=order)
        same(got, np.packbits(x, bitorder=order))
        assert got.device == ca.Device("cpu")
