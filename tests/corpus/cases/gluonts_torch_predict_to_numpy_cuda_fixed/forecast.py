"""A user's PyTorch forecasting network served through gluonts' PyTorchPredictor on the GPU."""
import numpy as np
import torch
import torch.nn as nn

from gluonts.torch.model.predictor import PyTorchPredictor

CONTEXT, PREDICTION, SAMPLES = 24, 6, 20


class SimpleFeedForwardSampler(nn.Module):
    """Maps the past window to a Gaussian over the next PREDICTION steps and returns samples."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(CONTEXT, 32), nn.ReLU(), nn.Linear(32, 2 * PREDICTION))

    def forward(self, past_target):
        loc, scale = self.net(past_target).chunk(2, dim=-1)
        scale = nn.functional.softplus(scale) + 1e-3
        eps = torch.randn((SAMPLES,) + tuple(loc.shape), device=loc.device)
        return (loc + scale * eps).transpose(0, 1)   # batch, samples, prediction_length


def instance_splitter(entry):
    target = entry["target"]
    return {"past_target": target[-CONTEXT:].astype(np.float32), "forecast_start": len(target), "item_id": entry["item_id"]}


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    dataset = [{"target": np.sin(np.arange(100) / 5.0 + k), "item_id": k} for k in range(10)]

    net = SimpleFeedForwardSampler().to(device)
    predictor = PyTorchPredictor(
        input_names=["past_target"],
        prediction_net=net,
        batch_size=4,
        prediction_length=PREDICTION,
        freq="H",
        device=device,
        input_transform=instance_splitter,
    )
    for forecast in predictor.predict(dataset):
        print(forecast.item_id, forecast.mean.round(2))


if __name__ == "__main__":
    main()
