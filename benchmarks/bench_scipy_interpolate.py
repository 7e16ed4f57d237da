"""scipy.interpolate: CubicSpline evaluation, cuarray.scipy.interpolate beside
cupyx.scipy.interpolate on a GPU and beside scipy.interpolate on the cpu device
(the "numpy" column is SciPy's). PyTorch has no spline interpolator: no column.

Points per second (Gsamples/s) of one evaluation of a not-a-knot cubic spline on
4096 breakpoints at 2^24 float64 points (uniform over the data range, 5% beyond
it on each side, so extrapolation is timed too); the fit is outside the timing.
cuarray's evaluation is one searchsorted, four gathers and the Horner passes.
Sizes shrink in cpu mode so a 2-core host runs them in seconds.
"""

import numpy as np

from harness import Case, size, to_lib

POINTS = size(1 << 24, 1 << 20)
KNOTS = 4096


def _host():
    rng = np.random.default_rng(0)
    x = np.sort(rng.random(KNOTS)) * 10
    y = np.sin(x) + rng.random(KNOTS) * 0.1
    xp = rng.uniform(x[0] - 0.5, x[-1] + 0.5, POINTS)
    return x, y, xp


def _eval_setup(mod):
    x, y, xp = (to_lib(mod, v) for v in _host())
    name = mod.__name__
    if name == "numpy":
        import scipy.interpolate as si
        spl = si.CubicSpline(x, y)
    elif name == "cupy":
        import cupyx.scipy.interpolate as cpi
        spl = cpi.CubicSpline(x, y)
    else:
        from cuarray.scipy import interpolate
        spl = interpolate.CubicSpline(x, y)
    return lambda: spl(xp)


CASES = [
    Case(f"CubicSpline eval {POINTS} points ({KNOTS} knots) float64",
         {lib: _eval_setup for lib in ("cuarray", "numpy", "cupy")},
         mode="gpu", unit="Gsamples/s", work=POINTS, target=">= best", repeats=5),
]
