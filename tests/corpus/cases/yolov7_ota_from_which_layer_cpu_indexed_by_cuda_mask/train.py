import argparse

import torch

from models.yolo import Model
from utils.datasets import create_dataloader
from utils.loss import ComputeLossOTA
from utils.torch_utils import select_device


def train(hyp, opt, device):
    nc = 2  # number of classes
    model = Model(ch=3, nc=nc, anchors=hyp.get('anchors')).to(device)  # create
    model.nc = nc  # attach number of classes to model
    model.hyp = hyp  # attach hyperparameters to model
    model.gr = 1.0  # iou loss ratio (obj_loss = 1.0 or iou)

    optimizer = torch.optim.SGD(model.parameters(), lr=hyp['lr0'], momentum=hyp['momentum'], nesterov=True)
    dataloader, dataset = create_dataloader(opt.img_size, opt.batch_size, nc=nc)
    compute_loss_ota = ComputeLossOTA(model)  # init loss class

    for epoch in range(opt.epochs):
        model.train()
        mloss = torch.zeros(4, device=device)  # mean losses
        for i, (imgs, targets, paths, _) in enumerate(dataloader):  # batch
            imgs = imgs.to(device, non_blocking=True).float() / 255.0  # uint8 to float32, 0-255 to 0.0-1.0

            pred = model(imgs)  # forward
            loss, loss_items = compute_loss_ota(pred, targets.to(device), imgs)  # loss scaled by batch_size

            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            mloss = (mloss * i + loss_items) / (i + 1)  # update mean losses
        print(f'epoch {epoch}: {mloss}')


if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument('--epochs', type=int, default=1)
    parser.add_argument('--batch-size', type=int, default=4, help='total batch size for all GPUs')
    parser.add_argument('--img-size', type=int, default=64, help='train image size')
    parser.add_argument('--device', default='', help='cuda device, i.e. 0 or 0,1,2,3 or cpu')
    opt = parser.parse_args()

    device = select_device(opt.device, batch_size=opt.batch_size)
    hyp = {'lr0': 0.01, 'momentum': 0.937, 'box': 0.05, 'cls': 0.3, 'cls_pw': 1.0, 'obj': 0.7, 'obj_pw': 1.0,
           'anchor_t': 4.0, 'fl_gamma': 0.0,
           'anchors': [[12, 16, 19, 36, 40, 28], [36, 75, 76, 55, 72, 146], [142, 110, 192, 243, 459, 401]]}
    train(hyp, opt, device)
