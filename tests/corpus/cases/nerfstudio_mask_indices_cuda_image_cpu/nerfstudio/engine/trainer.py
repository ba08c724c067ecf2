"""Training loop (the model is left out: the failure is in the data pipeline)."""
import torch

from nerfstudio.data.datamanagers.base_datamanager import VanillaDataManager


def train(max_num_iterations=10, local_rank=0):
    device = f"cuda:{local_rank}" if torch.cuda.is_available() else "cpu"
    datamanager = VanillaDataManager(device=device)
    for step in range(max_num_iterations):
        ray_bundle, batch = datamanager.next_train(step)
        origins, coords = ray_bundle
        print(step, origins.shape, batch["image"].shape)


if __name__ == "__main__":
    train()
