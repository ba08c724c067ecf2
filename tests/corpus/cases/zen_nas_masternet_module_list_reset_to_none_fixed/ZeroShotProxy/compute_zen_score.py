"""
Zen-score: how much the pre-GAP features move under a small input perturbation,
plus the log of the batch-norm scales. No training, random Gaussian weights.
"""
import torch
from torch import nn
import numpy as np


def network_weight_gaussian_init(net: nn.Module):
    with torch.no_grad():
        for module in net.modules():
            if isinstance(module, (nn.Conv2d, nn.Linear)):
                nn.init.normal_(module.weight)
            elif isinstance(module, nn.BatchNorm2d):
                nn.init.ones_(module.weight)
                nn.init.zeros_(module.bias)
    return net


def compute_nas_score(gpu, model, mixup_gamma, resolution, batch_size, repeat, fp16=False):
    device = torch.device(f'cuda:{gpu}') if gpu is not None else torch.device('cpu')
    dtype = torch.half if fp16 else torch.float32
    if fp16:
        model = model.half()

    scores = []
    with torch.no_grad():
        for _ in range(repeat):
            network_weight_gaussian_init(model)
            input1 = torch.randn(size=[batch_size, 3, resolution, resolution], device=device, dtype=dtype)
            input2 = torch.randn(size=[batch_size, 3, resolution, resolution], device=device, dtype=dtype)
            mixup_input = input1 + mixup_gamma * input2
            output = model.forward_pre_GAP(input1)
            mixup_output = model.forward_pre_GAP(mixup_input)

            nas_score = torch.mean(torch.sum(torch.abs(output - mixup_output), dim=[1, 2, 3]))
            log_bn_scaling_factor = 0.0
            for module in model.modules():
                if isinstance(module, nn.BatchNorm2d):
                    log_bn_scaling_factor += torch.log(torch.sqrt(torch.mean(module.running_var)))
            scores.append(float(torch.log(nas_score) + log_bn_scaling_factor))

    return {'avg_nas_score': float(np.mean(scores)), 'std_nas_score': float(np.std(scores))}
