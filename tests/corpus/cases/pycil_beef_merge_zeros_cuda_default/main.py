import torch
from torch.utils.data import DataLoader, TensorDataset

import trainer

# exps/beef.json, edited to train on the second GPU
args = {"model_name": "beefiso", "convnet_type": "resnet32", "device": ["1"], "seed": [1993]}


def task_loader(first_class, task_size, n=64):
    images = torch.randn(n, 3, 32, 32)
    targets = torch.randint(first_class, first_class + task_size, (n,))
    return DataLoader(TensorDataset(torch.arange(n), images, targets), batch_size=16)


if __name__ == "__main__":
    trainer.train(args, [(10, task_loader(0, 10)), (10, task_loader(10, 10))])
