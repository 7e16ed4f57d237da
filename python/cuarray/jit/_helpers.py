"""The C++ helpers generated kernels call, each included only when used:
Python's floor division and modulo (C's truncate toward zero), integer
powers, NumPy's NaN-propagating minimum/maximum, the lane id and the dynamic
shared-memory buffer."""

_FLOORDIV = r"""
// Python's (and NumPy's) a // b: the quotient rounded toward minus infinity;
// 0 for an integer division by zero, as NumPy gives
template <typename T> __device__ __forceinline__ T _jit_floordiv(T a, T b) {
    if (b == 0) return 0;
    T q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0))) q -= 1;
    return q;
}
template <typename T> __device__ __forceinline__ T _jit_floordiv_u(T a, T b) {
    return b == 0 ? (T)0 : (T)(a / b);
}
template <typename T> __device__ __forceinline__ T _jit_floordiv_f(T a, T b) {
    if (b == 0) return a / b;
    T m = fmod(a, b);
    T d = (a - m) / b;
    if (m != 0 && ((b < 0) != (m < 0))) d -= 1;
    if (d == 0) return copysign((T)0, a / b);
    T f = floor(d);
    return (d - f > (T)0.5) ? f + 1 : f;
}
template <> __device__ __forceinline__ float _jit_floordiv<float>(float a, float b) {
    return _jit_floordiv_f<float>(a, b);
}
template <> __device__ __forceinline__ double _jit_floordiv<double>(double a, double b) {
    return _jit_floordiv_f<double>(a, b);
}
"""

_MOD = r"""
// Python's (and NumPy's) a % b: the sign of the divisor; 0 for an integer
// modulo by zero, as NumPy gives
template <typename T> __device__ __forceinline__ T _jit_mod(T a, T b) {
    if (b == 0) return 0;
    T r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}
template <typename T> __device__ __forceinline__ T _jit_mod_u(T a, T b) {
    return b == 0 ? (T)0 : (T)(a % b);
}
template <typename T> __device__ __forceinline__ T _jit_mod_f(T a, T b) {
    T m = fmod(a, b);
    if (b == 0) return m;
    if (m != 0) {
        if ((b < 0) != (m < 0)) m += b;
    } else {
        m = copysign((T)0, b);
    }
    return m;
}
template <> __device__ __forceinline__ float _jit_mod<float>(float a, float b) {
    return _jit_mod_f<float>(a, b);
}
template <> __device__ __forceinline__ double _jit_mod<double>(double a, double b) {
    return _jit_mod_f<double>(a, b);
}
"""

_IPOW = r"""
// an integer to an integer power by squaring; a negative power gives what
// the exact result truncates to (0 unless the base is 1 or -1)
template <typename T> __device__ __forceinline__ T _jit_ipow(T a, T b) {
    if (b < 0) return a == 1 ? (T)1 : (a == (T)-1 ? ((b & 1) ? (T)-1 : (T)1) : (T)0);
    T r = 1;
    while (b) {
        if (b & 1) r *= a;
        a *= a;
        b >>= 1;
    }
    return r;
}
"""

_MINMAX = r"""
// NumPy's minimum and maximum: a NaN operand gives NaN
template <typename T> __device__ __forceinline__ T _jit_min(T a, T b) {
    return (a != a || a < b) ? a : b;
}
template <typename T> __device__ __forceinline__ T _jit_max(T a, T b) {
    return (a != a || a > b) ? a : b;
}
"""

_LANEID = r"""
__device__ __forceinline__ unsigned int _jit_laneid() {
    unsigned int r;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
    return r;
}
"""

_DYNAMIC_SHARED = r"""
// the launch's dynamic shared memory (shared_mem= bytes), which every
// shared_memory(dtype, None) of the kernel views
extern __shared__ __align__(16) unsigned char _jit_dyn_smem[];
"""

_HELPERS = {"floordiv": _FLOORDIV, "mod": _MOD, "ipow": _IPOW, "minmax": _MINMAX,
            "laneid": _LANEID, "dynamic_shared": _DYNAMIC_SHARED}


def helpers(needs):
    """The helpers' C++ for the set of names `needs`, in a fixed order."""
    return "".join(_HELPERS[k] for k in _HELPERS if k in needs)
