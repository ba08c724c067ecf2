"""Shared by the probe's LSP tests: a script whose last cell fails on a GPU, and a wait."""
from __future__ import annotations

import asyncio

SCRIPT = '''\
import torch
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
# %%
model = torch.nn.Linear(4, 2).to(device)
x = torch.randn(8, 4)
xb = x.to(device)
y = model(xb)
# %%
out = model(x)
'''


async def wait_for(predicate, timeout=120.0):
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(0.05)
