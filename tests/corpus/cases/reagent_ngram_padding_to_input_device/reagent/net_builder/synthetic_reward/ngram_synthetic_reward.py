from dataclasses import dataclass, field
from typing import List

from reagent.models.synthetic_reward import (
    NGramConvolutionalNetwork,
    NGramFullyConnectedNetwork,
    SyntheticRewardNet,
)


@dataclass
class NGramSyntheticReward:
    sizes: List[int] = field(default_factory=lambda: [256, 128])
    context_size: int = 3

    def build_synthetic_reward_network(self, state_dim: int, action_dim: int) -> SyntheticRewardNet:
        net = NGramFullyConnectedNetwork(
            state_dim=state_dim,
            action_dim=action_dim,
            sizes=self.sizes,
            context_size=self.context_size,
        )
        return SyntheticRewardNet(net)


@dataclass
class NGramConvNetSyntheticReward:
    conv_dims: List[int] = field(default_factory=lambda: [256])
    context_size: int = 3

    def build_synthetic_reward_network(self, state_dim: int, action_dim: int) -> SyntheticRewardNet:
        net = NGramConvolutionalNetwork(
            state_dim=state_dim,
            action_dim=action_dim,
            conv_dims=self.conv_dims,
            context_size=self.context_size,
        )
        return SyntheticRewardNet(net)
