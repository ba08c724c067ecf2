import torch
import torch.nn.functional as F


class FeatureExtractor:
    """Runs the re-id backbone on the GPU and returns normalised features."""

    def __init__(self, model):
        self.device = torch.device("cuda")
        self.model = model.to(self.device)
        self.model.eval()

    def __call__(self, images):
        with torch.no_grad():
            feats = self.model(images.to(self.device))
        return F.normalize(feats, dim=1)
