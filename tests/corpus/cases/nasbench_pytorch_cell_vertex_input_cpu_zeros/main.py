import argparse

import torch.nn as nn
import torch.optim as optim

from nasbench_pytorch.datasets.cifar10 import prepare_dataset
from nasbench_pytorch.model import Network
from nasbench_pytorch.model import ModelSpec
from nasbench_pytorch.trainer import train, test

matrix = [[0, 1, 1, 1, 0, 1, 0],
          [0, 0, 0, 0, 0, 0, 1],
          [0, 0, 0, 0, 0, 0, 1],
          [0, 0, 0, 0, 1, 0, 0],
          [0, 0, 0, 0, 0, 0, 1],
          [0, 0, 0, 0, 0, 0, 1],
          [0, 0, 0, 0, 0, 0, 0]]

operations = ['input', 'conv1x1-bn-relu', 'conv3x3-bn-relu', 'conv3x3-bn-relu', 'conv3x3-bn-relu',
              'maxpool3x3', 'output']


if __name__ == '__main__':
    parser = argparse.ArgumentParser(description='NASBench')
    parser.add_argument('--random_state', default=1, type=int, help='Random seed.')
    parser.add_argument('--stem_out_channels', default=16, type=int, help='output channels of stem convolution')
    parser.add_argument('--num_stacks', default=2, type=int, help='#stacks of modules')
    parser.add_argument('--num_modules_per_stack', default=1, type=int, help='#modules per stack')
    parser.add_argument('--batch_size', default=16, type=int, help='batch size')
    parser.add_argument('--test_batch_size', default=16, type=int, help='test set batch size')
    parser.add_argument('--epochs', default=1, type=int, help='#epochs of training')
    parser.add_argument('--learning_rate', default=0.025, type=float, help='base learning rate')
    parser.add_argument('--momentum', default=0.9, type=float, help='momentum')
    parser.add_argument('--weight_decay', default=1e-4, type=float, help='L2 regularization weight')
    parser.add_argument('--grad_clip', default=5, type=float, help='gradient clipping')
    parser.add_argument('--num_labels', default=10, type=int, help='#classes')
    parser.add_argument('--device', default='cuda', type=str, help='Device for network training.')
    parser.add_argument('--print_freq', default=100, type=int, help='Batch print frequency.')
    args = parser.parse_args()

    dataset = prepare_dataset(args.batch_size, test_batch_size=args.test_batch_size,
                              random_state=args.random_state)
    train_loader, test_loader, test_size = dataset['train'], dataset['test'], dataset['test_size']

    spec = ModelSpec(matrix, operations)
    net = Network(spec, num_labels=args.num_labels, stem_out_channels=args.stem_out_channels,
                  num_stacks=args.num_stacks, num_modules_per_stack=args.num_modules_per_stack)
    net.to(args.device)

    criterion = nn.CrossEntropyLoss()
    optimizer = optim.SGD(net.parameters(), lr=args.learning_rate, momentum=args.momentum,
                          weight_decay=args.weight_decay)
    scheduler = optim.lr_scheduler.CosineAnnealingLR(optimizer, args.epochs)

    result = train(net, train_loader, loss=criterion, optimizer=optimizer, scheduler=scheduler,
                   grad_clip=args.grad_clip, num_epochs=args.epochs, device=args.device,
                   print_frequency=args.print_freq)
    print(f"Final train metrics: { {k: v[-1] for k, v in result.items()} }")

    result = test(net, test_loader, loss=criterion, num_tests=test_size, device=args.device)
    print(f"Final test metrics: {result}")
