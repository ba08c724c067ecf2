from functools import partial

import numpy as np
import torch

from callbacks import LossTracker
from dataloaders import DataBunch, create_datasets, create_loaders
from model_part import Autoencoder, customLoss, get_lin_layers, get_lin_layers_rev
from runner import Learner, Runner

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")

rng = np.random.default_rng(0)
cols = [f"V{i}" for i in range(8)]
X_train, X_test = rng.normal(size=(256, 8)), rng.normal(size=(64, 8))
y_train, y_test = np.ones(256), np.ones(64)

datasets = create_datasets(X_train, y_train, X_test, y_test)
data = DataBunch(*create_loaders(datasets, bs=64))

D_in = X_train.shape[1]
model = Autoencoder(
    torch.nn.Sequential(*get_lin_layers(D_in, [16, 12])),
    torch.nn.Sequential(*get_lin_layers_rev(D_in, [16, 12])),
    latent_dim=5,
).to(DEVICE)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_func = customLoss()

learn = Learner(model, opt, loss_func, data, target_name="Class", target_class=1, cols=cols)
run = Runner(cb_funcs=[partial(LossTracker, show_every=1)])
run.fit(3, learn)
