"""The benchmark harness: named cases timed for cuarray, NumPy, CuPy and PyTorch in one run.

A benchmark module (benchmarks/bench_<area>.py) defines ``CASES``, a list of ``Case``.
Each case maps a library name to a *setup* function: ``setup(mod)`` receives the imported
library module, builds its inputs, and returns a zero-argument callable that does one
unit of work (one call). Libraries that are not importable, or whose setup raises
``Skip``, are left out of that row.

Modes:
  "wall"    per-call wall time in microseconds with the GPU queue kept full: call the
            function n times back to back, synchronize once, divide (the overhead a
            Python user sees for small operations).
  "gpu"     device time per call from CUDA events around a batch of calls (after a
            warm-up), for throughput: ``work`` (bytes or flops per call) / time.
  "process" a fresh interpreter per repeat: the callable returns a shell-free Python
            source string; the harness runs it with ``sys.executable -c`` and reads the
            seconds it prints on its last line.

Every figure is a median over repeats. ``target`` is the project's goal for cuarray (a
string such as "<= 5" or ">= 4100"); ``floor`` documents the hardware/plain-CUDA figure.
"""

from __future__ import annotations

import importlib
import math
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

LIBS = ("cuarray", "numpy", "cupy", "torch")


def _cpu_mode():
    """CUARRAY_BENCH_DEVICE=cpu: cuarray's cpu device beside NumPy (CuPy and PyTorch
    left out); =cuda: the GPU cases; unset: cpu when no GPU is present."""
    want = os.environ.get("CUARRAY_BENCH_DEVICE", "").strip().lower()
    if want == "cpu":
        os.environ["CUARRAY_DEVICE"] = "cpu"  # before cuarray is imported
        return True
    if want in ("cuda", "gpu"):
        return False
    try:
        import cuarray
        return not cuarray.cuda.is_available()
    except Exception:
        return True


# In cpu mode every case NumPy can run runs for NumPy too, at sizes a 2-core host
# times in seconds (size()); the ratio column is cuarray against NumPy.
CPU_MODE = _cpu_mode()


def size(gpu, cpu):
    """A case's problem size: `gpu` on a GPU, `cpu` in cpu mode."""
    return cpu if CPU_MODE else gpu


def gpu_only(mod):
    """Skip NumPy on a GPU run (its figure would be host time); in cpu mode NumPy runs."""
    if mod.__name__ == "numpy" and not CPU_MODE:
        raise Skip("GPU case")


def to_lib(mod, x):
    """A NumPy array as `mod`'s array on its default device (a copy for GPU libraries)."""
    name = mod.__name__
    if name == "numpy":
        return x
    if name == "torch":
        return mod.as_tensor(x, device="cuda")
    return mod.asarray(x)


class Skip(Exception):
    """Raised by a setup function when the library cannot run this case."""


@dataclass
class Case:
    name: str
    setup: dict  # lib name -> setup(mod) -> callable
    mode: str = "wall"
    unit: str = "us"  # "us", "s", "GB/s", "TFLOP/s", "Gsamples/s", "Gkeys/s", ...
    work: Optional[float] = None  # bytes / flops / samples per call for throughput units
    target: Optional[str] = None
    floor: Optional[str] = None
    repeats: int = 7
    group: str = ""
    results: dict = field(default_factory=dict)


# ---------------------------------------------------------------- libraries
def load_libs(wanted=LIBS):
    mods = {}
    for name in wanted:
        if CPU_MODE and name in ("cupy", "torch"):
            continue
        try:
            mod = importlib.import_module(name)
        except Exception:
            continue
        if name == "torch" and not mod.cuda.is_available():
            continue
        if name == "cupy":
            try:
                if mod.cuda.runtime.getDeviceCount() < 1:
                    continue
            except Exception:
                continue
        mods[name] = mod
    return mods


def synchronizer(name, mod):
    if name == "cuarray":
        return lambda: mod.cuda.Device().synchronize() if mod.cuda.is_available() else None
    if name == "cupy":
        return lambda: mod.cuda.Device().synchronize()
    if name == "torch":
        return mod.cuda.synchronize
    return lambda: None


