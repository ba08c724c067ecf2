import torch
import torch.nn as nn

from snntorch import spikegen

dtype = torch.float


class LossFunctions:
    def _prediction_check(self, spk_out):
        device = "cpu"
        if spk_out.is_cuda:
            device = "cuda"

        num_steps = spk_out.size(0)
        num_outputs = spk_out.size(-1)

        return device, num_steps, num_outputs


class mse_membrane_loss(LossFunctions):
    """Mean square error between the output membrane potential and on/off targets, summed over time."""

    def __init__(self, time_var_targets=False, on_target=1, off_target=0):
        self.time_var_targets = time_var_targets
        self.on_target = on_target
        self.off_target = off_target
        self.__name__ = "mse_membrane_loss"

    def __call__(self, mem_out, targets):
        device, num_steps, num_outputs = self._prediction_check(mem_out)
        targets = spikegen.targets_convert(targets, num_classes=num_outputs, on_target=self.on_target,
                                           off_target=self.off_target)
        loss = torch.zeros((1), dtype=dtype, device=device)
        loss_fn = nn.MSELoss()
        if self.time_var_targets:
            for step in range(num_steps):
                loss += loss_fn(mem_out[step], targets[step])
        else:
            for step in range(num_steps):
                loss += loss_fn(mem_out[step], targets)
        return loss / num_steps
