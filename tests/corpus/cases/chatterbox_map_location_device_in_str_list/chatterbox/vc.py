import logging
from pathlib import Path

import torch
from safetensors.torch import load_file

logger = logging.getLogger(__name__)


class S3Gen(torch.nn.Module):
    """Speech-token-to-waveform generator (a small stand-in)."""

    def __init__(self):
        super().__init__()
        self.flow = torch.nn.Linear(80, 80)


class ChatterboxVC:
    def __init__(self, s3gen: S3Gen, device: str, ref_dict: dict = None):
        self.s3gen = s3gen
        self.device = device
        if ref_dict is None:
            self.ref_dict = None
        else:
            self.ref_dict = {
                k: v.to(device) if torch.is_tensor(v) else v
                for k, v in ref_dict.items()
            }

    @classmethod
    def from_local(cls, ckpt_dir, device) -> 'ChatterboxVC':
        ckpt_dir = Path(ckpt_dir)

        # Always load to CPU first for non-CUDA devices to handle CUDA-saved models
        if device in ["cpu", "mps"]:
            map_location = torch.device('cpu')
        else:
            map_location = None

        ref_dict = None
        if (builtin_voice := ckpt_dir / "conds.pt").exists():
            states = torch.load(builtin_voice, map_location=map_location)
            ref_dict = states['gen']

        s3gen = S3Gen()
        s3gen.load_state_dict(load_file(ckpt_dir / "s3gen.safetensors"), strict=False)
        s3gen.to(device).eval()

        return cls(s3gen, device, ref_dict=ref_dict)
