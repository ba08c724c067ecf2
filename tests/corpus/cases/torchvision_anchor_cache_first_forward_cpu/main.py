from collections import OrderedDict

import torch
from torch import nn

from detection.image_list import ImageList
from detection.rpn import AnchorGenerator, RegionProposalNetwork, RPNHead


class Detector(nn.Module):
    def __init__(self):
        super(Detector, self).__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=4, padding=1), nn.ReLU())
        anchor_generator = AnchorGenerator(sizes=((32, 64, 128),), aspect_ratios=((0.5, 1.0, 2.0),))
        head = RPNHead(16, anchor_generator.num_anchors_per_location()[0])
        self.rpn = RegionProposalNetwork(anchor_generator, head)

    def forward(self, images):
        image_sizes = [img.shape[-2:] for img in images]
        features = self.backbone(images)
        proposals, scores = self.rpn(ImageList(images, image_sizes), OrderedDict([("0", features)]))
        return proposals, scores


model = Detector()
model.eval()

images = torch.rand(2, 3, 128, 128)
with torch.no_grad():
    proposals, _ = model(images)  # a first pass on the CPU
print(proposals.shape)

model.cuda()
with torch.no_grad():
    proposals, _ = model(images.cuda())
print(proposals.shape)
