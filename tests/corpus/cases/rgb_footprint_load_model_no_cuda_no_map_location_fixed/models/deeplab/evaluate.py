import numpy as np
import torch
from torch.utils.data import DataLoader

from models.deeplab.modeling.deeplab import DeepLab
from models.utils.loader import load_model
from models.utils.saver import Saver
from datasets import build_test_dataloader


class Tester(object):
    def __init__(self, args):
        self.args = args

        # Define Saver
        self.saver = Saver(args)

        # Define Dataloader. Also, define any transforms here
        test_dataset = build_test_dataloader(args, transforms=None)
        print("Testing on {} samples".format(len(test_dataset)))
        self.test_loader = DataLoader(test_dataset, batch_size=args.test_batch_size, num_workers=args.workers)
        self.nclass = args.num_classes

        # Define network
        self.model = DeepLab(num_classes=self.nclass,
                        backbone=args.backbone,
                        output_stride=args.out_stride,
                        sync_bn=args.sync_bn,
                        freeze_bn=args.freeze_bn,
                        dropout_low=args.dropout[0],
                        dropout_high=args.dropout[1],
                    )

        self.model = load_model(self.model, args.resume, args.best_miou, args.cuda, args.gpu_ids)

        self.model.eval()

    def infer(self,):
        height, width = self.test_loader.dataset.height, self.test_loader.dataset.width

        final_output = np.zeros((2, height, width), dtype=np.float32)
        counts = np.zeros((height, width), dtype=np.float32)

        for i, sample in enumerate(self.test_loader):
            image, coord = sample["image"], sample["coord"]
            assert image.shape[0] == 1, "Inference on multiple images simulatenously is not supported"
            if self.args.cuda:
                image = image.cuda()

            with torch.no_grad():
                output = self.model(image)
                pred = torch.nn.functional.softmax(output, dim=1).cpu().numpy().squeeze()

            if len(self.test_loader) == 1:
                final_output = pred
                counts[:] = 1
            else:
                row, col = coord.squeeze()
                final_output[:, row:row+self.args.window_size, col:col+self.args.window_size] += pred
                counts[row:row+self.args.window_size, col:col+self.args.window_size] += 1

        final_output /= counts
        final_output = final_output.argmax(axis=0).astype(np.uint8)
        return final_output
