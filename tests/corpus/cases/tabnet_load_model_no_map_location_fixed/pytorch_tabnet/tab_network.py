import torch


class TabNet(torch.nn.Module):
    """Stand-in for the TabNet encoder/decoder: a feature transformer, an attentive mask and the
    sparsity term TabNet returns with its output."""

    def __init__(self, input_dim, output_dim, n_d=8, n_a=8, n_steps=3, gamma=1.3, cat_idxs=[], cat_dims=[],
                 cat_emb_dim=1, n_independent=2, n_shared=2, epsilon=1e-15, virtual_batch_size=128,
                 momentum=0.02, device_name="auto", mask_type="sparsemax"):
        super(TabNet, self).__init__()
        self.input_dim = input_dim
        self.output_dim = output_dim
        self.epsilon = epsilon
        self.attention = torch.nn.Linear(input_dim, input_dim)
        self.feat = torch.nn.Sequential(torch.nn.Linear(input_dim, n_d + n_a), torch.nn.ReLU())
        self.final_mapping = torch.nn.Linear(n_d + n_a, output_dim)

    def forward(self, x):
        M = torch.softmax(self.attention(x), dim=-1)
        M_loss = torch.mean(torch.sum(M * torch.log(M + self.epsilon), dim=1))
        return self.final_mapping(self.feat(M * x)), M_loss
