import argparse
import os
import sys
from types import SimpleNamespace

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from drugood.apis import train_model
from drugood.datasets import GraphDataset
from drugood.models.algorithms import ERM
from drugood.models.backbones import GIN


def parse_args():
    parser = argparse.ArgumentParser(description='Train a model')
    group_gpus = parser.add_mutually_exclusive_group()
    group_gpus.add_argument('--device', help='device used for training')
    group_gpus.add_argument('--gpus', type=int,
                            help='number of gpus to use (only applicable to non-distributed training)')
    group_gpus.add_argument('--gpu-ids', type=int, nargs='+',
                            help='ids of gpus to use (only applicable to non-distributed training)')
    return parser.parse_args()


def main():
    args = parse_args()
    cfg = SimpleNamespace(samples_per_gpu=8, lr=0.01, total_epochs=1)
    if args.gpu_ids is not None:
        cfg.gpu_ids = args.gpu_ids
    else:
        cfg.gpu_ids = range(1) if args.gpus is None else range(args.gpus)

    model = ERM(GIN(num_node_emb_list=[9], num_layers=2, emb_dim=32))
    dataset = GraphDataset()
    train_model(model, dataset, cfg, device=args.device or 'cuda')


if __name__ == '__main__':
    main()
