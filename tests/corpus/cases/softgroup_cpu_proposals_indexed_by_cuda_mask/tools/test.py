import argparse

import torch
import yaml
from softgroup.data import build_dataloader, build_dataset
from softgroup.model import SoftGroup
from softgroup.util import Munch


def get_args():
    parser = argparse.ArgumentParser('SoftGroup')
    parser.add_argument('config', type=str, help='path to config file')
    parser.add_argument('checkpoint', type=str, nargs='?', help='path to checkpoint')
    args = parser.parse_args()
    return args


def main():
    args = get_args()
    cfg_txt = open(args.config, 'r').read()
    cfg = Munch.fromDict(yaml.safe_load(cfg_txt))
    model = SoftGroup(**cfg.model).cuda()
    # load_checkpoint(args.checkpoint, logger, model): no weights in the re-created case

    dataset = build_dataset(cfg.data.test)
    dataloader = build_dataloader(dataset, training=False, **cfg.dataloader.test)
    results = []
    with torch.no_grad():
        model.eval()
        for i, batch in enumerate(dataloader):
            result = model(batch)
            results.append(result)
    print('%d scans, %d instances' % (len(results), sum(len(r['pred_instances']) for r in results)))


if __name__ == '__main__':
    main()
