import numpy as np
import torch
from torch import nn

from hnets import HMLP
from mnets import MLP

device = "cuda" if torch.cuda.is_available() else "cpu"

mnet = MLP(n_in=784, n_out=10, hidden_layers=[100, 100], no_weights=True).to(device)
hnet = HMLP(mnet.param_shapes, cond_in_size=8, layers=[100, 100], num_cond_embs=2)

optimizer = torch.optim.Adam(hnet.parameters(), lr=1e-4)
criterion = nn.CrossEntropyLoss()
for step in range(1000):
    mnist_inps = np.random.rand(32, 784).astype(np.float32)
    X = torch.from_numpy(mnist_inps).to(device)
    T = torch.randint(0, 10, (32,), device=device)
    W = hnet.forward(cond_id=0)
    Y = mnet.forward(X, weights=W)
    loss = criterion(Y, T)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
