"""The printing and I/O functions of python/cuarray/_io.py against NumPy on both
devices: text formatting and print options (cuarray's own repr follows them), .npy /
.npz / text round trips through files in tmp_path, the from* constructors, several
dtypes, and NumPy's exception types for bad input."""

import io

import numpy as np
import pytest

import cuarray as ca
from conftest import requires_gpu

DEVICES = ["cpu", pytest.param("cuda:0", marks=requires_gpu)]
DTYPES = [np.bool_, np.int8, np.uint16, np.int32, np.int64, np.float16, np.float32,
          np.float64, np.complex64, np.complex128]


@pytest.fixture(params=DEVICES)
def dev(request):
    return request.param


def _sample(dtype, shape=(3, 4)):
    rng = np.random.default_rng(0)
    h = rng.standard_normal(shape) * 10
    if np.dtype(dtype).kind == "c":
        h = h + 1j * rng.standard_normal(shape)
    return h.astype(dtype)


def _same(c, h):
    assert isinstance(c, ca.ndarray)
    g = ca.asnumpy(c)
    assert g.dtype == h.dtype
    assert g.shape == h.shape
    np.testing.assert_array_equal(g, h)


def _on(c, dev):
    assert str(c.device) == dev


# ---------------------------------------------------------------------------- print

@pytest.mark.parametrize("dtype", DTYPES)
def test_array2string(dev, dtype):
    h = _sample(dtype)
    a = ca.asarray(h, device=dev)
    assert ca.array2string(a) == np.array2string(h)
    assert (ca.array2string(a, separator=", ", prefix="x(", suffix=")")
            == np.array2string(h, separator=", ", prefix="x(", suffix=")"))
    if np.dtype(dtype).kind == "f":
        assert (ca.array2string(a, precision=2, suppress_small=True)
                == np.array2string(h, precision=2, suppress_small=True))
        fmt = {"float_kind": lambda v: f"{v:.1f}"}
        assert (ca.array2string(a, formatter=fmt)
                == np.array2string(h, formatter=fmt))


def test_array2string_summary_and_0d(dev):
    h = np.arange(5000, dtype=np.float32)
    a = ca.asarray(h, device=dev)
    assert ca.array2string(a) == np.array2string(h)
    assert ca.array2string(a, threshold=10, edgeitems=2) == np.array2string(
        h, threshold=10, edgeitems=2)
    assert ca.array2string(ca.asarray(3.5, device=dev)) == np.array2string(
        np.asarray(3.5))
    # As NumPy's, array2string takes arrays, not lists.
    with pytest.raises(AttributeError):
        ca.array2string([1, 2])


def test_array2string_bad(dev):
    a = ca.asarray([1.0], device=dev)
    with pytest.raises(ValueError):
        ca.array2string(a, floatmode="nope")
    with pytest.raises(ValueError):
        np.array2string(np.array([1.0]), sign="?")
    with pytest.raises(ValueError):
        ca.array2string(a, sign="?")


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.float64, np.complex64])
def test_array_repr_str(dev, dtype):
    h = _sample(dtype)
    a = ca.asarray(h, device=dev)
    assert ca.array_repr(a) == repr(a)
    assert ca.array_str(a) == str(a) == np.array_str(h)
    assert ca.array_str(a, precision=2) == np.array_str(h, precision=2)
    assert ca.array_str(a, max_line_width=20) == np.array_str(h, max_line_width=20)
    r = ca.array_repr(a, precision=2, suppress_small=True)
    want = np.array_repr(h, precision=2, suppress_small=True)
    assert r == want[:-1] + f", device={str(a.device)!r})"
    # NumPy arrays go to NumPy's own functions.
    assert ca.array_repr(h, precision=3) == np.array_repr(h, precision=3)
    assert ca.array_str(h, precision=3) == np.array_str(h, precision=3)


