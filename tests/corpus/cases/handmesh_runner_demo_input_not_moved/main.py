import argparse

import numpy as np
import torch

from cmr.cmr_sg import CMR_SG
from run import Runner

if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument('--device_idx', type=int, nargs='+', default=[0])
    parser.add_argument('--phase', type=str, default='demo')
    args = parser.parse_args()

    # device set
    if -1 in args.device_idx or not torch.cuda.is_available():
        device = torch.device('cpu')
    elif len(args.device_idx) == 1:
        device = torch.device('cuda', args.device_idx[0])
    else:
        device = torch.device('cuda')

    model = CMR_SG(args)
    model = model.to(device)

    faces = [np.zeros((1538, 3), dtype=np.int64)]
    runner = Runner(args, model, faces, device)
    if args.phase == 'demo':
        # stand-ins for the images/*_img.jpg files read with cv2
        images = [np.random.randint(0, 256, (224, 224, 3), dtype=np.uint8) for _ in range(2)]
        runner.demo(images)
