"""Devices: count, default device, CUARRAY_DEVICE, the cpu device."""

import os
import subprocess
import sys

import pytest

import cuarray
from cuarray import _core, cuda
from conftest import HAVE_GPU, errors_in_new_thread

# Subprocesses import the same cuarray as this process (an in-place build under
# python/ or an installed package).
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(
    [os.path.dirname(os.path.dirname(os.path.abspath(cuarray.__file__)))]
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


# ---- the Device type --------------------------------------------------------

def test_cpu_device():
    d = cuarray.Device("cpu")
    assert d is cuda.Device("cpu")
    assert d.id == -1 and d.type == "cpu" and str(d) == "cpu"
    assert d.name == "cpu" and d.compute_capability is None
    free, total = d.mem_info
    assert 0 <= free <= total
    assert d == "cpu" and d != "cuda:0" and not (d != "cpu")
    assert hash(d) == hash("cpu")
    assert {d: 1}["cpu"] == 1
    d.synchronize()
    assert "CPU" in repr(d)


def test_device_pickle():
    import pickle
    d = cuarray.Device("cpu")
    assert pickle.loads(pickle.dumps(d)) is d


@pytest.mark.parametrize("bad", ["tpu", "cuda:x", "cuda:-1", "", "cuda:99999"])
def test_bad_device_names(bad):
    with pytest.raises((ValueError, cuda.CUDAError)):
        cuarray.Device(bad)


def test_bad_device_types():
    with pytest.raises(TypeError):
        cuarray.Device(1.5)
    with pytest.raises(TypeError):
        cuarray.Device(True)
    with pytest.raises(ValueError):
        cuarray.Device(-1)


@pytest.mark.skipif(HAVE_GPU, reason="checks the no-GPU path")
@pytest.mark.parametrize("spec", [0, "cuda", "cuda:0", 3])
def test_gpu_request_without_gpu_says_use_cpu(spec):
    with pytest.raises(cuda.CUDAError) as ei:
        cuda.Device(spec)
    msg = str(ei.value)
    assert "cpu" in msg and "CUARRAY_DEVICE" in msg
    assert ei.value.status in (35, 100)


@pytest.mark.skipif(not HAVE_GPU, reason="no CUDA GPU on this machine")
def test_gpu_device_properties():
    d = cuda.Device(0)
    assert d is cuarray.Device("cuda:0") and d.id == 0 and d.type == "cuda"
    assert str(d) == "cuda:0" and repr(d) == "<CUDA Device 0>"
    assert d == "cuda:0" and d == "cuda" or cuda.get_device_id() != 0
    assert isinstance(d.name, str) and d.name
    cc = d.compute_capability
    assert isinstance(cc, str) and cc.isdigit() and int(cc) >= 50
    free, total = d.mem_info
    assert 0 < free <= total
    d.synchronize()
    with pytest.raises(cuda.CUDAError) as ei:
        cuda.Device(cuda.device_count())
    assert ei.value.name == "cudaErrorInvalidDevice" and "cpu" in str(ei.value)


def test_with_device_nests_and_restores(device):
    before = cuda.get_device_id()
    cpu = cuarray.Device("cpu")
    dev = cuarray.Device(device)
    with cpu as c:
        assert c is cpu and cuda.get_device_id() == -1
        with dev:
            assert cuda.get_device_id() == dev.id
            assert cuarray.Device() is dev
            with cpu:
                assert cuda.get_device_id() == -1
            assert cuda.get_device_id() == dev.id
        assert cuda.get_device_id() == -1
    assert cuda.get_device_id() == before


def test_with_device_restores_on_exception():
    before = cuda.get_device_id()
    with pytest.raises(KeyError):
        with cuarray.Device("cpu"):
            raise KeyError
    assert cuda.get_device_id() == before


def test_unbalanced_exit():
    errs = errors_in_new_thread(lambda: cuarray.Device("cpu").__exit__(None, None, None))
    assert len(errs) == 1


def test_current_device_is_thread_local():
    import threading
    before = cuda.get_device_id()
    seen = []
    with cuarray.Device("cpu"):
        t = threading.Thread(target=lambda: seen.append(cuda.get_device_id()))
        t.start()
        t.join()
    assert seen == [before]


def test_versions():
    rv = cuda.runtime_version()
    dv = cuda.driver_version()
    assert isinstance(rv, int) and isinstance(dv, int)
    info = _core.build_info()
    assert info["version"] == cuarray.__version__
    assert info["cuda"] == bool(_core.built_with_cuda)
    if info["cuda"]:
        assert rv >= 11000 and info["cuda_version"] and "sm_" in info["cuda_archs"]
    else:
        assert rv == 0 and info["cuda_version"] is None
    if HAVE_GPU:
        assert dv >= 11000


def test_show_config(capsys):
    cuarray.show_config()
    out = capsys.readouterr().out
    assert cuarray.__version__ in out
    assert "default device:" in out and "NumPy" in out
    assert f"CUDA devices: {cuda.device_count()}" in out
    for i in range(cuda.device_count()):
        assert f"cuda:{i}:" in out and cuda.Device(i).name in out


def test_python_m_cuarray():
    r = subprocess.run([sys.executable, "-m", "cuarray"], capture_output=True, text=True,
                       env=ENV)
    assert r.returncode == 0, r.stderr
    assert "default device" in r.stdout and "example" in r.stdout


def test_python_m_cuarray_cpu():
    r = run_py("import runpy; runpy.run_module('cuarray', run_name='__main__')",
               CUARRAY_DEVICE="cpu")
    assert "default device: cpu (from CUARRAY_DEVICE=cpu)" in r.stdout, r.stderr


def test_runtime_namespace():
    rt = cuda.runtime
    assert rt.getDeviceCount() == cuda.device_count()
    assert rt.runtimeGetVersion() == cuda.runtime_version()
    assert rt.driverGetVersion() == cuda.driver_version()
    assert rt.CUDARuntimeError is cuda.CUDAError
    before = cuda.get_device_id()
    with cuarray.Device("cpu"):
        assert rt.getDevice() == -1
        rt.deviceSynchronize()
        rt.setDevice("cpu")
        assert rt.getDevice() == -1
    assert rt.getDevice() == before
