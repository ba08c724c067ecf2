from torch.utils.data import DataLoader


def make_loader(dataset):
    return DataLoader(dataset, batch_size=16, shuffle=True)
