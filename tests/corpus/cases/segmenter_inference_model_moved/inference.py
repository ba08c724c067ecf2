import sys
from pathlib import Path

import numpy as np
import torchvision.transforms.functional as TF
from PIL import Image

import ptu
from factory import load_model
from model_utils import inference


def main(model_path, input_dir, output_dir, gpu=True):
    ptu.set_gpu_mode(gpu)
    model, variant = load_model(model_path)
    model.to(ptu.device)
    for filename in Path(input_dir).iterdir():
        im = TF.pil_to_tensor(Image.open(filename)).float() / 255
        im = im.to(ptu.device).unsqueeze(0)
        logits = inference(model, [im], ori_shape=im.shape[2:4], window_size=512, window_stride=512, batch_size=2)
        seg_map = logits.argmax(0).cpu().numpy().astype(np.uint8)
        Image.fromarray(seg_map).save(Path(output_dir) / filename.name)


if __name__ == "__main__":
    main(*sys.argv[1:4])
