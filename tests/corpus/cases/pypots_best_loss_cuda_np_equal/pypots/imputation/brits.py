"""
BRITS model (bidirectional recurrent imputation), reduced to its inputs and outputs.
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from pypots.data.dataset_for_brits import DatasetForBRITS
from pypots.data.integration import mcar, masked_fill
from pypots.imputation.base import BaseNNImputer


class _BRITS(nn.Module):
    def __init__(self, n_steps, n_features, rnn_hidden_size, device=None):
        super().__init__()
        self.n_steps = n_steps
        self.n_features = n_features
        self.rnn_hidden_size = rnn_hidden_size
        self.device = device
        self.rnn_cell = nn.LSTMCell(n_features * 2, rnn_hidden_size)
        self.hist_reg = nn.Linear(rnn_hidden_size, n_features)

    def forward(self, inputs):
        values = inputs['forward']['X']
        masks = inputs['forward']['missing_mask']
        hidden_states = torch.zeros((values.size()[0], self.rnn_hidden_size), device=self.device)
        cell_states = torch.zeros((values.size()[0], self.rnn_hidden_size), device=self.device)
        estimations = []
        reconstruction_loss = 0.0
        for t in range(self.n_steps):
            x = values[:, t, :]
            m = masks[:, t, :]
            x_h = self.hist_reg(hidden_states)
            reconstruction_loss += torch.sum(torch.abs(x - x_h) * m) / (torch.sum(m) + 1e-5)
            x_c = m * x + (1 - m) * x_h
            hidden_states, cell_states = self.rnn_cell(torch.cat([x_c, m], dim=1), (hidden_states, cell_states))
            estimations.append(x_h.unsqueeze(dim=1))
        estimations = torch.cat(estimations, dim=1)
        imputed_data = masks * values + (1 - masks) * estimations
        return {'imputed_data': imputed_data, 'loss': reconstruction_loss / self.n_steps}


class BRITS(BaseNNImputer):
    def __init__(self,
                 n_steps,
                 n_features,
                 rnn_hidden_size,
                 learning_rate=1e-3,
                 epochs=100,
                 patience=10,
                 batch_size=32,
                 weight_decay=1e-5,
                 device=None):
        super().__init__(learning_rate, epochs, patience, batch_size, weight_decay, device)

        self.n_steps = n_steps
        self.n_features = n_features
        self.rnn_hidden_size = rnn_hidden_size

        self.model = _BRITS(self.n_steps, self.n_features, self.rnn_hidden_size, self.device)
        self.model = self.model.to(self.device)

    def fit(self, train_X, val_X=None):
        """ Fit the model on the given training data.
        """
        train_X = self.check_input(self.n_steps, self.n_features, train_X)
        if val_X is not None:
            val_X = self.check_input(self.n_steps, self.n_features, val_X)

        training_set = DatasetForBRITS(train_X)
        training_loader = DataLoader(training_set, batch_size=self.batch_size, shuffle=True)

        if val_X is None:
            self._train_model(training_loader)
        else:
            val_X_intact, val_X, val_X_missing_mask, val_X_indicating_mask = mcar(val_X, 0.2)
            val_X = masked_fill(val_X, 1 - val_X_missing_mask, torch.nan)
            val_set = DatasetForBRITS(val_X)
            val_loader = DataLoader(val_set, batch_size=self.batch_size, shuffle=False)
            self._train_model(training_loader, val_loader, val_X_intact, val_X_indicating_mask)

        self.model.load_state_dict(self.best_model_dict)
        self.model.eval()  # set the model as eval status to freeze it.
        return self

    def assemble_input_data(self, data):
        """ Assemble the input data into a dictionary.
        """
        indices, X, missing_mask = data
        inputs = {
            'indices': indices,
            'forward': {
                'X': X,
                'missing_mask': missing_mask,
            },
        }
        return inputs
