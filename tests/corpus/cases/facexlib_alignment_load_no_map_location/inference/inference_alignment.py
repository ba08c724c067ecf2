import argparse

import cv2
import torch

from facexlib.alignment import init_alignment_model


def main(args):
    align_net = init_alignment_model(args.model_name, device=args.device)
    img = cv2.imread(args.img_path)
    with torch.no_grad():
        landmarks = align_net.get_landmarks(img)
    print(landmarks[:5])


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--img_path", type=str, default="assets/test2.jpg")
    parser.add_argument("--model_name", type=str, default="awing_fan")
    parser.add_argument("--device", type=str, default="cuda")
    main(parser.parse_args())
