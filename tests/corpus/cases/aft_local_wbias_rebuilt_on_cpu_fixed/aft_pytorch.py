import math

import torch
from torch import nn


class AFTFull(nn.Module):
    def __init__(self, max_seqlen, dim, hidden_dim=64):
        super().__init__()
        self.dim = dim
        self.hidden_dim = hidden_dim
        self.to_q = nn.Linear(dim, hidden_dim)
        self.to_k = nn.Linear(dim, hidden_dim)
        self.to_v = nn.Linear(dim, hidden_dim)
        self.project = nn.Linear(hidden_dim, dim)
        self.wbias = nn.Parameter(torch.Tensor(max_seqlen, max_seqlen))
        nn.init.xavier_uniform_(self.wbias)

    def forward(self, x):
        B, T, _ = x.shape
        Q = self.to_q(x).view(B, T, self.hidden_dim)
        K = self.to_k(x).view(B, T, self.hidden_dim)
        V = self.to_v(x).view(B, T, self.hidden_dim)
        bias = self.wbias[:T, :T].unsqueeze(0)
        num = torch.exp(bias) @ torch.mul(torch.exp(K), V)
        weighted = num / (torch.exp(bias) @ torch.exp(K))
        out = torch.mul(torch.sigmoid(Q), weighted).view(B, T, self.hidden_dim)
        return self.project(out)


class AFTSimple(nn.Module):
    def __init__(self, max_seqlen, dim, hidden_dim=64):
        super().__init__()
        self.dim = dim
        self.hidden_dim = hidden_dim
        self.to_q = nn.Linear(dim, hidden_dim)
        self.to_k = nn.Linear(dim, hidden_dim)
        self.to_v = nn.Linear(dim, hidden_dim)
        self.project = nn.Linear(hidden_dim, dim)

    def forward(self, x):
        B, T, _ = x.shape
        Q = self.to_q(x).view(B, T, self.hidden_dim)
        K = self.to_k(x).view(B, T, self.hidden_dim)
        V = self.to_v(x).view(B, T, self.hidden_dim)
        weights = torch.mul(torch.softmax(K, 1), V).sum(dim=1, keepdim=True)
        out = torch.mul(torch.sigmoid(Q), weights).view(B, T, self.hidden_dim)
        return self.project(out)


class AFTLocal(nn.Module):
    def __init__(self, max_seqlen, dim, hidden_dim=64, s=256):
        super().__init__()
        self.dim = dim
        self.hidden_dim = hidden_dim
        self.to_q = nn.Linear(dim, hidden_dim)
        self.to_k = nn.Linear(dim, hidden_dim)
        self.to_v = nn.Linear(dim, hidden_dim)
        self.project = nn.Linear(hidden_dim, dim)
        self.wbias = nn.Parameter(torch.Tensor(max_seqlen, max_seqlen))
        self.max_seqlen = max_seqlen
        self.s = s
        nn.init.xavier_uniform_(self.wbias)

    def forward(self, x):
        B, T, _ = x.shape
        Q = self.to_q(x).view(B, T, self.hidden_dim)
        K = self.to_k(x).view(B, T, self.hidden_dim)
        V = self.to_v(x).view(B, T, self.hidden_dim)
        # keep the learned bias only inside the local window of width s
        self.wbias = nn.Parameter(torch.Tensor([
            [self.wbias[i][j] if math.fabs(i - j) < self.s else 0 for j in range(self.max_seqlen)]
            for i in range(self.max_seqlen)
        ]).to(x.device))
        bias = self.wbias[:T, :T].unsqueeze(0)
        num = torch.exp(bias) @ torch.mul(torch.exp(K), V)
        weighted = num / (torch.exp(bias) @ torch.exp(K))
        out = torch.mul(torch.sigmoid(Q), weighted).view(B, T, self.hidden_dim)
        return self.project(out)


if __name__ == "__main__":
    layer = AFTLocal(max_seqlen=20, dim=512, hidden_dim=64).cuda()
    x = torch.rand(32, 10, 512).cuda()  # 32 sequences of 10 steps, 512 features
    y = layer(x)
    print(y.shape)
