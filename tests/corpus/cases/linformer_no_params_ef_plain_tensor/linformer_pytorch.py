import torch
import torch.nn as nn


def get_EF(input_size, dim, method="learnable", head_dim=None, bias=True):
    """
    Returns the E or F projection: a Linear layer (learnable), a Conv1d (convolution),
    or a fixed random matrix with no parameters (no_params).
    """
    assert method in ("learnable", "convolution", "no_params")
    if method == "convolution":
        return nn.Conv1d(head_dim, head_dim, kernel_size=int(input_size / dim), stride=int(input_size / dim))
    if method == "no_params":
        mat = torch.zeros((input_size, dim))
        torch.nn.init.normal_(mat, mean=0.0, std=1 / dim)
        return mat
    lin = nn.Linear(input_size, dim, bias)
    torch.nn.init.xavier_normal_(lin.weight)
    return lin


class LinearAttentionHead(nn.Module):
    """Linear attention, as proposed by the Linformer paper."""

    def __init__(self, dim, dropout, E_proj, F_proj):
        super(LinearAttentionHead, self).__init__()
        self.E = E_proj
        self.F = F_proj
        self.dim = dim
        self.dropout = nn.Dropout(dropout)
        self.is_proj_tensor = isinstance(E_proj, torch.Tensor)

    def forward(self, Q, K, V):
        K = K.transpose(1, 2)
        if self.is_proj_tensor:
            K = torch.matmul(K, self.E)
        else:
            K = self.E(K)
        Q = torch.matmul(Q, K)
        P_bar = (Q / (self.dim ** 0.5)).softmax(dim=-1)
        P_bar = self.dropout(P_bar)

        V = V.transpose(1, 2)
        if self.is_proj_tensor:
            V = torch.matmul(V, self.F)
        else:
            V = self.F(V)
        V = V.transpose(1, 2)
        return torch.matmul(P_bar, V)


class MHAttention(nn.Module):
    """Multihead attention, each head a Linformer head."""

    def __init__(self, input_size, dim, channels, dim_k, nhead, dropout, parameter_sharing, E_proj, F_proj,
                 method="learnable"):
        super(MHAttention, self).__init__()
        self.heads = nn.ModuleList()
        if parameter_sharing != "layerwise":
            E_proj = get_EF(input_size, dim_k, method, dim)
            F_proj = get_EF(input_size, dim_k, method, dim) if parameter_sharing in ("none", "headwise") else E_proj
        self.to_q = nn.ModuleList()
        self.to_k = nn.ModuleList()
        self.to_v = nn.ModuleList()
        for _ in range(nhead):
            if parameter_sharing == "none":
                E_proj = get_EF(input_size, dim_k, method, dim)
                F_proj = get_EF(input_size, dim_k, method, dim)
            self.heads.append(LinearAttentionHead(dim, dropout, E_proj, F_proj))
            self.to_q.append(nn.Linear(channels, dim, bias=False))
            self.to_k.append(nn.Linear(channels, dim, bias=False))
            self.to_v.append(nn.Linear(channels, dim, bias=False))
        self.w_o = nn.Linear(dim * nhead, channels)
        self.mh_dropout = nn.Dropout(dropout)

    def forward(self, tensor):
        head_outputs = []
        for index, head in enumerate(self.heads):
            Q = self.to_q[index](tensor)
            K = self.to_k[index](tensor)
            V = self.to_v[index](tensor)
            head_outputs.append(head(Q, K, V))
        out = self.w_o(torch.cat(head_outputs, dim=-1))
        return self.mh_dropout(out)


class Linformer(nn.Module):
    def __init__(self, input_size, channels, dim_k, dim_ff=256, nhead=4, depth=1, dropout=0.05,
                 parameter_sharing="layerwise", method="learnable"):
        super(Linformer, self).__init__()
        head_dim = channels // nhead
        E_proj = get_EF(input_size, dim_k, method, head_dim)
        get_attn = lambda: MHAttention(input_size, head_dim, channels, dim_k, nhead, dropout, parameter_sharing,
                                       E_proj, E_proj, method=method)
        get_ff = lambda: nn.Sequential(nn.Linear(channels, dim_ff), nn.GELU(), nn.Linear(dim_ff, channels))
        layers = nn.ModuleList()
        for _ in range(depth):
            layers.append(nn.ModuleList([get_attn(), nn.LayerNorm(channels), get_ff(), nn.LayerNorm(channels)]))
        self.seq = layers

    def forward(self, tensor):
        for attn, norm1, ff, norm2 in self.seq:
            tensor = norm1(tensor + attn(tensor))
            tensor = norm2(tensor + ff(tensor))
        return tensor


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = Linformer(
        input_size=512,  # dimension 1 of the input
        channels=64,  # dimension 2 of the input
        dim_k=64,  # the projected length of keys and values
        nhead=4,
        depth=2,
        parameter_sharing="layerwise",  # one E/F shared by every head and layer
        method="no_params",  # fixed random projections instead of Linear layers
    ).to(device)

    x = torch.randn(2, 512, 64, device=device)
    y = model(x)
    print(y.shape)
