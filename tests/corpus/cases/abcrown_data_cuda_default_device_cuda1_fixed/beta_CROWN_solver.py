import torch
import torch.nn as nn

import arguments


class LiRPAConvNet:
    def __init__(self, model_ori, in_size, c=None, device=None):
        net = model_ori
        self.c = c
        self.device = device or arguments.Config["general"]["device"]
        self.net = net.to(self.device)
        self.net.eval()

    def build_the_model(self, domain, x, data_lb, data_ub, stop_criterion_func=None):
        # interval bounds through the network (stand-in for auto_LiRPA's CROWN pass)
        out = self.net(x)
        lb, ub = data_lb, data_ub
        for layer in self.net:
            if isinstance(layer, nn.Linear):
                mid, rad = (ub + lb).flatten(1) / 2, (ub - lb).flatten(1) / 2
                mid, rad = layer(mid), rad @ layer.weight.abs().t()
                lb, ub = mid - rad, mid + rad
            elif isinstance(layer, nn.ReLU):
                lb, ub = lb.clamp(min=0), ub.clamp(min=0)
        global_lb = (self.c * lb.unsqueeze(1)).sum(-1) if self.c is not None else lb
        return global_lb, out
