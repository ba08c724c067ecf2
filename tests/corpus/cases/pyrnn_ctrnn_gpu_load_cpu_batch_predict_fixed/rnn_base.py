import numpy as np
import torch
import torch.nn as nn


class RNNBase(nn.Module):
    """Base RNN class: save/load, building (moving to the GPU), training and prediction."""

    def __init__(self, input_size=1, output_size=1, n_units=50, on_gpu=False):
        super(RNNBase, self).__init__()
        self.on_gpu = on_gpu
        self.n_units = n_units
        self.output_size = output_size
        self.input_size = input_size
        self._is_built = False

    def save(self, path):
        if not path.endswith(".pt"):
            raise ValueError("Expected a path point to a .pt file")
        torch.save(self.state_dict(), path)

    @classmethod
    def load(cls, path, *args, **kwargs):
        if not path.endswith(".pt"):
            raise ValueError("Expected a path point to a .pt file")
        model = cls(*args, **kwargs)
        model.load_state_dict(torch.load(path))
        model.eval()
        return model

    def build(self):
        self._is_built = True
        if self.on_gpu:
            if torch.cuda.is_available():
                self.cuda()
        else:
            self.on_gpu = False

    def _initialize_hidden(self, x, *args):
        """Initialize hidden state of the network."""
        return torch.zeros((1, x.shape[0], self.n_units))

    def fit(self, dataset, batch_size=64, n_epochs=100, lr=0.001):
        if not self._is_built:
            raise ValueError("Need to first BUILD the RNN model")
        loader = torch.utils.data.DataLoader(dataset, batch_size=batch_size, shuffle=True)
        optimizer = torch.optim.Adam(self.parameters(), lr=lr, amsgrad=True)
        criterion = torch.nn.MSELoss()
        losses = []
        for epoch in range(n_epochs):
            batch_loss = 0
            for X, Y in loader:
                optimizer.zero_grad()
                output, h = self(X)
                loss = criterion(output, Y)
                loss.backward()
                optimizer.step()
                batch_loss += loss.item()
            losses.append(batch_loss)
        return losses

    def predict(self, X):
        """Predicts a single trial from a given input."""
        X = X.to(next(self.parameters()).device)
        o, h = self(X[0, :, :].unsqueeze(0))
        o = o.detach().cpu().numpy()
        h = h.detach().cpu().numpy()
        return o, h
