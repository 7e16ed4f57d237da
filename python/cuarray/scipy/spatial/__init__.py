"""cuarray.scipy.spatial: SciPy's scipy.spatial.distance_matrix (and its
minkowski_distance), KDTree (brute-force k-nearest-neighbour queries on the
device) and Delaunay (Qhull on the host, device arrays in and out)."""

from ._distance import distance_matrix, minkowski_distance
from ._kdtree import KDTree, cKDTree
from ._qhull import Delaunay

__all__ = ["Delaunay", "KDTree", "cKDTree", "distance_matrix", "minkowski_distance"]
