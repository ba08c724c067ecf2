import torch


class BaseTrainer:
    """Base class for all trainers: sets up the device and moves the model there."""

    def __init__(self, model, loss, optimizer, config):
        self.config = config
        self.device, device_ids = self._prepare_device(config["n_gpu"])
        self.model = model.to(self.device)
        if len(device_ids) > 1:
            self.model = torch.nn.DataParallel(model, device_ids=device_ids)
        self.loss = loss
        self.optimizer = optimizer

    def _prepare_device(self, n_gpu_use):
        n_gpu = torch.cuda.device_count()
        if n_gpu_use > n_gpu:
            n_gpu_use = n_gpu
        device = torch.device("cuda:0" if n_gpu_use > 0 else "cpu")
        return device, list(range(n_gpu_use))
