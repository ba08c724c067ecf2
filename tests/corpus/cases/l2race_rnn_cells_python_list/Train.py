"""
Created on Fri Jun 19 06:21:32 2020

@author: Marcin
"""
import argparse

import numpy as np
import torch.optim as optim
import torch.utils.data.dataloader
from torch.optim import lr_scheduler

from utilis import *

device = get_device()


def my_args():
    parser = argparse.ArgumentParser(description='Train a GRU network.')
    parser.add_argument('--rnn_name', default='GRU-64H1-64H2', type=str)
    parser.add_argument('--inputs_list', nargs='+', default=['cmd.throttle', 'cmd.steering', 'pos.x', 'pos.y', 'speed'])
    parser.add_argument('--outputs_list', nargs='+', default=['pos.x', 'pos.y', 'speed'])
    parser.add_argument('--warm_up_len', default=8, type=int)
    parser.add_argument('--seq_len', default=24, type=int)
    parser.add_argument('--lr', default=1.0e-3, type=float)
    parser.add_argument('--batch_size', default=16, type=int)
    parser.add_argument('--num_epochs', default=2, type=int)
    parser.add_argument('--num_workers', default=0, type=int)
    return parser.parse_args()


args = my_args()


def load_data(n_samples, args):
    # random car trajectories stand for the recorded CSV files
    features = np.random.randn(n_samples, len(args.inputs_list)).astype(np.float32)
    targets = np.random.randn(n_samples, len(args.outputs_list)).astype(np.float32)
    return features, targets


def train_network(load_pretrained):
    lr = args.lr  # learning rate
    batch_size = args.batch_size  # Mini-batch size
    num_epochs = args.num_epochs  # Number of epochs to train the network
    rnn_name = args.rnn_name

    ########################################################
    # Create Dataset
    ########################################################

    train_features, train_targets = load_data(200, args)
    train_set = Dataset(train_features, train_targets, args)

    # Create PyTorch dataloaders for train and dev set
    train_generator = data.DataLoader(dataset=train_set, batch_size=batch_size, shuffle=True, num_workers=args.num_workers)

    # Create RNN instance
    net = Sequence(rnn_name=rnn_name, inputs_list=args.inputs_list, outputs_list=args.outputs_list)

    # Select Optimizer
    optimizer = optim.Adam(net.parameters(), amsgrad=True, lr=lr)
    scheduler = lr_scheduler.StepLR(optimizer, step_size=3, gamma=0.1)

    # Select Loss Function
    criterion = nn.MSELoss()  # Mean square error loss function

    # Initialize weights and biases - should be only applied if no pretrained net loaded
    if not load_pretrained:
        initialize_weights_and_biases(net)

    for epoch in range(num_epochs):
        # Set RNN in training mode
        net = net.train()
        train_loss = 0
        train_batches = 0

        for batch, labels in train_generator:  # Iterate through batches

            # Reset the network (internal states of hidden layers and output history not the weights!)
            net.reset()

            # Further modifying the input and output form to fit RNN requirements
            # If GPU available we send tensors to GPU (cuda)
            if torch.cuda.is_available():
                batch = batch.float().cuda().transpose(0, 1)
                labels = labels.float().cuda()
            else:
                batch = batch.float().transpose(0, 1)
                labels = labels.float()

            # Warm-up (open loop prediction) to settle the internal state of RNN hidden layers
            net.initialize_sequence(rnn_input=batch,
                                    warm_up_len=args.warm_up_len,
                                    all_input=False,
                                    stack_output=False)

            # Reset memory of gradients
            optimizer.zero_grad()

            # Forward propagation - These are the results from which we calculate the update to RNN weights
            out = net.initialize_sequence(rnn_input=batch[:args.warm_up_len, :, :],
                                          warm_up_len=args.warm_up_len,
                                          all_input=False,
                                          stack_output=True)

            # Get loss
            loss = criterion(out[:, args.warm_up_len: 2 * args.warm_up_len],
                             labels[:, args.warm_up_len: 2 * args.warm_up_len])

            # Backward propagation
            loss.backward()

            # Gradient clipping - prevent gradient from exploding
            torch.nn.utils.clip_grad_norm_(net.parameters(), 100)

            # Update parameters
            optimizer.step()
            scheduler.step()
            train_loss += loss.detach()
            train_batches += 1

        print('Epoch: {} train loss: {}'.format(epoch, train_loss / train_batches))


if __name__ == '__main__':
    train_network(load_pretrained=False)
