import torch


def fill_masked(val: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    s = torch.tensor(float("inf"))  # a 0-dim CPU tensor used as the fill value
    return torch.masked_fill(val, mask, s)


if __name__ == "__main__":
    mask = torch.ones(5, dtype=torch.bool, device="cuda")
    val = torch.randn(5, device="cuda")
    print(fill_masked(val, mask))  # tensor([inf, inf, inf, inf, inf], device='cuda:0')
