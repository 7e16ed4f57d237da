"""bfloat16 (ml_dtypes.bfloat16) as a cuarray dtype (issue 39), against ml_dtypes'
NumPy results on both devices: casts bit-exact, arithmetic in float32 rounded once.
Where ml_dtypes versions differ (casts, sorts, promotions), the references of
ml_dtypes_ref.py hold for all of them."""

import numpy as np
import pytest

ml_dtypes = pytest.importorskip("ml_dtypes")

import cuarray as ca  # noqa: E402
from ml_dtypes_ref import bits, cast, result_type  # noqa: E402

# the references cast complex to real and overflow on purpose
pytestmark = [pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning"),
              pytest.mark.filterwarnings("ignore::RuntimeWarning")]

BF16 = np.dtype(ml_dtypes.bfloat16)
NUMPY_DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32,
                np.int64, np.uint64, np.float16, np.float32, np.float64,
                np.complex64, np.complex128]
ML_DTYPES = [ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2]


def all_bf16():
    return np.arange(1 << 16, dtype=np.uint16).view(BF16)


def special_values(dtype):
    """Edge cases of every source type: rounding ties, overflow, NaN, subnormals."""
    dtype = np.dtype(dtype)
    if dtype.kind in "biu":
        # ties of bfloat16's 8 bits at 2^24 and 2^62 (one rounding, not two)
        lo, hi = (0, 1) if dtype.kind == "b" else (np.iinfo(dtype).min, np.iinfo(dtype).max)
        v = [0, 1, -1, 127, 128, 255, 256, 257, 2**24 + 2**16 + 1, 2**31 - 1,
             2**62 + 2**54 + 1, lo, hi, hi - 1, lo + 1]
        return np.array([x for x in v if lo <= x <= hi], dtype)
    rng = np.random.default_rng(5)
    f = [0.0, -0.0, 1.0, 1 + 2**-8, 1 + 2**-8 + 2**-30, 1 + 3 * 2**-8, 3.3895e38, 3.4e38,
         1e39, 2**-133, 2**-134, 1.5 * 2**-134, 1e-45, 65504, 65520, np.inf, -np.inf,
         np.nan, -np.nan, 448, 464, 465, 57344, 61440, 2**-9, 2**-17]
    v = np.concatenate([np.array(f), rng.standard_normal(200) * 100,
                        rng.standard_normal(50) * 1e-38])
    if dtype.kind == "c":
        v = v + 1j * v[::-1]
    with np.errstate(all="ignore"):
        return v.astype(dtype)


def test_dtype_objects():
    assert ca.bfloat16 is ml_dtypes.bfloat16
    assert ca.float8_e4m3fn is ml_dtypes.float8_e4m3fn
    assert ca.float8_e5m2 is ml_dtypes.float8_e5m2
    assert ca.zeros(3, dtype="bfloat16").dtype == BF16


@pytest.mark.parametrize("spelling", [lambda: ca.bfloat16, lambda: ml_dtypes.bfloat16,
                                      lambda: "bfloat16", lambda: BF16])
def test_creation(device, spelling):
    dt = spelling()
    for got, want in [
        (ca.zeros((3, 4), dtype=dt, device=device), np.zeros((3, 4), BF16)),
        (ca.ones(5, dtype=dt, device=device), np.ones(5, BF16)),
        (ca.full((2, 3), 1.1, dtype=dt, device=device), np.full((2, 3), 1.1, BF16)),
        (ca.arange(0, 10, 0.5, dtype=dt, device=device), np.arange(0, 10, 0.5, dtype=BF16)),
        (ca.asarray([1.1, 2.2, -3.3], dtype=dt, device=device),
         np.asarray([1.1, 2.2, -3.3], dtype=BF16)),
    ]:
        assert got.dtype == BF16
        np.testing.assert_array_equal(bits(got.get()), bits(want))
    e = ca.empty((4, 2), dtype=dt, device=device)
    assert e.dtype == BF16 and e.shape == (4, 2) and e.nbytes == 16


@pytest.mark.parametrize("src", NUMPY_DTYPES + ML_DTYPES, ids=lambda t: np.dtype(t).name)
def test_astype_to_bf16_bit_exact(device, src):
    h = special_values(src) if src not in ML_DTYPES else all_bf16().astype(src)
    want = cast(h, BF16)
    got = ca.asarray(h, device=device).astype(ca.bfloat16).get()
    assert got.dtype == BF16
    np.testing.assert_array_equal(bits(got), bits(want))


