"""GPU wrappers: the run's device is chosen once by set_gpu_mode."""
import os

import torch

use_gpu = False
gpu_id = 0
device = None


def set_gpu_mode(mode):
    global use_gpu
    global device
    global gpu_id
    gpu_id = int(os.environ.get("SLURM_LOCALID", 0))
    use_gpu = mode
    device = torch.device(f"cuda:{gpu_id}" if use_gpu else "cpu")
