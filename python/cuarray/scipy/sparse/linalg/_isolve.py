"""Krylov solvers: cg, cgs, bicgstab, gmres, minres with SciPy 1.17's signatures,
tolerances (``norm(b - A x) <= max(rtol * norm(b), atol)``) and info codes
(0 converged, maxiter not converged, -10 rho breakdown, -11 omega/dot breakdown).

Each is a composition of the operator's products and dense cuarray operations, so it
runs on any device; the vectors stay on the device and the scalars of a step are
0-d device arrays, so an iteration reads the host only for its convergence test:
one read per iteration for cg, cgs and gmres (several values read together where a
test needs more than one), two for bicgstab (its half-step test) and minres (its
recurrences run on the host, as SciPy's). On the cpu device, with ``CPU_SCIPY``
(the default), the call goes to SciPy's own solver on zero-copy views, which is
SciPy's speed by construction; tests turn the flag off to run the compositions
there too.
"""

import math
import warnings

import numpy as _np

import cuarray as _ca

from ._interface import (IdentityOperator, LinearOperator, _as_vector, _back,
                         _coef, _host, _on_cpu, _wrap_callback, aslinearoperator)

__all__ = ["cg", "cgs", "bicgstab", "gmres", "minres"]

CPU_SCIPY = True

_COERCE = {"f": 0, "d": 1, "F": 2, "D": 3}


def _coerce(a, b):
    # SciPy's rule: non-float types count as 'd'; single/double, real/complex join.
    a, b = (c if c in _COERCE else "d" for c in (a, b))
    double = "d" in (a, b) or "D" in (a, b)
    cplx = a in "FD" or b in "FD"
    return _np.dtype({(0, 0): "f", (1, 0): "d", (0, 1): "F", (1, 1): "D"}
                     [(int(double), int(cplx))])


def _make_system(A, M, x0, b):
    """SciPy's make_system: the operator, preconditioner, initial x and b, with
    SciPy's shape checks and dtype (A's and b's coerced to f/d/F/D)."""
    A_ = A
    A = aslinearoperator(A)
    if A.shape[0] != A.shape[1]:
        raise ValueError(f"expected square matrix, but got shape={(A.shape,)}")
    n = A.shape[0]
    b = _as_vector(b)
    if not (b.shape == (n, 1) or b.shape == (n,)):
        raise ValueError(f"shapes of A {A.shape} and b {b.shape} are incompatible")
    if b.dtype.char not in "fdFD":
        b = b.astype("d")
    xtype = A.dtype.char if A.dtype is not None else A.matvec(b).dtype.char
    dtype = _coerce(xtype, b.dtype.char)
    b = b.astype(dtype, copy=False).ravel()
    if M is None:
        ps, rps = getattr(A_, "psolve", None), getattr(A_, "rpsolve", None)
        if ps is None and rps is None:
            M = IdentityOperator(A.shape, dtype=A.dtype)
        else:
            ident = (lambda v: v)
            M = LinearOperator(A.shape, matvec=ps or ident, rmatvec=rps or ident,
                               dtype=A.dtype)
    else:
        M = aslinearoperator(M)
        if A.shape != M.shape:
            raise ValueError("matrix and preconditioner have different shapes")
    if x0 is None:
        x = _ca.zeros(n, dtype=dtype, device=b.device)
    elif isinstance(x0, str):
        if x0 != "Mb":
            raise ValueError(f"x0 must be an array, None or 'Mb', not {x0!r}")
        x = M.matvec(b.copy()).astype(dtype, copy=False)
    else:
        x = _as_vector(x0).astype(dtype)     # a copy: the solver updates x
        if not (x.shape == (n, 1) or x.shape == (n,)):
            raise ValueError(f"shapes of A {A.shape} and x0 {x.shape} are "
                             "incompatible")
        x = x.ravel()
    return A, M, x, b


