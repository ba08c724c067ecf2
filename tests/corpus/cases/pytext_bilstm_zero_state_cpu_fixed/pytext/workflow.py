import torch

from pytext.task.task import DocClassificationTask
from pytext.utils import cuda_utils


def _set_cuda(use_cuda_if_available: bool, device_id: int = 0) -> None:
    cuda_utils.CUDA_ENABLED = use_cuda_if_available and torch.cuda.is_available()
    if use_cuda_if_available and not cuda_utils.CUDA_ENABLED:
        print("Cuda is not available, running on CPU...")
    elif cuda_utils.CUDA_ENABLED:
        torch.cuda.set_device(device_id)


def train_model(config):
    _set_cuda(config.get("use_cuda_if_available", True))
    task = DocClassificationTask.from_config(config)
    task.train(config["epochs"], config["batch_size"])
    return task.model


if __name__ == "__main__":
    train_model(dict(vocab_size=1000, embed_dim=64, num_labels=5, lr=1e-3, epochs=2, batch_size=32))
