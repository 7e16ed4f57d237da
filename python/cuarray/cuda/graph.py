"""CUDA graphs (CuPy's Stream.begin_capture / end_capture and cupy.cuda.Graph).

    s = cuarray.cuda.Stream(non_blocking=True)
    with s:
        s.begin_capture()
        y = (x * 2 + 1).sum()        # any cuarray work: recorded, not run
        g = s.end_capture()
    g.launch(s)                      # runs it; y holds the result after each launch

The graph owns every buffer allocated while it was captured (csrc/runtime/graph.c):
the pools never give them to other work while the Graph lives, so replays are safe
and arrays made in the capture see each replay's values. Deferred element-wise work
is flushed into the capture at its end. Work that synchronizes with the host (float(y),
asnumpy, printing) cannot be captured: CUDA invalidates the capture and end_capture
raises CUDAError. The capture mode defaults to relaxed (the pools may call cudaMalloc
while capturing); mode takes cuarray.cuda.runtime's streamCaptureMode* values (0, 1, 2).
"""

from .. import _core

__all__ = ["Graph"]

Graph = _core.Graph


def _launch(self, stream=None):
    """launch(stream=None)

    Run the captured work on `stream` (default: the current stream)."""
    return _core._graph_launch(self, stream)


def _upload(self, stream=None):
    """upload(stream=None)

    Prepare the graph on the device ahead of its first launch."""
    return _core._graph_upload(self, stream)


Graph.launch = _launch
Graph.upload = _upload
_launch.__qualname__, _upload.__qualname__ = "Graph.launch", "Graph.upload"
_launch.__name__, _upload.__name__ = "launch", "upload"
