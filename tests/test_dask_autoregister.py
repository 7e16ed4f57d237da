"""Dask programs that never import cuarray.dask: cuarray registers itself with Dask's
dispatch when both are imported, in either order, and in distributed's workers.

Each case runs in a fresh interpreter, since this process has imported both already.
"""

import os
import subprocess
import sys
import textwrap

import pytest

from conftest import DEVICES

pytest.importorskip("dask.array")

# The user's program from issue 36: std over an axis goes through Dask's chunk-count
# dispatch (numel_lookup), which raised TypeError for cuarray chunks.
PROGRAM = """
import numpy as np
h = np.random.default_rng(0).standard_normal((300, 200))
x = da.from_array(ca.asarray(h, device=DEV), chunks=(100, 50))
got = x.std(axis=1).compute()
assert isinstance(got, ca.ndarray), type(got)
np.testing.assert_allclose(got.get(), h.std(axis=1), rtol=1e-12)
m = x.mean(axis=0).compute()
np.testing.assert_allclose(m.get(), h.mean(axis=0), rtol=1e-12)
print("ok", "cuarray.dask" in sys.modules)
"""


def run(src, dev):
    env = dict(os.environ, CUARRAY_DEVICE=dev)
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(src)], env=env,
                       capture_output=True, text=True, timeout=240)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout.split()


@pytest.mark.parametrize("dev", DEVICES)
def test_cuarray_imported_first(dev):
    out = run(f"import sys, cuarray as ca\nassert 'dask' not in sys.modules\n"
              f"import dask.array as da\nDEV = {dev!r}\n" + PROGRAM, dev)
    assert out == ["ok", "True"]


@pytest.mark.parametrize("dev", DEVICES)
def test_dask_imported_first(dev):
    out = run(f"import sys, dask.array as da\nimport cuarray as ca\nDEV = {dev!r}\n"
              + PROGRAM, dev)
    assert out == ["ok", "True"]


def test_no_dask_no_import():
    # a program that never imports Dask does not import it through cuarray
    out = run("import sys, cuarray\nimport numpy\n"
              "print('dask' in sys.modules, 'cuarray.dask' in sys.modules)", "cpu")
    assert out == ["False", "False"]


def test_plain_dask_package_import_does_not_register_early():
    # `import dask` alone (no dask.array) leaves cuarray.dask unimported: it would
    # import dask.array, which a program using only dask.delayed never pays for
    out = run("import sys, dask, cuarray\nprint('cuarray.dask' in sys.modules)", "cpu")
    assert out == ["False"]


@pytest.mark.parametrize("dev", DEVICES)
def test_local_cluster_workers_register(dev):
    # two worker processes, no client.run(import cuarray.dask): the workers register
    # when they unpickle the first cuarray chunk
    pytest.importorskip("distributed")
    out = run(f"""
import sys, cuarray as ca, dask.array as da, distributed
import numpy as np
DEV = {dev!r}
if __name__ == "__main__":
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, worker_dashboard_address=None,
                                  env={{"CUARRAY_DEVICE": DEV}}) as cluster, \\
            distributed.Client(cluster) as client:
        h = np.random.default_rng(1).standard_normal((400, 300))
        x = da.from_array(ca.asarray(h, device=DEV), chunks=(100, 100))
        got = client.compute(x.std(axis=1)).result()
        np.testing.assert_allclose(got.get(), h.std(axis=1), rtol=1e-12)
        regs = client.run(lambda: "cuarray.dask" in sys.modules)
        print("ok", all(regs.values()))
""", dev)
    assert out[-2:] == ["ok", "True"]
