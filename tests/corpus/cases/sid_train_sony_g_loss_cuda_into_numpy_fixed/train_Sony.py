import os
import time

import numpy as np

import torch
import torch.nn as nn
import torch.optim as optim

input_dir = './dataset/Sony/short/'
gt_dir = './dataset/Sony/long/'
result_dir = './result_Sony/'
model_dir = './saved_model/'

device = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')

# stand-in for the glob over ./dataset/Sony/long/0*.ARW
train_ids = [1, 2, 3, 4]

ps = 64  # patch size for training
save_freq = 100


class SeeInDark(nn.Module):
    """Small stand-in for the U-Net of model.py: packed 4-channel raw in, RGB at twice the size out."""

    def __init__(self):
        super(SeeInDark, self).__init__()
        self.conv1 = nn.Conv2d(4, 32, kernel_size=3, stride=1, padding=1)
        self.conv2 = nn.Conv2d(32, 12, kernel_size=1, stride=1)
        self.lrelu = nn.LeakyReLU(0.2)

    def forward(self, x):
        x = self.lrelu(self.conv1(x))
        x = self.conv2(x)
        return nn.functional.pixel_shuffle(x, 2)

    def _initialize_weights(self):
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                m.weight.data.normal_(0.0, 0.02)
                if m.bias is not None:
                    m.bias.data.normal_(0.0, 0.02)


def load_pair(train_id, ratio):
    """Stand-in for rawpy.imread + pack_raw of the short exposure and postprocess of the long one."""
    input_image = np.random.rand(1, ps * 2, ps * 2, 4).astype(np.float32) * ratio
    gt_image = np.random.rand(1, ps * 4, ps * 4, 3).astype(np.float32)
    return input_image, gt_image


def reduce_mean(out_im, gt_im):
    return torch.abs(out_im - gt_im).mean()


g_loss = np.zeros((5000, 1))

lastepoch = 0
learning_rate = 1e-4
model = SeeInDark().to(device)
model._initialize_weights()
opt = optim.Adam(model.parameters(), lr=learning_rate)
for epoch in range(lastepoch, 2):
    cnt = 0
    for ind in np.random.permutation(len(train_ids)):
        train_id = train_ids[ind]
        ratio = 300
        st = time.time()
        cnt += 1

        input_image, gt_image = load_pair(train_id, ratio)

        # crop
        H = input_image.shape[1]
        W = input_image.shape[2]
        xx = np.random.randint(0, W - ps)
        yy = np.random.randint(0, H - ps)
        input_patch = input_image[:, yy:yy + ps, xx:xx + ps, :]
        gt_patch = gt_image[:, yy * 2:yy * 2 + ps * 2, xx * 2:xx * 2 + ps * 2, :]

        if np.random.randint(2, size=1)[0] == 1:  # random flip
            input_patch = np.flip(input_patch, axis=1)
            gt_patch = np.flip(gt_patch, axis=1)

        input_patch = np.ascontiguousarray(np.minimum(input_patch, 1.0))
        gt_patch = np.ascontiguousarray(np.maximum(gt_patch, 0.0))

        in_img = torch.from_numpy(input_patch).permute(0, 3, 1, 2).to(device)
        gt_img = torch.from_numpy(gt_patch).permute(0, 3, 1, 2).to(device)

        model.zero_grad()
        out_img = model(in_img)

        loss = reduce_mean(out_img, gt_img)
        loss.backward()

        opt.step()
        g_loss[ind] = loss.data.cpu()

        print("%d %d Loss=%.3f Time=%.3f" % (epoch, cnt, np.mean(g_loss[np.where(g_loss)]), time.time() - st))

        if epoch % save_freq == 0:
            if not os.path.isdir(result_dir + '%04d' % epoch):
                os.makedirs(result_dir + '%04d' % epoch)
            output = out_img.permute(0, 2, 3, 1).cpu().data.numpy()
            output = np.minimum(np.maximum(output, 0), 1)
            temp = np.concatenate((gt_patch[0, :, :, :], output[0, :, :, :]), axis=1)
            torch.save(model.state_dict(), model_dir + 'checkpoint_sony_e%04d.pth' % epoch)