def _atol(name, bnrm2, atol, rtol):
    if atol == "legacy" or atol is None or atol < 0:
        raise ValueError(f"'scipy.sparse.linalg.{name}' called with invalid "
                         f"`atol`={atol}; if set, `atol` must be a real, "
                         "non-negative number.")
    return max(float(atol), float(rtol) * float(bnrm2))


def _read(*scalars):
    """Python values of 0-d device arrays, in one transfer."""
    if len(scalars) == 1:
        return (scalars[0].item(),)
    return tuple(_ca.stack([_ca.asarray(s).astype(_np.complex128)
                            for s in scalars]).get().tolist())


def _nrm(v):
    return _ca.linalg.norm(v)


def _scipy_route(name, A, b, x0, M, callback, **kw):
    """The cpu device's hand-off: SciPy's solver on views; None where it is not
    taken (a flag off, a GPU array, or inputs SciPy would see differently)."""
    if not (CPU_SCIPY and _on_cpu(b, x0)):
        return None
    import scipy.sparse.linalg as ssl
    if not isinstance(b, _ca.ndarray) or (x0 is not None and not isinstance(
            x0, (str, _ca.ndarray))):
        return None
    op = aslinearoperator(A)
    Ms = M if M is None else _host(aslinearoperator(M))
    x, info = getattr(ssl, name)(_host(op), _host(b), x0=_host(x0), M=Ms,
                                 callback=_wrap_callback(callback), **kw)
    return _back(x), int(info)


def _begin(name, A, b, x0, M, callback, rtol, atol, maxiter, **kw):
    """A solver's start: (SciPy's result on the cpu route, or (b, 0) for b = 0;
    None) or (None; the system: A, M, x, b, r = b - A x, norm(b), the absolute
    tolerance, maxiter)."""
    got = _scipy_route(name, A, b, x0, M, callback, rtol=rtol, atol=atol,
                       maxiter=maxiter, **kw)
    if got is not None:
        return got, None
    A, M, x, b = _make_system(A, M, x0, b)
    bnrm2 = _nrm(b).item()
    atol = _atol(name, bnrm2, atol, rtol)
    if bnrm2 == 0:
        return (b, 0), None
    maxiter = 10 * b.shape[0] if maxiter is None else maxiter
    r = b - A.matvec(x) if x0 is not None else b.copy()
    return None, (A, M, x, b, r, bnrm2, atol, maxiter)


def _begin_shadowed(name, *args):
    """_begin for the methods with a shadow residual (cgs, bicgstab): the system
    A, M, x, b, r, rtilde = r, the breakdown tolerance eps**2, atol, maxiter."""
    done, system = _begin(name, *args)
    if done:
        return done, None
    A, M, x, b, r, _, atol, maxiter = system
    return None, (A, M, x, b, r, r.copy(), _np.finfo(x.dtype).eps ** 2, atol, maxiter)


def cg(A, b, x0=None, *, rtol=1e-5, atol=0., maxiter=None, M=None, callback=None):
    """cg(A, b, x0=None, *, rtol=1e-05, atol=0.0, maxiter=None, M=None,
    callback=None)

    Conjugate gradients for a Hermitian positive definite A: ``(x, info)``, info 0
    when ``norm(b - A x) <= max(rtol * norm(b), atol)``, else the iteration count.
    ``callback(xk)`` after each iteration. One host read per iteration.
    """
    done, system = _begin("cg", A, b, x0, M, callback, rtol, atol, maxiter)
    if done:
        return done
    A, M, x, b, r, bnrm2, atol, maxiter = system
    plain = isinstance(M, IdentityOperator)
    rho_prev = p = None
    for it in range(maxiter):
        z = r if plain else M.matvec(r)
        rho = _ca.vdot(r, z)
        # Without a preconditioner rho is norm(r)**2: the test needs no norm.
        rn2 = rho.real.item() if plain else _nrm(r).item() ** 2
        if rn2 < atol * atol:
            return x, 0
        p = z.copy() if it == 0 else z + (rho / rho_prev) * p
        q = A.matvec(p)
        alpha = rho / _ca.vdot(p, q)
        x += alpha * p
        r -= alpha * q
        rho_prev = rho
        if callback:
            callback(x)
    return x, maxiter


