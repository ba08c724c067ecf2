import torch
import torch.nn as nn


class GANLoss(nn.Module):
    """GAN objective; the target labels are buffers, so the loss must follow the model's device."""

    def __init__(self, gan_mode, target_real_label=1.0, target_fake_label=0.0):
        super().__init__()
        self.register_buffer("real_label", torch.tensor(target_real_label))
        self.register_buffer("fake_label", torch.tensor(target_fake_label))
        self.loss = nn.MSELoss() if gan_mode == "lsgan" else nn.BCEWithLogitsLoss()

    def get_target_tensor(self, prediction, target_is_real):
        target_tensor = self.real_label if target_is_real else self.fake_label
        return target_tensor.expand_as(prediction)

    def __call__(self, prediction, target_is_real):
        return self.loss(prediction, self.get_target_tensor(prediction, target_is_real))


def init_net(net, gpu_ids=()):
    if len(gpu_ids) > 0:
        net.to(gpu_ids[0])
        net = torch.nn.DataParallel(net, gpu_ids)
    return net


def define_G(input_nc, output_nc, ngf, gpu_ids=()):
    net = nn.Sequential(nn.Conv2d(input_nc, ngf, 3, padding=1), nn.ReLU(True), nn.Conv2d(ngf, output_nc, 3, padding=1),
                        nn.Tanh())
    return init_net(net, gpu_ids)


def define_D(input_nc, ndf, gpu_ids=()):
    net = nn.Sequential(nn.Conv2d(input_nc, ndf, 4, stride=2, padding=1), nn.LeakyReLU(0.2, True),
                        nn.Conv2d(ndf, 1, 4, padding=1))
    return init_net(net, gpu_ids)
