"""scalar.h's casts on the GPU equal the same code on the host (the cpu device's),
byte for byte, for all 17 x 11 (dst, src) pairs of tests/c/cast_device_host.cu:
every pattern of float16, bfloat16 and the float8s, sampled wider types. GPU only."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import HAVE_GPU

ROOT = Path(__file__).resolve().parents[1]


def _nvcc():
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH") or "/usr/local/cuda"
    return shutil.which("nvcc") or next(
        (p for p in [os.path.join(home, "bin", "nvcc")] if os.path.exists(p)), None)


@pytest.mark.skipif(not HAVE_GPU, reason="no CUDA GPU on this machine")
def test_casts_device_equal_host(tmp_path):
    nvcc = _nvcc()
    if nvcc is None:
        pytest.skip("no nvcc to build the cast probe")
    exe = tmp_path / "cast_device_host"
    r = subprocess.run([nvcc, "-O1", "-std=c++17", "--expt-relaxed-constexpr",
                        f"-I{ROOT / 'kernels'}", "-arch=native",
                        str(ROOT / "tests" / "c" / "cast_device_host.cu"), "-o", str(exe)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().endswith("done: 0 mismatching pairs, cuda no error"), r.stdout
