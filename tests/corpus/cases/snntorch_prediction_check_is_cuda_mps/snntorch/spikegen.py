import torch


def targets_convert(targets, num_classes, code="rate", on_target=1, off_target=0):
    """Spike encoding of targets: one-hot class ids scaled to on/off membrane targets."""
    if code == "rate":
        return targets_rate(targets, num_classes, on_target=on_target, off_target=off_target)
    raise ValueError(f"code {code} is not supported here")


def targets_rate(targets, num_classes, on_target=1, off_target=0):
    one_hot = torch.nn.functional.one_hot(targets.long(), num_classes).float()
    return one_hot * on_target + (1 - one_hot) * off_target
