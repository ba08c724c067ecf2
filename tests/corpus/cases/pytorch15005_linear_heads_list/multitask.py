import numpy as np
import torch
from torch import nn

num_classes = [5, 2, 10, 3]


class MultiTask(nn.Module):
    def __init__(self, input_features):
        super().__init__()
        self.softmaxes = []
        for i in range(len(num_classes)):
            self.softmaxes.append(nn.Linear(input_features, num_classes[i]))

    def forward(self, batch_in):
        return [head(batch_in) for head in self.softmaxes]


if __name__ == "__main__":
    model = MultiTask(100)
    model.cuda()
    x = torch.from_numpy(np.random.rand(32, 100)).float().cuda()
    outputs = model(x)
