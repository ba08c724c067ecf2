import numpy as np
import torch
from torch.utils.data import DataLoader

from efficientdet import CustomDataParallel, EfficientDetBackbone, FocalLoss


def train(params, opt, training_set, val_set):
    training_generator = DataLoader(training_set, batch_size=opt.batch_size, shuffle=True)
    val_generator = DataLoader(val_set, batch_size=opt.batch_size, shuffle=False)
    model = EfficientDetBackbone(num_anchors=9, num_classes=len(params.obj_list))
    if params.num_gpus > 0:
        model = model.cuda()
        if params.num_gpus > 1:
            model = CustomDataParallel(model, params.num_gpus)
    optimizer = torch.optim.AdamW(model.parameters(), opt.lr)
    criterion = FocalLoss()

    for epoch in range(opt.num_epochs):
        model.train()
        for data in training_generator:
            imgs = data["img"]
            annot = data["annot"]
            if params.num_gpus > 0:
                annot = annot.cuda()
            if params.num_gpus == 1:
                # if only one gpu, just send it to cuda:0
                # elif multiple gpus, send it to multiple gpus in CustomDataParallel, not here
                imgs = imgs.cuda()
            optimizer.zero_grad()
            _, regression, classification, anchors = model(imgs)
            cls_loss, reg_loss = criterion(classification, regression, anchors, annot)
            loss = cls_loss + reg_loss
            loss.backward()
            optimizer.step()

        if epoch % opt.val_interval == 0:
            model.eval()
            loss_classification_ls, loss_regression_ls = [], []
            for data in val_generator:
                with torch.no_grad():
                    imgs = data["img"]
                    annot = data["annot"]
                    if params.num_gpus > 0:
                        annot = annot.cuda()
                    _, regression, classification, anchors = model(imgs)
                    cls_loss, reg_loss = criterion(classification, regression, anchors, annot)
                    loss_classification_ls.append(cls_loss.item())
                    loss_regression_ls.append(reg_loss.item())
            print("Val. Epoch: {}. Classification loss: {:1.5f}. Regression loss: {:1.5f}".format(
                epoch, np.mean(loss_classification_ls), np.mean(loss_regression_ls)))
