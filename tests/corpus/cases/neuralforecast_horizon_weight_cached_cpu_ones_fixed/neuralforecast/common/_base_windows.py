import torch
import torch.nn as nn

from ..tsdataset import TimeSeriesDataModule
from ._trainer import Trainer


class BaseWindows(nn.Module):
    """Windows-based model base (a pl.LightningModule in neuralforecast)."""

    def __init__(self, h, input_size, loss, learning_rate=1e-3, max_steps=1000, batch_size=32,
                 windows_batch_size=64, **trainer_kwargs):
        super(BaseWindows, self).__init__()
        self.h = h
        self.input_size = input_size
        self.loss = loss
        self.learning_rate = learning_rate
        self.batch_size = batch_size
        self.windows_batch_size = windows_batch_size
        self.trainer_kwargs = dict(trainer_kwargs, max_steps=max_steps)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.learning_rate)

    def _create_windows(self, batch, step):
        temporal = batch['temporal']  # [B, C, T]
        windows = temporal.unfold(dimension=-1, size=self.input_size + self.h, step=1)  # [B, C, Ws, L+H]
        windows = windows.permute(0, 2, 3, 1).flatten(0, 1)  # [B*Ws, L+H, C]
        return {'temporal': windows[:self.windows_batch_size], 'temporal_cols': batch['temporal_cols']}

    def _parse_windows(self, batch, windows):
        temporal = windows['temporal']
        insample_y = temporal[:, :self.input_size, 0]
        insample_mask = temporal[:, :self.input_size, 1]
        outsample_y = temporal[:, self.input_size:, 0]
        outsample_mask = temporal[:, self.input_size:, 1]
        return insample_y, insample_mask, outsample_y, outsample_mask, None, None, None

    def training_step(self, batch, batch_idx):
        # Create windows [Ws, L+H, C]
        windows = self._create_windows(batch, step="train")

        # Parse windows
        (
            insample_y,
            insample_mask,
            outsample_y,
            outsample_mask,
            hist_exog,
            futr_exog,
            stat_exog,
        ) = self._parse_windows(batch, windows)

        windows_batch = dict(
            insample_y=insample_y,  # [Ws, L]
            insample_mask=insample_mask,  # [Ws, L]
            futr_exog=futr_exog,  # [Ws, L+H]
            hist_exog=hist_exog,  # [Ws, L]
            stat_exog=stat_exog,
        )  # [Ws, 1]

        # Model Predictions
        output = self(windows_batch)
        loss = self.loss(y=outsample_y, y_hat=output, mask=outsample_mask)
        return loss

    def fit(self, dataset):
        datamodule = TimeSeriesDataModule(dataset=dataset, batch_size=self.batch_size)
        trainer = Trainer(**self.trainer_kwargs)
        trainer.fit(self, datamodule=datamodule)
