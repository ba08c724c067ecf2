import torch
import torch.nn as nn
import torch.nn.functional as F


class RDC(nn.Module):
    """Recurrent Decoding Cell: fuses the upsampled previous state with the current score map."""

    def __init__(self, hidden_dim, kernel_size, bias, decoder='GRU'):
        super(RDC, self).__init__()
        self.hidden_dim = hidden_dim
        self.padding = kernel_size // 2, kernel_size // 2
        self.decoder = decoder
        self.gru_catconv = nn.Conv2d(hidden_dim * 2, hidden_dim * 2, kernel_size, padding=self.padding, bias=bias)
        self.gru_conv = nn.Conv2d(hidden_dim * 2, hidden_dim, kernel_size, padding=self.padding, bias=bias)

    def forward(self, x_cur, h_pre):
        h_pre_up = F.interpolate(h_pre, size=[x_cur.size(2), x_cur.size(3)], mode='bilinear', align_corners=True)

        combined = torch.cat([h_pre_up, x_cur], dim=1)
        combined_conv = self.gru_catconv(combined)
        cc_r, cc_z = torch.split(combined_conv, self.hidden_dim, dim=1)
        r = torch.sigmoid(cc_r)
        z = torch.sigmoid(cc_z)
        h_hat = torch.tanh(self.gru_conv(torch.cat([x_cur, r * h_pre_up], dim=1)))
        return z * h_pre_up + (1 - z) * h_hat


class ResNet50RNN(nn.Module):
    """Encoder (a small stand-in for ResNet-50) + score blocks + recurrent decoding."""

    def __init__(self, input_channel, n_classes, kernel_size=3, decoder="GRU", bias=True):
        super(ResNet50RNN, self).__init__()
        self.decoder = decoder
        self.conv1 = nn.Conv2d(input_channel, 64, kernel_size=7, stride=2, padding=3, bias=False)
        self.layer1 = nn.Conv2d(64, 256, 3, stride=2, padding=1)
        self.layer2 = nn.Conv2d(256, 512, 3, stride=2, padding=1)
        self.conv2_score_block = nn.Conv2d(256, n_classes, 5, padding=2)
        self.conv3_score_block = nn.Conv2d(512, n_classes, 5, padding=2)
        self.RDC = RDC(n_classes, kernel_size, bias=bias, decoder=decoder)

    def forward(self, input, cell_state=None):
        down1 = torch.relu(self.conv1(input))
        down2 = self.layer1(down1)
        down3 = self.layer2(down2)

        x1 = self.conv3_score_block(down3)  # 1/8, class
        x2 = self.conv2_score_block(down2)  # 1/4, class

        h0 = self._init_cell_state(x1)  # 1/8, class

        h1 = self.RDC(x_cur=x1, h_pre=h0)
        h2 = self.RDC(x_cur=x2, h_pre=h1)
        return F.interpolate(h2, size=input.shape[2:], mode='bilinear', align_corners=True)

    def _init_cell_state(self, hidden_state):
        # return torch.zeros(hidden_state.size()).cuda(0)

        return torch.zeros(hidden_state.size())


if __name__ == "__main__":
    cfg = {"training": {"gpu_idx": 0, "train_iters": 100}}
    device = torch.device("cuda:{}".format(cfg["training"]["gpu_idx"]) if torch.cuda.is_available() else "cpu")

    model = ResNet50RNN(input_channel=3, n_classes=2).to(device)
    model = torch.nn.DataParallel(model, device_ids=[cfg["training"]["gpu_idx"]])
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()

    for it in range(cfg["training"]["train_iters"]):
        images = torch.randn(4, 3, 128, 128).to(device)
        labels = torch.randint(0, 2, (4, 128, 128)).to(device)
        outputs = model(images)
        loss = loss_fn(outputs, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
