import os

import torch


def load_epoch(save_dir, resume_epoch, model, optm, device):
    """Load model and optimizer from a snapshot, to resume training."""
    checkpoint = torch.load(
        os.path.join(save_dir, "epoch-" + str(resume_epoch - 1) + ".pth.tar"),
        map_location=lambda storage, loc: storage)  # Load all tensors onto the CPU
    model.load_state_dict(checkpoint["state_dict"])
    optm.load_state_dict(checkpoint["opt_dict"])
    # the optimizer state follows the parameters to the training device
    for state in optm.state.values():
        for k, v in state.items():
            if isinstance(v, torch.Tensor):
                state[k] = v.to(device)