def test_printoptions_reach_cuarray_repr(dev):
    h = np.array([1.23456789, 2.0, 1e-9])
    a = ca.asarray(h, device=dev)
    before = ca.get_printoptions()
    assert before == np.get_printoptions()
    with ca.printoptions(precision=3, suppress=True) as opts:
        assert opts["precision"] == 3 and opts["suppress"] is True
        assert ca.get_printoptions()["precision"] == 3
        assert str(a) == str(h)
        assert repr(a).startswith(repr(h)[:-1])
        assert "1.235" in str(a)
    assert ca.get_printoptions() == before
    try:
        ca.set_printoptions(precision=2, linewidth=30)
        assert np.get_printoptions()["precision"] == 2
        assert str(a) == str(h)
        assert "1.23" in repr(a) and "1.235" not in repr(a)
        big = ca.asarray(np.arange(100.0), device=dev)
        assert str(big) == str(np.arange(100.0))
        ca.set_printoptions(threshold=5, edgeitems=1)
        assert str(big) == str(np.arange(100.0))
        want = repr(np.arange(100.0))
        assert repr(big) == want[:-1] + f", device={str(big.device)!r})"
    finally:
        np.set_printoptions(**before)
    assert ca.get_printoptions() == before


def test_printoptions_bad():
    before = np.get_printoptions()
    with pytest.raises(TypeError):
        ca.set_printoptions(precision="x")
    with pytest.raises(ValueError):
        ca.set_printoptions(floatmode="nope")
    with pytest.raises(ValueError):
        with ca.printoptions(sign="?"):
            pass
    assert np.get_printoptions() == before


@pytest.mark.parametrize("x", [0.0, 1.5, -3.25e-7, 1e22, np.float16(0.1),
                               np.float32(1 / 3), np.inf, np.nan])
def test_format_float(x):
    assert ca.format_float_positional(x) == np.format_float_positional(x)
    assert (ca.format_float_positional(x, precision=3, unique=False, trim="-")
            == np.format_float_positional(x, precision=3, unique=False, trim="-"))
    assert (ca.format_float_positional(x, sign=True, pad_left=4, pad_right=3)
            == np.format_float_positional(x, sign=True, pad_left=4, pad_right=3))
    assert ca.format_float_scientific(x) == np.format_float_scientific(x)
    assert (ca.format_float_scientific(x, precision=2, exp_digits=3, min_digits=1)
            == np.format_float_scientific(x, precision=2, exp_digits=3,
                                          min_digits=1))


def test_format_float_0d_array(dev):
    a = ca.asarray(np.float32(0.1), device=dev)
    assert ca.format_float_positional(a) == np.format_float_positional(
        np.float32(0.1))
    assert ca.format_float_scientific(a) == np.format_float_scientific(
        np.float32(0.1))


def test_format_float_bad():
    for f in (ca.format_float_positional, ca.format_float_scientific):
        with pytest.raises(TypeError):
            f("a")
        with pytest.raises(TypeError):
            f(1.0, trim="x")
        with pytest.raises(ValueError):
            f(1.0, precision=-1)


@pytest.mark.parametrize("n", [0, 1, 5, 255, -255, 2**40, -7])
@pytest.mark.parametrize("base", [2, 8, 16, 36])
def test_base_repr(n, base):
    assert ca.base_repr(n, base) == np.base_repr(n, base)
    assert ca.base_repr(n, base, padding=3) == np.base_repr(n, base, padding=3)


def test_base_repr_bad():
    with pytest.raises(ValueError):
        ca.base_repr(5, 37)
    with pytest.raises(ValueError):
        ca.base_repr(5, 1)


@pytest.mark.parametrize("n", [0, 3, -3, 255, -128, 2**40])
def test_binary_repr(n):
    assert ca.binary_repr(n) == np.binary_repr(n)
    assert ca.binary_repr(n, width=48) == np.binary_repr(n, width=48)


def test_binary_repr_bad():
    with pytest.raises(ValueError):
        ca.binary_repr(-128, width=4)


# ---------------------------------------------------------------------------- npy / npz

