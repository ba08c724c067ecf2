import numpy as np
import torch
from torch.optim.adam import Adam
from torch.utils.data import DataLoader, Dataset

from loss_functions import MultiClassificationCrossEntropyLoss
from models import MulticlassClassificationTask, StandardModel

PIDS = [1, -1, 13, -13, 12, -12, 14, -14, 16, -16]


class EventDataset(Dataset):
    """Stand-in for graphnet's SQLite dataset: one pulse-feature vector and the truth pid per event."""

    def __init__(self, n_events=64, nb_inputs=7, seed=0):
        rng = np.random.default_rng(seed)
        self.features = rng.normal(size=(n_events, nb_inputs)).astype(np.float32)
        self.pid = rng.choice(PIDS, size=n_events)

    def __len__(self):
        return len(self.pid)

    def __getitem__(self, i):
        return {"x": torch.from_numpy(self.features[i]), "pid": torch.tensor(self.pid[i])}


def collate_events(events):
    return {key: torch.stack([e[key] for e in events]) for key in events[0]}


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = DataLoader(EventDataset(), batch_size=16, shuffle=True, collate_fn=collate_events)
    task = MulticlassClassificationTask(hidden_size=32, target_labels="pid", loss_function=MultiClassificationCrossEntropyLoss())
    model = StandardModel(nb_inputs=7, hidden_size=32, tasks=[task]).to(device)
    optimizer = Adam(model.parameters(), lr=1e-3)

    for epoch in range(2):
        for batch in loader:
            batch = {key: value.to(device) for key, value in batch.items()}
            preds = model(batch)
            loss = model.compute_loss(preds, batch)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print("epoch", epoch)


if __name__ == "__main__":
    main()
