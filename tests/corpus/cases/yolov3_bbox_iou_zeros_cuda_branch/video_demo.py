import numpy as np
import torch

from darknet import Darknet
from util import write_results


def prep_image(img, inp_dim):
    """HWC uint8 frame -> (1, 3, inp_dim, inp_dim) float tensor in [0, 1]."""
    img = img[:inp_dim, :inp_dim, ::-1].transpose((2, 0, 1)).copy()
    return torch.from_numpy(img).float().div(255.0).unsqueeze(0)


if __name__ == "__main__":
    confidence = 0.5
    nms_thesh = 0.4
    num_classes = 80
    inp_dim = 416

    CUDA = torch.cuda.is_available()

    model = Darknet(num_classes=num_classes)
    if CUDA:
        model.cuda()
    model.eval()

    frames = [np.random.randint(0, 255, (480, 640, 3), dtype=np.uint8) for _ in range(4)]
    for frame in frames:
        img = prep_image(frame, inp_dim)
        if CUDA:
            img = img.cuda()

        with torch.no_grad():
            output = model(img, CUDA)
        output = write_results(output, confidence, num_classes, nms=True, nms_conf=nms_thesh)
        if isinstance(output, int):
            continue
        print(output.shape)
