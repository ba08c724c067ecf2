from typing import Callable, Iterator, List, Optional

import numpy as np
import torch
import torch.nn as nn

from gluonts.model.forecast_generator import SampleForecastGenerator, predict_to_numpy
from gluonts.torch.batchify import batchify


@predict_to_numpy.register(nn.Module)
def _(prediction_net: nn.Module, inputs: torch.Tensor) -> np.ndarray:
    return prediction_net(*inputs).data.numpy()


def InferenceDataLoader(dataset, transform, batch_size, stack_fn):
    """Stand-in for gluonts.dataset.loader.InferenceDataLoader: transform the entries, batch them, stack."""
    entries = [transform(entry) for entry in dataset]
    for start in range(0, len(entries), batch_size):
        yield stack_fn(entries[start:start + batch_size])


class PyTorchPredictor:
    def __init__(
        self,
        input_names: List[str],
        prediction_net: nn.Module,
        batch_size: int,
        prediction_length: int,
        freq: str,
        device: torch.device,
        input_transform: Callable,
        forecast_generator: SampleForecastGenerator = SampleForecastGenerator(),
        output_transform: Optional[Callable] = None,
        dtype: np.dtype = np.float32,
    ) -> None:
        self.prediction_length = prediction_length
        self.freq = freq
        self.input_names = input_names
        self.prediction_net = prediction_net
        self.batch_size = batch_size
        self.input_transform = input_transform
        self.forecast_generator = forecast_generator
        self.output_transform = output_transform
        self.device = device
        self.dtype = dtype

    def predict(self, dataset, num_samples: Optional[int] = None):
        inference_data_loader = InferenceDataLoader(
            dataset,
            transform=self.input_transform,
            batch_size=self.batch_size,
            stack_fn=lambda data: batchify(data, self.device),
        )

        self.prediction_net.eval()

        with torch.no_grad():
            yield from self.forecast_generator(
                inference_data_loader=inference_data_loader,
                prediction_net=self.prediction_net,
                input_names=self.input_names,
                freq=self.freq,
                output_transform=self.output_transform,
                num_samples=num_samples,
            )
