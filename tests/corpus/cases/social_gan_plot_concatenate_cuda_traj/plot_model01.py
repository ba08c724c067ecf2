import argparse
import os
import torch
import numpy as np
from attrdict import AttrDict
import matplotlib.pyplot as plt
from matplotlib import animation

from sgan.data.loader import data_loader
from sgan.models import TrajectoryGenerator
from sgan.utils import relative_to_abs, get_dset_path

parser = argparse.ArgumentParser()
parser.add_argument('--model_path', type=str)
parser.add_argument('--num_samples', default=20, type=int)
parser.add_argument('--dset_type', default='test', type=str)

xdata, ydata = [], []
x1 = []
y1 = []
fig, ax = plt.subplots()
ln, = ax.plot([], [], 'ro')


def gen_dot():
    for i in range(0, len(x1)):
        yield [x1[i], y1[i]]


def update_dot(newd):
    xdata.append(newd[0])
    ydata.append(newd[1])
    ln.set_data(xdata, ydata)
    return ln,


def get_generator(checkpoint):
    args = AttrDict(checkpoint['args'])
    generator = TrajectoryGenerator(
        obs_len=args.obs_len,
        pred_len=args.pred_len,
        embedding_dim=args.embedding_dim,
        encoder_h_dim=args.encoder_h_dim_g,
        decoder_h_dim=args.decoder_h_dim_g,
        mlp_dim=args.mlp_dim,
        num_layers=args.num_layers,
        noise_dim=args.noise_dim,
        noise_type=args.noise_type,
        pooling_type=args.pooling_type,
        dropout=args.dropout,
        batch_norm=args.batch_norm)
    generator.load_state_dict(checkpoint['g_state'])
    generator.cuda()
    generator.train()
    return generator


def evaluate(args, loader, generator, num_samples):
    global x1, y1
    with torch.no_grad():
        for batch in loader:
            batch = [tensor.cuda() for tensor in batch]
            (obs_traj, pred_traj_gt, obs_traj_rel, pred_traj_gt_rel,
             non_linear_ped, loss_mask, seq_start_end) = batch

            pred_traj_fake_rel = generator(obs_traj, obs_traj_rel, seq_start_end)
            pred_traj_fake = relative_to_abs(pred_traj_fake_rel, obs_traj[-1])
            gt = pred_traj_gt[:, 3, :].data
            input_a = obs_traj[:, 3, :].data
            out_a = pred_traj_fake[:, 3, :].data
            aa = np.concatenate((input_a, gt), axis=0)
            bb = np.concatenate((input_a, out_a), axis=0)
            ax.set_xlim(-2, 15)
            ax.set_ylim(-2, 15)
            x1 = bb[:, 0]
            y1 = bb[:, 1]
            ax.plot(aa[:, 0], aa[:, 1], '.')
            ani = animation.FuncAnimation(fig, update_dot, frames=gen_dot, interval=5)
            plt.show()
            plt.close()


def main(args):
    if os.path.isdir(args.model_path):
        filenames = sorted(os.listdir(args.model_path))
        paths = [os.path.join(args.model_path, file_) for file_ in filenames]
    else:
        paths = [args.model_path]

    for path in paths:
        checkpoint = torch.load(path)
        generator = get_generator(checkpoint)
        _args = AttrDict(checkpoint['args'])
        path = get_dset_path(_args.dataset_name, args.dset_type)
        _, loader = data_loader(_args, path)
        evaluate(_args, loader, generator, args.num_samples)


if __name__ == '__main__':
    args = parser.parse_args()
    main(args)
