"""Run cuarray's benchmarks beside NumPy, CuPy and PyTorch and write a table, JSON and a plot.

    python benchmarks/run.py                 # every bench_*.py module
    python benchmarks/run.py copy pool       # only bench_copy.py and bench_pool.py
    python benchmarks/run.py fft             # only bench_fft.py (cuarray.fft, cuFFT)
    python benchmarks/run.py sparse          # only bench_sparse.py (scipy.sparse, cuSPARSE)
    python benchmarks/run.py sparse_linalg   # only bench_sparse_linalg.py (cg on 2-D Poisson)
    python benchmarks/run.py scipy_fft       # only bench_scipy_fft.py (dct/dctn, cuFFT)
    python benchmarks/run.py profiler        # only bench_profiler.py (benchmark()'s overhead)
    python benchmarks/run.py graph           # only bench_graph.py (CUDA graph replay vs eager)
    python benchmarks/run.py scipy_linalg    # only bench_scipy_linalg.py (lu_factor, expm, ...)
    python benchmarks/run.py scipy_signal    # only bench_scipy_signal.py (fftconvolve, convolve2d)
    python benchmarks/run.py scipy_interpolate  # only bench_scipy_interpolate.py (CubicSpline)
    python benchmarks/run.py scipy_ndimage   # only bench_scipy_ndimage.py (gaussian, zoom, label)
    python benchmarks/run.py scipy_special   # only bench_scipy_special.py (erf, gammaln, j0)
    python benchmarks/run.py -k "a + b|copy"  # only cases whose name contains one of the texts
    python benchmarks/run.py --out DIR       # where results.json / results.md / results.png go

The table gives each library's median, cuarray's target, whether it is met, and
cuarray's ratio to the best of CuPy and PyTorch (>1 means cuarray is better).
"""

import argparse
import importlib.util
import json
import platform
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import harness  # noqa: E402


def load_modules(names):
    mods = []
    for path in sorted(HERE.glob("bench_*.py")):
        area = path.stem[len("bench_"):]
        if names and area not in names:
            continue
        spec = importlib.util.spec_from_file_location(path.stem, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        mods.append((area, mod))
    return mods


def ratio(case):
    """cuarray against the best of CuPy and PyTorch; in cpu mode against NumPy."""
    cu = case.results.get("cuarray")
    others = [case.results[k] for k in (("numpy",) if harness.CPU_MODE else ("cupy", "torch"))
              if k in case.results]
    if cu is None or not others or cu == 0:
        return None
    if harness.higher_is_better(case.unit):
        return cu / max(others)
    return min(others) / cu


def fmt(v):
    if v is None:
        return "—"
    if v >= 100:
        return f"{v:.0f}"
    if v >= 10:
        return f"{v:.1f}"
    return f"{v:.3g}"


def markdown(cases, meta):
    lines = [f"# cuarray benchmarks ({meta['gpu']}, {meta['date']})", "",
             "| case | unit | cuarray | NumPy | CuPy | PyTorch | target | met | "
             + ("cuarray cpu vs NumPy |" if harness.CPU_MODE else "vs best of CuPy/PyTorch |"),
             "|---|---|---|---|---|---|---|---|---|"]
    for c in cases:
        r = c.results
        # the targets are GPU figures: no verdict on a cpu-mode run
        rt = ratio(c)
        met = None if harness.CPU_MODE else harness.meets(c.target, r.get("cuarray"), rt)
        lines.append(
            f"| {c.name} | {c.unit} | {fmt(r.get('cuarray'))} | {fmt(r.get('numpy'))} | "
            f"{fmt(r.get('cupy'))} | {fmt(r.get('torch'))} | {c.target or ''} | "
            f"{'' if met is None else ('yes' if met else 'NO')} | "
            f"{'' if rt is None else f'{rt:.2f}x'} |")
    return "\n".join(lines) + "\n"


def plot(cases, path):
    """Draw the ratio column into path; returns None, or why there is no plot."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib is not installed (pip install .[bench] adds it)"
    rows = [(c.name, ratio(c)) for c in cases if ratio(c) is not None]
    if not rows:
        return "no case has a ratio to plot"
    fig, ax = plt.subplots(figsize=(9, 0.3 * len(rows) + 1.5))
    names = [r[0] for r in rows]
    vals = [r[1] for r in rows]
    ax.barh(names, vals, color=["tab:green" if v >= 1 else "tab:red" for v in vals])
    ax.axvline(1.0, color="k", lw=1)
    ax.set_xscale("log")
    ax.set_xlabel("cuarray vs NumPy (>1: cuarray better)" if harness.CPU_MODE
                  else "cuarray vs best of CuPy/PyTorch (>1: cuarray better)")
    ax.invert_yaxis()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("areas", nargs="*")
    ap.add_argument("-k", default=None)
    ap.add_argument("--out", default="bench_out")
    ap.add_argument("--libs", default=",".join(harness.LIBS))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    libs = harness.load_libs(args.libs.split(","))
    gpu = "cpu device (CUARRAY_BENCH_DEVICE=cpu or no GPU)" if harness.CPU_MODE else "no GPU"
    if "torch" in libs:
        gpu = libs["torch"].cuda.get_device_name(0)
    meta = {"date": time.strftime("%Y-%m-%d %H:%M"), "gpu": gpu, "python": platform.python_version(),
            "libs": {k: getattr(v, "__version__", "?") for k, v in libs.items()}}
    print(f"libraries: {meta['libs']}; GPU: {gpu}")
    timer = harness._Timer(libs)
    todo = [(area, case) for area, mod in load_modules(args.areas)
            for case in getattr(mod, "CASES", [])
            if not args.k or any(k in case.name for k in args.k.split("|"))]
    cases, t0 = [], time.time()
    for i, (area, case) in enumerate(todo, 1):
        case.group = area
        print(f"[{i}/{len(todo)} {time.time() - t0:.0f} s] [{area}] {case.name} "
              f"({case.unit})", flush=True)
        harness.run_case(case, libs, timer)
        cases.append(case)
        write(out, cases, meta)  # after every case: a run cut short keeps its results
    md = write(out, cases, meta)
    print()
    print(md)
    print(f"{len(cases)} cases in {time.time() - t0:.0f} s; results.md and results.json in {out}")
    why_not = plot(cases, out / "results.png")
    print(f"plot: {out / 'results.png'}" if why_not is None else f"no plot: {why_not}")


def write(out, cases, meta):
    md = markdown(cases, meta)
    (out / "results.md").write_text(md)
    (out / "results.json").write_text(json.dumps(
        {"meta": meta, "cases": [{"name": c.name, "group": c.group, "unit": c.unit,
                                   "target": c.target, "floor": c.floor, "results": c.results,
                                   "ratio_vs_best_other": ratio(c)} for c in cases]},
        indent=1))
    return md


if __name__ == "__main__":
    main()
