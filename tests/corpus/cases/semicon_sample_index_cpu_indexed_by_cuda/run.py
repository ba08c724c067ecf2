import argparse

import torch

from data.data_loader import load_data
import baseline_train as baseline


def run():
    args = load_config()

    # Load dataset
    query_dataloader, train_dataloader, retrieval_dataloader = load_data(
        args.dataset,
        args.root,
        args.num_query,
        args.num_samples,
        args.batch_size,
        args.num_workers,
    )

    for code_length in args.code_length:
        mAP = baseline.train(query_dataloader, train_dataloader, retrieval_dataloader, code_length, args)
        print('[code_length:{}][map:{:.4f}]'.format(code_length, mAP))


def load_config():
    parser = argparse.ArgumentParser(description='ADSH_PyTorch')
    parser.add_argument('--dataset', default='cifar-10', help='Dataset name.')
    parser.add_argument('--root', default='data', help='Path of dataset')
    parser.add_argument('--batch-size', default=16, type=int)
    parser.add_argument('--lr', default=2.5e-4, type=float)
    parser.add_argument('--wd', default=1e-4, type=float)
    parser.add_argument('--code-length', default='12', type=str)
    parser.add_argument('--max-iter', default=1, type=int)
    parser.add_argument('--max-epoch', default=1, type=int)
    parser.add_argument('--num-query', default=32, type=int)
    parser.add_argument('--num-samples', default=64, type=int)
    parser.add_argument('--num-workers', default=0, type=int)
    parser.add_argument('--gpu', default=None, type=int, help='Using gpu.(default: False)')
    parser.add_argument('--gamma', default=200, type=float)
    parser.add_argument('--num_classes', default=10, type=int)
    args = parser.parse_args()

    # GPU
    if args.gpu is None:
        args.device = torch.device("cpu")
    else:
        args.device = torch.device("cuda:%d" % args.gpu)

    # Hash code length
    args.code_length = list(map(int, args.code_length.split(',')))

    return args


if __name__ == '__main__':
    run()
