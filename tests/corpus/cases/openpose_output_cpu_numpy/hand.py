import numpy as np
import torch

from model import handpose_model


class Hand:
    def __init__(self, model_path):
        self.model = handpose_model()
        if torch.cuda.is_available():
            self.model = self.model.cuda()
        self.model.load_state_dict(torch.load(model_path, map_location="cpu"))
        self.model.eval()

    def __call__(self, image):
        data = torch.from_numpy(np.ascontiguousarray(image[None].transpose(0, 3, 1, 2))).float()
        if torch.cuda.is_available():
            data = data.cuda()
        with torch.no_grad():
            output = self.model(data).cpu().numpy()
        heatmap = np.squeeze(output)
        return heatmap.transpose(1, 2, 0)
