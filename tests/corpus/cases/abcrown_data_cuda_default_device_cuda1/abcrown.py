import numpy as np
import torch

import arguments
from beta_CROWN_solver import LiRPAConvNet
from model_defs import mnist_6_100


def incomplete_verifier(model_ori, data, data_ub=None, data_lb=None, vnnlib=None):
    vnnlib = vnnlib[0]
    c = torch.tensor(np.array([item[0] for item in vnnlib[1]])).to(data)
    arguments.Config["bab"]["decision_thresh"] = torch.tensor(np.array([item[1] for item in vnnlib[1]])).to(data)

    model = LiRPAConvNet(model_ori, in_size=data.shape, c=c)
    print('Model prediction is:', model.net(data))
    if list(model.net.parameters())[0].is_cuda:
        data = data.cuda()
        data_lb, data_ub = data_lb.cuda(), data_ub.cuda()

    domain = torch.stack([data_lb.squeeze(0), data_ub.squeeze(0)], dim=-1)
    global_lb, _ = model.build_the_model(domain, data, data_lb, data_ub)
    if (global_lb > arguments.Config["bab"]["decision_thresh"]).all():
        print("verified with init bound!")
        return "safe-incomplete"
    return "unknown"


def main():
    arguments.parse_config()
    torch.manual_seed(arguments.Config["general"]["seed"])
    device = arguments.Config["general"]["device"]

    model_ori = mnist_6_100()
    # one property: an L_inf ball around an image, "class 0 beats every other class"
    x = torch.rand(1, 1, 28, 28)
    eps = 0.01
    data_min, data_max = (x - eps).clamp(0, 1), (x + eps).clamp(0, 1)
    spec = [(np.eye(10)[0] - np.eye(10)[j], 0.0) for j in range(1, 10)]
    vnnlib = [(None, [(np.stack([s[0] for s in spec]), np.zeros(9))])]

    model_ori = model_ori.to(device)
    x, data_max, data_min = x.to(device), data_max.to(device), data_min.to(device)
    print(incomplete_verifier(model_ori, x, data_ub=data_max, data_lb=data_min, vnnlib=vnnlib))


if __name__ == "__main__":
    main()
