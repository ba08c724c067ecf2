import torch
from torch import nn


class CRF(nn.Module):
    def __init__(self, num_tags):
        super().__init__()
        self.start_transitions = nn.Parameter(torch.empty(num_tags).uniform_(-0.1, 0.1))
        self.end_transitions = nn.Parameter(torch.empty(num_tags).uniform_(-0.1, 0.1))
        self.transitions = nn.Parameter(torch.empty(num_tags, num_tags).uniform_(-0.1, 0.1))

    def forward(self, emissions, tags, mask=None):
        if mask is None:
            mask = torch.ones_like(tags, dtype=torch.uint8)
        mask = mask.bool()
        seq_length, batch_size = tags.shape
        score = self.start_transitions[tags[0]] + emissions[0, torch.arange(batch_size, device=tags.device), tags[0]]
        for i in range(1, seq_length):
            step = self.transitions[tags[i - 1], tags[i]] + emissions[i, torch.arange(batch_size, device=tags.device), tags[i]]
            score = score + step * mask[i]
        return score + self.end_transitions[tags[-1]]


if __name__ == "__main__":
    device = torch.device("cuda")
    crf = CRF(5).to(device)
    emissions = torch.randn(7, 3, 5, device=device)
    tags = torch.randint(5, (7, 3), device=device)
    print(crf(emissions, tags))