@pytest.mark.parametrize("dtype", DTYPES)
def test_save_load_npy(dev, tmp_path, dtype):
    h = _sample(dtype)
    a = ca.asarray(h, device=dev)
    ca.save(tmp_path / "a", a)  # .npy appended, as NumPy does
    assert (tmp_path / "a.npy").exists()
    np.testing.assert_array_equal(np.load(tmp_path / "a.npy"), h)
    r = ca.load(tmp_path / "a.npy", device=dev)
    _same(r, h)
    _on(r, dev)
    np.save(tmp_path / "b.npy", h)
    _same(ca.load(str(tmp_path / "b.npy"), device=dev), h)


def test_save_load_fileobj_noncontig_0d(dev):
    h = np.arange(24, dtype=np.float32).reshape(4, 6)
    a = ca.asarray(h, device=dev)
    buf = io.BytesIO()
    ca.save(buf, a[:, ::2].T)
    buf.seek(0)
    _same(ca.load(buf, device=dev), h[:, ::2].T)
    buf = io.BytesIO()
    ca.save(buf, ca.asarray(np.int64(7), device=dev))
    buf.seek(0)
    _same(ca.load(buf, device=dev), np.asarray(np.int64(7)))
    buf = io.BytesIO()
    ca.save(buf, [1.0, 2.0])
    buf.seek(0)
    _same(ca.load(buf, device=dev), np.array([1.0, 2.0]))


def test_load_default_device(tmp_path):
    np.save(tmp_path / "a.npy", np.arange(3))
    r = ca.load(tmp_path / "a.npy")
    assert str(r.device) == str(ca.asarray(np.arange(3)).device)


def test_load_mmap(dev, tmp_path):
    h = np.arange(10, dtype=np.int32)
    np.save(tmp_path / "a.npy", h)
    _same(ca.load(tmp_path / "a.npy", mmap_mode="r", device=dev), h)


def test_load_pickle(tmp_path):
    obj = np.array([1, "a", None], dtype=object)
    np.save(tmp_path / "o.npy", obj, allow_pickle=True)
    with pytest.raises(ValueError):
        ca.load(tmp_path / "o.npy")
    r = ca.load(tmp_path / "o.npy", allow_pickle=True)
    assert list(r) == list(obj)
    with pytest.raises(ValueError):
        ca.save(tmp_path / "p.npy", obj, allow_pickle=False)


def test_load_bad(tmp_path):
    with pytest.raises(FileNotFoundError):
        ca.load(tmp_path / "missing.npy")
    (tmp_path / "junk.npy").write_bytes(b"not an array")
    with pytest.raises((ValueError, OSError)) as e1:
        ca.load(tmp_path / "junk.npy")
    with pytest.raises(type(e1.value)):
        np.load(tmp_path / "junk.npy")


@pytest.mark.parametrize("compressed", [False, True])
def test_savez_load(dev, tmp_path, compressed):
    hs = {d: _sample(d) for d in (np.int8, np.float32, np.complex128, np.bool_)}
    xs = [ca.asarray(h, device=dev) for h in hs.values()]
    save = ca.savez_compressed if compressed else ca.savez
    save(tmp_path / "z", *xs[:2], third=xs[2], fourth=xs[3])
    assert (tmp_path / "z.npz").exists()
    with np.load(tmp_path / "z.npz") as ref:
        assert sorted(ref.files) == ["arr_0", "arr_1", "fourth", "third"]
    with ca.load(tmp_path / "z.npz", device=dev) as z:
        assert sorted(z.files) == ["arr_0", "arr_1", "fourth", "third"]
        assert len(z) == 4 and "third" in z and "nope" not in z
        assert sorted(z) == sorted(z.files)
        hv = list(hs.values())
        for key, h in zip(["arr_0", "arr_1", "third", "fourth"], hv):
            r = z[key]
            _same(r, h)
            _on(r, dev)
        with pytest.raises(KeyError):
            z["nope"]
        items = dict(z.items())
        _same(items["third"], hv[2])


def test_savez_fileobj_and_numpy_written(dev, tmp_path):
    buf = io.BytesIO()
    ca.savez(buf, x=ca.asarray(np.arange(4), device=dev))
    buf.seek(0)
    z = ca.load(buf, device=dev)
    _same(z["x"], np.arange(4))
    z.close()
    np.savez(tmp_path / "n.npz", a=np.eye(3))
    z = ca.load(tmp_path / "n.npz", device=dev)
    _same(z["a"], np.eye(3))
    z.close()


