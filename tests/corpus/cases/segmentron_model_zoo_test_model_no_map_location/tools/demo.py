import os
import sys

import numpy as np
import torch

cur_path = os.path.abspath(os.path.dirname(__file__))
root_path = os.path.split(cur_path)[0]
sys.path.append(root_path)

import segmentron.models  # noqa: F401  (registers the models)
from segmentron.models.model_zoo import get_segmentation_model
from segmentron.utils.options import parse_args
from segmentron.utils.default_setup import default_setup
from segmentron.config import cfg


def load_image(img_path):
    """Stand-in for PIL.Image.open(img_path).convert('RGB') + ToTensor + Normalize."""
    rng = np.random.RandomState(abs(hash(img_path)) % (2 ** 31))
    return torch.from_numpy(rng.rand(3, 64, 128).astype(np.float32))


def demo():
    args = parse_args()
    cfg.update_from_file(args.config_file)
    cfg.update_from_list(args.opts)
    cfg.PHASE = 'test'
    cfg.ROOT_PATH = root_path
    cfg.check_and_freeze()
    default_setup(args)

    model = get_segmentation_model().to(args.device)
    model.eval()

    if os.path.isdir(args.input_img):
        img_paths = [os.path.join(args.input_img, x) for x in os.listdir(args.input_img)]
    else:
        img_paths = [args.input_img]
    for img_path in img_paths:
        images = load_image(img_path).unsqueeze(0).to(args.device)
        with torch.no_grad():
            output = model(images)

        pred = torch.argmax(output[0], 1).squeeze(0).cpu().data.numpy()
        print(os.path.splitext(os.path.split(img_path)[-1])[0], pred.shape)


if __name__ == '__main__':
    demo()
