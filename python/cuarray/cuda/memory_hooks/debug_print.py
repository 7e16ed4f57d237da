"""DebugPrintHook: one JSON line per allocation event."""

import sys

from ..memory_hook import MemoryHook


class DebugPrintHook(MemoryHook):
    """Prints each reservation from CUDA ("alloc"), each request from a pool
    ("malloc") and each return to a pool ("free") as one JSON object per line, as
    CuPy's hook does: `with DebugPrintHook(): ...`."""

    name = "DebugPrintHook"

    def __init__(self, file=sys.stdout, flush=True):
        self.file = file
        self.flush = flush

    def _print(self, line):
        self.file.write(line + "\n")
        if self.flush:
            self.file.flush()

    def alloc_postprocess(self, device_id, mem_size, mem_ptr):
        self._print(f'{{"hook":"alloc","device_id":{device_id},'
                    f'"mem_size":{mem_size},"mem_ptr":{mem_ptr}}}')

    def malloc_postprocess(self, device_id, size, mem_size, mem_ptr, pmem_id):
        self._print(f'{{"hook":"malloc","device_id":{device_id},"size":{size},'
                    f'"mem_size":{mem_size},"mem_ptr":{mem_ptr},'
                    f'"pmem_id":"{pmem_id:#x}"}}')

    def free_postprocess(self, device_id, mem_size, mem_ptr, pmem_id):
        self._print(f'{{"hook":"free","device_id":{device_id},'
                    f'"mem_size":{mem_size},"mem_ptr":{mem_ptr},'
                    f'"pmem_id":"{pmem_id:#x}"}}')