# ---------------------------------------------------------------------------- text

@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
def test_savetxt_loadtxt(dev, tmp_path, dtype):
    h = _sample(dtype)
    a = ca.asarray(h, device=dev)
    fmt = "%d" if np.dtype(dtype).kind == "i" else "%.18e"
    ca.savetxt(tmp_path / "a.txt", a, fmt=fmt, delimiter=",", header="hi",
               footer="bye")
    np.savetxt(tmp_path / "b.txt", h, fmt=fmt, delimiter=",", header="hi",
               footer="bye")
    assert (tmp_path / "a.txt").read_text() == (tmp_path / "b.txt").read_text()
    r = ca.loadtxt(tmp_path / "a.txt", dtype=dtype, delimiter=",", device=dev)
    _same(r, np.loadtxt(tmp_path / "b.txt", dtype=dtype, delimiter=","))
    _on(r, dev)
    cols = ca.loadtxt(tmp_path / "a.txt", dtype=dtype, delimiter=",", unpack=True,
                      device=dev)
    ref = np.loadtxt(tmp_path / "b.txt", dtype=dtype, delimiter=",", unpack=True)
    assert len(cols) == len(ref)
    for c, h2 in zip(cols, ref):
        _same(c, h2)


def test_loadtxt_options(dev):
    text = "# c\n1 2 3\n4 5 6\n7 8 9\n"
    kw = dict(skiprows=1, usecols=(0, 2), max_rows=2, ndmin=2)
    _same(ca.loadtxt(io.StringIO(text), device=dev, **kw),
          np.loadtxt(io.StringIO(text), **kw))
    _same(ca.loadtxt(io.StringIO("5\n"), ndmin=2, device=dev),
          np.loadtxt(io.StringIO("5\n"), ndmin=2))
    _same(ca.loadtxt(io.StringIO("1 2 3"), device=dev),
          np.loadtxt(io.StringIO("1 2 3")))
    u = ca.loadtxt(io.StringIO("1 2 3"), unpack=True, device=dev)
    _same(u, np.loadtxt(io.StringIO("1 2 3"), unpack=True))


def test_savetxt_1d_and_bad(dev, tmp_path):
    h = np.array([1.5, 2.5])
    ca.savetxt(tmp_path / "a.txt", ca.asarray(h, device=dev))
    np.savetxt(tmp_path / "b.txt", h)
    assert (tmp_path / "a.txt").read_text() == (tmp_path / "b.txt").read_text()
    with pytest.raises(ValueError):
        ca.savetxt(tmp_path / "c.txt", ca.asarray(np.zeros((2, 2, 2)), device=dev))
    with pytest.raises(ValueError):
        ca.savetxt(tmp_path / "c.txt", ca.asarray(np.zeros((2, 2)), device=dev),
                   fmt="%d %d %d")


def test_loadtxt_bad():
    with pytest.raises(ValueError):
        ca.loadtxt(io.StringIO("1 2\n3 x\n"))
    with pytest.raises(ValueError):
        ca.loadtxt(io.StringIO("1 2\n3\n"))
    with pytest.raises(FileNotFoundError):
        ca.loadtxt("/nonexistent/nope.txt")


def test_genfromtxt(dev):
    text = "a,b,c\n1,2,3\n4,,6\n7,8,\n"
    kw = dict(delimiter=",", skip_header=1)
    _same(ca.genfromtxt(io.StringIO(text), device=dev, **kw),
          np.genfromtxt(io.StringIO(text), **kw))
    kw2 = dict(delimiter=",", skip_header=1, filling_values=-1, dtype=np.int32)
    _same(ca.genfromtxt(io.StringIO(text), device=dev, **kw2),
          np.genfromtxt(io.StringIO(text), **kw2))
    kw3 = dict(delimiter=",", skip_header=1, skip_footer=1, usecols=(0, 2))
    r = ca.genfromtxt(io.StringIO(text), device=dev, **kw3)
    _same(r, np.genfromtxt(io.StringIO(text), **kw3))
    _on(r, dev)
    cols = ca.genfromtxt(io.StringIO(text), unpack=True, device=dev, **kw)
    ref = np.genfromtxt(io.StringIO(text), unpack=True, **kw)
    for c, h in zip(cols, ref):
        _same(c, h)


