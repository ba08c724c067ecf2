import argparse

import torch as th


def get_arguments():
    parser = argparse.ArgumentParser()
    # GPU device number as in "cuda:0". Default is 0.
    parser.add_argument("-cuda", "--cuda_number", type=str, default="0")
    return parser.parse_args()


def get_config(args):
    config = {"conv_dims": [[1, 64, 10, 5, 3, 1], [64, 64, 8, 4, 2, 1], 128], "time_steps": 12, "batch_size": 8,
              "sequence_length": 20480, "downsampling_factor": 160, "epochs": 10, "learning_rate": 2e-4}
    # Define which device to use: GPU or CPU
    config["device"] = th.device("cuda:" + args.cuda_number if th.cuda.is_available() else "cpu")
    return config