@pytest.mark.parametrize("dst", NUMPY_DTYPES + ML_DTYPES, ids=lambda t: np.dtype(t).name)
def test_astype_from_bf16_bit_exact(device, dst):
    h = all_bf16()
    want = cast(h, dst)
    got = ca.asarray(h, device=device).astype(dst).get()
    assert got.dtype == np.dtype(dst)
    np.testing.assert_array_equal(bits(got), bits(want))


def test_numpy_round_trip_and_zero_copy():
    h = np.arange(12, dtype=np.float32).astype(BF16).reshape(3, 4)
    x = ca.asarray(h, device="cpu")
    assert x.dtype == BF16
    v = np.asarray(x)
    assert v.dtype == BF16
    np.testing.assert_array_equal(bits(v), bits(h))
    assert np.shares_memory(v, h)  # asarray wrapped h, __array__ views it: no copy
    v[0, 0] = 7
    assert float(x[0, 0]) == 7.0
    assert x.get().dtype == BF16 and ca.asnumpy(x).dtype == BF16


def test_buffer_protocol_refused():
    x = ca.ones(3, dtype=ca.bfloat16, device="cpu")
    with pytest.raises(BufferError, match="bfloat16"):
        memoryview(x)


def test_printing(device):
    h = np.array([1.5, -2.25, 3e10, np.nan], BF16)
    x = ca.asarray(h, device=device)
    assert str(x) == str(h)
    assert "bfloat16" in repr(x)
    assert repr(x[0].item()) == repr(h[0].item())
    assert float(x[1]) == -2.25


def test_indexing_views_copies(device):
    h = (np.arange(60, dtype=np.float32) / 7).astype(BF16).reshape(6, 10)
    x = ca.asarray(h, device=device)
    for key in [(slice(1, 4), slice(None, None, 2)), (np.array([0, 5, 2]),), (h > 3,),
                (Ellipsis, 3), (slice(None, None, -1),)]:
        np.testing.assert_array_equal(bits(x[key].get()), bits(h[key]))
    np.testing.assert_array_equal(bits(x.T.copy().get()), bits(h.T.copy()))
    np.testing.assert_array_equal(bits(x.reshape(10, 6).get()), bits(h.reshape(10, 6)))
    np.testing.assert_array_equal(bits(x.view(np.uint16).get()), bits(h.view(np.uint16)))
    y = x.copy()
    y[1:3, 2] = 1.1
    h2 = h.copy()
    h2[1:3, 2] = 1.1
    np.testing.assert_array_equal(bits(y.get()), bits(h2))
    np.testing.assert_array_equal(bits(x.get()), bits(h))


@pytest.mark.parametrize("other", NUMPY_DTYPES + ML_DTYPES, ids=lambda t: np.dtype(t).name)
def test_promotion(device, other):
    a = ca.ones(3, dtype=ca.bfloat16, device=device)
    b = ca.ones(3, dtype=other, device=device)
    want = result_type(BF16, other)
    if want is None:  # an ml_dtypes without this promotion: NumPy's error
        with pytest.raises(TypeError):
            a + b
        with pytest.raises(TypeError):
            b * a
        return
    assert (a + b).dtype == want
    assert (b * a).dtype == want


def _rounded_once(f, *hs):
    with np.errstate(all="ignore"):
        return f(*[h.astype(np.float32) for h in hs]).astype(BF16)


@pytest.mark.parametrize("op", ["add", "subtract", "multiply", "divide", "maximum",
                                "minimum"])
def test_binary_bit_exact(device, op):
    rng = np.random.default_rng(3)
    ha = (rng.standard_normal(1000) * 50).astype(BF16)
    hb = (rng.standard_normal(1000) * 50).astype(BF16)
    got = getattr(ca, op)(ca.asarray(ha, device=device), ca.asarray(hb, device=device))
    want = _rounded_once(getattr(np, op), ha, hb)
    assert got.dtype == BF16
    np.testing.assert_array_equal(bits(got.get()), bits(want))
    # ml_dtypes' own loops compute in float32 and round once too
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(bits(getattr(np, op)(ha, hb)), bits(want))


