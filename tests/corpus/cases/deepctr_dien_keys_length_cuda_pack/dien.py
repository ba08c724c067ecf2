"""DeepCTR-Torch's DIEN, reduced to one module: BaseModel.fit, the length lookup, the interest
extractor and the model, with the library's run_dien.py example under __main__."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils.data as Data
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
from torch.utils.data import DataLoader


def maxlen_lookup(X, sparse_input_dict, maxlen_column):
    if maxlen_column is None or len(maxlen_column) == 0:
        raise ValueError('please add max length column for VarLenSparseFeat of DIN/DIEN input')
    lookup_idx = np.array(sparse_input_dict[maxlen_column[0]])
    return X[:, lookup_idx[0]:lookup_idx[1]].long()


class BaseModel(nn.Module):
    def __init__(self, feature_index, device='cpu'):
        super(BaseModel, self).__init__()
        self.feature_index = feature_index
        self.device = device
        self.aux_loss = torch.zeros((1,), device=device)

    def add_auxiliary_loss(self, aux_loss, alpha):
        self.aux_loss = aux_loss * alpha

    def compile(self, lr=0.01):
        self.optim = torch.optim.Adam(self.parameters(), lr=lr)
        self.loss_func = F.binary_cross_entropy

    def fit(self, x=None, y=None, batch_size=None, epochs=1, shuffle=True):
        if isinstance(x, dict):
            x = [x[feature] for feature in self.feature_index]
        for i in range(len(x)):
            if len(x[i].shape) == 1:
                x[i] = np.expand_dims(x[i], axis=1)

        train_tensor_data = Data.TensorDataset(
            torch.from_numpy(np.concatenate(x, axis=-1)),
            torch.from_numpy(y))
        if batch_size is None:
            batch_size = 256

        model = self.train()
        loss_func = self.loss_func
        optim = self.optim
        train_loader = DataLoader(dataset=train_tensor_data, shuffle=shuffle, batch_size=batch_size)

        for epoch in range(epochs):
            total_loss_epoch = 0
            for _, (x_train, y_train) in enumerate(train_loader):
                x = x_train.to(self.device).float()
                y = y_train.to(self.device).float()

                y_pred = model(x).squeeze()

                optim.zero_grad()
                loss = loss_func(y_pred, y.squeeze(), reduction='sum')
                total_loss = loss + self.aux_loss
                total_loss_epoch += total_loss.item()
                total_loss.backward()
                optim.step()
            print('Epoch {0}/{1}'.format(epoch + 1, epochs), total_loss_epoch)


class InterestExtractor(nn.Module):
    def __init__(self, input_size, init_std=0.001, device='cpu'):
        super(InterestExtractor, self).__init__()
        self.gru = nn.GRU(input_size=input_size, hidden_size=input_size, batch_first=True)
        for name, tensor in self.gru.named_parameters():
            if 'weight' in name:
                nn.init.normal_(tensor, mean=0, std=init_std)
        self.to(device)

    def forward(self, keys, keys_length):
        batch_size, max_length, dim = keys.size()
        packed_keys = pack_padded_sequence(keys, lengths=keys_length, batch_first=True,
                                           enforce_sorted=False)
        packed_interests, _ = self.gru(packed_keys)
        interests, _ = pad_packed_sequence(packed_interests, batch_first=True, padding_value=0.0,
                                           total_length=max_length)
        aux_loss = torch.zeros((1,), device=keys.device)
        return interests, aux_loss


class DIEN(BaseModel):
    def __init__(self, feature_index, item_vocab, embedding_dim=8, dnn_hidden_units=(4, 4),
                 alpha=1.0, init_std=0.0001, device='cpu'):
        super(DIEN, self).__init__(feature_index, device=device)
        self.alpha = alpha
        self.item_embedding = nn.Embedding(item_vocab, embedding_dim)
        self.interest_extractor = InterestExtractor(input_size=embedding_dim, init_std=init_std)
        self.dnn = nn.Sequential(nn.Linear(2 * embedding_dim, dnn_hidden_units[0]), nn.ReLU(),
                                 nn.Linear(dnn_hidden_units[0], dnn_hidden_units[1]), nn.ReLU())
        self.linear = nn.Linear(dnn_hidden_units[-1], 1, bias=False)
        self.to(device)

    def forward(self, X):
        query_emb, keys_emb, keys_length = self._get_emb(X)
        masked_interest, aux_loss = self.interest_extractor(keys_emb, keys_length)
        self.add_auxiliary_loss(aux_loss, self.alpha)
        hist = masked_interest[:, -1, :]
        dnn_input = torch.cat([hist, query_emb], dim=-1)
        output = self.linear(self.dnn(dnn_input))
        return torch.sigmoid(output)

    def _get_emb(self, X):
        start, end = self.feature_index['item_id']
        query_emb = self.item_embedding(X[:, start:end].long()).squeeze(1)
        start, end = self.feature_index['hist_item_id']
        keys_emb = self.item_embedding(X[:, start:end].long())
        # [batch_size]
        keys_length = torch.squeeze(maxlen_lookup(X, self.feature_index, ['seq_length']), 1)
        return query_emb, keys_emb, keys_length


def get_xy_fd():
    feature_index = {'item_id': (0, 1), 'hist_item_id': (1, 5), 'seq_length': (5, 6)}
    item_id = np.array([1, 2, 3, 2])  # 0 is mask value
    hist_item_id = np.array([[1, 2, 3, 0], [1, 2, 3, 0], [1, 2, 0, 0], [1, 2, 0, 0]])
    behavior_length = np.array([3, 3, 2, 2])
    x = {'item_id': item_id, 'hist_item_id': hist_item_id, 'seq_length': behavior_length}
    y = np.array([1, 0, 1, 0])
    return x, y, feature_index


if __name__ == "__main__":
    x, y, feature_index = get_xy_fd()

    device = 'cpu'
    use_cuda = True
    if use_cuda and torch.cuda.is_available():
        print('cuda ready...')
        device = 'cuda:0'

    model = DIEN(feature_index, item_vocab=3 + 1, dnn_hidden_units=[4, 4], device=device)
    model.compile(lr=0.01)
    history = model.fit(x, y, batch_size=2, epochs=2, shuffle=False)
