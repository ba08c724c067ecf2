from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class FlowmatchingActionHeadConfig:
    action_horizon: int = 16
    action_dim: int = 32
    state_dim: int = 64
    hidden_size: int = 128
    backbone_embedding_dim: int = 256
    num_inference_timesteps: int = 4


class FlowmatchingActionHead(nn.Module):
    def __init__(self, config: FlowmatchingActionHeadConfig):
        super().__init__()
        self.config = config
        self.num_inference_timesteps = config.num_inference_timesteps
        self.state_encoder = nn.Linear(config.state_dim, config.hidden_size)
        self.action_encoder = nn.Linear(config.action_dim, config.hidden_size)
        self.vl_proj = nn.Linear(config.backbone_embedding_dim, config.hidden_size)
        self.action_decoder = nn.Linear(config.hidden_size, config.action_dim)

    @torch.no_grad()
    def get_action(self, vl_embs, state):
        state_features = self.state_encoder(state)
        vl_features = self.vl_proj(vl_embs).mean(dim=1)
        batch_size = vl_embs.shape[0]
        actions = torch.randn(batch_size, self.config.action_horizon, self.config.action_dim,
                              dtype=vl_embs.dtype, device=vl_embs.device)
        dt = 1.0 / self.num_inference_timesteps
        for _ in range(self.num_inference_timesteps):
            h = self.action_encoder(actions) + state_features[:, None, :] + vl_features[:, None, :]
            actions = actions + dt * self.action_decoder(torch.tanh(h))
        return actions
