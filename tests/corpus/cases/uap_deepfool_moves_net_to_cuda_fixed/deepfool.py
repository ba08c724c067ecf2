import copy

import numpy as np
import torch


def deepfool(image, net, num_classes, overshoot, max_iter):
    """Minimal perturbation that moves `image` across the closest decision boundary."""

    is_cuda = next(net.parameters()).is_cuda  # follow the network, do not move it
    if is_cuda:
        image = image.cuda()
        net = net.cuda()

    f_image = net.forward(image[None, :, :, :].requires_grad_()).data.cpu().numpy().flatten()
    I = f_image.argsort()[::-1]
    I = I[0:num_classes]
    label = I[0]

    input_shape = image.cpu().numpy().shape
    pert_image = copy.deepcopy(image)
    r_tot = np.zeros(input_shape, dtype=np.float32)
    loop_i = 0

    x = pert_image[None, :].clone().requires_grad_()
    fs = net.forward(x)
    k_i = label

    while k_i == label and loop_i < max_iter:
        # the gradient search over the other classes is left out of this stand-in
        r_i = np.full(input_shape, 1e-2, dtype=np.float32)
        r_tot = np.float32(r_tot + r_i)

        if is_cuda:
            pert_image = image + (1 + overshoot) * torch.from_numpy(r_tot).cuda()
        else:
            pert_image = image + (1 + overshoot) * torch.from_numpy(r_tot)

        fs = net.forward(pert_image.view(1, 1, image.shape[1], -1))
        k_i = np.argmax(fs.data.cpu().numpy().flatten())
        loop_i += 1

    return (1 + overshoot) * r_tot, loop_i, label, k_i, pert_image
