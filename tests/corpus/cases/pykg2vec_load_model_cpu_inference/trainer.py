from pathlib import Path

import torch


class Trainer:
    """Trains a knowledge-graph embedding model and reloads it for inference."""

    def __init__(self, model, config):
        self.model = model
        self.config = config
        self.device = torch.device(config.device)

    def save_model(self):
        path = Path(self.config.path_tmp) / f"{self.model.model_name}.pt"
        torch.save(self.model.state_dict(), str(path))

    def load_model(self, model_path=None):
        path = Path(model_path or self.config.load_from_data)
        self.model.load_state_dict(torch.load(str(path / f"{self.model.model_name}.pt")))
        self.model.to(self.device)
        self.model.eval()
