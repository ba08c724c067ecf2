from functools import singledispatch
from typing import Callable, Iterator, List, Optional

import numpy as np


class SampleForecast:
    def __init__(self, samples: np.ndarray, start_date, freq: str, item_id=None):
        self.samples = samples
        self.start_date = start_date
        self.freq = freq
        self.item_id = item_id

    @property
    def mean(self) -> np.ndarray:
        return self.samples.mean(axis=0)


# different deep learning frameworks generate predictions and the tensor to numpy conversion differently,
# use a dispatching function to prevent needing a ForecastGenerators for each framework
@singledispatch
def predict_to_numpy(prediction_net, tensor) -> np.ndarray:
    raise NotImplementedError


class SampleForecastGenerator:
    def __call__(
        self,
        inference_data_loader,
        prediction_net,
        input_names: List[str],
        freq: str,
        output_transform: Optional[Callable],
        num_samples: Optional[int],
        **kwargs
    ) -> Iterator[SampleForecast]:
        for batch in inference_data_loader:
            inputs = [batch[k] for k in input_names]
            outputs = predict_to_numpy(prediction_net, inputs)
            if output_transform is not None:
                outputs = output_transform(batch, outputs)
            for i, output in enumerate(outputs):
                yield SampleForecast(output, start_date=batch["forecast_start"][i], freq=freq,
                                     item_id=batch["item_id"][i] if "item_id" in batch else None)
