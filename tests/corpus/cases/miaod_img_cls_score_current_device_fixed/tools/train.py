import argparse
import os
import os.path as osp
import sys
import time

sys.path.insert(0, osp.join(osp.dirname(osp.abspath(__file__)), '..'))

import torch
import mmcv
from mmcv import Config

from mmdet.apis import train_detector
from mmdet.datasets import build_dataset
from mmdet.models.detectors.single_stage import SingleStageDetector


def parse_args():
    parser = argparse.ArgumentParser(description='Train a detector')
    parser.add_argument('config', help='train config file path')
    parser.add_argument('--work_directory', help='the dir to save logs and models')
    group_gpus = parser.add_mutually_exclusive_group()
    group_gpus.add_argument('--gpus', type=int,
                            help='number of gpus to use (only applicable to non-distributed training)')
    group_gpus.add_argument('--gpu-ids', type=int, nargs='+',
                            help='ids of gpus to use (only applicable to non-distributed training)')
    parser.add_argument('--seed', type=int, default=666, help='random seed')
    args = parser.parse_args()
    return args


def main():
    args = parse_args()
    cfg = Config.fromfile(args.config)
    if args.work_directory is not None:
        cfg.work_directory = args.work_directory
    else:
        cfg.work_directory = osp.join('./work_dirs', osp.splitext(osp.basename(args.config))[0])
    if args.gpu_ids is not None:
        cfg.gpu_ids = args.gpu_ids
    else:
        cfg.gpu_ids = range(1) if args.gpus is None else range(args.gpus)
    timestamp = time.strftime('%Y%m%d_%H%M%S', time.localtime())
    cfg.seed = args.seed

    # ---------- MI-AOD Training (first cycle, labeled-set training) ---------- #
    model = SingleStageDetector(**cfg.model)
    datasets = [build_dataset(cfg)]
    model.CLASSES = datasets[0].CLASSES
    for epoch in range(cfg.epoch):
        # ---------- Label Set Training ----------
        cfg.total_epochs = 1
        train_detector(model, datasets, cfg, distributed=False, validate=False, timestamp=timestamp)


if __name__ == '__main__':
    main()
