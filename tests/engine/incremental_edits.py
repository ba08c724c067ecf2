"""Random but plausible edits to PyTorch source, for the incremental-analysis tests."""
from __future__ import annotations

import random

SNIPPETS = [
    "x = torch.zeros(4)",
    "    x = torch.zeros(4)",
    "        y = torch.randn(2, 2) + x",
    "        return x.cuda()",
    "    h = h.to(device)",
    "        h.to(device)",
    "device = torch.device(\"cuda\")",
    "device = \"cpu\"",
    "model = Net().to(device)",
    "    self.scale = torch.ones(1)",
    "        self.scale = torch.ones(1)",
    "@torch.no_grad()",
    "def helper(t):",
    "    return t.cpu()",
    "class Extra(nn.Module):",
    "    def forward(self, x):",
    "        return x + torch.arange(3)",
    "for batch in loader:",
    "    out = model(batch)",
    "    loss.backward()",
    "    print(loss.item())",
    "import torch",
    "else:",
    "    pass",
    "",
    "# comment",
    "(",
    ")",
    '"""',
]


def mutate(lines: list[str], rng: random.Random) -> list[str]:
    """One edit: insert, delete or change a line (often leaving code that does not parse)."""
    out = list(lines)
    i = rng.randrange(len(out) + 1)
    op = rng.random()
    if op < 0.45 or not out:
        out.insert(i, rng.choice(SNIPPETS))
    elif op < 0.75:
        del out[min(i, len(out) - 1)]
    else:
        j = min(i, len(out) - 1)
        out[j] = out[j] + rng.choice([" + 1", ".cuda()", ".to(device)", "x", ":", ""])
    return out
