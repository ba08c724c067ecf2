import argparse

import torch

from torch.utils.data import DataLoader, random_split
from torch.optim import Adam

from data_loaders.assist2009 import ASSIST2009
from models.dkt import DKT
from models.utils import collate_fn


def main(model_name, dataset_name):
    batch_size = 4
    num_epochs = 2
    train_ratio = 0.8
    learning_rate = 0.001
    seq_len = 20

    if dataset_name == "ASSIST2009":
        dataset = ASSIST2009(seq_len)

    if torch.cuda.is_available():
        device = "cuda"
    else:
        device = "cpu"

    if model_name == "dkt":
        model = DKT(dataset.num_q, emb_size=16, hidden_size=16).to(device)
    else:
        print("The wrong model name was used...")
        return

    train_size = int(len(dataset) * train_ratio)
    test_size = len(dataset) - train_size

    train_dataset, test_dataset = random_split(
        dataset, [train_size, test_size]
    )

    train_loader = DataLoader(
        train_dataset, batch_size=batch_size, shuffle=True,
        collate_fn=collate_fn
    )
    test_loader = DataLoader(
        test_dataset, batch_size=test_size, shuffle=True,
        collate_fn=collate_fn
    )

    opt = Adam(model.parameters(), learning_rate)

    return model.train_model(train_loader, test_loader, num_epochs, opt)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name", type=str, default="dkt")
    parser.add_argument("--dataset_name", type=str, default="ASSIST2009")
    args = parser.parse_args()

    main(args.model_name, args.dataset_name)
