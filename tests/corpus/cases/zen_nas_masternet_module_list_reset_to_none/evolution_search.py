"""
evolutionary search (reduced to one candidate structure)
"""
import argparse
import logging
import sys

import torch

import Masternet
from ZeroShotProxy import compute_zen_score


def parse_cmd_options(argv):
    """parse command line"""
    parser = argparse.ArgumentParser()
    parser.add_argument('--zero_shot_score', type=str, default='Zen')
    parser.add_argument('--evolution_max_iter', type=int, default=1)
    parser.add_argument('--num_classes', type=int, default=100)
    parser.add_argument('--batch_size', type=int, default=4)
    parser.add_argument('--input_image_size', type=int, default=32)
    parser.add_argument('--gamma', type=float, default=1e-2)
    parser.add_argument('--gpu', type=int, default=None)
    module_opt, _ = parser.parse_known_args(argv)
    return module_opt


def compute_nas_score(any_plain_net, random_structure_str, gpu, args):
    """ compute net score"""
    # compute network zero-shot proxy score
    the_model = any_plain_net(num_classes=args.num_classes, plainnet_struct=random_structure_str,
                              no_create=False, no_reslink=True)
    the_model = the_model.cuda(gpu)
    try:
        if args.zero_shot_score == 'Zen':
            the_nas_core_info = compute_zen_score.compute_nas_score(model=the_model, gpu=gpu,
                                                                    resolution=args.input_image_size,
                                                                    mixup_gamma=args.gamma, batch_size=args.batch_size,
                                                                    repeat=1)
            the_nas_core = the_nas_core_info['avg_nas_score']
        elif args.zero_shot_score == 'Params':
            the_nas_core = sum(p.numel() for p in the_model.parameters())
    except Exception as err:  # pylint: disable=broad-except
        logging.info(str(err))
        logging.info('--- Failed structure: ')
        logging.info(str(the_model))
        # raise err
        the_nas_core = -9999

    _ = the_model.cpu()
    del the_model
    torch.cuda.empty_cache()
    return the_nas_core


def main(args, argv):
    """network evolutionary"""
    gpu = args.gpu
    if gpu is not None:
        torch.cuda.set_device(f'cuda:{gpu}')
        torch.backends.cudnn.benchmark = True

    any_plain_net = Masternet.MasterNet
    for loop_count in range(args.evolution_max_iter):
        random_structure_str = 'ConvKX(3,16,3,2)BN(16)RELU(16)ConvKX(16,32,3,2)BN(32)RELU(32)'
        the_nas_core = compute_nas_score(any_plain_net, random_structure_str, gpu, args)
        logging.info('loop_count=%d, score=%s', loop_count, the_nas_core)


if __name__ == '__main__':
    logging.basicConfig(level=logging.INFO, stream=sys.stdout)
    main(parse_cmd_options(sys.argv), sys.argv)
