from typing import List

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from pytorch_forecasting.data import TimeSeriesDataSet
from pytorch_forecasting.utils import move_to_device


def _torch_cat_na(x: List[torch.Tensor]) -> torch.Tensor:
    """
    Concatenate tensor along ``dim=0`` and add nans along ``dim=1`` if necessary.

    Allows concatenation of tensors where ``dim=1`` are not equal.
    Missing values are filled up with ``nan``.
    """
    if x[0].ndim > 1:
        first_lens = [xi.shape[1] for xi in x]
        max_first_len = max(first_lens)
        if max_first_len > min(first_lens):
            x = [
                xi
                if xi.shape[1] == max_first_len
                else torch.cat(
                    [xi, torch.full((xi.shape[0], max_first_len - xi.shape[1], *xi.shape[2:]), float("nan"), device=xi.device)], dim=1
                )
                for xi in x
            ]
    return torch.cat(x, dim=0)


class BaseModel(nn.Module):
    """Base model for timeseries forecasting (a LightningModule upstream: `self.device` follows `.to()`)."""

    @property
    def device(self) -> torch.device:
        return next(self.parameters()).device

    def forward(self, x):
        raise NotImplementedError()

    def predict(self, data, mode: str = "prediction", batch_size: int = 64, fast_dev_run: bool = False, **kwargs):
        # convert to dataloader
        if isinstance(data, TimeSeriesDataSet):
            dataloader = data.to_dataloader(batch_size=batch_size, train=False)
        else:
            dataloader = data
        assert isinstance(dataloader, DataLoader)

        # prepare model
        self.eval()  # no dropout, etc. no gradients

        # run predictions
        output = []
        with torch.no_grad():
            for x, _ in dataloader:
                # move data to appropriate device
                data_device = x["encoder_cont"].device
                if data_device != self.device:
                    x = move_to_device(x, self.device)

                # make prediction
                out = self(x, **kwargs)  # raw output is dictionary
                if mode == "prediction":
                    out = out["prediction"]
                output.append(out)
                if fast_dev_run:
                    break

        # concatenate output (of different batches)
        if mode != "raw":
            output = _torch_cat_na(output)
        return output


class SimpleForecaster(BaseModel):
    def __init__(self, n_features: int, hidden_size: int = 16):
        super().__init__()
        self.encoder = nn.Linear(n_features, hidden_size)
        self.decoder = nn.Linear(n_features + hidden_size, 1)

    def forward(self, x):
        context = self.encoder(x["encoder_cont"]).mean(1, keepdim=True)
        context = context.expand(-1, x["decoder_cont"].shape[1], -1)
        prediction = self.decoder(torch.cat([x["decoder_cont"], context], dim=-1)).squeeze(-1)
        return dict(prediction=prediction)