def cgs(A, b, x0=None, *, rtol=1e-5, atol=0., maxiter=None, M=None, callback=None):
    """cgs(A, b, x0=None, *, rtol=1e-05, atol=0.0, maxiter=None, M=None,
    callback=None)

    Conjugate gradient squared: ``(x, info)``; info -10 on a rho breakdown, -11 on
    a zero dot product. One host read per iteration (the last step's dot product
    is tested with the next residual).
    """
    done, system = _begin_shadowed("cgs", A, b, x0, M, callback, rtol, atol, maxiter)
    if done:
        return done
    A, M, x, b, r, rtilde, rhotol, atol, maxiter = system
    rho_prev = p = u = q = rv = x_prev = None
    for it in range(maxiter):
        rho = _ca.vdot(rtilde, r)
        vals = _read(_nrm(r), rho, *(() if rv is None else (rv,)))
        if len(vals) == 3 and vals[2] == 0:
            return x_prev, -11          # last step divided by zero: undo it
        if len(vals) == 3 and callback:
            callback(x)
        if vals[0].real < atol:
            return x, 0
        if abs(vals[1]) < rhotol:
            return x, -10
        if it > 0:
            beta = rho / rho_prev
            u = r + beta * q
            p = u + beta * (q + beta * p)
        else:
            p, u = r.copy(), r.copy()
        vhat = A.matvec(M.matvec(p))
        rv = _ca.vdot(rtilde, vhat)
        alpha = rho / rv
        q = u - alpha * vhat
        x_prev = x
        x = x + alpha * M.matvec(u + q)
        r = b - A.matvec(x)
        rho_prev = rho
    if rv is not None and _read(rv)[0] == 0:
        return x_prev, -11
    if callback:
        callback(x)
    return x, maxiter


def bicgstab(A, b, x0=None, *, rtol=1e-5, atol=0., maxiter=None, M=None,
             callback=None):
    """bicgstab(A, b, x0=None, *, rtol=1e-05, atol=0.0, maxiter=None, M=None,
    callback=None)

    BiCGSTAB: ``(x, info)``; info -10 on a rho breakdown, -11 on an omega or dot
    product breakdown. Two host reads per iteration (the residual and the
    half-step's).
    """
    done, system = _begin_shadowed("bicgstab", A, b, x0, M, callback, rtol, atol,
                                   maxiter)
    if done:
        return done
    A, M, x, b, r, rtilde, tol, atol, maxiter = system
    rho_prev = omega = alpha = p = v = None
    for it in range(maxiter):
        rho = _ca.vdot(rtilde, r)
        vals = _read(_nrm(r), rho, *(() if it == 0 else (omega,)))
        if vals[0].real < atol:
            return x, 0
        if abs(vals[1]) < tol:
            return x, -10
        if it > 0:
            if abs(vals[2]) < tol:
                return x, -11
            p = r + (rho / rho_prev) * (alpha / omega) * (p - omega * v)
        else:
            p = r.copy()
        phat = M.matvec(p)
        v = A.matvec(phat)
        rv = _ca.vdot(rtilde, v)
        alpha = rho / rv
        s = r - alpha * v
        rvv, sn = _read(rv, _nrm(s))
        if rvv == 0:
            return x, -11
        if sn.real < atol:
            return x + alpha * phat, 0
        shat = M.matvec(s)
        t = A.matvec(shat)
        omega = _ca.vdot(t, s) / _ca.vdot(t, t)
        x = x + alpha * phat + omega * shat
        r = s - omega * t
        rho_prev = rho
        if callback:
            callback(x)
    return x, maxiter


def _givens(a, b):
    """c (real), s, r with [[c, s], [-conj(s), c]] @ [a, b] = [r, 0]."""
    if b == 0:
        return 1.0, 0.0 * a, a
    if a == 0:
        return 0.0, _np.conj(b) / abs(b), abs(b)
    t = _np.hypot(abs(a), abs(b))
    ph = a / abs(a)
    return abs(a) / t, ph * _np.conj(b) / t, ph * t


