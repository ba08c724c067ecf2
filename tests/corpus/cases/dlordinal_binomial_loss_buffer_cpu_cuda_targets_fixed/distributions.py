from math import comb

import numpy as np


def get_binomial_soft_labels(J):
    """Binomial soft labels: row j is the binomial(J - 1, p_j) probability of every class."""
    probs = []
    for true_class in range(J):
        p = (true_class + 0.5) / J
        probs.append([comb(J - 1, k) * p ** k * (1 - p) ** (J - 1 - k) for k in range(J)])
    return np.array(probs)
