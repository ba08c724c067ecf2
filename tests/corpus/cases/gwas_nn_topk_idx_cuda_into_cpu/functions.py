import numpy as np
import torch


def load_data(x_path, y_path):
    Y = np.genfromtxt(y_path, delimiter=",")
    X = np.genfromtxt(x_path, delimiter=",")
    X = X - X.mean(axis=0)
    Y = (Y - np.mean(Y)) / np.std(Y)
    np.random.seed(129)
    msk = np.random.rand(len(X)) < 0.7
    x_train = torch.tensor(X[msk, :], dtype=torch.float)
    x_test = torch.tensor(X[~msk, :], dtype=torch.float)
    y_train = torch.tensor(Y[msk], dtype=torch.float)
    y_test = torch.tensor(Y[~msk], dtype=torch.float)
    return x_train, x_test, y_train.view(-1, 1), y_test.view(-1, 1)
