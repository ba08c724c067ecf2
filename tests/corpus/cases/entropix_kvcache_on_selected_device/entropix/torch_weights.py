from pathlib import Path
from typing import List, NamedTuple

import numpy as np
import torch

from entropix.torch_device import get_device

device = get_device()


class LayerWeights(NamedTuple):
    wq: torch.Tensor
    wk: torch.Tensor
    wv: torch.Tensor
    wo: torch.Tensor
    attention_norm: torch.Tensor


class XfmrWeights(NamedTuple):
    tok_embeddings: torch.Tensor
    norm: torch.Tensor
    output: torch.Tensor
    layer_weights: List[LayerWeights]


def load_weights(ckpt_dir: Path = Path("weights/1B-Instruct"), n_layers: int = 16):
    w = {}
    for file in ckpt_dir.glob("*.npy"):
        name = ".".join(file.name.split(".")[:-1])
        w[name] = torch.from_numpy(np.load(file).astype(np.float32)).to(device)
    layer_weights = [
        LayerWeights(
            wq=w[f"layers.{i}.attention.wq.weight"],
            wk=w[f"layers.{i}.attention.wk.weight"],
            wv=w[f"layers.{i}.attention.wv.weight"],
            wo=w[f"layers.{i}.attention.wo.weight"],
            attention_norm=w[f"layers.{i}.attention_norm.weight"],
        )
        for i in range(n_layers)
    ]
    return XfmrWeights(w["tok_embeddings.weight"], w["norm.weight"], w["output.weight"], layer_weights)
