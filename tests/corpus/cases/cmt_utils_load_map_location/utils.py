import torch


def _load(checkpoint_path):
    checkpoint = torch.load(checkpoint_path, map_location="cpu")
    return checkpoint


def load_checkpoint(path, model):
    print(f"Load checkpoint from: {path}")
    checkpoint = _load(path)
    model.load_state_dict(checkpoint["state_dict"])
    return model