def _gmres_cycle(A, M, r, restart, dtype, eps, ptol, on_inner):
    """One restart cycle of left-preconditioned GMRES (Arnoldi by classical
    Gram-Schmidt with one re-orthogonalization, Givens rotations on the host):
    the correction to x, the preconditioned residual estimate, breakdown, the
    inner steps taken. One host read per inner step (the new Hessenberg column)."""
    n = r.shape[0]
    V = _ca.empty((restart + 1, n), dtype=dtype, device=r.device)
    z = M.matvec(r)
    beta = _nrm(z).item()
    V[0] = z / beta
    H = _np.zeros((restart + 1, restart), dtype=dtype)
    rot = []
    g = _np.zeros(restart + 1, dtype=dtype)
    g[0] = beta
    presid, breakdown, col = abs(beta), False, 0
    for col in range(restart):
        w = M.matvec(A.matvec(V[col]))
        h0 = _nrm(w)
        basis = V[:col + 1]
        h = _coef(basis, w)
        w = w - h @ basis
        h2 = _coef(basis, w)           # the second pass keeps V orthonormal
        w = w - h2 @ basis
        h1 = _nrm(w)
        vals = _ca.concatenate([(h + h2).astype(_np.complex128),
                                _ca.stack([h0, h1]).astype(_np.complex128)]).get()
        hcol, hn0, hn1 = vals[:col + 1], vals[-2].real, vals[-1].real
        H[:col + 1, col] = hcol if H.dtype.kind == "c" else hcol.real
        if hn1 <= eps * hn0:
            breakdown, hn1 = True, 0.0
        else:
            V[col + 1] = w / hn1
        H[col + 1, col] = hn1
        for k, (c, s) in enumerate(rot):
            a0, a1 = H[k, col], H[k + 1, col]
            H[k, col], H[k + 1, col] = c * a0 + s * a1, -_np.conj(s) * a0 + c * a1
        c, s, mag = _givens(H[col, col], H[col + 1, col])
        rot.append((c, s))
        H[col, col], H[col + 1, col] = mag, 0
        g[col], g[col + 1] = c * g[col], -_np.conj(s) * g[col]
        presid = abs(g[col + 1])
        if on_inner(presid) or presid <= ptol or breakdown:
            break
    k = col + 1
    y = _np.zeros(k, dtype=dtype)
    for i in range(k - 1, -1, -1):           # back substitution, zero pivots skipped
        rhs = g[i] - H[i, i + 1:k] @ y[i + 1:]
        y[i] = rhs / H[i, i] if H[i, i] != 0 else 0
    dx = _ca.asarray(y, device=r.device) @ V[:k]
    return dx, presid, breakdown


