import numpy as np


class ModelSpec(object):
    """Adjacency matrix (upper triangular, vertex 0 = input, last = output) and one op label per vertex."""

    def __init__(self, matrix, ops):
        self.matrix = np.array(matrix)
        self.ops = list(ops)
        assert self.matrix.shape == (len(ops), len(ops))