def test_genfromtxt_file_and_bad(dev, tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("1 2\n3 4\n")
    _same(ca.genfromtxt(p, device=dev), np.genfromtxt(p))
    with pytest.raises(ValueError):
        ca.genfromtxt(io.StringIO("1 2\n3 4 5\n"))
    with pytest.raises(NotImplementedError):
        ca.genfromtxt(io.StringIO("1 2\n"), usemask=True)


# ---------------------------------------------------------------------------- from*

@pytest.mark.parametrize("dtype", DTYPES)
def test_fromfile_binary(dev, tmp_path, dtype):
    h = _sample(dtype).ravel()
    p = tmp_path / "raw.bin"
    h.tofile(p)
    r = ca.fromfile(p, dtype=dtype, device=dev)
    _same(r, np.fromfile(p, dtype=dtype))
    _on(r, dev)
    isz = np.dtype(dtype).itemsize
    _same(ca.fromfile(str(p), dtype=dtype, count=3, offset=2 * isz, device=dev),
          np.fromfile(p, dtype=dtype, count=3, offset=2 * isz))


def test_fromfile_text_and_bad(dev, tmp_path):
    p = tmp_path / "t.txt"
    p.write_text("1, 2, 3.5, 4")
    _same(ca.fromfile(p, sep=",", device=dev), np.fromfile(p, sep=","))
    with pytest.raises(FileNotFoundError):
        ca.fromfile(tmp_path / "missing.bin")
    with pytest.raises(ValueError):
        np.fromfile(p, dtype=object)
    with pytest.raises(ValueError):
        ca.fromfile(p, dtype=object)


@pytest.mark.parametrize("dtype", DTYPES)
def test_frombuffer(dev, dtype):
    h = _sample(dtype).ravel()
    b = h.tobytes()
    r = ca.frombuffer(b, dtype=dtype, device=dev)
    _same(r, np.frombuffer(b, dtype=dtype))
    _on(r, dev)
    isz = np.dtype(dtype).itemsize
    _same(ca.frombuffer(bytearray(b), dtype=dtype, count=4, offset=isz, device=dev),
          np.frombuffer(bytearray(b), dtype=dtype, count=4, offset=isz))


def test_frombuffer_is_a_copy(dev):
    buf = bytearray(np.arange(4, dtype=np.int32).tobytes())
    r = ca.frombuffer(buf, dtype=np.int32, device=dev)
    buf[0] = 99
    _same(r, np.arange(4, dtype=np.int32))


def test_frombuffer_bad():
    with pytest.raises(ValueError):
        ca.frombuffer(b"\x00\x01\x02", dtype=np.int16)
    with pytest.raises(ValueError):
        ca.frombuffer(b"\x00\x01", dtype=np.int8, count=5)
    with pytest.raises(TypeError):
        ca.frombuffer(12, dtype=np.int8)


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.float32, np.complex64,
                                   np.bool_])
def test_fromiter(dev, dtype):
    r = ca.fromiter((i % 3 for i in range(10)), dtype=dtype, device=dev)
    _same(r, np.fromiter((i % 3 for i in range(10)), dtype=dtype))
    _on(r, dev)
    _same(ca.fromiter(range(10), dtype, count=4, device=dev),
          np.fromiter(range(10), dtype, count=4))
    _same(ca.fromiter([], dtype, device=dev), np.fromiter([], dtype))


def test_fromiter_bad():
    with pytest.raises(ValueError):
        ca.fromiter(range(3), np.int32, count=5)
    with pytest.raises(TypeError):
        ca.fromiter(range(3))
    with pytest.raises(TypeError):
        ca.fromiter(5, np.int32)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
