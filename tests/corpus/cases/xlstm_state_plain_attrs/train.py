import torch

from slstm_block import SLSTMBlock

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
x_example = torch.zeros(4, 16, 64)
block = SLSTMBlock(x_example)
block.to(device)
optimizer = torch.optim.AdamW(block.parameters(), lr=3e-4)
for _ in range(100):
    x = torch.randn(4, 16, 64, device=device)
    loss = block(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
