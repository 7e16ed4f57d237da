"""Least squares by Golub-Kahan bidiagonalization: lsqr and lsmr (Paige and
Saunders; Fong and Saunders), with SciPy 1.17's signatures, stopping tests and
result tuples.

The bidiagonalization's vectors stay on the device; the scalar recurrences run on
the host. A step computes u and v speculatively from the previous scale factors
and reads beta, alpha (and lsqr's norm of w) in one transfer; lsmr reads
norm(x) as a second value per step, as its stopping test needs it. On the cpu
device (CPU_SCIPY) the call goes to SciPy's routine on zero-copy views.
"""

import math

import numpy as _np

import cuarray as _ca

from ._interface import _as_vector, _back, _host, _on_cpu, aslinearoperator

__all__ = ["lsqr", "lsmr"]

CPU_SCIPY = True
_EPS = _np.finfo(_np.float64).eps


def _sym_ortho(a, b):
    """Stable Givens rotation of (a, b): c, s, r with c*a + s*b = r."""
    if b == 0:
        return math.copysign(1.0, a), 0.0, abs(a)
    if a == 0:
        return 0.0, math.copysign(1.0, b), abs(b)
    if abs(b) > abs(a):
        tau = a / b
        s = math.copysign(1.0, b) / math.sqrt(1 + tau * tau)
        return s * tau, s, b / s
    tau = b / a
    c = math.copysign(1.0, a) / math.sqrt(1 + tau * tau)
    return c, c * tau, a / c


def _setup(A, b, x0, x0_dtype=False):
    """The operator, b as 1-D, x, u = b - A x, and the first scale factors
    beta = |u|, alpha = |A^H u|, u and v normalized. x is float64 or wider from
    zeros; from x0 it is x0's dtype joined with A's and b's (SciPy's lsqr adds
    to x0), or x0's own with x0_dtype (SciPy's lsmr adds into its copy of x0)."""
    A = aslinearoperator(A)
    b = _as_vector(b)
    if b.ndim == 0:
        b = b.reshape(1)
    if b.ndim > 1:
        b = b.squeeze()
    m, n = A.shape
    dtype = _np.result_type(_np.float64, A.dtype, b.dtype)
    if x0 is None:
        x, u = _ca.zeros(n, dtype=dtype, device=b.device), b
    else:
        x0 = _as_vector(x0)
        x = x0.astype(x0.dtype if x0_dtype else _np.result_type(x0.dtype, A.dtype,
                                                                 b.dtype))
        u = b - A.matvec(x)
    bnorm, beta = _ca.linalg.norm(b).item(), _ca.linalg.norm(u).item()
    if beta > 0:
        u = u / beta
        v = A.rmatvec(u)
        alpha = _ca.linalg.norm(v).item()
    else:
        v, alpha = _ca.zeros(n, dtype=dtype, device=b.device), 0.0
    if alpha > 0:
        v = v / alpha
    return A, b, x, u, v, bnorm, beta, alpha


def _bidiag_step(A, u, v, alpha, extra=()):
    """One step: u <- A v - alpha u, beta = |u|, u /= beta, v <- A^H u - beta v,
    alpha = |v|, v /= alpha; the norms (and extras) read in one transfer. A zero
    beta leaves v and alpha as they were (SciPy's rule)."""
    un = A.matvec(v) - alpha * u
    beta_d = _ca.linalg.norm(un)
    vn = A.rmatvec(un) / beta_d - beta_d * v
    vals = _ca.stack([beta_d, _ca.linalg.norm(vn), *extra]).get().tolist()
    beta, alpha_new = vals[0], vals[1]
    if beta == 0:
        return un, v, 0.0, alpha, vals[2:]
    u = un / beta
    if alpha_new > 0:
        vn = vn / alpha_new
    return u, vn, beta, alpha_new, vals[2:]


def _istop(itn, limit, test1, test2, test3, t1, rtol, atol, ctol):
    """LSQR's and LSMR's shared stopping code (the later tests take precedence)."""
    istop = 0
    for cond, code in ((itn >= limit, 7), (1 + test3 <= 1, 6), (1 + test2 <= 1, 5),
                       (1 + t1 <= 1, 4), (test3 <= ctol, 3), (test2 <= atol, 2),
                       (test1 <= rtol, 1)):
        if cond:
            istop = code
    return istop


