"""cuarray.fft.config: the cuFFT plan caches (CuPy's cupy.fft.config controls).

Each device has one least-recently-used cache of cuFFT plans, keyed by what the
plan was made for (type, lengths, strides, batch); a cached transform costs one
C call and one cuFFT launch. Limits: ``size`` plans (default 16; 0 disables
caching) and ``memsize`` bytes of plan work areas (default -1: no limit). The
work areas come from cuarray's memory pool. The cpu device has a cache too; only
the fft emulation test switch puts plans in it (numpy.fft needs none).
"""

from .. import _core

__all__ = ["get_plan_cache", "show_plan_cache_info", "clear_plan_cache", "PlanCache"]

# CuPy's switches, kept for code that sets them: every multi-axis transform is
# one n-dimensional plan here, and plans use one GPU.
enable_nd_planning = True
use_multi_gpus = False


class PlanCache:
    """The cuFFT plan cache of one device (``get_plan_cache()``)."""

    def __init__(self, device=None):
        self._device = _core.Device(device) if device is not None else _core.Device()

    @property
    def device(self):
        return self._device

    def _info(self):
        return _core._fft_plan_cache_info(self._device)

    def get_size(self):
        """The most plans the cache keeps."""
        return self._info()[0]

    def set_size(self, size):
        """Keep at most ``size`` plans (0: cache none), evicting the oldest now."""
        size = int(size)
        if size < 0:
            raise ValueError("size must be >= 0")
        _core._fft_plan_cache_set(self._device, size, self._info()[1])

    def get_memsize(self):
        """The most bytes of work area the cached plans may hold (-1: no limit)."""
        return self._info()[1]

    def set_memsize(self, size):
        """Limit the cached plans' work areas to ``size`` bytes (-1: no limit)."""
        size = int(size)
        if size < -1:
            raise ValueError("memsize must be >= 0, or -1 for no limit")
        _core._fft_plan_cache_set(self._device, self._info()[0], size)

    def get_curr_size(self):
        """How many plans are cached now."""
        return self._info()[2]

    def get_curr_memsize(self):
        """Bytes of work area the cached plans hold now."""
        return self._info()[3]

    def get_plans(self):
        """The cached plans, most recently used first: (type, rank, n, batch,
        istride, idist, ostride, odist, work area bytes)."""
        return self._info()[4]

    def clear(self):
        """Destroy every cached plan."""
        _core._fft_plan_cache_clear(self._device)

    def __len__(self):
        return self._info()[2]

    def show_info(self):
        """Print the cache's limits and plans."""
        size, memsize, count, mem, plans = self._info()
        lines = [f"------------------- cuFFT plan cache (device {self._device}) "
                 "-------------------",
                 f"cache enabled? {size != 0}",
                 f"current / max size   : {count} / {size} (counts)",
                 f"current / max memsize: {mem} / "
                 f"{'(unlimited)' if memsize < 0 else memsize} (bytes)",
                 "",
                 "cached plans (most recently used first):"]
        for t, rank, n, batch, ist, idist, ost, odist, ws in plans:
            lines.append(f"  {t} rank {rank} n={n} batch={batch} istride={ist} "
                         f"idist={idist} ostride={ost} odist={odist} work area={ws} B")
        print("\n".join(lines))

    def __repr__(self):
        size, memsize, count, mem, _ = self._info()
        return (f"<cuarray.fft plan cache of {self._device}: {count}/{size} plans, "
                f"{mem}/{memsize} bytes>")


def get_plan_cache(device=None):
    """The plan cache of ``device`` (default: the current device)."""
    return PlanCache(device)


def show_plan_cache_info():
    """Print the current device's plan cache."""
    get_plan_cache().show_info()


def clear_plan_cache():
    """Empty the current device's plan cache."""
    get_plan_cache().clear()
