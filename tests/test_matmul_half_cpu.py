"""float16 matmul: on the cpu device it runs as float32 BLAS on exact float32 copies and is
rounded once to float16, where NumPy runs a plain loop that sums the same (exact) products in
float32 in another order. The result must be NumPy's up to that order: within one float16
ulp of it, and as close to the float64 reference as NumPy's own."""

import math

import numpy as np
import pytest

import cuarray as ca


def f16_data(shape, rng, scale=1.0):
    return (rng.standard_normal(math.prod(shape)) * scale).astype(np.float16).reshape(shape)


def check_close_to_numpys(got, x, y, msg):
    want = np.matmul(x, y)
    assert got.dtype == np.float16 and got.shape == want.shape, msg
    fin = np.isfinite(want)
    np.testing.assert_array_equal(np.isfinite(got), fin, err_msg=msg)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=msg)
    inf = np.isinf(want)
    np.testing.assert_array_equal(got[inf], want[inf], err_msg=msg)
    if not fin.any():
        return
    # the two float32 sums differ by at most their rounding errors (k * 2^-24 times the
    # sum of |products|), and each is rounded once to float16: at most one float16 ulp
    # apart beyond that (near zero, where a float32 error is many float16 ulps, too)
    x64, y64 = x.astype(np.float64), y.astype(np.float64)
    k = x.shape[-1] if x.ndim else 1
    f32 = (k * 2.0 ** -24 * np.matmul(np.abs(x64), np.abs(y64)))[fin]
    g, w = got[fin].astype(np.float64), want[fin].astype(np.float64)
    sp = np.spacing(np.maximum(np.abs(got[fin]), np.abs(want[fin]))).astype(np.float64)
    assert (np.abs(g - w) <= sp + f32).all(), msg
    # and as accurate as NumPy's, against the float64 reference
    ref = np.matmul(x64, y64)[fin]
    assert (np.abs(g - ref) <= np.abs(w - ref) + sp + f32).all(), msg
    assert np.abs(g - ref).mean() <= 1.05 * np.abs(w - ref).mean() + 1e-12, msg


SHAPES = [((256, 256), (256, 256)), ((64, 64), (64, 64)), ((2, 3), (3, 4)), ((5, 1), (1, 7)),
          ((1, 9), (9, 6)), ((8, 9), (9, 1)), ((33, 17), (17, 65)), ((7, 1000), (1000, 5)),
          ((3, 0), (0, 4)), ((0, 5), (5, 2)), ((5,), (5, 3)), ((4, 6), (6,)), ((6,), (6,)),
          ((3, 4, 5), (5, 2)), ((2, 1, 4, 8), (3, 8, 6)), ((2, 300, 40), (2, 40, 30))]


@pytest.mark.parametrize("sa,sb", SHAPES)
def test_half_matmul_matches_numpy(device, sa, sb):
    rng = np.random.default_rng(sum(sa) * 31 + sum(sb))
    x, y = f16_data(sa, rng), f16_data(sb, rng)
    got = (ca.asarray(x, device=device) @ ca.asarray(y, device=device)).get()
    if device == "cpu":
        check_close_to_numpys(np.asarray(got), x, y, f"{sa} @ {sb}")
    else:
        np.testing.assert_allclose(np.asarray(got, np.float32), np.matmul(x, y).astype(np.float32),
                                   rtol=1e-2, atol=1e-2)


def test_half_matmul_many_values_agree():
    """The cpu device's float32-BLAS path over many sums: differences from NumPy's are
    rare, and within the two float32 sums' errors plus one float16 rounding."""
    device = "cpu"
    rng = np.random.default_rng(11)
    x, y = f16_data((300, 500), rng, 4.0), f16_data((500, 200), rng, 4.0)
    got = (ca.asarray(x, device=device) @ ca.asarray(y, device=device)).get()
    check_close_to_numpys(np.asarray(got), x, y, "300x500 @ 500x200")
    assert (np.asarray(got) != np.matmul(x, y)).mean() < 0.01  # 0.2% here


def test_half_matmul_special_values(device):
    rng = np.random.default_rng(5)
    x, y = f16_data((16, 24), rng, 100.0), f16_data((24, 12), rng, 100.0)
    x[0, 3] = np.inf
    x[1, 0] = np.nan
    y[5, 2] = -np.inf
    x[2, :] = 0
    y[:, 7] = 0
    x[3, :] = 60000  # float32 sums past float16's range round to inf, as NumPy's
    y[:, 8] = -np.float16(0.0)
    x[4, :] = np.float16(6e-8)  # subnormal float16 inputs
    y[:, 9] = np.float16(3e-5)
    got = np.asarray((ca.asarray(x, device=device) @ ca.asarray(y, device=device)).get())
    want = np.matmul(x, y)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(got[np.isinf(want)], want[np.isinf(want)])
    if device == "cpu":
        check_close_to_numpys(got, x, y, "special values")
        # zero sums (an all-zero row, -0.0 columns) have NumPy's sign
        z = want == 0
        assert z[2, 0] and z[2, 8] and z[4, 8]
        np.testing.assert_array_equal(np.signbit(got[z]), np.signbit(want[z]))


def test_half_matmul_views_and_out(device):
    rng = np.random.default_rng(8)
    m = f16_data((48, 48), rng)
    c = ca.asarray(m, device=device)
    for x, y, cx, cy in ((m, m, c, c), (m, m.T, c, c.T), (m[::2], m[:, :24], c[::2], c[:, :24]),
                         (m[:, 1:], m[1:], c[:, 1:], c[1:])):
        got = np.asarray((cx @ cy).get())
        if device == "cpu":
            check_close_to_numpys(got, x, y, "views")
        else:
            np.testing.assert_allclose(got.astype(np.float32), (x @ y).astype(np.float32),
                                       rtol=1e-2, atol=1e-2)
    o = ca.empty((48, 48), dtype=np.float16, device=device)
    assert ca.matmul(c, c[::-1].copy(), out=o) is o
    o2 = ca.asarray(m.copy(), device=device)
    ca.matmul(o2, c, out=o2)  # out overlaps an operand
    o3 = ca.empty((48, 48), dtype=np.float32, device=device)
    ca.matmul(c, c, out=o3)  # out of another dtype
    if device == "cpu":
        check_close_to_numpys(np.asarray(o.get()), m, m[::-1], "out=")
        check_close_to_numpys(np.asarray(o2.get()), m, m, "out overlaps")
        np.testing.assert_allclose(np.asarray(o3.get()), (m @ m).astype(np.float32),
                                   rtol=2e-3, atol=1e-2)
    # mixed dtypes promote as NumPy's (float16 @ int8 -> float16)
    i8 = rng.integers(-5, 5, size=(48, 7), dtype=np.int8)
    got = (c @ ca.asarray(i8, device=device)).get()
    assert got.dtype == (m @ i8).dtype
