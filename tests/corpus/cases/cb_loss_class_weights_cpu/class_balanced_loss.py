"""Class-Balanced Loss (Cui et al., CVPR'19): per-class weights from the effective number of samples."""
import numpy as np
import torch
import torch.nn.functional as F


def focal_loss(labels, logits, alpha, gamma):
    bc_loss = F.binary_cross_entropy_with_logits(input=logits, target=labels, reduction="none")
    modulator = torch.exp(-gamma * labels * logits - gamma * torch.log(1 + torch.exp(-1.0 * logits)))
    weighted_loss = alpha * (modulator * bc_loss)
    return torch.sum(weighted_loss) / torch.sum(labels)


def CB_loss(labels, logits, samples_per_cls, no_of_classes, loss_type, beta, gamma):
    effective_num = 1.0 - np.power(beta, samples_per_cls)
    weights = (1.0 - beta) / np.array(effective_num)
    weights = weights / np.sum(weights) * no_of_classes

    labels_one_hot = F.one_hot(labels, no_of_classes).float()

    weights = torch.tensor(weights).float()
    weights = weights.unsqueeze(0)
    weights = weights.repeat(labels_one_hot.shape[0], 1) * labels_one_hot
    weights = weights.sum(1).unsqueeze(1).repeat(1, no_of_classes)

    if loss_type == "focal":
        return focal_loss(labels_one_hot, logits, weights, gamma)
    pred = logits.softmax(dim=1)
    return F.binary_cross_entropy(input=pred, target=labels_one_hot, weight=weights)
