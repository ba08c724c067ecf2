import torch

from torch.nn import Module, Embedding, LSTM, Linear, Dropout
from torch.nn.functional import one_hot, binary_cross_entropy


class DKT(Module):
    def __init__(self, num_q, emb_size, hidden_size):
        super().__init__()
        self.num_q = num_q
        self.interaction_emb = Embedding(self.num_q * 2, emb_size)
        self.lstm_layer = LSTM(emb_size, hidden_size, batch_first=True)
        self.out_layer = Linear(hidden_size, self.num_q)
        self.dropout_layer = Dropout()

    def forward(self, q, r):
        x = q + self.num_q * r
        h, _ = self.lstm_layer(self.interaction_emb(x))
        y = self.out_layer(h)
        y = self.dropout_layer(y)
        return torch.sigmoid(y)

    def train_model(self, train_loader, test_loader, num_epochs, opt):
        loss_means = []
        for i in range(1, num_epochs + 1):
            loss_mean = []
            for data in train_loader:
                q, r, qshft, rshft, m = data
                self.train()
                y = self(q.long(), r.long())
                y = (y * one_hot(qshft.long(), self.num_q)).sum(-1)
                y = torch.masked_select(y, m)
                t = torch.masked_select(rshft, m)
                opt.zero_grad()
                loss = binary_cross_entropy(y, t)
                loss.backward()
                opt.step()
                loss_mean.append(loss.detach().cpu().numpy())
            loss_means.append(sum(loss_mean) / len(loss_mean))
        return loss_means
