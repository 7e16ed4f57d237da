"""Issue 13's "done when": every public callable that NumPy and CuPy share at top
level exists in cuarray, except the names below that other issues own.

The shared list is frozen here (CuPy is not imported in CI): NumPy 2.4's public
callables (`dir(numpy)`, modules left out) minus those CuPy 14.2 does not export.
The names taken out, from CuPy's API reference (its NumPy comparison table) and
its __init__: the matrix class and its helpers, datetime/timedelta and business
days, string/object/void/record types and extended precision, NumPy's
floating-point error state, frompyfunc/fromregex, the nditer family, memmap,
NumPy's build and test helpers, and the few routines CuPy has not implemented
(block, histogram_bin_edges, polyder/polydiv/polyint, row_stack, matvec, vecmat).
"""

import numpy as np

import cuarray as ca

SHARED = """
    abs absolute acos acosh add all allclose amax amin angle any append
    apply_along_axis apply_over_axes arange arccos arccosh arcsin arcsinh arctan
    arctan2 arctanh argmax argmin argpartition argsort argwhere around array
    array2string array_equal array_equiv array_repr array_split array_str asanyarray
    asarray asarray_chkfinite ascontiguousarray asfortranarray asin asinh astype
    atan atan2 atanh atleast_1d atleast_2d atleast_3d average bartlett base_repr
    binary_repr bincount bitwise_and bitwise_count bitwise_invert bitwise_left_shift
    bitwise_not bitwise_or bitwise_right_shift bitwise_xor blackman bool bool_
    broadcast broadcast_arrays broadcast_shapes broadcast_to byte can_cast cbrt
    cdouble ceil choose clip column_stack common_type complex128 complex64
    complexfloating compress concat concatenate conj conjugate convolve copy
    copysign copyto corrcoef correlate cos cosh count_nonzero cov cross csingle
    cumprod cumsum cumulative_prod cumulative_sum deg2rad degrees delete diag
    diag_indices diag_indices_from diagflat diagonal diff digitize divide divmod dot
    double dsplit dstack dtype ediff1d einsum einsum_path empty empty_like equal exp
    exp2 expand_dims expm1 extract eye fabs fill_diagonal finfo fix flatiter
    flatnonzero flip fliplr flipud float16 float32 float64 float_power floating
    floor floor_divide fmax fmin fmod format_float_positional
    format_float_scientific frexp from_dlpack frombuffer fromfile fromfunction
    fromiter fromstring full full_like gcd generic genfromtxt geomspace
    get_printoptions gradient greater greater_equal half hamming hanning heaviside
    histogram histogram2d histogramdd hsplit hstack hypot i0 identity iinfo imag
    indices inexact inner insert int16 int32 int64 int8 int_ intc integer interp
    intersect1d intp invert isclose iscomplex iscomplexobj isdtype isfinite
    isfortran isin isinf isnan isneginf isposinf isreal isrealobj isscalar
    issubdtype iterable ix_ kaiser kron lcm ldexp left_shift less less_equal lexsort
    linspace load loadtxt log log10 log1p log2 logaddexp logaddexp2 logical_and
    logical_not logical_or logical_xor logspace long longlong mask_indices matmul
    matrix_transpose max maximum may_share_memory mean median meshgrid min
    min_scalar_type minimum mintypecode mod modf moveaxis multiply nan_to_num
    nanargmax nanargmin nancumprod nancumsum nanmax nanmean nanmedian nanmin
    nanpercentile nanprod nanquantile nanstd nansum nanvar ndarray ndim ndindex
    negative nextafter nonzero not_equal number ones ones_like outer packbits pad
    partition percentile permute_dims piecewise place poly poly1d polyadd polyfit
    polymul polysub polyval positive pow power printoptions prod promote_types ptp
    put put_along_axis putmask quantile rad2deg radians ravel ravel_multi_index real
    real_if_close reciprocal remainder repeat require reshape resize result_type
    right_shift rint roll rollaxis roots rot90 round save savetxt savez
    savez_compressed searchsorted select set_printoptions setdiff1d setxor1d shape
    shares_memory short show_config sign signbit signedinteger sin sinc single sinh
    size sort sort_complex spacing split sqrt square squeeze stack std subtract sum
    swapaxes take take_along_axis tan tanh tensordot tile trace transpose trapezoid
    tri tril tril_indices tril_indices_from trim_zeros triu triu_indices
    triu_indices_from true_divide trunc typename ubyte ufunc uint uint16 uint32
    uint64 uint8 uintc uintp ulong ulonglong union1d unique unique_all unique_counts
    unique_inverse unique_values unpackbits unravel_index unsignedinteger unstack
    unwrap ushort vander var vdot vecdot vectorize vsplit vstack where zeros
    zeros_like
""".split()

# Out of the list (in NumPy 2.4, not in CuPy 14.2's top level).
NOT_IN_CUPY = """
    asmatrix block bmat busday_count busday_offset busdaycalendar bytes_ character
    clongdouble complex256 datetime64 datetime_as_string datetime_data errstate
    flexible float128 frompyfunc fromregex get_include getbufsize geterr geterrcall
    histogram_bin_edges info is_busday isnat longdouble matrix matvec memmap
    ndenumerate nditer nested_iters object_ polyder polydiv polyint recarray record
    row_stack setbufsize seterr seterrcall show_runtime str_ test timedelta64 vecmat
    void
""".split()

# Shared names other issues bring (they are in flight beside this one): each line
# says which. The test fails for a shared name that is neither here nor in cuarray.
OWNED_ELSEWHERE = {
    # issue 16: ufunc objects and the Array API's names and aliases
    *"""ufunc acos acosh asin asinh atan atan2 atanh pow bitwise_invert bitwise_not
        bitwise_left_shift bitwise_right_shift cumulative_sum cumulative_prod
        unstack""".split(),
    # issue 10: linear algebra at top level
    *"""einsum einsum_path kron trace cross vecdot matrix_transpose""".split(),
}


def test_frozen_list_is_numpys():
    assert len(SHARED) == len(set(SHARED))
    assert not set(SHARED) & set(NOT_IN_CUPY)
    # every frozen name is a NumPy callable of this NumPy (2.x)
    missing = [n for n in SHARED if not callable(getattr(np, n, None))]
    assert not missing, missing


def test_owned_elsewhere_are_shared_names():
    assert OWNED_ELSEWHERE <= set(SHARED), OWNED_ELSEWHERE - set(SHARED)


def test_every_shared_name_exists():
    missing = [n for n in SHARED if not hasattr(ca, n) and n not in OWNED_ELSEWHERE]
    assert not missing, f"shared NumPy/CuPy names cuarray lacks: {missing}"
    not_callable = [n for n in SHARED if hasattr(ca, n) and not callable(getattr(ca, n))]
    assert not not_callable, not_callable


def test_count():
    """The count the issue's note reports (153 of 405 when it was filed)."""
    have = [n for n in SHARED if hasattr(ca, n)]
    assert len(have) >= len(SHARED) - len(OWNED_ELSEWHERE)
