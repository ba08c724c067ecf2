import torch

from gconv_gru import GConvGRU


class RecurrentGCN(torch.nn.Module):
    def __init__(self, node_features):
        super().__init__()
        self.recurrent = GConvGRU(node_features, 32)
        self.linear = torch.nn.Linear(32, 1)

    def forward(self, x, edge_index, edge_weight):
        h = self.recurrent(x, edge_index, edge_weight)
        return self.linear(torch.relu(h))


def train(dataset, epochs=50):
    device = torch.device("cuda")
    model = RecurrentGCN(node_features=4).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    for _ in range(epochs):
        for snapshot in dataset:
            snapshot = snapshot.to(device)
            y_hat = model(snapshot.x, snapshot.edge_index, snapshot.edge_attr)
            loss = torch.mean((y_hat - snapshot.y) ** 2)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
