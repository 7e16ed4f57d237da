"""Devices: count, default device, CUARRAY_DEVICE, the cpu device."""

import os
import subprocess
import sys

import pytest

import cuarray
from cuarray import _core, cuda
from conftest import HAVE_GPU

ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(
    [os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python")]
    + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))


def run_py(code, **env):
    e = dict(ENV)
    e.update(env)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=e)
    return r


def test_count_and_available_agree():
    n = cuda.device_count()
    assert isinstance(n, int) and n >= 0
    assert cuda.is_available() == (n > 0)
    assert _core.device_count() == n
    assert cuda.device_count() == n  # cached, stable


def test_default_device():
    d = cuda.get_device_id()
    assert d == (0 if HAVE_GPU else -1) or os.environ.get("CUARRAY_DEVICE")


def test_import_does_not_initialize_cuda():
    r = run_py("import cuarray; from cuarray import _core; print(_core._cuda_initialized())")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False"


def test_import_time_reported():
    r = run_py("import time; t = time.perf_counter(); import numpy; "
               "t1 = time.perf_counter(); import cuarray; t2 = time.perf_counter(); "
               "print(f'{t1 - t:.4f} {t2 - t1:.4f}')")
    assert r.returncode == 0, r.stderr
    np_t, ca_t = map(float, r.stdout.split())
    print(f"\nimport numpy: {np_t:.3f} s, import cuarray after it: {ca_t:.3f} s")


def test_env_cpu_honoured():
    r = run_py("import cuarray; from cuarray import cuda, _core; "
               "print(cuda.get_device_id(), _core._cuda_initialized())",
               CUARRAY_DEVICE="cpu")
    assert r.returncode == 0, r.stderr
    # the cpu device never needs CUDA
    assert r.stdout.split() == ["-1", "False"]


def test_env_bad_value():
    r = run_py("import cuarray", CUARRAY_DEVICE="tpu")
    assert r.returncode != 0
    assert "CUARRAY_DEVICE" in r.stderr


@pytest.mark.skipif(HAVE_GPU, reason="checks the no-GPU path")
def test_env_cuda_without_gpu():
    r = run_py("import cuarray; from cuarray import cuda; print(cuda.get_device_id())",
               CUARRAY_DEVICE="cuda:0")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "0"
