import torch

from nanofold.structure import StructureModule

device = "cuda"
model = StructureModule(num_layers=4, single_embedding_size=64, pair_embedding_size=32)
model = model.to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

single = torch.zeros(2, 50, 64, device=device)
pair = torch.randn(2, 50, 50, 32, device=device)
local_coords = torch.randn(2, 50, 3, 3, device=device)
coords = model(single, pair, local_coords)
loss = coords.pow(2).mean()
loss.backward()
optimizer.step()
