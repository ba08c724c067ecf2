import torch
import torch.nn as nn


class HardSwish(nn.Module):
    def __init__(self, inplace=True):
        super(HardSwish, self).__init__()
        self.relu6 = nn.ReLU6(inplace)

    def forward(self, x):
        return x * self.relu6(x + 3) / 6


def Conv1x1BNActivation(in_channels, out_channels, activate):
    return nn.Sequential(
        nn.Conv2d(in_channels, out_channels, kernel_size=1, stride=1),
        nn.BatchNorm2d(out_channels),
        nn.ReLU6(inplace=True) if activate == 'relu' else HardSwish(inplace=True),
    )


def Conv1x1BN(in_channels, out_channels):
    return nn.Sequential(
        nn.Conv2d(in_channels, out_channels, kernel_size=1, stride=1),
        nn.BatchNorm2d(out_channels),
    )


class MDConv(nn.Module):
    """Mixed depthwise convolution: one kernel size per channel group."""

    def __init__(self, nchannels, kernel_sizes, stride):
        super(MDConv, self).__init__()
        self.nchannels = nchannels
        self.groups = len(kernel_sizes)
        self.split_channels = [nchannels // self.groups for _ in range(self.groups)]
        self.split_channels[0] += nchannels - sum(self.split_channels)

        self.layers = []
        for i in range(self.groups):
            self.layers.append(nn.Conv2d(self.split_channels[i], self.split_channels[i],
                                         kernel_size=kernel_sizes[i], stride=stride,
                                         padding=kernel_sizes[i] // 2, groups=self.split_channels[i]))

    def forward(self, x):
        split_x = torch.split(x, self.split_channels, dim=1)
        outputs = [layer(sp_x) for layer, sp_x in zip(self.layers, split_x)]
        return torch.cat(outputs, dim=1)


class MDConvBlock(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_sizes, stride, expand_ratio, activate='relu'):
        super(MDConvBlock, self).__init__()
        mid_channels = in_channels * expand_ratio
        self.expand_conv = Conv1x1BNActivation(in_channels, mid_channels, activate)
        self.md_conv = nn.Sequential(
            MDConv(mid_channels, kernel_sizes, stride),
            nn.BatchNorm2d(mid_channels),
            nn.ReLU6(inplace=True) if activate == 'relu' else HardSwish(inplace=True),
        )
        self.projection_conv = Conv1x1BN(mid_channels, out_channels)

    def forward(self, x):
        x = self.expand_conv(x)
        x = self.md_conv(x)
        return self.projection_conv(x)


class MixNet(nn.Module):
    mixnet_s = [(16, 16, [3], 1, 1, 'ReLU'),
                (16, 24, [3], 2, 6, 'ReLU'),
                (24, 40, [3, 5, 7], 2, 6, 'Swish'),
                (40, 80, [3, 5, 7], 2, 6, 'Swish')]

    def __init__(self, num_classes=10):
        super(MixNet, self).__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(3, 16, kernel_size=3, stride=2, padding=1),
            nn.BatchNorm2d(16),
            HardSwish(inplace=True),
        )
        layers = []
        for in_channels, out_channels, kernel_sizes, stride, expand_ratio, activate in self.mixnet_s:
            layers.append(MDConvBlock(in_channels, out_channels, kernel_sizes, stride, expand_ratio, activate))
        self.bottleneck = nn.Sequential(*layers)
        self.classifier = nn.Linear(80, num_classes)

    def forward(self, x):
        x = self.stem(x)
        x = self.bottleneck(x)
        return self.classifier(x.mean(dim=(2, 3)))


if __name__ == '__main__':
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = MixNet(num_classes=10).to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

    model.train()
    for step in range(3):
        # stand-in for a CIFAR-10 batch
        images = torch.randn(8, 3, 64, 64)
        labels = torch.randint(0, 10, (8,))
        images, labels = images.to(device), labels.to(device)

        outputs = model(images)
        loss = criterion(outputs, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())
