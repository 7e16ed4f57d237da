"""cuarray.scipy.sparse.csgraph.connected_components against SciPy's on both
devices: SciPy's own routine on the cpu device ('scipy') and the label-propagation
composition a GPU runs ('composition', also on the cpu device)."""

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as sg

import cuarray as ca
import cuarray.scipy.sparse as cs
from cuarray.scipy.sparse import _sputils
from cuarray.scipy.sparse.csgraph import _traversal, connected_components

from conftest import ROUTES, scipy_route


@pytest.fixture(params=ROUTES)
def route(request, monkeypatch, device):
    return scipy_route(request, monkeypatch, device, _traversal, _sputils)


def same_partition(a, b):
    """Whether two labelings group the nodes alike (labels may be renumbered)."""
    pairs = set(zip(a.tolist(), b.tolist()))
    return len(pairs) == len(set(a.tolist())) == len(set(b.tolist()))


def check(graph, host, directed, connection, route):
    n, labels = connected_components(graph, directed, connection)
    ns, ls = sg.connected_components(host, directed, connection)
    assert n == ns and isinstance(n, int)
    assert labels.dtype == np.int32 and labels.shape == ls.shape
    got = labels.get()
    if route == "scipy" or not directed or connection == "weak":
        np.testing.assert_array_equal(got, ls)       # SciPy's numbering
    else:
        assert same_partition(got, ls)               # the same components
    assert connected_components(graph, directed, connection,
                                return_labels=False) == ns


CASES = [(True, "weak"), (True, "strong"), (False, "weak"), (False, "strong")]


@pytest.mark.parametrize("directed,connection", CASES)
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("density", [0.002, 0.01, 0.05])
def test_random_graphs(seed, density, directed, connection, device, route):
    S = sp.random(300, 300, density=density, random_state=seed, format="csr")
    check(cs.csr_matrix(S, device=device), S, directed, connection, route)


@pytest.mark.parametrize("directed,connection", CASES)
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_formats_and_dense(fmt, directed, connection, device, route):
    S = sp.random(60, 60, density=0.03, random_state=5, format=fmt)
    ours = getattr(cs, fmt + "_matrix")(S, device=device)
    check(ours, S, directed, connection, route)
    D = S.toarray()
    check(ca.asarray(D, device=device), D, directed, connection, route)


@pytest.mark.parametrize("directed,connection", CASES)
def test_structured_graphs(directed, connection, device, route):
    n = 40
    # a directed cycle, a chain (each node its own strong component), self loops,
    # isolated nodes and a long path (many propagation sweeps)
    cycle = sp.csr_matrix((np.ones(10), (np.arange(10), (np.arange(10) + 1) % 10)),
                          shape=(n, n))
    chain = sp.csr_matrix((np.ones(9), (np.arange(10, 19), np.arange(11, 20))),
                          shape=(n, n))
    loops = sp.csr_matrix((np.ones(5), (np.arange(20, 25), np.arange(20, 25))),
                          shape=(n, n))
    path = sp.csr_matrix((np.ones(9), (np.arange(39, 30, -1), np.arange(38, 29, -1))),
                         shape=(n, n))
    for S in (cycle, chain, loops, path, (cycle + chain + loops + path).tocsr(),
              sp.csr_matrix((n, n))):
        check(cs.csr_matrix(S, device=device), S, directed, connection, route)


def test_explicit_zeros_are_edges(device, route):
    S = sp.csr_matrix((np.array([0.0, 1.0]), np.array([1, 2]), np.array([0, 1, 2, 2])),
                      shape=(3, 3))
    check(cs.csr_matrix(S, device=device), S, True, "weak", route)


def test_errors(device, route):
    S = sp.random(5, 5, density=0.3, random_state=1, format="csr")
    C = cs.csr_matrix(S, device=device)
    with pytest.raises(ValueError, match="connection must be 'weak' or 'strong'"):
        connected_components(C, connection="medium")
    with pytest.raises(ValueError, match="graph should be a square array"):
        connected_components(ca.ones((2, 3), device=device))
    with pytest.raises(ValueError, match="graph should be a square array"):
        sg.connected_components(np.ones((2, 3)))
    n, labels = connected_components(C, connection="STRONG")
    assert n == sg.connected_components(S, connection="STRONG")[0]
