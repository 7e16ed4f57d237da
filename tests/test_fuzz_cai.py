"""Fuzz: __cuda_array_interface__ dicts imported by cuarray.asarray, every field wrong.

A valid interface is drawn (dtype, shape, strides, pointer, version, stream), then
up to three fields are made wrong from a table of (wrong value, the exception type
it must raise). The import validates the whole dict before it touches the pointer,
so on the cpu device: a wrong dict raises one of the expected types; a valid one
of size 0 imports (no pointer needed); a valid one of nonzero size reaches the
pointer check (CUDAError without a driver). On the GPU the pointer is real memory
of a cuarray array and a valid interface imports that memory, values checked.
Budget: tests/fuzz_budget.py.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cuarray as ca
from conftest import HAVE_GPU
from fuzz_budget import NUMPY_TYPED, fuzz

from_cai = ca._core._from_cai
TYPESTRS = ["|b1", "|i1", "|u1", "<i2", "<u2", "<i4", "<u4", "<i8", "<u8", "<f2", "<f4",
            "<f8", "<c8", "<c16"]


class Producer:
    """An object that offers only the interface (as Numba's device arrays do)."""

    def __init__(self, iface):
        self.__cuda_array_interface__ = iface


# (field, wrong value, exception type), each wrong whatever the rest of the dict is
WRONG = (
    [("shape", v, TypeError) for v in (None, 4, "4", 4.0, {4: 1})]
    + [("shape", (v,), TypeError) for v in (4.0, "4", None, b"", (4,))]
    + [("shape", (-1,), ValueError), ("shape", (3, -2), ValueError),
       ("shape", (1,) * 33, ValueError), ("shape", (2**40, 2**40), ValueError),
       ("shape", (2**63,), ValueError), ("shape", (2**64 + 1, 0), ValueError)]
    + [("typestr", v, TypeError) for v in (None, 4, b"<f4", ["<f4"], ("<f4",))]
    + [("typestr", v, ValueError) for v in ("", "<", "f4", "<fx", "<f4 ", " <f4", "|O",
                                            "<f-4", ">f4", ">i8", ">c16")]
    + [("typestr", v, TypeError) for v in ("<f16", "<i3", "|V8", "<M8", "<U4", "|b2",
                                           "<c32", "<u16", "|S1")]
    + [("data", v, TypeError) for v in (None, 4096, [4096, False], (4096,), (4096, 0, 0),
                                        "4096", ())]
    + [("data", (p, False), TypeError) for p in (None, 4096.0, "4096", b"", [4096])]
    + [("data", (p, False), ValueError) for p in (-8, -1, 2**64, 2**70)]
    + [("strides", v, TypeError) for v in (4, "4", 4.0, {})]
    + [("version", v, TypeError) for v in (None, "3", 3.0, [3])]
    + [("version", v, ValueError) for v in (4, 5, -1, 2**70)]
    + [("mask", v, NotImplementedError) for v in (0, False, Producer({}), np.zeros(3))]
    + [("stream", v, TypeError) for v in (True, False, "1", 1.0, [1])]
    + [("stream", v, ValueError) for v in (0, -1, -2**63, 2**64, 2**70)]
    + [("drop", k, ValueError) for k in ("shape", "typestr", "data")]
)
# Wrong strides whose error depends on the shape: made to fit it when applied.
STRIDES_WRONG = ["length", "misaligned", "outside", "str_entry", "float_entry"]


@st.composite
def valid_interfaces(draw):
    """(a valid interface dict minus its pointer, the NumPy view it describes)."""
    ts = draw(st.sampled_from(TYPESTRS))
    isz = np.dtype(ts).itemsize
    shape = tuple(draw(st.lists(st.integers(0, 4), max_size=4)))
    layout = draw(st.sampled_from(["none", "C", "F", "neg", "zero"]))
    strides = None
    if layout != "none":
        st_ = list(np.empty(shape, ts, order="F" if layout == "F" else "C").strides)
        if layout == "neg" and shape:
            st_[0] = -st_[0]
        if layout == "zero" and shape:
            st_[-1] = 0
        strides = tuple(int(s) for s in st_)
    version = draw(st.integers(0, 3))
    d = dict(shape=shape, typestr=ts, version=version,
             readonly=draw(st.booleans()))
    if strides is not None or draw(st.booleans()):
        d["strides"] = strides
    if version == 3 and draw(st.booleans()):
        d["stream"] = draw(st.sampled_from([None, 1, 2]))
    if draw(st.booleans()):
        d["mask"] = None
    if draw(st.booleans()):
        d["descr"] = [("", ts)]
    return d


def _apply(d, wrongs):
    """Make the listed fields wrong; the exception types that may then come."""
    expect = set()
    # the shape-dependent strides first, while the shape and typestr are valid
    for w in sorted(wrongs, key=lambda w: w not in STRIDES_WRONG):
        if w in STRIDES_WRONG:
            n = len(d["shape"])
            big = [k for k, e in enumerate(d["shape"]) if e > 1]
            isz = np.dtype(d["typestr"]).itemsize if isinstance(d["typestr"], str) else 0
            if w == "length":
                d["strides"] = (8,) * (n + 1)
            elif w in ("str_entry", "float_entry") and n:
                d["strides"] = ("8" if w == "str_entry" else 8.0,) + (8,) * (n - 1)
                expect.add(TypeError)
                continue
            elif w == "misaligned" and big and isz > 1 and 0 not in d["shape"]:
                d["strides"] = tuple(isz + 1 if k == big[0] else isz for k in range(n))
            elif w == "outside" and big and 0 not in d["shape"]:
                d["strides"] = tuple(-2**62 if k == big[0] else isz for k in range(n))
            else:
                continue
            expect.add(ValueError)
            continue
        field, value, exc = w
        if field == "data" and value is None and 0 in d.get("shape", (1,)):
            d["data"] = None  # valid: an array of no elements needs no pointer
            continue
        if field == "drop":
            d.pop(value, None)
        else:
            d[field] = value
        if field == "stream" and d.get("version") in (0, 1, 2):
            d["version"] = 3  # a stream is read from version 3 on
        expect.add(exc)
    return expect


def _pointer(device, nbytes):
    """A pointer to `nbytes` with room either side for negative strides, and the
    owner keeping it alive: made-up but aligned on the cpu device, real on a GPU."""
    if device == "cpu":
        return 1 << 20, None
    owner = ca.zeros(2 * nbytes + 64, dtype=np.uint8, device=device)
    return owner.data.ptr + nbytes + 32, owner


@fuzz(200)
@given(base=valid_interfaces(),
       wrongs=st.lists(st.one_of(st.sampled_from(WRONG), st.sampled_from(STRIDES_WRONG)),
                       max_size=3))
def test_fuzz_cai_import(device, base, wrongs):
    d = dict(base)
    ro = d.pop("readonly")
    n = int(np.prod(d["shape"])) * np.dtype(d["typestr"]).itemsize
    ptr, owner = _pointer(device, max(n * 4, 64))
    d["data"] = (ptr, ro)
    expect = _apply(d, wrongs)
    try:
        x = ca.asarray(Producer(d), device=None if device == "cpu" else device)
    except NUMPY_TYPED + (ca.cuda.CUDAError,) as e:
        if expect:
            assert isinstance(e, tuple(expect)), (d, wrongs, repr(e))
        else:
            # a valid interface fails only at the cpu case's made-up pointer: with
            # no GPU at the missing driver, with one as memory that is not CUDA's
            assert device == "cpu" and n > 0, (d, repr(e))
            want = ValueError if HAVE_GPU else ca.cuda.CUDAError
            assert isinstance(e, want), (d, repr(e))
        return
    assert not expect, f"{d} imported; expected {expect}"
    assert x.shape == d["shape"] and x.dtype == np.dtype(d["typestr"])
    assert x.flags.writeable == (not ro)
    if owner is not None and x.size:
        assert x.data.ptr == ptr
        np.testing.assert_array_equal(x.get(), np.zeros(x.shape, x.dtype))


def test_misaligned_pointer_message_names_the_pointer():
    d = dict(shape=(4,), typestr="<f4", data=(4098, False), version=3)
    with pytest.raises(ValueError) as e:
        from_cai(Producer(d))
    assert "%" not in str(e.value) and "0x1002" in str(e.value), str(e.value)


def test_zero_size_interface_without_data():
    """data None for an array of no elements (CuPy and Numba accept it); for a
    non-empty one it stays a TypeError."""
    for shape in [(0,), (3, 0), (0, 0, 2)]:
        x = from_cai(Producer(dict(shape=shape, typestr="<f4", data=None, version=3)))
        assert x.shape == shape and x.dtype == np.float32 and x.size == 0
    with pytest.raises(TypeError):
        from_cai(Producer(dict(shape=(2,), typestr="<f4", data=None, version=3)))
