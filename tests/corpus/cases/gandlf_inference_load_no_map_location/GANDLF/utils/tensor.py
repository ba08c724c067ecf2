import os
import sys

import torch
import torch.nn as nn


def send_model_to_device(model, amp, device, optimizer):
    """Read the environment and send the model to the requested device; returns model, amp, device."""
    if device != "cpu":
        if os.environ.get("CUDA_VISIBLE_DEVICES") is None:
            sys.exit("Please set the environment variable 'CUDA_VISIBLE_DEVICES' correctly before trying to run GANDLF on GPU")
        dev = os.environ.get("CUDA_VISIBLE_DEVICES")
        if "," in dev:
            device = torch.device("cuda")
            model = nn.DataParallel(model, "[" + dev + "]")
        else:
            device = torch.device("cuda")
    else:
        device = torch.device("cpu")
        amp = False
    model = model.to(device)
    return model, amp, device
