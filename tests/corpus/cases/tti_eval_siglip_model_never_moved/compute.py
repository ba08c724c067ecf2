import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

from clip_eval.models.CLIP_model import SiglipModel


class ImageDataset(Dataset):
    """Stand-in for the Hugging Face image dataset with `set_transform(model.get_transform())`."""

    def __init__(self, n, transform):
        rng = np.random.default_rng(0)
        self.images = [rng.integers(0, 256, (64, 64, 3), dtype=np.uint8) for _ in range(n)]
        self.labels = [i % 3 for i in range(n)]
        self.transform = transform

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        batch = self.transform({"image": [self.images[idx]]})
        return {"image": batch["image"][0], "label": self.labels[idx]}


def _collate_fn(examples):
    images = [e["image"] for e in examples]
    labels = torch.tensor([e["label"] for e in examples])
    return {"pixel_values": torch.stack(images), "labels": labels}


def compute_embeddings(model_title="siglip", title_in_source="google/siglip-base-patch16-224"):
    model = SiglipModel(model_title, title_in_source)
    dataset = ImageDataset(8, model.get_transform())
    dataloader = DataLoader(dataset, collate_fn=_collate_fn, batch_size=4)
    embeddings, labels = model.build_embedding(dataloader)
    print(embeddings.shape, labels.shape)


if __name__ == "__main__":
    compute_embeddings()
