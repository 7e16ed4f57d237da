"""cuarray.cuda.texture: CuPy's texture and surface objects -- not supported.

CuPy wraps CUDA arrays (cudaArray), texture objects and surface objects for
kernels that read through the texture units. cuarray does not manage CUDA arrays
or texture objects: ChannelFormatDescriptor and TextureDescriptor hold their
descriptions (plain data, as CuPy's do, so code that builds them runs), while
CUDAarray, ResourceDescriptor, TextureObject, SurfaceObject and
TextureReference raise NotImplementedError saying so. A kernel that needs
texture fetches can take a cuarray array's pointer (``x.data.ptr``) and create
its texture object itself through the CUDA runtime.
"""

__all__ = ["ChannelFormatDescriptor", "TextureDescriptor", "ResourceDescriptor",
           "CUDAarray", "TextureObject", "SurfaceObject", "TextureReference"]

# cudaChannelFormatKind
cudaChannelFormatKindSigned = 0
cudaChannelFormatKindUnsigned = 1
cudaChannelFormatKindFloat = 2
cudaChannelFormatKindNone = 3

_UNSUPPORTED = ("cuarray.cuda.texture.{}: CUDA arrays, texture and surface objects are "
                "not supported by cuarray (read the array through x.data.ptr in a "
                "RawKernel instead)")


class ChannelFormatDescriptor:
    """ChannelFormatDescriptor(x, y, z, w, f): bits per channel and the
    cudaChannelFormatKind `f` (cudaChannelFormatDesc's fields)."""

    def __init__(self, x, y, z, w, f):
        for name, v in (("x", x), ("y", y), ("z", z), ("w", w)):
            if not isinstance(v, int) or v < 0:
                raise ValueError(f"ChannelFormatDescriptor: {name} must be a number "
                                 f"of bits >= 0, not {v!r}")
        if f not in (0, 1, 2, 3):
            raise ValueError(f"ChannelFormatDescriptor: f must be a "
                             f"cudaChannelFormatKind (0..3), not {f!r}")
        self._desc = {"x": x, "y": y, "z": z, "w": w, "f": f}

    def get_channel_format(self):
        """The description as a dict (x, y, z, w, f), as CuPy's."""
        return dict(self._desc)


class TextureDescriptor:
    """TextureDescriptor(addressModes=None, filterMode=0, readMode=0,
    sRGB=None, borderColors=None, normalizedCoords=None, maxAnisotropy=None):
    cudaTextureDesc's fields, kept as given."""

    def __init__(self, addressModes=None, filterMode=0, readMode=0, sRGB=None,
                 borderColors=None, normalizedCoords=None, maxAnisotropy=None):
        self._desc = {"addressMode": tuple(addressModes or ()), "filterMode": filterMode,
                      "readMode": readMode, "sRGB": sRGB,
                      "borderColor": tuple(borderColors or ()),
                      "normalizedCoords": normalizedCoords,
                      "maxAnisotropy": maxAnisotropy}

    def get_texture_descriptor(self):
        """The description as a dict, as CuPy's."""
        return dict(self._desc)


def _unsupported(name):
    def __init__(self, *args, **kwargs):
        raise NotImplementedError(_UNSUPPORTED.format(name))
    return type(name, (), {"__init__": __init__,
                           "__doc__": f"Not supported: {_UNSUPPORTED.format(name)}."})


CUDAarray = _unsupported("CUDAarray")
ResourceDescriptor = _unsupported("ResourceDescriptor")
TextureObject = _unsupported("TextureObject")
SurfaceObject = _unsupported("SurfaceObject")
TextureReference = _unsupported("TextureReference")
for _c in (CUDAarray, ResourceDescriptor, TextureObject, SurfaceObject, TextureReference):
    _c.__module__ = __name__
del _c
