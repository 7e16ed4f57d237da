"""cuarray.scipy.spatial: SciPy's scipy.spatial.distance_matrix (and its
minkowski_distance) on cuarray arrays. KDTree and Delaunay are not built yet."""

from ._distance import distance_matrix, minkowski_distance

__all__ = ["distance_matrix", "minkowski_distance"]
