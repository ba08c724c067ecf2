"""Helpers of the DINO repository that eval_knn.py uses (the distributed set-up
reduced to the one-process launch: `python eval_knn.py`)."""
import os
import sys
import argparse

import torch


def load_pretrained_weights(model, pretrained_weights, checkpoint_key, model_name, patch_size):
    if os.path.isfile(pretrained_weights):
        state_dict = torch.load(pretrained_weights, map_location="cpu")
        if checkpoint_key is not None and checkpoint_key in state_dict:
            state_dict = state_dict[checkpoint_key]
        msg = model.load_state_dict(state_dict, strict=False)
        print('Pretrained weights found at {} and loaded with msg: {}'.format(pretrained_weights, msg))
    else:
        print("Please use the `--pretrained_weights` argument to indicate the path of the checkpoint to evaluate.")


def bool_flag(s):
    """
    Parse boolean arguments from the command line.
    """
    FALSY_STRINGS = {"off", "false", "0"}
    TRUTHY_STRINGS = {"on", "true", "1"}
    if s.lower() in FALSY_STRINGS:
        return False
    elif s.lower() in TRUTHY_STRINGS:
        return True
    else:
        raise argparse.ArgumentTypeError("invalid value for a boolean flag")


class MetricLogger(object):
    def __init__(self, delimiter="\t"):
        self.delimiter = delimiter

    def log_every(self, iterable, print_freq, header=None):
        for i, obj in enumerate(iterable):
            if i % print_freq == 0:
                print(header or '', i)
            yield obj


def get_rank():
    return 0


def init_distributed_mode(args):
    if torch.cuda.is_available():
        print('Will run the code on one GPU.')
        args.rank, args.gpu, args.world_size = 0, 0, 1
    else:
        print('Does not support training without GPU.')
        sys.exit(1)
    torch.cuda.set_device(args.gpu)
