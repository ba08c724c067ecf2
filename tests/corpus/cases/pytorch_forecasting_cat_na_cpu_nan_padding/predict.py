import torch

from pytorch_forecasting.data import TimeSeriesDataSet
from pytorch_forecasting.models.base_model import SimpleForecaster

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

validation = TimeSeriesDataSet(n_samples=96, encoder_length=24, n_features=3, decoder_lengths=[6] * 64 + [4] * 32)
val_dataloader = validation.to_dataloader(train=False, batch_size=32)

model = SimpleForecaster(n_features=3)
model.to(device)

predictions = model.predict(val_dataloader)
print(predictions.shape)
