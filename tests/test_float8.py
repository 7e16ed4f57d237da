"""float8_e4m3fn and float8_e5m2 (ml_dtypes) for storage (issue 39): creation, casts
to and from every dtype bit-exact with ml_dtypes' NumPy casts (with the references
of ml_dtypes_ref.py where ml_dtypes versions differ), DLPack exchange."""

import numpy as np
import pytest

ml_dtypes = pytest.importorskip("ml_dtypes")

import cuarray as ca  # noqa: E402
from ml_dtypes_ref import bits, cast  # noqa: E402

# the references cast complex to real and overflow on purpose
pytestmark = [pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning"),
              pytest.mark.filterwarnings("ignore::RuntimeWarning")]

F8 = [ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2]
OTHERS = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32,
          np.int64, np.uint64, np.float16, np.float32, np.float64, np.complex64,
          np.complex128, ml_dtypes.bfloat16] + F8


def name(t):
    return np.dtype(t).name


def sources(dtype):
    """Every float8 pattern, every bfloat16 pattern, float edge cases (ties at the
    formats' subnormal and overflow boundaries, NaN, inf) and random values."""
    dtype = np.dtype(dtype)
    if dtype in [np.dtype(t) for t in F8]:
        return np.arange(256, dtype=np.uint8).view(dtype)
    if dtype == np.dtype(ml_dtypes.bfloat16):
        return np.arange(1 << 16, dtype=np.uint16).view(dtype)
    if dtype.kind == "b":
        return np.array([True, False])
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        v = [0, 1, -1, 7, 9, 17, 240, 448, 464, 465, 480, 500, 57344, 61439, 61440,
             info.min, info.max]
        return np.array([x for x in v if info.min <= x <= info.max], dtype)
    rng = np.random.default_rng(8)
    f = [0.0, -0.0, 1.0, 1 + 2**-4, 1 + 2**-4 + 2**-40, 448, 464, 465, 479.9, 480, 500,
         57344, 61439, 61440, 65536, 1e9, np.inf, -np.inf, np.nan, -np.nan,
         2**-9, 2**-10, 1.5 * 2**-10, 2**-16, 2**-17, 1.5 * 2**-17, 2**-6, 2**-14]
    v = np.concatenate([np.array(f), -np.array(f), rng.standard_normal(300) * 30,
                        rng.standard_normal(100) * 1e-3])
    if dtype.kind == "c":
        v = v + 1j * v[::-1]
    with np.errstate(all="ignore"):
        return v.astype(dtype)


@pytest.mark.parametrize("f8", F8, ids=name)
@pytest.mark.parametrize("other", OTHERS, ids=name)
@pytest.mark.parametrize("to_f8", [True, False], ids=["to", "from"])
def test_cast_bit_exact(device, f8, other, to_f8):
    src, dst = (other, f8) if to_f8 else (f8, other)
    h = sources(src)
    want = cast(h, dst)
    got = ca.asarray(h, device=device).astype(dst).get()
    assert got.dtype == np.dtype(dst)
    np.testing.assert_array_equal(bits(got), bits(want))


@pytest.mark.parametrize("f8", F8, ids=name)
def test_creation_and_views(device, f8):
    dt = np.dtype(f8)
    for got, want in [(ca.zeros(4, dtype=f8, device=device), np.zeros(4, dt)),
                      (ca.ones((2, 3), dtype=dt.name, device=device), np.ones((2, 3), dt)),
                      (ca.full(3, 1.3, dtype=f8, device=device), np.full(3, 1.3, dt)),
                      (ca.asarray([1, 2.5, -448], dtype=f8, device=device),
                       np.asarray([1, 2.5, -448], dtype=dt))]:
        assert got.dtype == dt
        np.testing.assert_array_equal(bits(got.get()), bits(want))
    h = np.arange(256, dtype=np.uint8).view(dt).reshape(16, 16)
    x = ca.asarray(h, device=device)
    np.testing.assert_array_equal(bits(x[::3, 1:].get()), bits(h[::3, 1:]))
    np.testing.assert_array_equal(bits(x.T.copy().get()), bits(h.T.copy()))
    np.testing.assert_array_equal(x.view(np.uint8).get(), h.view(np.uint8))
    assert str(ca.asarray(h[0], device=device)) == str(h[0])


@pytest.mark.parametrize("f8", F8, ids=name)
def test_dlpack_round_trip(device, f8):
    h = np.arange(256, dtype=np.uint8).view(np.dtype(f8))
    x = ca.asarray(h, device=device)
    y = ca.from_dlpack(x)
    assert y.dtype == np.dtype(f8) and y.data.ptr == x.data.ptr
    np.testing.assert_array_equal(bits(y.get()), bits(h))


@pytest.mark.parametrize("f8", F8, ids=name)
def test_torch_float8_bit_exact(device, f8):
    torch = pytest.importorskip("torch")
    if device != "cpu" and not torch.cuda.is_available():
        pytest.skip("torch without CUDA")
    tdt = {ml_dtypes.float8_e4m3fn: torch.float8_e4m3fn,
           ml_dtypes.float8_e5m2: torch.float8_e5m2}[f8]
    dev = "cpu" if device == "cpu" else "cuda"
    u = torch.arange(256, dtype=torch.uint8, device=dev)
    t = u.view(tdt)
    try:
        t.__dlpack__()
    except (BufferError, RuntimeError, TypeError) as e:
        pytest.skip(f"this torch exports no float8 through DLPack: {e}")
    x = ca.from_dlpack(t)
    assert x.dtype == np.dtype(f8) and x.data.ptr == t.data_ptr()
    np.testing.assert_array_equal(x.view(np.uint8).get(), u.cpu().numpy())
    back = torch.from_dlpack(x)
    assert back.dtype == tdt and torch.equal(back.view(torch.uint8), u)
    # PyTorch's own float32 -> float8 casts against ours (neither saturates)
    f = torch.linspace(-600, 600, 4001, device=dev)
    with np.errstate(all="ignore"):
        ours = ca.asarray(f.cpu().numpy(), device=device).astype(f8).view(np.uint8).get()
    theirs = f.to(tdt).view(torch.uint8).cpu().numpy()
    nan = np.isnan(np.arange(256, dtype=np.uint8).view(np.dtype(f8)).astype(np.float32))
    same = (ours == theirs) | (nan[ours] & nan[theirs])
    assert same.all()


@pytest.mark.parametrize("dst", [np.float32, np.complex64, ml_dtypes.bfloat16] + F8,
                         ids=name)
def test_float16_nans_widen_by_their_bits(device, dst):
    # a GPU's half -> float conversion gives the canonical NaN; NumPy keeps the sign
    # and payload (float32), ml_dtypes the sign (its quiet NaN)
    h = np.array([0x7C01, 0xFC01, 0x7E00, 0xFE00, 0x7FFF, 0xFD55, 0x7C00, 0xFC00, 0x8000,
                  0x0001, 0x83FF], np.uint16).view(np.float16)
    got = ca.asarray(h, device=device).astype(dst).get()
    np.testing.assert_array_equal(bits(got), bits(cast(h, dst)))
