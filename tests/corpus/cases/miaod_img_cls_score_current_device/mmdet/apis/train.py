import torch
from mmcv.parallel import MMDataParallel

from mmdet.datasets import build_dataloader
from epoch_based_runner import EpochBasedRunner


def train_detector(model, dataset, cfg, distributed=False, validate=False, timestamp=None, meta=None):
    # prepare data loaders
    dataset = dataset if isinstance(dataset, (list, tuple)) else [dataset]
    data_loaders_L = [build_dataloader(ds, cfg.data.samples_per_gpu, cfg.data.workers_per_gpu, len(cfg.gpu_ids),
                                       dist=distributed, seed=cfg.seed) for ds in dataset]
    # put model on gpus
    model = MMDataParallel(model.cuda(cfg.gpu_ids[0]), device_ids=cfg.gpu_ids)
    # build runner
    params = filter(lambda p: p.requires_grad, model.parameters())
    optimizer = torch.optim.SGD(params, lr=cfg.optimizer.lr, momentum=0.9, weight_decay=0.0005)
    runner = EpochBasedRunner(model, optimizer=optimizer, work_dir=cfg.work_directory, meta=meta)
    runner.timestamp = timestamp
    runner.run(data_loaders_L, [('train', 1)], cfg.total_epochs)