class _Timer:
    """CUDA events from whichever GPU library is present (all use the legacy default
    stream in these benchmarks), else wall clock around a synchronize."""

    def __init__(self, mods):
        # event(): a new timing event; elapsed_ms(a, b): milliseconds between two
        self.event = self.elapsed_ms = None
        if "cupy" in mods:
            cp = mods["cupy"]
            self.event = cp.cuda.Event
            self.elapsed_ms = cp.cuda.get_elapsed_time
        elif "torch" in mods:
            torch = mods["torch"]
            self.event = lambda: torch.cuda.Event(enable_timing=True)
            self.elapsed_ms = lambda a, b: a.elapsed_time(b)

    def time_batch(self, fn, n, sync):
        if self.event is not None:
            a, b = self.event(), self.event()
            a.record()
            for _ in range(n):
                fn()
            b.record()
            b.synchronize()
            sync()
            return self.elapsed_ms(a, b) / 1e3 / n
        sync()
        t = time.perf_counter()
        for _ in range(n):
            fn()
        sync()
        return (time.perf_counter() - t) / n


# ---------------------------------------------------------------- running
def _calibrate(fn, sync, budget=0.05):
    """How many calls fill about `budget` seconds."""
    n = 1
    while True:
        t = time.perf_counter()
        for _ in range(n):
            fn()
        sync()
        dt = time.perf_counter() - t
        if dt > budget or n >= 1 << 20:
            return max(1, int(n * budget / max(dt, 1e-9)))
        n *= 4


def run_case(case: Case, mods, timer: _Timer, log=print):
    for name in LIBS:
        if name not in case.setup or name not in mods:
            continue
        mod = mods[name]
        try:
            fn = case.setup[name](mod)
        except Skip as e:
            log(f"  {name:8s} skipped: {e}")
            continue
        except Exception as e:  # a library without the feature: report, go on
            log(f"  {name:8s} failed in setup: {type(e).__name__}: {e}")
            continue
        sync = synchronizer(name, mod)
        try:
            if case.mode == "process":
                samples = [_run_process(fn()) for _ in range(case.repeats)]
                value = statistics.median(samples)
            else:
                fn()  # warm-up (first-call costs are measured by "process" cases)
                sync()
                n = _calibrate(fn, sync)
                samples = []
                for _ in range(case.repeats):
                    if case.mode == "gpu":
                        samples.append(timer.time_batch(fn, n, sync))
                    else:
                        sync()
                        t = time.perf_counter()
                        for _ in range(n):
                            fn()
                        sync()
                        samples.append((time.perf_counter() - t) / n)
                sec = statistics.median(samples)
                value = _to_unit(case, sec)
        except Exception as e:
            log(f"  {name:8s} failed: {type(e).__name__}: {e}")
            continue
        finally:
            fn = None
        case.results[name] = value
        log(f"  {name:8s} {value:12.4g} {case.unit}")


def _to_unit(case, sec):
    if case.unit == "us":
        return sec * 1e6
    if case.unit == "s":
        return sec
    if case.unit == "GB/s":
        return case.work / sec / 1e9
    if case.unit == "TFLOP/s":
        return case.work / sec / 1e12
    if case.unit in ("Gsamples/s", "Gkeys/s", "Gitems/s", "Gqueries/s", "Gupdates/s"):
        return case.work / sec / 1e9
    raise ValueError(case.unit)


def _run_process(src):
    env = dict(os.environ)
    r = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True, env=env,
                       timeout=300)
    if r.returncode != 0:
        raise RuntimeError(r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "failed")
    return float(r.stdout.strip().splitlines()[-1])


def higher_is_better(unit):
    return unit not in ("us", "s")


def meets(target, value, vs_best=None):
    """Whether `value` meets `target`: an absolute bound ("<= 5", ">= 4100") or, as
    shared/TARGETS.md checks every target, a ratio to the best of CuPy and PyTorch
    in the same run (">= best", ">= 1.01x best"; `vs_best` is that ratio, higher
    better). Other relative targets ("<= x.sum() + 0.3") are read off the columns."""
    if target is None or value is None or not math.isfinite(value):
        return None
    t = target.replace(" ", "")
    if t.startswith(">=") and t.endswith("best"):
        factor = t[2:-len("best")].rstrip("x") or "1"
        return None if vs_best is None else vs_best >= float(factor)
    try:
        bound = float(t[2:])
    except ValueError:
        return None  # a relative target ("<= x.sum() + 0.3"): read the columns
    if t.startswith("<="):
        return value <= bound
    if t.startswith(">="):
        return value >= bound
    return None
