import numpy as np
import torch
from torch.utils.data import DataLoader

from models.deeplab.modeling.deeplab import DeepLab
from models.utils.loader import load_model
from models.utils.saver import Saver
from datasets import build_dataloader


class Trainer(object):
    def __init__(self, args):
        self.args = args

        # Define Saver
        self.saver = Saver(args)

        # Define transforms and Dataloader
        train_dataset, val_dataset = build_dataloader(args.dataset, args.data_root, None, None, 2048, 2)
        print("Training on {} samples, Validating on {} samples".format(len(train_dataset), len(val_dataset)))
        self.validation_loader = DataLoader(val_dataset, batch_size=args.test_batch_size, shuffle=True,
                                            num_workers=args.workers)
        self.train_loader = DataLoader(train_dataset, batch_size=args.batch_size, shuffle=True,
                                       num_workers=args.workers)

        self.nclass = args.num_classes

        # Define network
        model = DeepLab(num_classes=self.nclass,
                        backbone=args.backbone,
                        output_stride=args.out_stride,
                        sync_bn=args.sync_bn,
                        freeze_bn=args.freeze_bn,
                        dropout_low=args.dropout[0],
                        dropout_high=args.dropout[1],
                    )

        train_params = [{'params': model.get_1x_lr_params(), 'lr': args.lr},
                        {'params': model.get_10x_lr_params(), 'lr': args.lr * 10}]

        # Define Optimizer
        optimizer = torch.optim.SGD(train_params, momentum=args.momentum, weight_decay=args.weight_decay)

        # SegmentationLosses(...).build_loss(mode='ce_dice') stand-in
        self.criterion = torch.nn.CrossEntropyLoss()
        self.model, self.optimizer = model, optimizer

        self.model = load_model(self.model, args.resume, args.best_miou, args.cuda, args.gpu_ids)

    def training(self, epoch):
        self.model.train()
        for i, sample in enumerate(self.train_loader):
            image, mask = sample['image'], sample['mask'].long()

            # cuda enable image/mask
            if self.args.cuda:
                image, mask = image.cuda(), mask.cuda()

            # get output, calculate loss, perform backprop
            self.optimizer.zero_grad()
            output = self.model(image)
            loss = self.criterion(output, mask)
            loss.backward()
            self.optimizer.step()
            print('Train loss: %.3f' % (loss.item()))

    def validation(self, epoch):
        self.model.eval()
        total_loss = []
        total_mIOU = []
        for i, sample in enumerate(self.validation_loader):
            image, mask = sample['image'], sample['mask'].long()

            # cuda enable image/mask
            if self.args.cuda:
                image, mask = image.cuda(), mask.cuda()

            with torch.no_grad():
                output = self.model(image)
            loss = self.criterion(output, mask)
            total_loss.append(loss.item())

            pred = torch.nn.functional.softmax(output, dim=1)
            pred = np.argmax(pred.data.cpu().numpy(), axis=1)
            target = mask.cpu().numpy()
            total_mIOU.append(float(((pred == 1) & (target == 1)).sum()) / max(1, ((pred == 1) | (target == 1)).sum()))

        self.saver.save_checkpoint(self.model.state_dict(), np.mean(total_loss), np.mean(total_mIOU))
