"""cuarray.cuda.MemoryHook and memory_hooks (issue 40), against CuPy's hook API."""
import gc
import io
import json
import sys
import threading

import numpy as np
import pytest

import cuarray as ca
from cuarray.cuda import memory_hook, memory_hooks


class Recorder(ca.cuda.MemoryHook):
    name = "Recorder"

    def __init__(self):
        self.events = []


def _recording(event):
    def f(self, **kw):
        self.events.append((event, kw))
    return f


# every event of the hook API records itself
for _event in ("alloc_preprocess", "alloc_postprocess", "malloc_preprocess",
               "malloc_postprocess", "free_preprocess", "free_postprocess"):
    setattr(Recorder, _event, _recording(_event))


def _device_id(device):
    return -1 if str(device) == "cpu" else ca.Device(device).id


def test_events_and_arguments(device):
    r = Recorder()
    with r:
        a = ca.empty(1000, dtype=np.float32, device=device)
        ptr = a.data.ptr
        del a
        gc.collect()
    names = [e for e, _ in r.events]
    assert names[0] == "malloc_preprocess" and "malloc_postprocess" in names
    assert names[-2:] == ["free_preprocess", "free_postprocess"]
    pre = dict(r.events)["malloc_preprocess"]
    assert pre == {"device_id": _device_id(device), "size": 4000, "mem_size": 4096}
    post = dict(r.events)["malloc_postprocess"]
    assert set(post) == {"device_id", "size", "mem_size", "mem_ptr", "pmem_id"}
    assert post["mem_ptr"] == ptr and post["size"] == 4000
    free = dict(r.events)["free_postprocess"]
    assert free["mem_ptr"] == ptr and free["pmem_id"] == post["pmem_id"]
    assert free["mem_size"] == 4096


def test_alloc_events_when_the_pool_reserves(device):
    with ca.Device(device):
        ca.get_default_memory_pool().free_all_blocks()
    r = Recorder()
    with r:
        a = ca.empty(3 << 20, dtype=np.uint8, device=device)
    allocs = [kw for e, kw in r.events if e == "alloc_postprocess"]
    assert allocs and allocs[0]["mem_size"] >= 3 << 20
    assert [e for e, _ in r.events if e.startswith("alloc")] == \
        ["alloc_preprocess", "alloc_postprocess"]
    del a


def test_no_events_outside_the_context(device):
    r = Recorder()
    with r:
        pass
    ca.zeros(10, device=device)
    assert r.events == []
    assert memory_hook.get_memory_hooks() == {}


def test_hooks_are_per_thread(device):
    r = Recorder()
    seen = []
    with r:
        t = threading.Thread(target=lambda: seen.append(len(memory_hook.get_memory_hooks()))
                             or ca.zeros(100, device=device))
        t.start()
        t.join()
    assert seen == [0]
    assert all(e[1]["size"] != 800 for e in r.events if e[0] == "malloc_preprocess")


def test_duplicate_name_raises_keyerror():
    with Recorder():
        with pytest.raises(KeyError, match="already exists"):
            with Recorder():
                pass


def test_two_hooks_in_order(device):
    class Second(Recorder):
        name = "Second"
    a, b = Recorder(), Second()
    with a, b:
        ca.zeros(7, device=device)
    assert a.events[:2] == b.events[:2]
    assert list(memory_hook.get_memory_hooks()) == []


def test_preprocess_exception_fails_the_allocation(device):
    class Refuse(ca.cuda.MemoryHook):
        name = "Refuse"

        def malloc_preprocess(self, **kw):
            raise RuntimeError("refused by the hook")
    before = ca.get_default_memory_pool().used_bytes() if device == "cpu" else None
    with Refuse():
        with pytest.raises(RuntimeError, match="refused by the hook"):
            ca.empty(123, device=device)
    assert ca.zeros(3, device=device).sum() == 0
    if before is not None:
        gc.collect()
        assert ca.get_default_memory_pool().used_bytes() == before


def test_free_hook_exception_is_unraisable(device, monkeypatch):
    class Bad(ca.cuda.MemoryHook):
        name = "Bad"

        def free_postprocess(self, **kw):
            raise ValueError("in free")
    seen = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: seen.append(u.exc_value))
    with Bad():
        a = ca.zeros(5, device=device)
        del a
        gc.collect()
    assert len(seen) == 1 and str(seen[0]) == "in free"


def test_debug_print_hook(device):
    out = io.StringIO()
    with memory_hooks.DebugPrintHook(file=out):
        a = ca.ones(256, dtype=np.float64, device=device)
        del a
        gc.collect()
    lines = [json.loads(s) for s in out.getvalue().splitlines()]
    kinds = [d["hook"] for d in lines]
    assert "malloc" in kinds and kinds[-1] == "free"
    m = next(d for d in lines if d["hook"] == "malloc")
    assert m["size"] == 2048 and m["mem_size"] == 2048 and m["pmem_id"].startswith("0x")
    assert m["device_id"] == _device_id(device)


def test_line_profile_hook(device):
    hook = memory_hooks.LineProfileHook()
    with hook:
        x = ca.zeros((64, 64), dtype=np.float32, device=device)
        y = x + 1
    out = io.StringIO()
    hook.print_report(file=out)
    text = out.getvalue()
    assert text.startswith("_root (")
    assert "test_line_profile_hook" in text
    assert hook._root.used >= 2 * 64 * 64 * 4
    del x, y


def test_names_exist():
    assert ca.cuda.MemoryHook is memory_hook.MemoryHook
    assert ca.cuda.memory_hooks.DebugPrintHook.name == "DebugPrintHook"
    assert ca.cuda.memory_hooks.LineProfileHook.name == "LineProfileHook"
