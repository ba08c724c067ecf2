"""Stand-in for torchvision's datasets.ImageFolder: `samples` holds
(path, class index) pairs and an item is an image tensor and its class."""
import torch


class ImageFolder(torch.utils.data.Dataset):
    def __init__(self, root, transform=None, num_images=256, num_classes=10):
        self.root = root
        self.transform = transform
        self.samples = [("%s/%d.jpg" % (root, i), i % num_classes) for i in range(num_images)]

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, idx):
        img = torch.rand(3, 32, 32)
        if self.transform is not None:
            img = self.transform(img)
        return img, self.samples[idx][1]
