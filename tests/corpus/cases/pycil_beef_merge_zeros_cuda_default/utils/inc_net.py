import torch
from torch import nn


def get_convnet(args):
    """A small stand-in for the resnet32 backbone: returns {'features': (B, out_dim)}."""
    return ConvNet(out_dim=64)


class ConvNet(nn.Module):
    def __init__(self, out_dim):
        super().__init__()
        self.out_dim = out_dim
        self.body = nn.Sequential(nn.Conv2d(3, out_dim, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())

    def forward(self, x):
        return {"features": self.body(x)}


class BEEFISONet(nn.Module):
    def __init__(self, args, pretrained):
        super().__init__()
        self.convnet_type = args["convnet_type"]
        self.convnets = nn.ModuleList()
        self.args = args
        self.out_dim = None
        self.old_fc = None
        self.new_fc = None
        self.backward_prototypes = None
        self.task_sizes = []

    @property
    def feature_dim(self):
        return 0 if self.out_dim is None else self.out_dim * len(self.convnets)

    def forward(self, x):
        features = torch.cat([convnet(x)["features"] for convnet in self.convnets], 1)
        if self.old_fc is None:
            logits = self.new_fc(features)
        else:
            # merge the weights of the old and the new classifier
            new_task_size = self.task_sizes[-1]
            fc_weight = torch.cat([self.old_fc.weight, torch.zeros((new_task_size, self.feature_dim - self.out_dim)).cuda()], dim=0)
            new_fc_weight = torch.cat([self.backward_prototypes.weight, self.new_fc.weight], dim=0)
            new_fc_bias = torch.cat([self.backward_prototypes.bias, self.new_fc.bias])
            fc_weight = torch.cat([fc_weight, new_fc_weight], dim=1)
            fc_bias = torch.cat([self.old_fc.bias, torch.zeros(new_task_size).cuda()]) + new_fc_bias
            logits = features @ fc_weight.permute(1, 0) + fc_bias
        return {"logits": logits, "train_logits": self.new_fc(features[:, -self.out_dim:])}

    def update_fc_before(self, nb_classes):
        new_task_size = nb_classes - sum(self.task_sizes)
        self.convnets.append(get_convnet(self.args))
        if self.new_fc is not None:
            self.backward_prototypes = nn.Linear(self.out_dim, sum(self.task_sizes))
        if self.out_dim is None:
            self.out_dim = self.convnets[-1].out_dim
        self.new_fc = nn.Linear(self.out_dim, new_task_size)
        self.task_sizes.append(new_task_size)

    def update_fc_after(self):
        merged = nn.Linear(self.feature_dim, sum(self.task_sizes))
        self.old_fc = merged
