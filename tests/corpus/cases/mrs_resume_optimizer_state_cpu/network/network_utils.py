import os

import torch


def load_epoch(save_dir, resume_epoch, model, optm):
    """Load model and optimizer from a snapshot, to resume training."""
    checkpoint = torch.load(
        os.path.join(save_dir, "epoch-" + str(resume_epoch - 1) + ".pth.tar"),
        map_location=lambda storage, loc: storage)  # Load all tensors onto the CPU
    model.load_state_dict(checkpoint["state_dict"])
    optm.load_state_dict(checkpoint["opt_dict"])
