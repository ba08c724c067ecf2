import torch
import torch.nn as nn

from RevIN import RevIN


class SCINet(nn.Module):
    def __init__(self, input_len, output_len, input_dim, RIN=True):
        super().__init__()
        self.RIN = RIN
        if RIN:
            self.revin = RevIN(input_dim)
        self.projection = nn.Conv1d(input_len, output_len, kernel_size=1, bias=False)

    def forward(self, x):
        if self.RIN:
            x = self.revin(x, "norm")
        x = self.projection(x)
        if self.RIN:
            x = self.revin(x, "denorm")
        return x


class Exp_ETTh:
    def __init__(self, args):
        self.args = args
        self.model = self._build_model().cuda()

    def _build_model(self):
        return SCINet(input_len=self.args.seq_len, output_len=self.args.pred_len, input_dim=self.args.in_dim,
                      RIN=self.args.RIN)

    def _process_one_batch(self, batch_x, batch_y):
        batch_x = batch_x.float().cuda()
        outputs = self.model(batch_x)
        batch_y = batch_y[:, -self.args.pred_len:, :].float().cuda()
        return outputs, batch_y