def gmres(A, b, x0=None, *, rtol=1e-5, atol=0., restart=None, maxiter=None, M=None,
          callback=None, callback_type=None):
    """gmres(A, b, x0=None, *, rtol=1e-05, atol=0.0, restart=None, maxiter=None,
    M=None, callback=None, callback_type=None)

    Restarted GMRES (left preconditioning, as SciPy's): ``(x, info)``. ``maxiter``
    counts restart cycles, except with ``callback_type='legacy'`` (the default)
    where it counts inner iterations; ``callback`` gets ``x`` per cycle
    ('x') or the preconditioned residual norm / norm(b) per inner step
    ('pr_norm', 'legacy').
    """
    if callback is not None and callback_type is None:
        warnings.warn("scipy.sparse.linalg.gmres called without specifying "
                      "`callback_type`. The default value will be changed in a "
                      "future release. For compatibility, specify a value for "
                      "`callback_type` explicitly, e.g., ``gmres(..., "
                      "callback_type='pr_norm')``, or to retain the old behavior "
                      "``gmres(..., callback_type='legacy')``",
                      DeprecationWarning, stacklevel=2)
    callback_type = callback_type or "legacy"
    if callback_type not in ("x", "pr_norm", "legacy"):
        raise ValueError(f"Unknown callback_type: {callback_type!r}")
    if callback is None:
        callback_type = None
    done, system = _begin("gmres", A, b, x0, M, callback, rtol, atol, maxiter,
                          restart=restart, callback_type=callback_type)
    if done:
        return done
    A, M, x, b, r, bnrm2, atol, maxiter = system
    eps = _np.finfo(x.dtype).eps
    restart = min(20 if restart is None else restart, b.shape[0])
    if _nrm(r).item() < atol:
        return x, 0
    ptol = _nrm(M.matvec(b)).item() * min(1.0, atol / bnrm2)
    factor, inner, rnorm = 1.0, [0], None

    def on_inner(presid):
        inner[0] += 1
        if callback_type in ("legacy", "pr_norm"):
            callback(presid / bnrm2)
        return callback_type == "legacy" and inner[0] == maxiter

    for _ in range(maxiter):
        dx, presid, breakdown = _gmres_cycle(A, M, r, restart, x.dtype, eps, ptol,
                                             on_inner)
        x = x + dx
        r = b - A.matvec(x)
        rnorm = _nrm(r).item()
        if callback_type == "legacy" and inner[0] == maxiter:
            return x, 0 if rnorm <= atol else maxiter
        if callback_type == "x":
            callback(x)
        if rnorm <= atol or breakdown:
            break
        factor = (max(eps, 0.25 * factor) if presid <= ptol
                  else min(1.0, 1.5 * factor))
        ptol = presid * min(factor, atol / rnorm)
    return x, 0 if rnorm <= atol else maxiter


def _minres_check(A, M, r1, y, eps):
    """minres(check=True): SciPy's symmetry tests of A and M."""
    for u, v, what in ((A.matvec(y), None, "matrix"), (None, M.matvec(y),
                                                      "preconditioner")):
        if u is not None:
            s, t = _read(_ca.vdot(u, u), _ca.vdot(y, A.matvec(u)))
        else:
            s, t = _read(_ca.vdot(y, y), _ca.vdot(r1, v))
        if abs(s - t) > (s.real + eps) * eps ** (1.0 / 3.0):
            raise ValueError(f"non-symmetric {what}")


def _minres_prep(A, b, x0, M, shift, maxiter):
    A, M, x, b = _make_system(A, M, x0, b)
    maxiter = 5 * A.shape[0] if maxiter is None else maxiter
    r1 = b.copy() if x0 is None else b - A.matvec(x)
    y = M.matvec(r1)
    return A, M, x, b, r1, y, maxiter