def lsqr(A, b, damp=0.0, atol=1e-6, btol=1e-6, conlim=1e8, iter_lim=None,
         show=False, calc_var=False, x0=None):
    """lsqr(A, b, damp=0.0, atol=1e-06, btol=1e-06, conlim=100000000.0,
    iter_lim=None, show=False, calc_var=False, x0=None)

    Least squares ``min |A x - b|^2 + damp^2 |x - x0|^2``:
    ``(x, istop, itn, r1norm, r2norm, anorm, acond, arnorm, xnorm, var)`` as SciPy's
    (x and var device arrays, the rest Python numbers). ``show`` prints nothing.
    """
    if CPU_SCIPY and _on_cpu(b, x0):
        import scipy.sparse.linalg as ssl
        return _back(ssl.lsqr(_host(aslinearoperator(A)), _host(b), damp, atol, btol,
                              conlim, iter_lim, show, calc_var, _host(x0)))
    A, b, x, u, v, bnorm, beta, alfa = _setup(A, b, x0)
    n = A.shape[1]
    iter_lim = 2 * n if iter_lim is None else iter_lim
    var = _ca.zeros(n, dtype=_np.float64, device=b.device)
    ctol = 1 / conlim if conlim > 0 else 0
    s = dict(anorm=0.0, acond=0.0, ddnorm=0.0, res2=0.0, xnorm=0.0, xxnorm=0.0,
             z=0.0, cs2=-1.0, sn2=0.0, rhobar=alfa, phibar=beta)
    w = v.copy()
    itn = istop = 0
    r1norm = r2norm = beta
    arnorm = alfa * beta
    if arnorm == 0:
        return x, istop, itn, r1norm, r2norm, 0.0, 0.0, arnorm, 0.0, var
    while itn < iter_lim:
        itn += 1
        u, v, beta, alfa_new, (wn2,) = _bidiag_step(A, u, v, alfa,
                                                    (_ca.vdot(w, w).real,))
        if beta > 0:
            s["anorm"] = math.sqrt(s["anorm"] ** 2 + alfa ** 2 + beta ** 2
                                   + damp ** 2)
        alfa = alfa_new
        rho, phi, psi, theta, tau = _lsqr_rotate(s, beta, alfa, damp)
        dk = w / rho
        x = (x + (phi / rho) * w).astype(x.dtype, copy=False)
        w = v - (theta / rho) * w
        s["ddnorm"] += wn2 / rho ** 2
        if calc_var:
            var = var + (dk * dk.conj()).real
        rnorm, arnorm = _lsqr_norms(s, rho, phi, psi, theta, tau, alfa, damp)
        r1sq = rnorm ** 2 - damp ** 2 * s["xxnorm"]
        r1norm = math.copysign(math.sqrt(abs(r1sq)), r1sq) if r1sq else 0.0
        r2norm = rnorm
        an, xn = s["anorm"], s["xnorm"]
        test1, test2 = rnorm / bnorm, arnorm / (an * rnorm + _EPS)
        test3 = 1 / (s["acond"] + _EPS)
        istop = _istop(itn, iter_lim, test1, test2, test3,
                       test1 / (1 + an * xn / bnorm), btol + atol * an * xn / bnorm,
                       atol, ctol)
        if istop != 0:
            break
    return (x, istop, itn, r1norm, r2norm, s["anorm"], s["acond"], arnorm,
            s["xnorm"], var)


def _lsqr_rotate(s, beta, alfa, damp):
    """LSQR's plane rotations: eliminate damp, then the subdiagonal beta."""
    if damp > 0:
        rhobar1 = math.hypot(s["rhobar"], damp)
        cs1, sn1 = s["rhobar"] / rhobar1, damp / rhobar1
        psi = sn1 * s["phibar"]
        s["phibar"] *= cs1
    else:
        rhobar1, psi = s["rhobar"], 0.0
    cs, sn, rho = _sym_ortho(rhobar1, beta)
    theta = sn * alfa
    s["rhobar"] = -cs * alfa
    phi = cs * s["phibar"]
    s["phibar"] *= sn
    return rho, phi, psi, theta, sn * phi


def _lsqr_norms(s, rho, phi, psi, theta, tau, alfa, damp):
    """LSQR's estimates of |x| (by the rotated system), cond(A), |r| and |A^H r|."""
    delta, gambar = s["sn2"] * rho, -s["cs2"] * rho
    rhs = phi - delta * s["z"]
    s["xnorm"] = math.sqrt(s["xxnorm"] + (rhs / gambar) ** 2)
    gamma = math.hypot(gambar, theta)
    s["cs2"], s["sn2"] = gambar / gamma, theta / gamma
    s["z"] = rhs / gamma
    s["xxnorm"] += s["z"] ** 2
    s["acond"] = s["anorm"] * math.sqrt(s["ddnorm"])
    s["res2"] += psi ** 2
    rnorm = math.sqrt(s["phibar"] ** 2 + s["res2"])
    return rnorm, alfa * abs(tau)