def test_fromstring(dev, dtype):
    s = "1 2 3 4 5"
    r = ca.fromstring(s, dtype=dtype, sep=" ", device=dev)
    _same(r, np.fromstring(s, dtype=dtype, sep=" "))
    _on(r, dev)
    _same(ca.fromstring("1,2,3", dtype=dtype, count=2, sep=",", device=dev),
          np.fromstring("1,2,3", dtype=dtype, count=2, sep=","))


def test_fromstring_bad():
    for call in (lambda m: m.fromstring("1 2"), lambda m: m.fromstring("1 2", sep="")):
        # NumPy's binary mode is gone: its ValueError, from both (found by the fuzz:
        # a missing sep was a TypeError here)
        with pytest.raises(ValueError, match="binary mode"):
            call(np)
        with pytest.raises(ValueError, match="binary mode"):
            call(ca)
    with pytest.raises(ValueError):
        ca.fromstring("1 2", sep=" ", dtype=object)


@pytest.mark.parametrize("dtype", [float, np.int32, np.float32])
def test_fromfunction(dev, dtype):
    calls = []

    def f(i, j, scale=1):
        calls.append(1)
        return (i * 10 + j) * scale

    r = ca.fromfunction(f, (3, 4), dtype=dtype, device=dev, scale=2)
    assert len(calls) == 1  # once, on whole coordinate arrays
    _same(r, np.fromfunction(lambda i, j: (i * 10 + j) * 2, (3, 4), dtype=dtype))
    _on(r, dev)
    r = ca.fromfunction(lambda i: i, (5,), device=dev)
    _same(r, np.fromfunction(lambda i: i, (5,)))
    assert ca.fromfunction(lambda i, j: 7, (2, 2), device=dev) == 7


def test_fromfunction_bad():
    with pytest.raises(TypeError):
        ca.fromfunction(lambda i: i, (2, 3))
    with pytest.raises(TypeError):
        np.fromfunction(lambda i: i, (2, 3))


def test_all_exported():
    from cuarray import _io
    for name in _io.__all__:
        assert getattr(ca, name) is getattr(_io, name)


# ---- .npy straight into the result (cpu) or pinned staging (GPU) ----------------

@pytest.mark.parametrize("case", ["c", "f", "0d", "empty", "bool", "c128", "v2"])
def test_load_npy_direct(dev, tmp_path, case):
    rng = np.random.default_rng(21)
    h = {"c": rng.random((5, 7)).astype(np.float32),
         "f": np.asfortranarray(rng.random((4, 6))),
         "0d": np.asarray(np.int16(-3)),
         "empty": np.zeros((0, 3), np.int64),
         "bool": rng.random(13) < 0.5,
         "c128": rng.random(9) + 1j * rng.random(9),
         "v2": rng.random(4)}[case]
    path = tmp_path / "a.npy"
    if case == "v2":
        with open(path, "wb") as f:
            np.lib.format.write_array(f, h, version=(2, 0))
    else:
        np.save(path, h)
    r = ca.load(path, device=dev)
    _same(r, h)
    assert str(r.device) == dev
    if case == "f" and dev == "cpu":
        assert r.flags.f_contiguous


def test_load_npy_fallbacks(tmp_path):
    big = np.arange(6, dtype=">i4")  # non-native: NumPy's reader, then one transfer
    np.save(tmp_path / "b.npy", big)
    _same(ca.load(tmp_path / "b.npy", device="cpu"), big.astype("=i4"))
    np.save(tmp_path / "u.npy", np.array(["ab", "c"]))
    with pytest.raises((TypeError, ValueError)):
        ca.load(tmp_path / "u.npy", device="cpu")
    raw = tmp_path / "t.npy"
    np.save(raw, np.arange(10))
    data = raw.read_bytes()
    raw.write_bytes(data[:-5])
    with pytest.raises(ValueError, match="EOF: reading array data, expected 80 bytes got 75"):
        ca.load(raw, device="cpu")
    with pytest.raises(ValueError):
        ca.load(tmp_path / "t.npy", device="cpu", max_header_size=1)
