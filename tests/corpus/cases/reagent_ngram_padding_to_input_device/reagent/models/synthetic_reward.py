from typing import List

import torch
import torch.nn as nn

from reagent.core import types as rlt


def ngram(input: torch.Tensor, context_size: int, ngram_padding: torch.Tensor):
    # input shape: seq_len, batch_size, state_dim + action_dim
    seq_len, batch_size, feature_dim = input.shape

    shifted_list = []
    for i in range(context_size):
        offset = i - context_size // 2
        if offset < 0:
            shifted = torch.cat(
                (ngram_padding.tile((-offset, batch_size, 1)), input.narrow(0, 0, seq_len + offset)),
                dim=0,
            )
        elif offset > 0:
            shifted = torch.cat(
                (input.narrow(0, offset, seq_len - offset), ngram_padding.tile(offset, batch_size, 1)),
                dim=0,
            )
        else:
            shifted = input
        shifted_list.append(shifted)

    # shape: seq_len, batch_size, feature_dim * context_size
    return torch.cat(shifted_list, dim=-1)


def _gen_mask(valid_step: torch.Tensor, batch_size: int, seq_len: int):
    device = valid_step.device
    mask = torch.arange(seq_len, device=device).repeat(batch_size, 1)
    return (mask >= (seq_len - valid_step)).float()


class SyntheticRewardNet(nn.Module):
    """Wraps a net mapping (state, action) sequences to per-step rewards."""

    def __init__(self, net: nn.Module):
        super().__init__()
        self.net = net

    def forward(self, training_batch: rlt.MemoryNetworkInput):
        state = training_batch.state.float_features
        action = training_batch.action
        valid_step = training_batch.valid_step
        seq_len, batch_size, _ = action.shape

        output = self.net(state, action)
        mask = _gen_mask(valid_step, batch_size, seq_len)
        pred_reward = (output * mask).sum(dim=1, keepdim=True)
        return rlt.RewardNetworkOutput(predicted_reward=pred_reward)


class NGramFullyConnectedNetwork(nn.Module):
    def __init__(self, state_dim: int, action_dim: int, sizes: List[int], context_size: int) -> None:
        assert context_size % 2 == 1, f"Context size is not odd: {context_size}"
        super().__init__()
        self.context_size = context_size
        self.ngram_padding = torch.zeros(1, 1, state_dim + action_dim)
        layers: List[nn.Module] = []
        prev = (state_dim + action_dim) * context_size
        for size in sizes:
            layers += [nn.Linear(prev, size), nn.ReLU()]
            prev = size
        layers += [nn.Linear(prev, 1), nn.Sigmoid()]
        self.fc = nn.Sequential(*layers)

    def forward(self, state: torch.Tensor, action: torch.Tensor) -> torch.Tensor:
        input = torch.cat((state, action), dim=-1)
        # shape: seq_len, batch_size, (state_dim + action_dim) * context_size
        ngram_input = ngram(input, self.context_size, self.ngram_padding.to(input.device))
        # shape: batch_size, seq_len
        return self.fc(ngram_input).transpose(0, 1).squeeze(2)


class NGramConvolutionalNetwork(nn.Module):
    def __init__(self, state_dim: int, action_dim: int, conv_dims: List[int], context_size: int) -> None:
        assert context_size % 2 == 1, f"Context size is not odd: {context_size}"
        super().__init__()
        self.context_size = context_size
        self.input_width = state_dim + action_dim
        self.input_height = context_size
        self.conv_net = nn.Sequential(
            nn.Conv2d(1, conv_dims[0], (1, self.input_width)),
            nn.ReLU(),
            nn.Flatten(),
            nn.Linear(conv_dims[0] * context_size, 1),
        )
        self.ngram_padding = torch.zeros(1, 1, state_dim + action_dim)

    def forward(self, state: torch.Tensor, action: torch.Tensor) -> torch.Tensor:
        input = torch.cat((state, action), dim=-1)
        ngram_input = ngram(input, self.context_size, self.ngram_padding.to(input.device))
        seq_len, batch_size, _ = ngram_input.shape
        reshaped = ngram_input.reshape(-1, 1, self.input_height, self.input_width)
        return self.conv_net(reshaped).reshape(seq_len, batch_size).transpose(0, 1)
