import numpy as np
import torch

from torch.utils.data.dataloader import DataLoader
from torch.utils.data.dataset import Dataset


def encode_onehot(labels, num_classes=10):
    onehot_labels = np.zeros((len(labels), num_classes))
    for i in range(len(labels)):
        onehot_labels[i, labels[i]] = 1
    return onehot_labels


def load_data(dataset, root, num_query, num_train, batch_size, num_workers):
    """
    Load dataset (cifar-10 style: images as an array, labels as an array).
    """
    rng = np.random.RandomState(0)
    data = rng.randint(0, 256, size=(num_query + 4 * num_train, 32, 32, 3)).astype(np.uint8)
    targets = rng.randint(0, 10, size=len(data))
    query_dataloader = wrap_data(data[:num_query], targets[:num_query], batch_size, shuffle=False)
    train_dataloader = wrap_data(data[num_query:num_query + num_train], targets[num_query:num_query + num_train], batch_size)
    retrieval_dataloader = wrap_data(data[num_query:], targets[num_query:], batch_size, shuffle=False)
    return query_dataloader, train_dataloader, retrieval_dataloader


def sample_dataloader(dataloader, num_samples, batch_size):
    """
    Sample data from dataloder.

    Returns
        sample_dataloader (torch.utils.data.DataLoader): Sample dataloader.
        sample_index: indices of the sampled points in the retrieval set.
    """
    data = dataloader.dataset.data
    targets = dataloader.dataset.targets

    sample_index = torch.randperm(data.shape[0])[:num_samples]
    data = data[sample_index]
    targets = targets[sample_index]
    sample = wrap_data(data, targets, batch_size)

    return sample, sample_index


def wrap_data(data, targets, batch_size, shuffle=True):
    """
    Wrap data into dataloader.
    """
    class MyDataset(Dataset):
        def __init__(self, data, targets):
            self.data = data
            self.targets = targets
            self.onehot_targets = encode_onehot(self.targets, 10)

        def __getitem__(self, index):
            img = torch.from_numpy(self.data[index]).permute(2, 0, 1).float() / 255.0
            return img, self.targets[index], index

        def __len__(self):
            return self.data.shape[0]

        def get_onehot_targets(self):
            """
            Return one-hot encoding targets.
            """
            return torch.from_numpy(self.onehot_targets).float()

    dataset = MyDataset(data, targets)
    dataloader = DataLoader(
        dataset,
        batch_size=batch_size,
        pin_memory=True,
        shuffle=shuffle,
    )

    return dataloader
