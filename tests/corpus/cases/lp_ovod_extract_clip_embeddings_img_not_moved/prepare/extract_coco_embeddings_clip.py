import numpy as np
import torch
import torch.distributed as dist
import torch.nn.functional as F
import torch.utils.data as data
from PIL import Image
from torch.utils.data.distributed import DistributedSampler

import argparse
import clip
import os
from mmdet.datasets import CocoDataset
from torchvision.transforms import CenterCrop, Compose, Normalize, Resize, ToTensor
from torchvision.transforms import InterpolationMode

BICUBIC = InterpolationMode.BICUBIC


class CocoCroppedProposals(CocoDataset):
    n_px = 224
    clip_transform = Compose(
        [
            Resize(n_px, interpolation=BICUBIC),
            CenterCrop(n_px),
            ToTensor(),
            Normalize((0.48145466, 0.4578275, 0.40821073), (0.26862954, 0.26130258, 0.27577711)),
        ]
    )

    def __init__(self, ann_file, pipeline, img_prefix="", proposal_file=None):
        super().__init__(ann_file, pipeline, img_prefix=img_prefix, proposal_file=proposal_file)
        self.num_proposals_per_img = list(len(proposal) for proposal in self.proposals)
        self.num_proposals_per_img.insert(0, 0)
        self.num_proposals_per_img_cum = np.cumsum(self.num_proposals_per_img)

    def __len__(self):
        return self.num_proposals_per_img_cum[-1]

    def __getitem__(self, idx):
        img_id = np.searchsorted(self.num_proposals_per_img_cum, idx, side="right") - 1
        proposal_id = idx - self.num_proposals_per_img_cum[img_id]
        img_info = self.data_infos[img_id]
        image = Image.open(os.path.join(self.img_prefix, img_info["filename"]))
        x0, y0, x1, y1 = self.proposals[img_id][proposal_id][:4]
        img = image.crop((x0, y0, x1, y1))
        img15 = image.crop((1.25 * x0 - 0.25 * x1, 1.25 * y0 - 0.25 * y1, 1.25 * x1 - 0.25 * x0, 1.25 * y1 - 0.25 * y0))
        img = self.clip_transform(img)
        img15 = self.clip_transform(img15)

        return img, img15, idx


def main():
    parser = argparse.ArgumentParser(description="Extract COCO embeddings")
    parser.add_argument("--data_root", default="data/coco/", help="data root")
    parser.add_argument("--split", default="train", help="data split")
    parser.add_argument("--proposal_file", default="path_to_proposal", help="path to pre-computed proposals")
    parser.add_argument("--batch_size", default=100, type=int, help="batch size per gpu")
    parser.add_argument("--save_path", default="embeddings.pth", help="path to save output")
    args = parser.parse_args()
    rank = dist.get_rank()
    world_size = dist.get_world_size()
    device_id = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(device_id)

    dataset = CocoCroppedProposals(
        pipeline=[],
        ann_file=os.path.join(args.data_root, f"annotations/instances_{args.split}2017.json"),
        proposal_file=args.proposal_file,
        img_prefix=args.data_root + f"{args.split}2017",
    )

    clip_model, _ = clip.load("ViT-B/32", device=device_id)
    clip_model.eval()

    sampler = DistributedSampler(dataset, world_size, rank, shuffle=False)
    dataloader = data.DataLoader(dataset, batch_size=args.batch_size, sampler=sampler)

    embeddings = torch.HalfTensor(
        torch.HalfStorage.from_file(args.save_path, shared=True, size=len(dataset) * clip_model.visual.output_dim)
    ).reshape(len(dataset), -1)
    with torch.no_grad():
        for step, (img, img15, idx) in enumerate(dataloader):
            clip_image_features = clip_model.encode_image(img)
            clip_image_features15 = clip_model.encode_image(img15)

            clip_image_features_single = clip_image_features + clip_image_features15
            clip_image_features = F.normalize(clip_image_features_single, p=2, dim=1)

            embeddings[idx] = clip_image_features.cpu()


if __name__ == "__main__":
    main()
