import argparse

import torch
from torch.utils.data import Dataset

from ivadomed import training as imed_training
from ivadomed import utils as imed_utils


class SliceDataset(Dataset):
    """Stand-in for ivadomed's MRI2DSegmentationDataset: dicts of CPU tensors, as its loader yields."""

    def __init__(self, n=8, size=32):
        self.inputs = torch.rand(n, 1, size, size)
        self.gts = (torch.rand(n, 1, size, size) > 0.5).float()

    def __len__(self):
        return len(self.inputs)

    def __getitem__(self, index):
        return {"input": self.inputs[index], "gt": self.gts[index]}


def run_command(context):
    """Run main command (training only): the one-class segmentation tutorial with `mixup_alpha: 1.0`."""
    cuda_available, device = imed_utils.define_device(context["gpu_ids"][0])
    model_params = context["default_model"]
    training_params = context["training_parameters"]
    dataset_train = SliceDataset()
    return imed_training.train(model_params=model_params,
                               dataset_train=dataset_train,
                               training_params=training_params,
                               log_directory=context["path_output"],
                               device=device,
                               cuda_available=cuda_available,
                               debugging=context["debugging"])


def run_main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--path-output", default="spineGeneric")
    args = parser.parse_args()
    context = {
        "gpu_ids": [0],
        "path_output": args.path_output,
        "debugging": False,
        "default_model": {"name": "Unet", "in_channel": 1, "out_channel": 1, "n_filters": 8},
        "training_parameters": {"batch_size": 4, "num_epochs": 1, "initial_lr": 0.001, "mixup_alpha": 1.0},
    }
    run_command(context)


if __name__ == "__main__":
    run_main()
