import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader

from data.fast_data import RegressionDataset
from models.fast_nn import FactorAugmentedSparseThroughputNN


def train_loop(data_loader, model, loss_fn, optimizer, reg_lambda, reg_tau):
    loss_rec = {"l2_loss": 0.0}
    for batch, (x, y) in enumerate(data_loader):
        pred = model(x, is_training=True)
        loss = loss_fn(pred, y) + reg_lambda * model.regularization_loss(reg_tau, True)
        loss_rec["l2_loss"] += loss.item()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    loss_rec["l2_loss"] /= len(data_loader)
    return loss_rec


def test_loop(data_loader, model, loss_fn, reg_lambda, reg_tau):
    loss_sum = 0
    with torch.no_grad():
        for x, y in data_loader:
            pred = model(x, is_training=False)
            loss_sum += loss_fn(pred, y).item()
    return {"l2_loss": loss_sum / len(data_loader)}


class NNEstimator:
    def __init__(self, r_bar=4):
        self.r_bar = r_bar
        self.learning_rate = 1e-3
        self.num_epoch = 300
        self.depth = 3
        self.width = 32
        self.hp_tau = 1e-1
        self.p = None
        self.dp_matrix = None
        self.rs_matrix = None

    def single_fit_and_predict(self, train_data_loader, valid_data_loader, test_x, reg_lambda):
        device = "cuda" if torch.cuda.is_available() else "cpu"
        nn_model = FactorAugmentedSparseThroughputNN(p=self.p, r_bar=self.r_bar, depth=self.depth, width=self.width,
                                                     sparsity=self.r_bar, dp_mat=self.dp_matrix, rs_mat=self.rs_matrix).to(device)
        mse_loss = nn.MSELoss()
        optimizer = torch.optim.Adam(nn_model.parameters(), lr=self.learning_rate)
        cur_valid = 1e9
        test_y = None
        for epoch in range(self.num_epoch):
            train_loop(train_data_loader, nn_model, mse_loss, optimizer, reg_lambda, self.hp_tau)
            valid_losses = test_loop(valid_data_loader, nn_model, mse_loss, reg_lambda, self.hp_tau)
            if valid_losses["l2_loss"] < cur_valid:
                cur_valid = valid_losses["l2_loss"]
                with torch.no_grad():
                    test_y = nn_model(torch.tensor(test_x, dtype=torch.float32)).detach().numpy()
        return cur_valid, test_y

    def model_fit_and_predict(self, x, y, valid_x, valid_y, test_x, reg_lambda, dp_matrix, rs_matrix):
        self.p = np.shape(x)[1]
        self.dp_matrix, self.rs_matrix = dp_matrix, rs_matrix
        train_data_loader = DataLoader(RegressionDataset(x, np.reshape(y, (-1, 1))), batch_size=np.shape(x)[0] // 4)
        valid_data_loader = DataLoader(RegressionDataset(valid_x, np.reshape(valid_y, (-1, 1))), batch_size=np.shape(valid_x)[0])
        return self.single_fit_and_predict(train_data_loader, valid_data_loader, test_x, reg_lambda)
