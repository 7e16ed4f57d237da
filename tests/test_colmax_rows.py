"""Column max / min (m.max(axis=0)) by row width: float and 8-byte integer rows of 8 KiB
or less fold one row at a time (wider ones four at a time), each row one by one up to its
first 64-byte boundary and then in blocks; NaN propagates, integer extremes and unsigned
values above 2^63 compare right, in every row position and from every start offset."""

import numpy as np
import pytest

import cuarray as ca

TYPES = [np.int64, np.uint64, np.float32, np.float64, np.int32]


def table(rows, cols, dtype, rng):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return (rng.standard_normal((rows, cols)) * 100).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=(rows, cols), endpoint=True, dtype=dtype)


@pytest.mark.parametrize("dtype", TYPES)
@pytest.mark.parametrize("cols", [1, 7, 64, 1023, 1024, 1025, 2048, 4096])
@pytest.mark.parametrize("rows", [2, 3, 5, 8, 33])
def test_column_max_min(device, dtype, cols, rows):
    rng = np.random.default_rng(rows * 7919 + cols)
    m = table(rows, cols, dtype, rng)
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        m[rng.integers(0, rows), 0] = info.max
        m[rng.integers(0, rows), -1] = info.min
        if rows > 2:
            m[:, cols // 2] = info.max  # ties
    c = ca.asarray(m, device=device)
    for fn in ("max", "min"):
        np.testing.assert_array_equal(np.asarray(getattr(c, fn)(axis=0).get()),
                                      getattr(m, fn)(axis=0), err_msg=fn)
    # a view with the row stride of the table and a narrower row (a column tile)
    np.testing.assert_array_equal(np.asarray(c[:, 1:].max(axis=0).get()), m[:, 1:].max(axis=0))
    np.testing.assert_array_equal(np.asarray(c[1:].min(axis=0).get()), m[1:].min(axis=0))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("cols", [5, 1024, 2048, 4096])
def test_column_max_nan_in_every_row(device, dtype, cols):
    rng = np.random.default_rng(cols)
    rows = 11
    m = table(rows, cols, dtype, rng)
    for r in range(rows):
        m[r, (3 * r) % cols] = np.nan
    m[-1, -1] = np.inf
    m[0, cols // 2] = -np.inf
    c = ca.asarray(m, device=device)
    for fn in ("max", "min", "nanmax", "nanmin"):
        got = getattr(ca, fn)(c, axis=0).get()
        np.testing.assert_array_equal(np.asarray(got), getattr(np, fn)(m, axis=0), err_msg=fn)


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.float32, np.float64])
@pytest.mark.parametrize("start", range(0, 10))
def test_column_max_min_from_every_offset(device, dtype, start):
    """Rows starting at every element offset from a cache line: the head (the elements
    before the first 64-byte boundary) holds the extremes and, for floats, a NaN."""
    rng = np.random.default_rng(start)
    cols = 300
    base = table(37, cols + 16, dtype, rng)
    m = base[:, start:start + cols]
    m[5, 0] = m[6, 1] = (np.iinfo(dtype).max if np.dtype(dtype).kind == "i" else 1e30)
    m[7, 2] = (np.iinfo(dtype).min if np.dtype(dtype).kind == "i" else -1e30)
    if np.dtype(dtype).kind == "f":
        m[9, 3] = np.nan
        m[10, cols - 1] = np.nan
    c = ca.asarray(base, device=device)[:, start:start + cols]
    for fn in ("max", "min"):
        np.testing.assert_array_equal(np.asarray(getattr(c, fn)(axis=0).get()),
                                      getattr(m, fn)(axis=0), err_msg=fn)
