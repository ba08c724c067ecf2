"""CNN-based image classifier (DashAI's cnn_image_classifier.py: dataset wrapper, network and the
BaseModel-style classifier in one module), with a driver standing in for DashAI's train and predict jobs."""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
import torch.utils.data


class _ImageDataset(torch.utils.data.Dataset):
    """Torch Dataset over a list of HxWxC uint8 images (stand-in for DashAI's image datasets)."""

    def __init__(self, images, labels=None, image_size=64):
        self.images = images
        self.labels = labels
        self.image_size = image_size
        self.label_to_idx = {}
        self.idx_to_label = {}
        if labels is not None:
            unique_labels = sorted(set(labels))
            self.label_to_idx = {label: idx for idx, label in enumerate(unique_labels)}
            self.idx_to_label = {idx: label for label, idx in self.label_to_idx.items()}
        self.tensor_shape = self._to_tensor(images[0]).shape

    def _to_tensor(self, image):
        image = torch.from_numpy(np.ascontiguousarray(image)).permute(2, 0, 1).float() / 255.0
        return image[:, : self.image_size, : self.image_size]

    def num_classes(self):
        return len(self.label_to_idx)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        image = self._to_tensor(self.images[idx])
        if self.labels is None:
            return image
        return image, self.label_to_idx[self.labels[idx]]


class _CNNBlock(nn.Module):
    """Single convolutional block: Conv2d -> ReLU -> MaxPool2d."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(self.relu(self.conv(x)))


class _CNN(nn.Module):
    """CNN with configurable convolutional blocks followed by a linear classifier."""

    def __init__(self, input_channels, input_size, num_classes, num_conv_blocks, initial_filters, dropout_rate):
        super().__init__()
        self.conv_blocks = nn.ModuleList()
        in_ch = input_channels
        out_ch = initial_filters
        for _ in range(num_conv_blocks):
            self.conv_blocks.append(_CNNBlock(in_ch, out_ch))
            in_ch = out_ch
            out_ch *= 2
        final_spatial = input_size // (2 ** num_conv_blocks)
        self.dropout = nn.Dropout(dropout_rate)
        self.fc = nn.Linear(in_ch * final_spatial * final_spatial, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for block in self.conv_blocks:
            x = block(x)
        x = x.view(x.size(0), -1)
        return self.fc(self.dropout(x))


class CNNImageClassifier:
    """CNN-based image classifier (DashAI's BaseModel interface: train / predict / save / load)."""

    @staticmethod
    def _collate_fn_with_labels(batch):
        images = torch.stack([item[0] for item in batch])
        labels = torch.tensor([item[1] for item in batch], dtype=torch.long)
        return images, labels

    @staticmethod
    def _collate_fn_no_labels(batch):
        return torch.stack(batch)

    def __init__(self, epochs=2, learning_rate=0.001, batch_size=4, image_size=16, num_conv_blocks=2,
                 initial_filters=8, dropout_rate=0.0, weight_decay=0.0):
        self.epochs = epochs
        self.learning_rate = learning_rate
        self.batch_size = batch_size
        self.image_size = image_size
        self.num_conv_blocks = num_conv_blocks
        self.initial_filters = initial_filters
        self.dropout_rate = dropout_rate
        self.weight_decay = weight_decay
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = None
        self.optimizer = None
        self.input_channels = None
        self.num_classes = None
        self.idx_to_label = {}
        self.label_to_idx = {}

    def train(self, x_train, y_train):
        image_dataset = _ImageDataset(x_train, labels=y_train, image_size=self.image_size)
        self.input_channels = image_dataset.tensor_shape[0]
        self.num_classes = image_dataset.num_classes()
        self.idx_to_label = image_dataset.idx_to_label
        self.label_to_idx = image_dataset.label_to_idx
        train_loader = torch.utils.data.DataLoader(
            image_dataset, batch_size=self.batch_size, shuffle=True, collate_fn=self._collate_fn_with_labels
        )
        self.model = _CNN(self.input_channels, self.image_size, self.num_classes, self.num_conv_blocks,
                          self.initial_filters, self.dropout_rate).to(self.device)
        criterion = nn.CrossEntropyLoss()
        self.optimizer = optim.Adam(self.model.parameters(), lr=self.learning_rate, weight_decay=self.weight_decay)
        self.model.train()
        for _ in range(self.epochs):
            for images, labels in train_loader:
                images, labels = images.to(self.device), labels.to(self.device)
                self.optimizer.zero_grad()
                loss = criterion(self.model(images), labels)
                loss.backward()
                self.optimizer.step()
        return self

    def predict(self, x):
        """Return per-class probability matrix for each image."""
        image_dataset = _ImageDataset(x, labels=None, image_size=self.image_size)
        loader = torch.utils.data.DataLoader(
            image_dataset, batch_size=self.batch_size, shuffle=False, collate_fn=self._collate_fn_no_labels
        )
        self.model.eval()
        all_probs = []
        with torch.no_grad():
            for images in loader:
                logits = self.model(images.to(self.device))
                all_probs.append(torch.softmax(logits, dim=1).cpu().numpy())
        return np.concatenate(all_probs, axis=0)

    def save(self, filename):
        torch.save(
            {
                "model_state_dict": self.model.state_dict(),
                "image_size": self.image_size,
                "num_conv_blocks": self.num_conv_blocks,
                "initial_filters": self.initial_filters,
                "dropout_rate": self.dropout_rate,
                "input_channels": self.input_channels,
                "num_classes": self.num_classes,
                "idx_to_label": self.idx_to_label,
                "label_to_idx": self.label_to_idx,
            },
            filename,
        )

    @classmethod
    def load(cls, filename):
        ckpt = torch.load(filename, map_location=torch.device("cpu"))
        instance = cls(
            image_size=ckpt["image_size"],
            num_conv_blocks=ckpt["num_conv_blocks"],
            initial_filters=ckpt["initial_filters"],
            dropout_rate=ckpt["dropout_rate"],
        )
        instance.input_channels = ckpt["input_channels"]
        instance.num_classes = ckpt["num_classes"]
        instance.idx_to_label = ckpt["idx_to_label"]
        instance.label_to_idx = ckpt["label_to_idx"]
        instance.model = _CNN(instance.input_channels, instance.image_size, instance.num_classes,
                              instance.num_conv_blocks, instance.initial_filters, instance.dropout_rate)
        instance.model.load_state_dict(ckpt["model_state_dict"])
        return instance


def make_images(n, size=16):
    rng = np.random.default_rng(0)
    return [rng.integers(0, 255, (size, size, 3), dtype=np.uint8) for _ in range(n)]


def main():
    images = make_images(12)
    labels = ["cat", "dog", "bird"] * 4
    run_dir = tempfile.mkdtemp()
    path = os.path.join(run_dir, "cnn.pt")

    # experiment run: train and save the checkpoint
    CNNImageClassifier().train(images, labels).save(path)

    # prediction job in a fresh process: load the saved model and predict
    model = CNNImageClassifier.load(path)
    probs = model.predict(make_images(5))
    print(probs.shape)


if __name__ == "__main__":
    main()
