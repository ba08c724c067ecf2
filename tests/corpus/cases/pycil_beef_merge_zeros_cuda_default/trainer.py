import torch

from models.beef_iso import BEEFISO


def train(args, task_loaders):
    _set_device(args)
    model = BEEFISO(args)
    for task_size, loader in task_loaders:
        model.incremental_train(task_size, loader)
        model.after_task()


def _set_device(args):
    device_type = args["device"]
    gpus = []
    for device in device_type:
        if device_type == -1:
            device = torch.device("cpu")
        else:
            device = torch.device("cuda:{}".format(device))
        gpus.append(device)
    args["device"] = gpus
