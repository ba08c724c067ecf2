import argparse
import os

import numpy as np

from mobile_sam import SamAutomaticMaskGenerator, sam_model_registry

parser = argparse.ArgumentParser(
    description=(
        "Runs automatic mask generation on an input image or directory of images, "
        "and outputs masks."
    )
)

parser.add_argument("--input", type=str, required=True,
                    help="Path to either a single input image or folder of images.")
parser.add_argument("--output", type=str, required=True, help="Path to the directory where masks will be output.")
parser.add_argument("--model-type", type=str, required=True,
                    help="The type of model to load, in ['default', 'vit_t']")
parser.add_argument("--checkpoint", type=str, default=None,
                    help="The path to the SAM checkpoint to use for mask generation.")
parser.add_argument("--device", type=str, default="cuda", help="The device to run generation on.")
parser.add_argument("--points-per-side", type=int, default=4)


def load_image(path):
    # stand-in for cv2.imread + cvtColor: a 64x64 RGB image
    rng = np.random.default_rng(0)
    return rng.integers(0, 255, size=(64, 64, 3), dtype=np.uint8)


def main(args: argparse.Namespace) -> None:
    print("Loading model...")
    sam = sam_model_registry[args.model_type](checkpoint=args.checkpoint)
    _ = sam.to(device=args.device)
    generator = SamAutomaticMaskGenerator(sam, points_per_side=args.points_per_side)

    if not os.path.isdir(args.input):
        targets = [args.input]
    else:
        targets = [os.path.join(args.input, f) for f in sorted(os.listdir(args.input))]

    os.makedirs(args.output, exist_ok=True)

    for t in targets:
        print(f"Processing '{t}'...")
        image = load_image(t)
        masks = generator.generate(image)
        print(f"{len(masks)} mask batches")
    print("Done!")


if __name__ == "__main__":
    args = parser.parse_args()
    main(args)
