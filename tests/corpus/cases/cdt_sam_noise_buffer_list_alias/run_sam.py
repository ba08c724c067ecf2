"""Causal discovery with SAM on a small synthetic data set (stand-in for the
toolbox's data loaders): x0 -> x1 -> x2."""
import numpy as np

import cdt
from cdt.causality.graph import SAM

rng = np.random.default_rng(0)
x0 = rng.normal(size=(200, 1))
x1 = np.tanh(x0) + 0.1 * rng.normal(size=(200, 1))
x2 = x1 ** 2 + 0.1 * rng.normal(size=(200, 1))
data = np.concatenate([x0, x1, x2], axis=1)

cdt.SETTINGS.GPU = 1
cdt.SETTINGS.NJOBS = 1
print("GPUs:", cdt.SETTINGS.GPU, "device:", cdt.SETTINGS.default_device)
model = SAM(nh=20, dnh=20, train_epochs=2, test_epochs=2, nruns=1)
graph = model.predict(data)
print(graph.edges(data=True))
