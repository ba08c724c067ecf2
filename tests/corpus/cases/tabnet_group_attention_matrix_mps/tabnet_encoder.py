"""TabNetEncoder (feature and attentive transformers reduced to single layers)."""
from typing import List, Optional, Union

import torch
from torch.nn import BatchNorm1d, Linear, ReLU


class AttentiveTransformer(torch.nn.Module):
    def __init__(self, input_dim, group_dim, momentum=0.02):
        super().__init__()
        self.fc = Linear(input_dim, group_dim, bias=False)
        self.bn = BatchNorm1d(group_dim, momentum=momentum)

    def forward(self, priors, processed_feat):
        return torch.softmax(self.bn(self.fc(processed_feat)) * priors, dim=-1)


class TabNetEncoder(torch.nn.Module):
    def __init__(self, input_dim: int, output_dim: Union[int, List[int]], n_d: int = 8, n_a: int = 8,
                 n_steps: int = 3, gamma: float = 1.3, epsilon: float = 1e-15, momentum: float = 0.02,
                 group_attention_matrix: Optional[torch.Tensor] = None):
        super(TabNetEncoder, self).__init__()
        self.input_dim = input_dim
        self.output_dim = output_dim
        self.n_d = n_d
        self.n_a = n_a
        self.n_steps = n_steps
        self.gamma = gamma
        self.epsilon = epsilon
        self.initial_bn = BatchNorm1d(self.input_dim, momentum=0.01)
        self.group_attention_matrix = group_attention_matrix
        if self.group_attention_matrix is None:
            # no groups
            self.group_attention_matrix = torch.eye(self.input_dim)
            self.attention_dim = self.input_dim
        else:
            self.attention_dim = self.group_attention_matrix.shape[0]
        self.initial_splitter = Linear(self.input_dim, n_d + n_a)
        self.feat_transformers = torch.nn.ModuleList()
        self.att_transformers = torch.nn.ModuleList()
        for _step in range(n_steps):
            self.feat_transformers.append(Linear(self.input_dim, n_d + n_a))
            self.att_transformers.append(AttentiveTransformer(n_a, self.attention_dim, momentum=momentum))

    def forward(self, x: torch.Tensor, prior: Optional[torch.Tensor] = None):
        x = self.initial_bn(x)
        bs = x.shape[0]
        if prior is None:
            prior = torch.ones((bs, self.attention_dim), device=x.device)
        M_loss = torch.tensor(0.0, device=x.device)
        att = self.initial_splitter(x)[:, self.n_d:]
        steps_output = []
        for step in range(self.n_steps):
            M = self.att_transformers[step](prior, att)
            M_loss += torch.mean(torch.sum(torch.mul(M, torch.log(M + self.epsilon)), dim=1))
            prior = torch.mul(self.gamma - M, prior)
            M_feature_level = torch.matmul(M, self.group_attention_matrix)
            masked_x = torch.mul(M_feature_level, x)
            out = self.feat_transformers[step](masked_x)
            steps_output.append(ReLU()(out[:, : self.n_d]))
            att = out[:, self.n_d:]
        return steps_output, M_loss / self.n_steps


if __name__ == "__main__":
    device = torch.device("mps" if torch.backends.mps.is_available() else "cpu")
    encoder = TabNetEncoder(input_dim=16, output_dim=8).to(device)
    steps_output, M_loss = encoder(torch.rand((10, 16), device=device))
    print(len(steps_output), M_loss.item())
