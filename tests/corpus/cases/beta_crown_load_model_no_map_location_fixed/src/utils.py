import torch
import torch.nn as nn

from modules import Flatten


########################################
# Model architectures
########################################
def cifar_model():
    # cifar base (Wong & Kolter)
    return nn.Sequential(
        nn.Conv2d(3, 8, 4, stride=2, padding=1),
        nn.ReLU(),
        nn.Conv2d(8, 16, 4, stride=2, padding=1),
        nn.ReLU(),
        Flatten(),
        nn.Linear(1024, 100),
        nn.ReLU(),
        nn.Linear(100, 10),
    )


def cifar_model_wide():
    # cifar wide (Wong & Kolter)
    return nn.Sequential(
        nn.Conv2d(3, 16, 4, stride=2, padding=1),
        nn.ReLU(),
        nn.Conv2d(16, 32, 4, stride=2, padding=1),
        nn.ReLU(),
        Flatten(),
        nn.Linear(32 * 8 * 8, 100),
        nn.ReLU(),
        nn.Linear(100, 10),
    )


def cnn_4layer():
    # cifar_cnn_a (SDP paper)
    return cifar_model_wide()


def load_model(args, weights_loaded=True):
    """Build the architecture named by --model and load the --load weights."""
    model_ori = eval(args.model)()

    if not weights_loaded:
        return model_ori

    map_location = None
    if args.device == 'cpu':
        map_location = torch.device('cpu')

    if 'cnn_4layer' not in args.model:
        # Wong & Kolter checkpoints: {'state_dict': [state_dict, ...]}
        model_ori.load_state_dict(torch.load(args.load, map_location)['state_dict'][0])
    else:
        model_ori.load_state_dict(torch.load(args.load, map_location))
    return model_ori


def load_sampled_dataset(num=10, shape=(3, 32, 32)):
    """Stands in for the CIFAR samples shipped with the repo."""
    X = torch.rand((num,) + shape)
    labels = torch.randint(0, 10, (num,))
    return X, labels