def minres(A, b, x0=None, *, rtol=1e-5, shift=0.0, maxiter=None, M=None,
           callback=None, show=False, check=False):
    """minres(A, b, x0=None, *, rtol=1e-05, shift=0.0, maxiter=None, M=None,
    callback=None, show=False, check=False)

    MINRES for a Hermitian (possibly indefinite) ``A - shift*I``: ``(x, info)``,
    info maxiter when the iteration limit stopped it, else 0. SciPy's stopping
    tests; the Lanczos vectors stay on the device, the recurrences are host
    scalars (two host reads per iteration). ``show`` prints nothing here.
    """
    if CPU_SCIPY and _on_cpu(b, x0) and not isinstance(x0, str):
        import scipy.sparse.linalg as ssl
        x, info = ssl.minres(_host(aslinearoperator(A)), _host(b), x0=_host(x0),
                             rtol=rtol, shift=shift, maxiter=maxiter,
                             M=None if M is None else _host(aslinearoperator(M)),
                             callback=_wrap_callback(callback), show=show,
                             check=check)
        return _back(x), int(info)
    A, M, x, b, r1, y, maxiter = _minres_prep(A, b, x0, M, shift, maxiter)
    # Python floats throughout the host recurrences: a NumPy float64 scalar would
    # promote a float32 solve to float64 (SciPy 1.18 keeps float32, as here)
    eps = float(_np.finfo(x.dtype).eps)
    beta1 = _read(_ca.vdot(r1, y))[0].real
    if beta1 < 0:
        raise ValueError("indefinite preconditioner")
    if beta1 == 0 or _nrm(b).item() == 0:
        return (x, 0) if beta1 == 0 else (b, 0)
    beta1 = beta1 ** 0.5
    if check:
        _minres_check(A, M, r1, y, eps)
    st = dict(oldb=0.0, beta=beta1, dbar=0.0, epsln=0.0, phibar=beta1, tnorm2=0.0,
              gmax=0.0, gmin=float(_np.finfo(x.dtype).max), cs=-1.0, sn=0.0)
    w = _ca.zeros_like(x)
    w2 = _ca.zeros_like(x)
    r2 = r1
    istop, itn = 0, 0
    while itn < maxiter:
        itn += 1
        v = y / st["beta"]
        y = A.matvec(v)
        if shift:
            y = y - shift * v
        if itn >= 2:
            y = y - (st["beta"] / st["oldb"]) * r1
        alfa_d = _ca.vdot(v, y)
        y = y - (alfa_d / st["beta"]) * r2
        r1, r2 = r2, y
        y = M.matvec(r2)
        alfa, beta2 = (z.real for z in _read(alfa_d, _ca.vdot(r2, y)))
        if beta2 < 0:
            raise ValueError("non-symmetric matrix")
        st["oldb"], st["beta"] = st["beta"], beta2 ** 0.5
        if itn == 1 and st["beta"] / beta1 <= 10 * eps:
            istop = -1                     # b is an eigenvector: stop below
        phi, delta, oldeps, gamma, root = _minres_rotate(st, alfa, eps)
        w1, w2 = w2, w
        w = (v - oldeps * w1 - delta * w2) / gamma
        x = x + phi * w
        if istop == 0:
            istop = _minres_stop(st, itn, maxiter, root, _nrm(x).item(), beta1,
                                 rtol, eps)
        if callback is not None:
            callback(x)
        if istop != 0:
            break
    return x, maxiter if istop == 6 else 0


def _minres_rotate(st, alfa, eps):
    """One step of MINRES's QR recurrences on the host (Paige and Saunders)."""
    st["tnorm2"] += alfa ** 2 + st["oldb"] ** 2 + st["beta"] ** 2
    oldeps = st["epsln"]
    cs, sn, beta = st["cs"], st["sn"], st["beta"]
    delta = cs * st["dbar"] + sn * alfa
    gbar = sn * st["dbar"] - cs * alfa
    st["epsln"], st["dbar"] = sn * beta, -cs * beta
    root = math.hypot(gbar, st["dbar"])
    gamma = max(math.hypot(gbar, beta), eps)
    st["cs"], st["sn"] = gbar / gamma, beta / gamma
    phi = st["cs"] * st["phibar"]
    st["phibar"] = st["sn"] * st["phibar"]
    st["gmax"], st["gmin"] = max(st["gmax"], gamma), min(st["gmin"], gamma)
    return phi, delta, oldeps, gamma, root


def _minres_stop(st, itn, maxiter, root, ynorm, beta1, rtol, eps):
    """SciPy's stopping tests (istop 1-6; 0 goes on), in its order of precedence."""
    anorm = st["tnorm2"] ** 0.5
    rnorm = st["phibar"]
    test1 = _np.inf if ynorm == 0 or anorm == 0 else rnorm / (anorm * ynorm)
    test2 = _np.inf if anorm == 0 else root / anorm
    acond = st["gmax"] / st["gmin"]
    istop = 0
    for cond, code in ((1 + test2 <= 1, 2), (1 + test1 <= 1, 1),
                       (itn >= maxiter, 6), (acond >= 0.1 / eps, 4),
                       (anorm * ynorm * eps >= beta1, 3), (test2 <= rtol, 2),
                       (test1 <= rtol, 1)):
        if cond:
            istop = code
    return istop
