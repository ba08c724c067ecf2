"""
The ``mlflow.pytorch`` module (reduced to the pyfunc wrapper that scores a PyTorch model; logging,
saving and loading models are left out).
"""
import numpy as np

_TORCH_CPU_DEVICE_NAME = "cpu"


def _load_pyfunc(pytorch_model):
    """Load PyTorch model as a PyFunc (here: wrap an in-memory model)."""
    return _PyTorchWrapper(pytorch_model)


class _PyTorchWrapper:
    """
    Wrapper class that creates a predict function such that
    predict(data: ndarray) -> model's output as numpy.ndarray
    """

    def __init__(self, pytorch_model):
        self.pytorch_model = pytorch_model

    def predict(self, data, device="cpu"):
        import torch

        if isinstance(data, np.ndarray):
            inp_data = data
        elif isinstance(data, (list, dict)):
            raise TypeError(
                "The PyTorch flavor does not support List or Dict input types. "
                "Please use a pandas.DataFrame or a numpy.ndarray"
            )
        else:
            raise TypeError("Input data should be numpy.ndarray")

        self.pytorch_model.to(device)
        self.pytorch_model.eval()
        with torch.no_grad():
            input_tensor = torch.from_numpy(inp_data).to(device)
            preds = self.pytorch_model(input_tensor)
            # if the predictions happened on a remote device, copy them back to
            # the host CPU for processing
            if device != _TORCH_CPU_DEVICE_NAME:
                preds = preds.to(_TORCH_CPU_DEVICE_NAME)
            if not isinstance(preds, torch.Tensor):
                raise TypeError(
                    "Expected PyTorch model to output a single output tensor, "
                    "but got output of type '{}'".format(type(preds))
                )
            predicted = preds.numpy()
            return predicted