def test_scalars_and_comparisons(device):
    h = np.array([1.0, 2.5, -3.0, np.nan], BF16)
    x = ca.asarray(h, device=device)
    assert (x + 1).dtype == BF16 and (x * 2.5).dtype == BF16
    np.testing.assert_array_equal(bits((x + 1).get()), bits(h + 1))
    # a Python float meets a bfloat16 array as a bfloat16 (NEP 50, ml_dtypes 0.7's
    # loops; older ones give float32 for h * 1.1 but bfloat16 for h + 1: the
    # reference spells the bfloat16 operand out)
    np.testing.assert_array_equal(bits((x * 1.1).get()), bits(h * np.array(1.1, BF16)))
    np.testing.assert_array_equal(bits((0.3 - x).get()), bits(np.array(0.3, BF16) - h))
    np.testing.assert_array_equal((x < 2).get(), h < 2)
    np.testing.assert_array_equal(ca.isnan(x).get(), np.isnan(h))
    assert (x + 1j).dtype == np.result_type(BF16, np.complex64)


@pytest.mark.parametrize("op", ["sqrt", "exp", "log", "sin", "tanh", "abs", "negative"])
def test_unary_within_one_ulp(device, op):
    rng = np.random.default_rng(4)
    h = (rng.random(2000) * 8 + 0.01).astype(BF16)
    got = getattr(ca, op)(ca.asarray(h, device=device)).get()
    want = _rounded_once(getattr(np, op), h)
    assert got.dtype == BF16
    d = np.abs(bits(got).astype(np.int32) - bits(want).astype(np.int32))
    assert d.max() <= 1


def test_bf16_loops_are_not_numpy_types():
    # the generated bfloat16 twins run, but ufunc.types stays NumPy's own list
    assert all("E" not in t for t in ca.add.types)
    assert all("E" not in t for t in ca.multiply.types)


def test_mixed_with_int8_and_float16(device):
    h = np.array([1.5, -2.0, 300.0], BF16)
    i8 = np.array([3, -4, 100], np.int8)
    f16 = np.array([0.1, 2.0, 7.0], np.float16)
    x = ca.asarray(h, device=device)
    r = x + ca.asarray(i8, device=device)
    assert r.dtype == BF16
    np.testing.assert_array_equal(bits(r.get()), bits(h + i8))
    if result_type(BF16, np.float16) is None:  # no such promotion in this ml_dtypes
        with pytest.raises(TypeError):
            x * ca.asarray(f16, device=device)
        return
    r = x * ca.asarray(f16, device=device)
    assert r.dtype == np.float32
    np.testing.assert_array_equal(r.get(), h.astype(np.float32) * f16.astype(np.float32))


def test_out_argument(device):
    h = np.array([1.5, 2.5], BF16)
    x = ca.asarray(h, device=device)
    o = ca.empty(2, dtype=np.float32, device=device)
    ca.add(x, x, out=o)
    np.testing.assert_array_equal(o.get(), np.array([3, 5], np.float32))
    ob = ca.empty(2, dtype=ca.bfloat16, device=device)
    ca.multiply(x, x, out=ob)
    np.testing.assert_array_equal(bits(ob.get()), bits(h * h))


@pytest.mark.parametrize("fn", ["sum", "mean", "max", "min", "prod", "argmax", "std",
                                "cumsum"])
def test_reductions_float32_accumulation(device, fn):
    rng = np.random.default_rng(6)
    h = (rng.standard_normal((64, 33)) * 3).astype(BF16)
    x = ca.asarray(h, device=device)
    f32 = h.astype(np.float32)
    for axis in [None, 0, 1]:
        got = getattr(ca, fn)(x, axis=axis)
        want = getattr(np, fn)(f32, axis=axis)
        if fn == "argmax":
            np.testing.assert_array_equal(got.get(), want)
            continue
        assert got.dtype == BF16
        # float32 accumulation rounded once: within one bf16 ulp of float32's
        w = np.asarray(want, np.float32)
        np.testing.assert_allclose(got.get().astype(np.float32), w, rtol=2**-8, atol=1e-6)
    assert ca.sum(x, dtype=np.float32).dtype == np.float32


def test_sum_rounds_once(device):
    # 4096 * 1.0 + small terms: bf16 accumulation (ml_dtypes' np.sum) would stall at
    # 256; float32 accumulation gets the exact count
    h = np.ones(4096, BF16)
    assert float(ca.asarray(h, device=device).sum()) == 4096.0


