from dataclasses import dataclass
from typing import Optional

import torch


@dataclass
class FeatureData:
    float_features: torch.Tensor


@dataclass
class MemoryNetworkInput:
    state: FeatureData
    action: torch.Tensor
    valid_step: Optional[torch.Tensor] = None
    reward: Optional[torch.Tensor] = None


@dataclass
class RewardNetworkOutput:
    predicted_reward: torch.Tensor
