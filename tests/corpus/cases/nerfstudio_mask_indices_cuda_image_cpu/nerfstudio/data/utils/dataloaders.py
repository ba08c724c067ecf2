"""Data loader that collates a cache of images once and keeps it."""
import random
from typing import Union

import torch
from torch.utils.data import DataLoader, Dataset, default_collate

from nerfstudio.utils.misc import get_dict_to_torch


class CacheDataloader(DataLoader):
    def __init__(self, dataset: Dataset, num_images_to_sample_from: int = -1,
                 device: Union[torch.device, str] = "cpu", collate_fn=default_collate, **kwargs):
        self.dataset = dataset
        super().__init__(dataset=dataset, **kwargs)
        self.num_images_to_sample_from = len(dataset) if num_images_to_sample_from == -1 else num_images_to_sample_from
        self.device = device
        self.collate_fn = collate_fn
        self.cached_collated_batch = self._get_collated_batch()

    def _get_batch_list(self):
        indices = random.sample(range(len(self.dataset)), k=self.num_images_to_sample_from)
        return [self.dataset[idx] for idx in indices]

    def _get_collated_batch(self):
        batch_list = self._get_batch_list()
        collated_batch = self.collate_fn(batch_list)
        collated_batch = get_dict_to_torch(collated_batch, device=self.device, exclude=["image"])
        return collated_batch

    def __iter__(self):
        while True:
            yield self.cached_collated_batch
