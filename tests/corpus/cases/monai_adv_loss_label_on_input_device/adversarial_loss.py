import torch
from torch.nn.modules.loss import _Loss


class PatchAdversarialLoss(_Loss):
    """Adversarial loss on the logits of a (multi-scale) patch discriminator."""

    def __init__(self, reduction="mean", criterion="least_squares", no_activation_leastsq=False):
        super().__init__(reduction=reduction)
        self.real_label = 1.0
        self.fake_label = 0.0
        if criterion == "bce":
            self.activation = torch.nn.Sigmoid()
            self.loss_fct = torch.nn.BCELoss(reduction=reduction)
        elif criterion == "hinge":
            self.activation = torch.nn.Tanh()
            self.fake_label = -1.0
        elif criterion == "least_squares":
            self.activation = None if no_activation_leastsq else torch.nn.LeakyReLU(0.05)
            self.loss_fct = torch.nn.MSELoss(reduction=reduction)
        self.criterion = criterion

    def get_target_tensor(self, input, target_is_real):
        filling_label = self.real_label if target_is_real else self.fake_label
        label_tensor = torch.tensor(1).fill_(filling_label).type(input.type()).to(input[0].device)
        label_tensor.requires_grad_(False)
        return label_tensor.expand_as(input)

    def get_zero_tensor(self, input):
        zero_label_tensor = torch.tensor(0).type(input[0].type()).to(input[0].device)
        zero_label_tensor.requires_grad_(False)
        return zero_label_tensor.expand_as(input)

    def forward(self, input, target_is_real, for_discriminator):
        if not for_discriminator and not target_is_real:
            target_is_real = True
        if type(input) is not list:
            input = [input]
        target_ = []
        for disc_out in input:
            if self.criterion != "hinge":
                target_.append(self.get_target_tensor(disc_out, target_is_real))
            else:
                target_.append(self.get_zero_tensor(disc_out))
        loss = []
        for disc_ind, disc_out in enumerate(input):
            if self.activation is not None:
                disc_out = self.activation(disc_out)
            if self.criterion == "hinge" and not target_is_real:
                loss.append(self.forward_single(-disc_out, target_[disc_ind]))
            else:
                loss.append(self.forward_single(disc_out, target_[disc_ind]))
        return torch.mean(torch.stack(loss))

    def forward_single(self, input, target):
        if self.criterion in ("bce", "least_squares"):
            return self.loss_fct(input, target)
        minval = torch.min(input - 1, self.get_zero_tensor(input))
        return -torch.mean(minval)
