import torch
from torch.utils.data import DataLoader, TensorDataset


def prepare_dataset(batch_size, test_batch_size=100, root='./data/', validation_size=0, random_state=1,
                    set_global_seed=False, num_workers=0):
    """Stand-in for the torchvision CIFAR-10 loaders: random 32x32 images and labels."""
    g = torch.Generator().manual_seed(random_state)
    train = TensorDataset(torch.randn(64, 3, 32, 32, generator=g), torch.randint(0, 10, (64,), generator=g))
    test = TensorDataset(torch.randn(32, 3, 32, 32, generator=g), torch.randint(0, 10, (32,), generator=g))
    return {
        'train': DataLoader(train, batch_size=batch_size, shuffle=True, num_workers=num_workers),
        'test': DataLoader(test, batch_size=test_batch_size, shuffle=False),
        'test_size': len(test),
        'validation': None,
    }
