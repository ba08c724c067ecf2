import torch
from torch.utils.data import Dataset


class TSP:
    NAME = "tsp"

    def __init__(self, p_size=20):
        self.size = p_size

    def get_costs(self, dataset, rec):
        """dataset: (batch, graph, 2) coordinates; rec: (batch, graph) tours -> (batch,) tour lengths"""
        d = dataset.gather(1, rec.long().unsqueeze(-1).expand_as(dataset))
        return (d[:, 1:] - d[:, :-1]).norm(p=2, dim=2).sum(1) + (d[:, 0] - d[:, -1]).norm(p=2, dim=1)

    def get_initial_solutions(self, methods, batch):
        def seq_solutions(batch_size):
            solution = torch.linspace(0, self.size - 1, steps=self.size)
            return solution.expand(batch_size, self.size).clone()

        if methods == "seq":
            return seq_solutions(len(batch))


class TSPDataset(Dataset):
    def __init__(self, size=20, num_samples=10000):
        self.data = [torch.FloatTensor(size, 2).uniform_(0, 1) for _ in range(num_samples)]

    def __len__(self):
        return len(self.data)

    def __getitem__(self, idx):
        return self.data[idx]