def test_bf16_without_ml_dtypes_message():
    import subprocess
    import sys
    code = ("import sys; sys.modules['ml_dtypes'] = None\n"
            "import cuarray\n"
            "try:\n    cuarray.bfloat16\nexcept ImportError as e:\n    print('IE', e)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "IE" in r.stdout and "ml_dtypes" in r.stdout, r.stdout + r.stderr


def test_import_does_not_load_ml_dtypes():
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-c",
                        "import cuarray, sys; print('ml_dtypes' in sys.modules)"],
                       capture_output=True, text=True)
    assert r.stdout.strip() == "False", r.stderr


def test_dlpack_round_trip(device):
    h = np.array([1.5, -2.0, np.inf, 3e-39], BF16)
    x = ca.asarray(h, device=device)
    y = ca.from_dlpack(x)
    assert y.dtype == BF16
    np.testing.assert_array_equal(bits(y.get()), bits(h))
    if device == "cpu":
        # NumPy's DLPack has no bfloat16: an exchange among cpu arrays only
        assert y.data.ptr == x.data.ptr


def test_cuda_array_interface(device):
    if device == "cpu":
        pytest.skip("__cuda_array_interface__ is offered by GPU memory only")
    x = ca.ones(4, dtype=ca.bfloat16, device=device)
    cai = x.__cuda_array_interface__
    assert cai["typestr"] == "<V2"

    class Producer:
        __cuda_array_interface__ = cai

    y = ca.asarray(Producer())
    assert y.dtype == BF16 and y.data.ptr == x.data.ptr


def test_torch_bf16_cuda_array_interface(device):
    torch = pytest.importorskip("torch")
    if device == "cpu" or not torch.cuda.is_available():
        pytest.skip("__cuda_array_interface__ is for GPU tensors")
    t = torch.arange(6, dtype=torch.bfloat16, device="cuda")
    try:
        cai = t.__cuda_array_interface__
    except (TypeError, KeyError, RuntimeError) as e:
        pytest.skip(f"this torch has no bfloat16 __cuda_array_interface__: {e}")
    if cai["typestr"] != "<V2":
        pytest.skip(f"this torch writes {cai['typestr']!r} for bfloat16")

    class Producer:
        __cuda_array_interface__ = cai

    x = ca.asarray(Producer())
    assert x.dtype == BF16 and x.data.ptr == t.data_ptr()
    np.testing.assert_array_equal(x.get().astype(np.float32), np.arange(6, dtype=np.float32))


def test_torch_bf16_zero_copy(device):
    torch = pytest.importorskip("torch")
    if device != "cpu" and not torch.cuda.is_available():
        pytest.skip("torch without CUDA")
    t = torch.arange(8, dtype=torch.bfloat16, device="cuda" if device != "cpu" else "cpu")
    x = ca.from_dlpack(t)
    assert x.dtype == BF16 and x.data.ptr == t.data_ptr()
    back = torch.from_dlpack(x)
    assert back.dtype == torch.bfloat16 and back.data_ptr() == t.data_ptr()
    np.testing.assert_array_equal(bits(x.get()), t.cpu().view(torch.int16).numpy()
                                  .view(np.uint16))


def _ulps(got, want):
    """Distance in bf16 ulps (same-sign finite values; bit patterns are monotonic)."""
    g = bits(np.asarray(got, BF16)).astype(np.int32)
    w = bits(np.asarray(want, BF16)).astype(np.int32)
    return np.abs(g - w)


@pytest.mark.parametrize("shape_a,shape_b", [((64, 48), (48, 32)), ((5, 16, 8), (5, 8, 12)),
                                             ((16,), (16, 7)), ((9, 16), (16,))])
def test_matmul_float32_accumulation(device, shape_a, shape_b):
    rng = np.random.default_rng(9)
    ha = rng.random(shape_a).astype(BF16)  # positive: products are far from 0
    hb = rng.random(shape_b).astype(BF16)
    want = (ha.astype(np.float32) @ hb.astype(np.float32)).astype(BF16)
    x, y = ca.asarray(ha, device=device), ca.asarray(hb, device=device)
    for got in [x @ y, ca.matmul(x, y), ca.dot(x, y) if len(shape_a) < 3 else x @ y]:
        assert got.dtype == BF16 and got.shape == want.shape
        assert _ulps(got.get(), want).max() <= 1
    if len(shape_a) == 2 and len(shape_b) == 2:
        e = ca.einsum("ij,jk->ik", x, y)
        assert e.dtype == BF16 and _ulps(e.get(), want).max() <= 1


