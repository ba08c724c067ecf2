import argparse

import torch

from utils.loading_utils import load_model, get_device


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description='Evaluating a trained network')
    parser.add_argument('-c', '--path_to_model', required=True, type=str,
                        help='path to model weights')
    parser.add_argument('--use_gpu', dest='use_gpu', action='store_true')
    parser.set_defaults(use_gpu=True)
    args = parser.parse_args()

    width, height = 240, 180

    # Load model
    model = load_model(args.path_to_model)
    device = get_device(args.use_gpu)

    model = model.to(device)
    model.eval()

    states = None
    with torch.no_grad():
        for _ in range(10):
            event_tensor = torch.rand(1, model.num_bins, height, width, device=device)
            image, states = model(event_tensor, states)
