# Author: baichen318@gmail.com


import numpy as np
from typing import List
from dataset import ndarray_to_tensor
from problem import DesignSpaceProblem


class MicroAL(object):
    """
        Microarchitecture-aware active learning; the clustering w.r.t.
        DecodeWidth and the transductive experimental design are reduced to
        taking `batch` evenly spaced designs.
    """
    def __init__(self, problem: DesignSpaceProblem):
        self.problem = problem
        self.configs = problem.configs["initialize"]

    def initialize(self, dataset: np.ndarray) -> List[List[int]]:
        step = max(1, len(dataset) // self.configs["batch"])
        return [list(dataset[i]) for i in range(0, len(dataset), step)][:self.configs["batch"]]


def micro_al(problem: DesignSpaceProblem):
    initializer = MicroAL(problem)
    x = ndarray_to_tensor(initializer.initialize(problem.x.numpy()))
    y = problem.evaluate_true(x)
    problem.remove_sampled_data(x)
    return x, y