def test_matmul_float8_refused(device):
    x = ca.ones((2, 2), dtype=ca.float8_e4m3fn, device=device)
    with pytest.raises(TypeError, match="float8"):
        x @ x


def test_random_bf16(device):
    g = ca.random.default_rng(7)
    r = g.random(200000, dtype=ca.bfloat16, device=device)
    assert r.dtype == BF16
    h = r.get().astype(np.float32)
    assert h.min() >= 0 and h.max() < 1  # truncated, never rounded up to 1.0
    assert abs(h.mean() - 0.5) < 0.01
    for draw in [g.standard_normal(1000, dtype="bfloat16", device=device),
                 g.normal(1.0, 2.0, 1000, dtype=ml_dtypes.bfloat16, device=device),
                 g.uniform(-1.0, 1.0, 1000, dtype=ca.bfloat16, device=device),
                 g.exponential(1.0, 1000, dtype=ca.bfloat16, device=device)]:
        assert draw.dtype == BF16 and np.isfinite(draw.get().astype(np.float32)).all()
    # the same seed draws the float32 values rounded once
    a = ca.random.default_rng(3).standard_normal(64, dtype=np.float32, device=device)
    b = ca.random.default_rng(3).standard_normal(64, dtype=ca.bfloat16, device=device)
    np.testing.assert_array_equal(bits(b.get()), bits(a.get().astype(BF16)))


def _stable_sorted(h, axis=-1):
    """bfloat16 sorted by its float32 values, stably (ml_dtypes up to 0.6 sorts
    bfloat16 with a comparison that scatters NaNs)."""
    i = np.argsort(h.astype(np.float32), axis=axis, kind="stable")
    return np.take_along_axis(h, i, axis=axis)


def _same_sorted(got, want, signed_zeros=True):
    """Equal bits, except that every NaN is one (sorts give the canonical NaN) and,
    without signed_zeros, -0.0 and +0.0 are one (an unstable sort's order)."""
    g, w = got.astype(np.float32), want.astype(np.float32)
    np.testing.assert_array_equal(np.isnan(g), np.isnan(w))
    np.testing.assert_array_equal(g, w)
    if signed_zeros:
        keep = ~np.isnan(w)
        np.testing.assert_array_equal(bits(got)[keep], bits(want)[keep])


def test_sort_search_unique(device):
    rng = np.random.default_rng(10)
    h = (rng.standard_normal(3000) * 4).astype(BF16)
    h[[5, 50]] = np.nan
    h[7] = -np.inf
    # the GPU's key transform: -NaN last too, -0.0 == +0.0 (stable order kept),
    # subnormals, +inf, the extremes of the format
    h[[9, 90, 900]] = -np.nan, np.inf, 0.0
    h[[11, 12, 13, 14]] = -0.0, 0.0, -0.0, 3e-39
    h[[15, 16, 17]] = np.array([0x0001, 0x8001, 0x7F7F], np.uint16).view(BF16)
    x = ca.asarray(h, device=device)
    want = _stable_sorted(h)
    _same_sorted(ca.sort(x).get(), want, signed_zeros=False)
    _same_sorted(ca.sort(x, kind="stable").get(), want)
    np.testing.assert_array_equal(ca.argsort(x, kind="stable").get(),
                                  np.argsort(h.astype(np.float32), kind="stable"))
    m = h.reshape(30, 100)
    _same_sorted(ca.sort(ca.asarray(m, device=device), axis=0, kind="stable").get(),
                 _stable_sorted(m, axis=0))
    u = ca.unique(x)
    assert u.dtype == BF16
    # NaNs stay apart, as NumPy's unique does for bfloat16 (not a float kind to it)
    _same_sorted(u.get(), np.unique(h.astype(np.float32), equal_nan=False).astype(BF16),
                 signed_zeros=False)
    s = want
    v = (rng.standard_normal(500) * 4).astype(BF16)
    for side in ["left", "right"]:
        np.testing.assert_array_equal(
            ca.searchsorted(ca.asarray(s, device=device), ca.asarray(v, device=device),
                            side=side).get(),
            np.searchsorted(s.astype(np.float32), v.astype(np.float32), side=side))
