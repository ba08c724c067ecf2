import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset


class LinearLayer(nn.Module):
    def __init__(self, input_dim, output_dim):
        super(LinearLayer, self).__init__()
        scale = 1. * np.sqrt(6. / (input_dim + output_dim))
        self.w = nn.Parameter(torch.Tensor(input_dim, output_dim).uniform_(-scale, scale))
        self.bias = nn.Parameter(torch.Tensor(output_dim).uniform_(-scale, scale))

    def forward(self, x):
        return torch.mm(x, self.w) + self.bias


class Encoder(nn.Module):
    def __init__(self, gene_size, device):
        super(Encoder, self).__init__()
        self.layer = LinearLayer(sum(gene_size), len(gene_size))

    def forward(self, x):
        return self.layer(x), torch.norm(self.layer.w, 1)


class Predictor(nn.Module):
    def __init__(self, gene_size):
        super(Predictor, self).__init__()
        self.Layer1 = LinearLayer(len(gene_size), 100)
        self.Layer2 = LinearLayer(100, 1)
        self.activation_fn = nn.Softplus(beta=10)

    def forward(self, x):
        x2 = self.Layer2(self.activation_fn(self.Layer1(x)))
        return x2, torch.norm(self.Layer1.w, 1) + torch.norm(self.Layer2.w, 1)


class SparseNN(nn.Module):
    def __init__(self, encoder, predictor):
        super(SparseNN, self).__init__()
        self.encoder = encoder
        self.predictor = predictor

    def forward(self, x):
        x1, kl1 = self.encoder(x)
        x2, kl2 = self.predictor(x1)
        return x2, kl1, kl2


class NNtraining(object):
    def __init__(self, model, learning_rate=0.001, batch_size=10000, num_epoch=200, use_cuda=False):
        self.model = model
        self.learning_rate = learning_rate
        self.batch_size = batch_size
        self.num_epoch = num_epoch
        self.use_cuda = use_cuda
        if use_cuda:
            self.model.cuda()

    def training(self, x, y, xval, yval):
        optimizer = optim.Adam(self.model.parameters(), lr=self.learning_rate, eps=1e-3)
        criterion = nn.MSELoss()
        if self.use_cuda:
            x = x.cuda()
            y = y.cuda()
        train_dl = DataLoader(TensorDataset(x, y), batch_size=self.batch_size, shuffle=True)
        for epoch in range(self.num_epoch):
            for x_batch, y_batch in train_dl:
                optimizer.zero_grad()
                output, reg_encoder, reg_predictor = self.model(x_batch)
                loss = criterion(y_batch, output) + 0.001 * reg_encoder + 0.001 * reg_predictor
                loss.backward()
                optimizer.step()
            print(epoch, self.build_evaluation(xval, yval))

    def build_evaluation(self, x_test, y_test):
        if self.use_cuda:
            x_test = x_test.cuda()
            y_test = y_test.cuda()
        self.model.eval()
        y_pred, _, _ = self.model(x_test)
        return nn.MSELoss()(y_test, y_pred).detach()
