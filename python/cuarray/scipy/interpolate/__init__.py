"""cuarray.scipy.interpolate: SciPy's scipy.interpolate on cuarray arrays (issue 41).

One file per group: _ppoly (PPoly, BPoly, NdPPoly), _cubic (CubicHermiteSpline,
CubicSpline, PchipInterpolator, Akima1DInterpolator), _bsplines (BSpline,
make_interp_spline, make_lsq_spline, splder, splantider), _ndbspline (NdBSpline),
_fitpack2 (UnivariateSpline and its two subclasses), _polyint (Krogh and
barycentric), _interp1d, _rgi (RegularGridInterpolator, interpn), _rbf
(RBFInterpolator), _ndgriddata (the scattered-data interpolators). Evaluation runs
on the data's device as searchsorted + gathers + element-wise passes; on the cpu
device SciPy's own routines run on zero-copy views (_common.CPU_SCIPY)."""

from ._ppoly import BPoly, NdPPoly, PPoly
from ._cubic import (Akima1DInterpolator, CubicHermiteSpline, CubicSpline,
                     PchipInterpolator, pchip_interpolate)

from ._bsplines import BSpline, make_interp_spline, make_lsq_spline, splantider, splder

pchip = PchipInterpolator

__all__ = ["Akima1DInterpolator", "BPoly", "CubicHermiteSpline", "CubicSpline",
           "NdPPoly", "PPoly", "PchipInterpolator", "pchip", "pchip_interpolate",
           "BSpline", "make_interp_spline", "make_lsq_spline", "splantider", "splder"]
from ._interp1d import interp1d

__all__ += ["interp1d"]
from ._ndbspline import NdBSpline
from ._rgi import RegularGridInterpolator, interpn

__all__ += ["NdBSpline", "RegularGridInterpolator", "interpn"]
from ._polyint import (BarycentricInterpolator, KroghInterpolator,
                       barycentric_interpolate, krogh_interpolate)

__all__ += ["BarycentricInterpolator", "KroghInterpolator", "barycentric_interpolate",
            "krogh_interpolate"]
from ._fitpack2 import (InterpolatedUnivariateSpline, LSQUnivariateSpline,
                        UnivariateSpline)

__all__ += ["InterpolatedUnivariateSpline", "LSQUnivariateSpline", "UnivariateSpline"]
from ._rbf import RBFInterpolator

__all__ += ["RBFInterpolator"]
from ._ndgriddata import (CloughTocher2DInterpolator, LinearNDInterpolator,
                          NearestNDInterpolator)

__all__ += ["CloughTocher2DInterpolator", "LinearNDInterpolator", "NearestNDInterpolator"]
