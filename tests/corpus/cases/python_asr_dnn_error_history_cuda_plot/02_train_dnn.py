# -*- coding: utf-8 -*-

#
# Train the DNN of the DNN-HMM recogniser (frame-level state classification).
#

import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader
from torch import optim

import numpy as np

import matplotlib.pyplot as plt

import os


class SequenceDataset(Dataset):
    """Stand-in for my_dataset.SequenceDataset: spliced, normalised MFCC frames of
    one utterance and its frame-level state alignment, padded with pad_index."""

    def __init__(self, num_utts, feat_dim, splice, num_labels, pad_index, max_frames=40):
        self.num_utts = num_utts
        self.dim = feat_dim * (2 * splice + 1)
        self.num_labels = num_labels
        self.pad_index = pad_index
        self.max_frames = max_frames

    def __len__(self):
        return self.num_utts

    def __getitem__(self, idx):
        feat_len = self.max_frames - idx % 5
        feat = torch.zeros(self.max_frames, self.dim)
        feat[:feat_len] = torch.randn(feat_len, self.dim)
        label = torch.full((self.max_frames,), self.pad_index, dtype=torch.long)
        label[:feat_len] = torch.randint(0, self.num_labels, (feat_len,))
        return feat, label, feat_len, feat_len, 'utt%04d' % idx


class MyDNN(nn.Module):
    """Stand-in for my_model.MyDNN: fully connected layers."""

    def __init__(self, dim_in, dim_hidden, dim_out, num_layers=2):
        super(MyDNN, self).__init__()
        self.num_layers = num_layers
        self.inp = nn.Sequential(nn.Linear(in_features=dim_in, out_features=dim_hidden), nn.ReLU())
        hidden = []
        for n in range(self.num_layers):
            hidden.append(nn.Linear(in_features=dim_hidden, out_features=dim_hidden))
            hidden.append(nn.ReLU())
        self.hidden = nn.ModuleList(hidden)
        self.out = nn.Linear(in_features=dim_hidden, out_features=dim_out)

    def forward(self, frame):
        output = self.inp(frame)
        for n in range(self.num_layers):
            output = self.hidden[n](output)
        output = self.out(output)
        return output


if __name__ == "__main__":

    output_dir = os.path.join('exp', 'model_dnn')
    batch_size = 5
    max_num_epoch = 2
    num_layers = 2
    hidden_dim = 64
    splice = 5
    initial_learning_rate = 0.008

    os.makedirs(output_dir, exist_ok=True)

    # the HMM file only gives the number of phones and states
    feat_dim = 13
    num_phones, num_states = 10, 3
    dim_out = num_phones * num_states
    pad_index = dim_out
    dim_in = feat_dim * (2 * splice + 1)

    model = MyDNN(dim_in=dim_in, dim_hidden=hidden_dim, dim_out=dim_out, num_layers=num_layers)
    optimizer = optim.SGD(model.parameters(), lr=initial_learning_rate, momentum=0.99)

    train_dataset = SequenceDataset(20, feat_dim, splice, dim_out, pad_index)
    dev_dataset = SequenceDataset(10, feat_dim, splice, dim_out, pad_index)
    train_loader = DataLoader(train_dataset, batch_size=batch_size, shuffle=True)
    dev_loader = DataLoader(dev_dataset, batch_size=batch_size, shuffle=False)

    criterion = nn.CrossEntropyLoss(ignore_index=pad_index)

    # model parameters on the GPU when CUDA is available, else on the CPU
    if torch.cuda.is_available():
        device = torch.device('cuda')
    else:
        device = torch.device('cpu')
    model = model.to(device)

    model.train()

    dataset_loader = {'train': train_loader,
                      'validation': dev_loader}

    # loss and error-rate history of every epoch
    loss_history = {'train': [],
                    'validation': []}
    error_history = {'train': [],
                     'validation': []}

    log_file = open(os.path.join(output_dir, 'log.txt'), mode='w')
    log_file.write('epoch\ttrain loss\ttrain err\tvalid loss\tvalid err')

    for epoch in range(max_num_epoch):
        print('epoch %d/%d:' % (epoch + 1, max_num_epoch))
        log_file.write('\n%d\t' % (epoch + 1))

        for phase in ['train', 'validation']:
            total_loss = 0
            total_utt = 0
            total_error = 0
            total_frames = 0

            for (features, labels, feat_len, label_len, utt_ids) in dataset_loader[phase]:

                features, labels = features.to(device), labels.to(device)

                optimizer.zero_grad()
                outputs = model(features)

                b_size, f_size, _ = outputs.size()
                outputs = outputs.view(b_size * f_size, dim_out)
                labels = labels.view(-1)

                loss = criterion(outputs, labels)

                if phase == 'train':
                    loss.backward()
                    optimizer.step()

                total_loss += loss.item()
                total_utt += b_size

                # frame error rate
                _, hyp = torch.max(outputs, 1)
                hyp = hyp[labels != pad_index]
                ref = labels[labels != pad_index]
                error = (hyp != ref).sum()

                total_error += error
                total_frames += len(ref)

            epoch_loss = total_loss / total_utt
            print('    %s loss: %f' % (phase, epoch_loss))
            log_file.write('%.6f\t' % (epoch_loss))
            loss_history[phase].append(epoch_loss)

            epoch_error = 100.0 * total_error / total_frames
            print('    %s error rate: %f %%' % (phase, epoch_error))
            log_file.write('%.6f\t' % (epoch_error))
            error_history[phase].append(epoch_error)

    torch.save(model.state_dict(), os.path.join(output_dir, 'final_model.pt'))

    for phase in ['train', 'validation']:
        print('    %s loss: %f' % (phase, loss_history[phase][-1]))
        print('    %s error rate: %f %%' % (phase, error_history[phase][-1]))

    # learning curve of the loss
    fig1 = plt.figure()
    for phase in ['train', 'validation']:
        plt.plot(loss_history[phase], label=phase + ' loss')
    plt.xlabel('Epoch')
    plt.ylabel('Loss')
    fig1.legend()
    fig1.savefig(output_dir + '/loss.png')

    # learning curve of the frame error rate
    fig2 = plt.figure()
    for phase in ['train', 'validation']:
        plt.plot(error_history[phase], label=phase + ' error')
    plt.xlabel('Epoch')
    plt.ylabel('Error [%]')
    fig2.legend()
    fig2.savefig(output_dir + '/error.png')

    log_file.close()
