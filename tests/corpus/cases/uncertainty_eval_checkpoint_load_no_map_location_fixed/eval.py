'''Evaluate a CIFAR-10 ResNet (with ADF and/or MC dropout) from a checkpoint.'''
import torch
import torch.nn as nn
import torch.backends.cudnn as cudnn

import torchvision
import torchvision.transforms as transforms

import argparse
import os
import time

from models.resnet import ResNet18
from models.resnet_dropout import ResNet18Dropout
from models_adf.resnet_adf import ResNet18ADF
from models_adf.resnet_adf_dropout import ResNet18ADFDropout

parser = argparse.ArgumentParser(description='PyTorch CIFAR10 Training')
parser.add_argument('--p', default=0.2, type=float, help='dropout rate')
parser.add_argument('--noise_variance', default=1e-4, type=float)
parser.add_argument('--min_variance', default=1e-4, type=float)
parser.add_argument('--load_model_name', default='resnet18_dropout', type=str)
parser.add_argument('--test_model_name', default='resnet18_dropout_adf', type=str)
parser.add_argument('--resume', '-r', action='store_true', default=True)
parser.add_argument('--verbose', '-v', action='store_true', default=True)
args = parser.parse_args()

device = 'cuda' if torch.cuda.is_available() else 'cpu'
best_acc = 0
start_epoch = 0

transform_test = transforms.Compose([
    transforms.ToTensor(),
    transforms.Normalize((0.4914, 0.4822, 0.4465), (0.2023, 0.1994, 0.2010)),
])
testset = torchvision.datasets.CIFAR10(root='./data', train=False, download=True, transform=transform_test)
testloader = torch.utils.data.DataLoader(testset, batch_size=100, shuffle=False, num_workers=2)


def model_loader():
    model = {'resnet18': ResNet18,
             'resnet18_dropout': ResNet18Dropout,
             'resnet18_adf': ResNet18ADF,
             'resnet18_dropout_adf': ResNet18ADFDropout}
    params = {'resnet18': [],
              'resnet18_dropout': [args.p],
              'resnet18_adf': [args.noise_variance, args.min_variance],
              'resnet18_dropout_adf': [args.p, args.noise_variance, args.min_variance]}
    return model[args.test_model_name.lower()](*params[args.test_model_name.lower()])


net = model_loader().to(device)
criterion = nn.CrossEntropyLoss()

if device == 'cuda':
    net = torch.nn.DataParallel(net)
    cudnn.benchmark = True

if args.resume:
    if args.verbose: print('==> Resuming from checkpoint..')
    assert os.path.isdir('checkpoint'), 'Error: no checkpoint directory found!'
    model_to_load = args.load_model_name.lower()
    ckpt_path = './checkpoint/ckpt_{}.pth'.format(model_to_load)
    checkpoint = torch.load(ckpt_path,map_location=torch.device(device))
    if args.verbose: print('Loaded checkpoint at location {}'.format(ckpt_path))
    net.load_state_dict(checkpoint['net'])
    best_acc = checkpoint['acc']
    start_epoch = checkpoint['epoch']


def evaluate(net):
    net.eval()
    test_loss = 0
    correct = 0
    total = 0
    with torch.no_grad():
        for batch_idx, (inputs, targets) in enumerate(testloader):
            inputs, targets = inputs.to(device), targets.to(device)
            outputs = net(inputs)
            if isinstance(outputs, tuple):
                outputs = outputs[0]
            loss = criterion(outputs, targets)
            test_loss += loss.item()
            _, predicted = outputs.max(1)
            total += targets.size(0)
            correct += predicted.eq(targets).sum().item()
    return 100. * correct / total


eval_time = time.time()
accuracy = evaluate(net)
print('Accuracy = {}  (checkpoint epoch {}, best_acc {})'.format(accuracy, start_epoch, best_acc))
print('Time     = {}'.format(time.time() - eval_time))
