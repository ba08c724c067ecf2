"""prediction-flow's DIEN path, one module: `fit` and `__to_gpu` (prediction_flow/pytorch/functions.py),
the interest evolution layer (nn/interest.py), a reduced DIEN (dien.py: one item feature with its
behaviour history) and the README's training example."""
import numpy as np
import torch
import torch.nn as nn
import torch.utils.data as data
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


def __to_gpu(device, batch):
    for key, tensor in batch.items():
        batch[key] = tensor.to(device)


def fit(epochs, model, loss, optimizer, train_loader,
        valid_loader=None, notebook=False,
        auxiliary_loss_rate=0.0):
    use_cuda = torch.cuda.is_available()
    device = torch.device("cuda:0" if use_cuda else "cpu")

    if use_cuda:
        print("GPU is available, transfer model to GPU.")
        model = model.to(device)

    losses = []

    for epoch in range(epochs):
        model.train()
        running_loss = 0
        for index, batch in enumerate(train_loader):
            if use_cuda:
                __to_gpu(device, batch)
            label = batch['label']
            # step 1. zero the gradients
            optimizer.zero_grad()
            # step 2. compute the output
            pred = model(batch)
            # step 3. compute the loss
            loss_t = loss(pred, label)
            running_loss += (loss_t.item() - running_loss) / (index + 1)
            # step 4. use loss to produce gradients
            loss_t.backward()
            # step 5. use optimizer to take gradient step
            optimizer.step()
        losses.append(running_loss)
    return losses


class Interest(nn.Module):
    def __init__(self, input_size, gru_type='GRU'):
        super(Interest, self).__init__()
        self.gru_type = gru_type
        self.interest_extractor = nn.GRU(
            input_size=input_size, hidden_size=input_size, batch_first=True)

    def forward(self, query, keys, keys_length, neg_keys=None):
        batch_size, max_length, dim = keys.size()

        packed_keys = pack_padded_sequence(
            keys,
            lengths=keys_length.squeeze(),
            batch_first=True,
            enforce_sorted=False)

        packed_interests, _ = self.interest_extractor(packed_keys)
        interests, _ = pad_packed_sequence(
            packed_interests,
            batch_first=True,
            padding_value=0.0,
            total_length=max_length)
        outputs = torch.sum(interests * query.unsqueeze(1), dim=1)
        return outputs, None


class DIEN(nn.Module):
    def __init__(self, num_items, embedding_size=8, hidden_layers=(16, 8)):
        super(DIEN, self).__init__()
        self.embeddings = nn.ModuleDict({
            'item_id': nn.Embedding(num_items, embedding_size),
            'clicked_items': nn.Embedding(num_items, embedding_size)})
        self._attention_pooling = Interest(embedding_size)
        self.mlp = nn.Sequential(
            nn.Linear(2 * embedding_size, hidden_layers[0]), nn.ReLU(),
            nn.Linear(hidden_layers[0], hidden_layers[1]), nn.ReLU(),
            nn.Linear(hidden_layers[1], 1))

    def forward(self, x):
        query = self.embeddings['item_id'](x['item_id'])
        pos_hist = self.embeddings['clicked_items'](x['clicked_items'])
        keys_length = torch.min(torch.cat(
            [x['__clicked_items_length'].view(-1, 1)], dim=-1), dim=-1)[0]
        interest, tmp_loss = self._attention_pooling(query, pos_hist, keys_length)
        final_layer_inputs = torch.cat([query, interest], dim=-1)
        return torch.sigmoid(self.mlp(final_layer_inputs)).squeeze(-1)


class Dataset(data.Dataset):
    def __init__(self, samples):
        self.samples = samples

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, idx):
        return self.samples[idx]


def make_samples(n=32, num_items=20, max_len=6, seed=0):
    rng = np.random.default_rng(seed)
    samples = []
    for _ in range(n):
        length = int(rng.integers(1, max_len + 1))
        hist = np.zeros(max_len, dtype=np.int64)
        hist[:length] = rng.integers(1, num_items, size=length)
        samples.append({
            'item_id': torch.tensor(int(rng.integers(1, num_items))),
            'clicked_items': torch.from_numpy(hist),
            '__clicked_items_length': torch.tensor(length),
            'label': torch.tensor(float(rng.integers(0, 2)))})
    return samples


if __name__ == '__main__':
    model = DIEN(num_items=20)
    loss_fn = nn.BCELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
    train_loader = data.DataLoader(Dataset(make_samples()), shuffle=True, batch_size=8)
    history = fit(2, model, loss_fn, optimizer, train_loader)
    print(history)
