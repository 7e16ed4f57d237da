"""cupy.cuda's pure-Python names: get_cuda_path, get_nvcc_path, get_rocm_path,
get_hipcc_path, get_local_runtime_version, profile.

CuPy's documented behaviour: get_cuda_path() is $CUDA_PATH when it exists, else the
directory above nvcc's bin on PATH, else /usr/local/cuda, else None; get_nvcc_path()
is $NVCC as given, else nvcc under get_cuda_path(); both are cached. cuarray has no
ROCm build, so the ROCm pair answers None (as CuPy's CUDA builds do without ROCm).
"""

import os
import stat

import pytest

import cuarray
from cuarray import cuda
from cuarray.cuda import _environment as env


@pytest.fixture
def fresh(monkeypatch):
    """Empty caches, restored environment (monkeypatch), empty caches after."""
    def clear():
        for f in (env.get_cuda_path, env.get_nvcc_path, env.get_local_runtime_version):
            f.cache_clear()
    clear()
    yield monkeypatch
    clear()


def _fake_toolkit(root):
    """root/bin/nvcc, an executable file (never run)."""
    b = root / "bin"
    b.mkdir(parents=True)
    nvcc = b / "nvcc"
    nvcc.write_text("#!/bin/sh\n")
    nvcc.chmod(nvcc.stat().st_mode | stat.S_IXUSR)
    return str(nvcc)


def test_names_on_cuda_namespace():
    for n in ("get_cuda_path", "get_nvcc_path", "get_rocm_path", "get_hipcc_path",
              "get_local_runtime_version", "profile"):
        assert n in cuda.__all__ and callable(getattr(cuda, n)), n
    assert cuda.get_cuda_path is env.get_cuda_path
    assert cuda.profile is cuda.profiler.profile


def test_cuda_path_from_environment(fresh, tmp_path):
    fresh.setenv("CUDA_PATH", str(tmp_path))
    assert cuda.get_cuda_path() == str(tmp_path)
    fresh.setenv("CUDA_PATH", str(tmp_path / "missing"))
    assert cuda.get_cuda_path() == str(tmp_path)  # cached, as CuPy's
    cuda.get_cuda_path.cache_clear()
    assert cuda.get_cuda_path() != str(tmp_path / "missing")  # a missing one is skipped


def test_cuda_path_from_nvcc_on_path(fresh, tmp_path):
    _fake_toolkit(tmp_path / "tk")
    fresh.delenv("CUDA_PATH", raising=False)
    fresh.setenv("PATH", str(tmp_path / "tk" / "bin"))
    assert cuda.get_cuda_path() == str(tmp_path / "tk")
    fresh.delenv("NVCC", raising=False)
    assert cuda.get_nvcc_path() == str(tmp_path / "tk" / "bin" / "nvcc")


def test_cuda_path_default_or_none(fresh, tmp_path):
    fresh.delenv("CUDA_PATH", raising=False)
    fresh.setenv("PATH", str(tmp_path))  # no nvcc here
    want = "/usr/local/cuda" if os.path.exists("/usr/local/cuda") else None
    assert cuda.get_cuda_path() == want


def test_nvcc_path(fresh, tmp_path):
    fresh.setenv("NVCC", "ccache nvcc -v")  # as given, like CuPy
    assert cuda.get_nvcc_path() == "ccache nvcc -v"
    cuda.get_nvcc_path.cache_clear()
    fresh.delenv("NVCC")
    nvcc = _fake_toolkit(tmp_path / "tk")
    fresh.setenv("CUDA_PATH", str(tmp_path / "tk"))
    assert cuda.get_nvcc_path() == nvcc
    cuda.get_nvcc_path.cache_clear()
    cuda.get_cuda_path.cache_clear()
    fresh.setenv("CUDA_PATH", str(tmp_path))  # a toolkit without nvcc
    assert cuda.get_nvcc_path() is None


def test_rocm_names_are_none(fresh, tmp_path):
    fresh.setenv("ROCM_HOME", str(tmp_path))
    assert cuda.get_rocm_path() is None and cuda.get_hipcc_path() is None


def test_local_runtime_version(fresh):
    v = cuda.get_local_runtime_version()
    assert isinstance(v, int)
    info = cuarray._core.build_info()
    if info["cuda"]:
        # a CUDA version as CUDA writes it (major * 1000 + minor * 10); the installed
        # runtime may differ from the one linked into the build
        assert v >= 1000 and v % 10 == 0


def test_local_runtime_version_without_shared_library(fresh, tmp_path):
    # no libcudart.so to be found: the one linked into cuarray is the one in use
    fresh.setattr(env, "_shared_cudart", lambda: None)
    assert cuda.get_local_runtime_version() == cuarray._core.build_info()["cudart_version"]
