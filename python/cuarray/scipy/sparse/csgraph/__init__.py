"""cuarray.scipy.sparse.csgraph: SciPy's graph routines on cuarray sparse matrices
(the one CuPy shares: connected_components)."""

from ._traversal import connected_components

__all__ = ["connected_components"]
