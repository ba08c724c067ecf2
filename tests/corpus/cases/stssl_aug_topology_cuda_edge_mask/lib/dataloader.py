import numpy as np
import torch


def STDataloader(X, Y, batch_size, shuffle=True, drop_last=True):
    cuda = True if torch.cuda.is_available() else False
    device = 'cuda' if cuda else 'cpu'
    X = torch.tensor(X, dtype=torch.float, device=device)
    Y = torch.tensor(Y, dtype=torch.float, device=device)
    data = torch.utils.data.TensorDataset(X, Y)
    dataloader = torch.utils.data.DataLoader(
        data,
        batch_size=batch_size,
        shuffle=shuffle,
        drop_last=drop_last,
    )
    return dataloader


def get_dataloader(args):
    """Stand-in for the NYCBike1 .npz files: flows [n, l, v, c] and targets [n, 1, v, c]."""
    rng = np.random.default_rng(0)
    x_train = rng.random((64, args.input_length, args.num_nodes, 2)).astype(np.float32) * 20
    y_train = rng.random((64, 1, args.num_nodes, 2)).astype(np.float32) * 20
    return {'train': STDataloader(x_train, y_train, args.batch_size, shuffle=True)}
