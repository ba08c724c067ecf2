import numpy as np
import torch
from torchvision.models.segmentation import deeplabv3_resnet50

from pytorch_grad_cam.utils.model_targets import SemanticSegmentationTarget


class SegmentationModelOutputWrapper(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)["out"]


# the explanation runs on the CPU (the GPU is busy training)
device = torch.device("cpu")
model = SegmentationModelOutputWrapper(deeplabv3_resnet50(weights="DEFAULT").eval()).to(device)
input_tensor = torch.rand(1, 3, 520, 520, device=device)

with torch.no_grad():
    output = model(input_tensor)
car_category = 7
car_mask = output[0].argmax(dim=0).cpu().numpy() == car_category
target = SemanticSegmentationTarget(car_category, np.float32(car_mask))
score = target(output[0])
print(float(score))