def lsmr(A, b, damp=0.0, atol=1e-6, btol=1e-6, conlim=1e8, maxiter=None,
         show=False, x0=None):
    """lsmr(A, b, damp=0.0, atol=1e-06, btol=1e-06, conlim=100000000.0,
    maxiter=None, show=False, x0=None)

    LSMR for ``min |A x - b|^2 + damp^2 |x|^2``:
    ``(x, istop, itn, normr, normar, norma, conda, normx)`` as SciPy's.
    ``show`` prints nothing.
    """
    if CPU_SCIPY and _on_cpu(b, x0):
        import scipy.sparse.linalg as ssl
        return _back(ssl.lsmr(_host(aslinearoperator(A)), _host(b), damp, atol, btol,
                              conlim, maxiter, show, _host(x0)))
    A, b, x, u, v, normb, beta, alpha = _setup(A, b, x0, x0_dtype=True)
    maxiter = min(A.shape) if maxiter is None else maxiter
    s = dict(zetabar=alpha * beta, alphabar=alpha, rho=1.0, rhobar=1.0, cbar=1.0,
             sbar=0.0, betadd=beta, betad=0.0, rhodold=1.0, tautildeold=0.0,
             thetatilde=0.0, zeta=0.0, d=0.0, normA2=alpha * alpha, maxrbar=0.0,
             minrbar=1e100)
    h, hbar = v.copy(), _ca.zeros_like(x)
    ctol = 1 / conlim if conlim > 0 else 0
    itn = istop = 0
    normr, normar, normA, condA, normx = beta, alpha * beta, abs(alpha), 1.0, 0.0
    if normar == 0 or normb == 0:
        return (x if normar == 0 else x * 0, istop, itn, normr, normar, normA,
                condA, normx)
    while itn < maxiter:
        itn += 1
        u, v, beta, alpha, _ = _bidiag_step(A, u, v, alpha)
        hfac, xfac, hnew, normr, rhotemp, rhobarold = _lsmr_rotate(s, alpha, beta,
                                                                   damp, itn)
        hbar = h + hfac * hbar
        x = (x + xfac * hbar).astype(x.dtype, copy=False)
        h = v + hnew * h
        normA = math.sqrt(s["normA2"])
        s["normA2"] += alpha * alpha
        s["maxrbar"] = max(s["maxrbar"], rhobarold)
        if itn > 1:
            s["minrbar"] = min(s["minrbar"], rhobarold)
        condA = max(s["maxrbar"], rhotemp) / min(s["minrbar"], rhotemp)
        normar = abs(s["zetabar"])
        normx = _ca.linalg.norm(x).item()
        test1 = normr / normb
        test2 = normar / (normA * normr) if normA * normr != 0 else math.inf
        istop = _istop(itn, maxiter, test1, test2, 1 / condA,
                       test1 / (1 + normA * normx / normb),
                       btol + atol * normA * normx / normb, atol, ctol)
        if istop > 0:
            break
    return x, istop, itn, normr, normar, normA, condA, normx


def _lsmr_rotate(s, alpha, beta, damp, itn):
    """LSMR's rotations for one step; the factors of the h, hbar and x updates
    and the residual norm estimate."""
    chat, shat, alphahat = _sym_ortho(s["alphabar"], damp)
    rhoold = s["rho"]
    c, sn, s["rho"] = _sym_ortho(alphahat, beta)
    rho = s["rho"]
    thetanew = sn * alpha
    s["alphabar"] = c * alpha
    rhobarold, zetaold = s["rhobar"], s["zeta"]
    thetabar = s["sbar"] * rho
    rhotemp = s["cbar"] * rho
    s["cbar"], s["sbar"], s["rhobar"] = _sym_ortho(s["cbar"] * rho, thetanew)
    s["zeta"] = s["cbar"] * s["zetabar"]
    s["zetabar"] = -s["sbar"] * s["zetabar"]
    hfac = -(thetabar * rho / (rhoold * rhobarold))
    xfac = s["zeta"] / (rho * s["rhobar"])
    # |r| estimate: rotate betadd, then the tilde rotations
    betaacute = chat * s["betadd"]
    betacheck = -shat * s["betadd"]
    betahat = c * betaacute
    s["betadd"] = -sn * betaacute
    thetatildeold = s["thetatilde"]
    ct, st, rhotildeold = _sym_ortho(s["rhodold"], thetabar)
    s["thetatilde"] = st * s["rhobar"]
    s["rhodold"] = ct * s["rhobar"]
    s["betad"] = -st * s["betad"] + ct * betahat
    s["tautildeold"] = (zetaold - thetatildeold * s["tautildeold"]) / rhotildeold
    taud = (s["zeta"] - s["thetatilde"] * s["tautildeold"]) / s["rhodold"]
    s["d"] += betacheck * betacheck
    normr = math.sqrt(s["d"] + (s["betad"] - taud) ** 2 + s["betadd"] ** 2)
    s["normA2"] += beta * beta
    return hfac, xfac, -(thetanew / rho), normr, rhotemp, rhobarold
