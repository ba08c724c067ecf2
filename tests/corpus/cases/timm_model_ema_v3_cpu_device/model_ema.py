from copy import deepcopy
from typing import Optional

import torch
from torch import nn


class ModelEmaV3(nn.Module):
    """Exponential moving average of a model's state_dict; set device='cpu' to keep the EMA off the GPU."""

    def __init__(self, model, decay: float = 0.9999, device: Optional[torch.device] = None, foreach: bool = True):
        super().__init__()
        # make a copy of the model for accumulating moving average of weights
        self.module = deepcopy(model)
        self.module.eval()
        self.decay = decay
        self.foreach = foreach
        self.device = device  # perform ema on different device from model if set
        if self.device is not None:
            self.foreach = False  # cannot use foreach methods with different devices
            self.module.to(device=device)

    @torch.no_grad()
    def update(self, model):
        if self.foreach:
            ema_values = [v for v in self.module.state_dict().values() if v.is_floating_point()]
            model_values = [v for v in model.state_dict().values() if v.is_floating_point()]
            torch._foreach_lerp_(ema_values, model_values, weight=1. - self.decay)
        else:
            for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
                if ema_v.is_floating_point():
                    ema_v.lerp_(model_v, weight=1. - self.decay)
                else:
                    ema_v.copy_(model_v)

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)


if __name__ == "__main__":
    model = nn.Sequential(nn.Conv2d(3, 16, 3), nn.BatchNorm2d(16), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                          nn.Linear(16, 10)).cuda()
    model_ema = ModelEmaV3(model, decay=0.9998, device=torch.device("cpu"))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        loss = model(torch.randn(8, 3, 32, 32, device="cuda")).logsumexp(1).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        model_ema.update(model)
