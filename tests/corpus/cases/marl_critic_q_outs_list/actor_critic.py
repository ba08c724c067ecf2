import torch
import torch.nn as nn

from util import init, to_torch


class MADDPG_Critic(nn.Module):
    """Centralised critic: one Q-value head for MADDPG, two for MATD3."""

    def __init__(self, args, central_obs_dim, central_act_dim, device, num_q_outs=1):
        super().__init__()
        self.hidden_size = args.hidden_size
        self.device = device
        self.tpdv = dict(dtype=torch.float32, device=device)
        self.mlp = nn.Sequential(nn.Linear(central_obs_dim + central_act_dim, self.hidden_size), nn.ReLU())
        init_method = [nn.init.xavier_uniform_, nn.init.orthogonal_][args.use_orthogonal]

        def init_(m):
            return init(m, init_method, lambda x: nn.init.constant_(x, 0))
        self.q_outs = [init_(nn.Linear(self.hidden_size, 1)) for _ in range(num_q_outs)]

        self.to(device)

    def forward(self, central_obs, central_act):
        central_obs = to_torch(central_obs).to(**self.tpdv)
        central_act = to_torch(central_act).to(**self.tpdv)
        x = torch.cat([central_obs, central_act], dim=1)
        x = self.mlp(x)
        q_values = [q_out(x) for q_out in self.q_outs]
        return q_values


class MATD3_Critic(MADDPG_Critic):
    def __init__(self, args, central_obs_dim, central_act_dim, device):
        super().__init__(args, central_obs_dim, central_act_dim, device, num_q_outs=2)
