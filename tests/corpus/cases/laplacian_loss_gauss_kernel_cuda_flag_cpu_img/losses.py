import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def pyr_downsample(x):
    return x[:, :, ::2, ::2]


def pyr_upsample(x, kernel, op0, op1):
    n_channels, _, kw, kh = kernel.shape
    return F.conv_transpose2d(x, kernel, groups=n_channels, stride=2, padding=2, output_padding=(op0, op1))


def gauss_kernel5(channels=3, cuda=True):
    kernel = torch.FloatTensor([[1., 4., 6., 4., 1],
                                [4., 16., 24., 16., 4.],
                                [6., 24., 36., 24., 6.],
                                [4., 16., 24., 16., 4.],
                                [1., 4., 6., 4., 1.]])
    kernel /= 256.
    kernel = kernel.repeat(channels, 1, 1, 1)
    if cuda:
        kernel = kernel.cuda()
    return kernel.requires_grad_(False)


def conv_gauss(img, kernel):
    """convolve img with a gaussian kernel that has been built with build_gauss_kernel"""
    n_channels, _, kw, kh = kernel.shape
    img = F.pad(img, (kw // 2, kh // 2, kw // 2, kh // 2), mode='replicate')
    return F.conv2d(img, kernel, groups=n_channels)


def laplacian_pyramid_expand(img, kernel, max_levels=5):
    current = img
    pyr = []
    for level in range(max_levels):
        filtered = conv_gauss(current, kernel)
        down = pyr_downsample(filtered)
        up = pyr_upsample(down, 4 * kernel, 1 - filtered.size(2) % 2, 1 - filtered.size(3) % 2)
        diff = current - up
        pyr.append(diff)
        current = down
    return pyr


class LapLoss(nn.Module):
    def __init__(self, max_levels=5):
        super(LapLoss, self).__init__()
        self.max_levels = max_levels
        self._gauss_kernel = None

    def forward(self, input, target):
        if self._gauss_kernel is None or self._gauss_kernel.shape[1] != input.shape[1]:
            self._gauss_kernel = gauss_kernel5(input.shape[1], cuda=input.is_cuda)
        pyr_input = laplacian_pyramid_expand(input, self._gauss_kernel, self.max_levels)
        pyr_target = laplacian_pyramid_expand(target, self._gauss_kernel, self.max_levels)
        weights = [1, 2, 4, 8, 16]
        return sum(weights[i] * F.l1_loss(a, b) for i, (a, b) in enumerate(zip(pyr_input, pyr_target))).mean()


if __name__ == '__main__':
    # stand-in for cv2.imread("00000000.png"): an HxWx3 uint8 image
    img = np.random.randint(0, 255, (64, 64, 3)).astype(np.uint8)
    img = np.float32(img).transpose(2, 0, 1)
    img = torch.from_numpy(img).unsqueeze(0)

    kernel = gauss_kernel5(channels=3, cuda=True)

    pyramids = laplacian_pyramid_expand(img, kernel)
    for i, pyr in enumerate(pyramids):
        test = pyr[0].numpy().transpose(1, 2, 0)
        test = np.clip(test + 127, 0, 255).astype('uint8')
        print(i, test.shape)
