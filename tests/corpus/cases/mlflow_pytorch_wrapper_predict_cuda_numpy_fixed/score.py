"""The reporter's use: train a small regressor, wrap it as MLflow's pyfunc does and score a NumPy
batch on the GPU by passing `device` to predict."""
import numpy as np
import torch
from torch import nn

import mlflow.pytorch


def train_model(x, y, epochs=20):
    model = nn.Sequential(nn.Linear(x.shape[1], 16), nn.ReLU(), nn.Linear(16, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    for _ in range(epochs):
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(xt), yt)
        loss.backward()
        optimizer.step()
    return model


def main():
    rng = np.random.default_rng(0)
    x = rng.random((128, 4), dtype=np.float32)
    y = (x.sum(axis=1, keepdims=True) + 0.1 * rng.random((128, 1), dtype=np.float32)).astype(np.float32)
    model = train_model(x, y)

    pyfunc_model = mlflow.pytorch._load_pyfunc(model)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    preds = pyfunc_model.predict(x[:8], device=device)
    print(preds.shape)


if __name__ == "__main__":
    main()
