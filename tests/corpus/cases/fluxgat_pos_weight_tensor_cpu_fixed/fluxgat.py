import numpy as np
import torch
import torch.nn.functional as F
from torch.nn import Linear, LayerNorm


class Data:
    """Stand-in for torch_geometric.data.Data: named tensors; `.to(device)` moves every one of them."""

    def __init__(self, **kwargs):
        self.keys = list(kwargs)
        for key, value in kwargs.items():
            setattr(self, key, value)

    def to(self, device):
        return Data(**{key: getattr(self, key).to(device) for key in self.keys})


class GATConv(torch.nn.Module):
    """Stand-in for torch_geometric.nn.GATConv (heads concatenated): a linear map per head,
    averaged over each node's incoming edges."""

    def __init__(self, in_channels, out_channels, heads=1, dropout=0.0, concat=True):
        super().__init__()
        self.lin = Linear(in_channels, heads * out_channels)
        self.dropout = dropout

    def forward(self, x, edge_index, edge_weight=None):
        h = self.lin(x)
        messages = h[edge_index[0]] * edge_weight.unsqueeze(-1)
        out = torch.zeros_like(h).index_add_(0, edge_index[1], messages)
        return F.dropout(out, p=self.dropout, training=self.training)


def make_graphs(n_folds=2, n_nodes=40, n_features=8, n_edges=160):
    """Stand-in for GraphDataset over '../data/k_fold_masks.pkl': one CPU graph per fold."""
    graphs = []
    for _ in range(n_folds):
        train_mask = torch.rand(n_nodes) < 0.8
        graphs.append(Data(x=F.one_hot(torch.randint(0, n_features, (n_nodes,)), n_features).float(),
                           edge_index=torch.randint(0, n_nodes, (2, n_edges)),
                           edge_weight=torch.rand(n_edges),
                           y=torch.randint(0, 2, (n_nodes,)),
                           train_mask=train_mask, test_mask=~train_mask))
    return graphs


class FluxGAT(torch.nn.Module):
    """FluxGAT model for essentiality prediction."""
    def __init__(self, num_features, embedding_dim=150, hidden_channels=150, heads=2, num_layers=2):
        super().__init__()
        self.embedding = torch.nn.Embedding(num_features, embedding_dim)
        self.conv1 = GATConv(embedding_dim, hidden_channels, heads=heads, dropout=0.2, concat=True)
        self.ln1 = LayerNorm(hidden_channels * heads)
        self.hidden_layers = torch.nn.ModuleList(
            [GATConv(heads * hidden_channels, hidden_channels, heads=heads, dropout=0.5, concat=True) for _ in range(num_layers - 1)]
        )
        self.fc = Linear(heads * hidden_channels, 1)

    def forward(self, data):
        x, edge_index, edge_weight = data.x, data.edge_index, data.edge_weight
        x = self.embedding(torch.argmax(x, dim=1))
        x = F.leaky_relu(self.ln1(self.conv1(x, edge_index, edge_weight)))
        x = F.dropout(x, p=0.2, training=self.training)
        for layer in self.hidden_layers:
            x = F.dropout(F.leaky_relu(layer(x, edge_index, edge_weight)), p=0.5, training=self.training)
        return self.fc(x).squeeze(-1)


def train(model, data, optimizer, criterion):
    """Trains the model on the training nodes; returns the loss and the training accuracy."""
    model.train()
    optimizer.zero_grad()
    out = model(data)
    loss = criterion(out[data.train_mask], data.y[data.train_mask].float())
    loss.backward()
    optimizer.step()

    pred = torch.sigmoid(out[data.train_mask]) > 0.65
    acc = pred.eq(data.y[data.train_mask]).sum().item() / data.train_mask.sum().item()

    return loss.item(), acc


def main():
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')

    dataset = make_graphs()

    num_repeats = 1
    num_epochs = 2

    for repeat in range(num_repeats):
        print(f'Repeat {repeat + 1}/{num_repeats}')

        for fold, data in enumerate(dataset):
            print(f'  Fold {fold + 1}:')
            data = data.to(device)
            model = FluxGAT(num_features=data.x.size(1), hidden_channels=150, embedding_dim=300, heads=2, num_layers=2).to(device)
            optimizer = torch.optim.AdamW(model.parameters(), lr=0.001, weight_decay=0.01)

            number_of_zeros = (data.y == 0).sum()
            number_of_ones = (data.y == 1).sum()
            weight = torch.tensor([number_of_zeros / number_of_ones], device=device)
            criterion = torch.nn.BCEWithLogitsLoss(pos_weight=weight)

            for epoch in range(num_epochs):
                train_loss, train_acc = train(model, data, optimizer, criterion)
                print(f"Epoch {epoch+1}: Train Loss: {train_loss:.4f}, Train Accuracy: {train_acc:.4f}")


if __name__ == '__main__':
    main()
