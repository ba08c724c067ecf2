import torch
import pickle
import os


def start_from(data, config):

    device = data.x.device

    N = config.max_size

    tidx = torch.tril_indices(row=N, col=N, offset=-1)

    # Get to correct shape
    atom_fea = torch.zeros((N, len(config.type_list)), device=device)
    atom_fea[:data.x.shape[0], :] = data.x[:, :len(config.type_list)]

    adj = torch.zeros(N, N, device=device)
    for n, (i, j) in enumerate(data.edge_index.T):
        adj[i, j] = data.edge_attr[n, :].matmul(torch.tensor([1, 2, 3, 1.5], device=device))

    adj_vec = torch.zeros(N * (N - 1) // 2, device=device)
    for i, t in enumerate(tidx.T):
        adj_vec[i] = adj[t[0], t[1]]

    adj_vec = torch.sqrt(adj_vec)

    return atom_fea, adj_vec


def initialize(config, output, i, device="cpu"):

    N = config.max_size

    if type(config.starting_size) == list:
        max_N = int(torch.randint(*config.starting_size, (1,)))
    else:
        max_N = config.starting_size

    tidx = torch.tril_indices(row=N, col=N, offset=-1)

    os.makedirs(output + "/save_random", exist_ok=True)

    if config.start_from == "random":

        adj_vec = torch.randn((N * (N - 1) // 2), device=device) * config.bond_multiplier

        fea_h = torch.zeros((N, len(config.type_list)), device=device)

        for b in config.bonding_mask:
            fea_h[:, b] = torch.rand((N, sum(b)), device=device)

        pickle.dump((adj_vec, fea_h), open(output + "/save_random/%d.pkl" % (i), "wb"))  # Save the random full matrices

        # Shorten the input to fit max_N

        adj_vec[(tidx[0] > max_N - 1) | (tidx[1] > max_N - 1)] = 0

    elif config.start_from == "saved":

        adj_vec, fea_h = pickle.load(open(output + "/save_random/%d.pkl" % (i), "rb"))

        # Shorten the input to fit max_N

        adj_vec[(tidx[0] > max_N - 1) | (tidx[1] > max_N - 1)] = 0

    else:

        def keep_in(data):
            return len(data.x) <= config.max_size

        assert len(config.datasets) == 1, "Need only one dataset to start from"

        dset = config.datasets[0]

        from torch_geometric.datasets import QM9

        dataset = QM9(output + "/" + dset, pre_filter=keep_in)

        if config.start_from == "!":
            starting_tries = 1000

            size = config.starting_size + 1
            tries = 0
            while size > config.starting_size and tries < starting_tries:
                qmid = int(torch.randint(len(dataset), (1,)))
                size = len(dataset[qmid].x)

            if tries == starting_tries:
                raise RuntimeError("Could not find a molecule of the right size in dataset")
        else:
            qmid = int(config.start_from)
            if len(dataset[qmid].x) > config.starting_size:
                raise RuntimeError("Molecule larger than starting_size")

        fea_h, adj_vec = start_from(dataset[qmid].to(device), config)

        mask = (adj_vec == 0)
        mask_mask = (torch.rand(mask.shape) > 0.15)
        config.adj_mask = ~(mask * mask_mask)

        # nudge

        N = config.max_size

        fea_h = fea_h + torch.randn(fea_h.shape, device=device) * config.adj_eps

        adj_vec = adj_vec + torch.randn((N * (N - 1) // 2), device=device) * config.adj_eps

        pickle.dump((adj_vec, fea_h), open(output + "/save_random/%d.pkl" % (i), "wb"))  # Save the random full matrices

    adj_vec.requires_grad = True
    fea_h.requires_grad = True

    return fea_h, adj_vec, config
