"""What `import cuarray` imports, and the submodules and names it leaves for first use.

cuarray/__init__.py imports the C core and the everyday names; linalg, fft,
random, testing, the user kernels and the Python compositions (_LAZY_MODULES) are
imported by the package's module __getattr__ when one of their names is first looked
up, and cuarray.cuda's Python submodules (memory, runtime, compiler, ...) by
cuarray/cuda/__init__.py's. These tests run fresh interpreters (the point is what a
new process has in sys.modules) and check that every deferred name still resolves
to its module's object, and that the tables in __init__.py match the modules.
"""

import importlib
import json
import subprocess
import sys

import cuarray as ca


def python_prints(src):
    """What a fresh interpreter running `src` prints (it must exit cleanly)."""
    r = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


DEFERRED = sorted({"cuarray." + m for m in ca._LAZY_MODULES}
                  | {"cuarray." + m for m in ca._LAZY_SUBMODULES}
                  | {"cuarray.cuda." + m for m in ca.cuda._LAZY_MODULES}
                  | {"cuarray._linalg_factor", "cuarray._linalg_svd", "cuarray.fft._threads",
                     "cuarray.random._generator", "cuarray.random._distributions"})
# Modules NumPy's own import leaves out that cuarray's deferred parts bring in.
HEAVY = ["numpy.random", "numpy.testing", "concurrent.futures", "hashlib", "json",
         "tempfile", "logging", "unittest"]


def test_import_leaves_the_deferred_modules_unimported():
    src = ("import sys, json, numpy; before = set(sys.modules); import cuarray; "
           "added = sorted(set(sys.modules) - before); "
           "print(json.dumps([added, sorted(vars(cuarray)), sorted(vars(cuarray.cuda))]))")
    added, names, cuda_names = json.loads(python_prints(src))
    assert len(DEFERRED) > 25 and not set(DEFERRED) & set(added)
    # beyond what `import numpy` imports, only cuarray's own modules
    assert [m for m in added if m != "cuarray" and not m.startswith("cuarray.")] == []
    # nothing eager shadows a deferred name (its __getattr__ would never run)
    assert not set(names) & set(ca._LAZY)
    assert not set(names) & set(ca._LAZY_SUBMODULES)
    assert not set(cuda_names) & (set(ca.cuda._LAZY) | set(ca.cuda._LAZY_MODULES))


def test_deferred_names_load_on_first_use():
    src = """
import sys, json, pickle, cuarray
out = {}
x = cuarray.arange(12.0, device="cpu").reshape(3, 4)
out["norm"] = float(cuarray.linalg.norm(x))
out["linalg"] = "cuarray.linalg" in sys.modules
out["einsum_cached"] = "einsum" in vars(cuarray)
out["einsum"] = float(cuarray.einsum("ij->", x))
out["einsum_cached"] = "einsum" in vars(cuarray)  # now a plain global
out["path_cached"] = "einsum_path" in vars(cuarray)  # the module's other names too
from cuarray import fft
out["fft"] = fft is cuarray.fft and "cuarray.fft" in sys.modules
import cuarray.random
out["random"] = cuarray.random.default_rng(1).random(3).shape == (3,)
out["testing"] = cuarray.testing.assert_array_equal(x, x) is None
out["CompileException"] = cuarray.cuda.CompileException is \\
    sys.modules["cuarray.cuda.compiler"].CompileException
import cuarray.cuda.runtime
from cuarray.cuda import memory, set_allocator
out["cuda"] = (cuarray.cuda.runtime.memcpyHostToDevice, memory.set_allocator is
               set_allocator, isinstance(cuarray.cuda.Memory(8), cuarray.cuda.BaseMemory))
out["pickle"] = pickle.loads(pickle.dumps(cuarray.isin)) is cuarray.isin
print(json.dumps(out))
"""
    out = json.loads(python_prints(src))
    assert out == {"norm": 22.494443758403985, "linalg": True, "einsum_cached": True,
                   "einsum": 66.0, "path_cached": True, "fft": True, "random": True,
                   "testing": True, "CompileException": True, "pickle": True,
                   "cuda": [1, True, True]}


def test_numpy_dispatch_loads_the_submodule():
    """np.linalg.norm / np.fft.fft / np.median on a cuarray array in a fresh process:
    NumPy's dispatch finds the deferred functions."""
    src = ("import numpy as np, cuarray as ca; x = ca.arange(8.0, device='cpu'); "
           "print(type(np.linalg.norm(x)).__module__, type(np.fft.fft(x)).__module__, "
           "float(np.median(x)))")
    assert python_prints(src) == "cuarray cuarray 3.5"


def test_star_import_and_dir_list_the_deferred_names():
    src = ("import json, cuarray; d = dir(cuarray); ns = {}; "
           "exec('from cuarray import *', ns); "
           "print(json.dumps([d, sorted(n for n in ns if n != '__builtins__')]))")
    d, star = json.loads(python_prints(src))
    assert set(ca._LAZY) <= set(d) and set(ca._LAZY_SUBMODULES) <= set(d)
    assert set(ca._LAZY) | {"linalg", "fft", "random"} <= set(star)
    assert sorted(star) == sorted(ca.__all__)
    assert "testing" not in ca.__all__  # as numpy.__all__


def test_tables_match_the_modules():
    for mod, names in ca._LAZY_MODULES.items():
        m = importlib.import_module("cuarray." + mod)
        assert sorted(names) == sorted(m.__all__), mod
        for n in names:
            assert getattr(ca, n) is getattr(m, n), (mod, n)
    for sub in ca._LAZY_SUBMODULES:
        assert getattr(ca, sub) is importlib.import_module("cuarray." + sub)
    assert len(ca._LAZY) == sum(len(v) for v in ca._LAZY_MODULES.values())  # no repeats
    for mod, names in ca.cuda._LAZY_MODULES.items():
        m = importlib.import_module("cuarray.cuda." + mod)
        assert getattr(ca.cuda, mod) is m
        for n in names:
            assert n in m.__all__ and getattr(ca.cuda, n) is getattr(m, n), (mod, n)
    assert len(ca.cuda._LAZY) == sum(len(v) for v in ca.cuda._LAZY_MODULES.values())
    # cuda's __all__ (CuPy's names) resolves entirely
    assert all(hasattr(ca.cuda, n) for n in ca.cuda.__all__)


def test_private_modules_and_unknown_names():
    assert ca._io is importlib.import_module("cuarray._io")
    assert ca.cuda.compiler is importlib.import_module("cuarray.cuda.compiler")
    for mod, name in ((ca, "no_such_name"), (ca.cuda, "no_such_name")):
        try:
            getattr(mod, name)
        except AttributeError as e:
            assert name in str(e)
        else:
            raise AssertionError(name)
    assert not hasattr(ca, "ma")


def test_unpickling_in_a_fresh_process_loads_the_module():
    """A pickle naming a deferred function (by reference: cuarray.einsum,
    cuarray.linalg.norm, cuarray.cuda.set_allocator) loads in a process that has
    not imported its module yet."""
    import pickle

    blob = pickle.dumps([ca.einsum, ca.linalg.norm, ca.cuda.set_allocator])
    src = ("import pickle, sys; f = pickle.loads(%r); "
           "print([g.__name__ for g in f], 'cuarray._linalg_products' in sys.modules)"
           % blob)
    assert python_prints(src) == "['einsum', 'norm', 'set_allocator'] True"
