import numpy as np
import torch

from model import SANet


def validate(model, test_loader, patch_num):
    model.eval()
    mse = 0
    with torch.no_grad():
        for img, target in test_loader:
            img, target = img.cuda(), target.cuda()
            output = model(img)
            mse += (output.sum() - target.sum()) ** 2
    mse = np.sqrt(mse / (len(test_loader) * patch_num))
    return mse


def main(test_loader):
    model = SANet().cuda()
    print("val mse", validate(model, test_loader, patch_num=9))
