import torch


def accumulate_counts(n_bins: int) -> torch.Tensor:
    idx = torch.tensor([0, 1])
    b = torch.zeros(n_bins).cuda()
    c = torch.tensor([1., 2.])  # should be c = torch.tensor([1., 2.]).cuda()
    b.index_put_((idx,), c, accumulate=True)
    return b


if __name__ == "__main__":
    print(accumulate_counts(5))
