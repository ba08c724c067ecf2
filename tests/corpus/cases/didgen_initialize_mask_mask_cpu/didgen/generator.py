from .inverter import initialize
from .config import default_config_dict

from types import SimpleNamespace
import torch
import os


def to_SimpleNamespace(conf_dict):
    return SimpleNamespace(**conf_dict)


def generate(n, output, config=None, seed=None):

    if seed is not None:
        torch.manual_seed(seed)

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    if config is None:
        config_dict = {}
    else:
        config_dict = config

    all_config_dict = {**default_config_dict, **config_dict}

    config = to_SimpleNamespace(all_config_dict)

    config.bonding = torch.tensor(config.bonding, device=device)

    config.bonding_mask = [(config.bonding == i) for i in set(config.bonding.tolist()) if i > 0]

    os.makedirs(output, exist_ok=True)

    print("Starting molecule generation loop", flush=True)

    output_list = []
    i = 0
    j = 0
    while i < n and j < n * config.max_attempts:

        print("Molecule %d:" % i)

        fea_h, adj_vec, config = initialize(config, output, j, device=device)

        output_list.append((fea_h.detach(), adj_vec.detach()))
        i += 1
        j += 1

    return output_list
