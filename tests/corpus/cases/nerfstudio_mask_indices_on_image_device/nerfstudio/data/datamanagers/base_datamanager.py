"""Datamanager: image batches from the dataloader, pixel batches from the sampler, rays from the generator."""
from typing import Dict, Tuple, Union

import torch

from nerfstudio.data.datasets.base_dataset import InputDataset
from nerfstudio.data.pixel_samplers import PixelSampler
from nerfstudio.data.utils.dataloaders import CacheDataloader
from nerfstudio.model_components.ray_generators import RayGenerator


class VanillaDataManager:
    def __init__(self, device: Union[torch.device, str] = "cpu", train_num_rays_per_batch: int = 1024):
        self.device = device
        self.train_num_rays_per_batch = train_num_rays_per_batch
        self.train_dataset = InputDataset(has_masks=True)
        self.setup_train()

    def setup_train(self):
        self.train_image_dataloader = CacheDataloader(self.train_dataset, num_images_to_sample_from=-1, device=self.device)
        self.iter_train_image_dataloader = iter(self.train_image_dataloader)
        self.train_pixel_sampler = PixelSampler(self.train_num_rays_per_batch)
        num_images, height, width, _ = self.train_dataset.images.shape
        camera_to_worlds = torch.eye(4).repeat(num_images, 1, 1)
        self.train_ray_generator = RayGenerator(camera_to_worlds.to(self.device), height, width).to(self.device)

    def next_train(self, step: int) -> Tuple[Tuple[torch.Tensor, torch.Tensor], Dict]:
        image_batch = next(self.iter_train_image_dataloader)
        batch = self.train_pixel_sampler.sample(image_batch)
        ray_indices = batch["indices"]
        ray_bundle = self.train_ray_generator(ray_indices)
        return ray_bundle, batch
