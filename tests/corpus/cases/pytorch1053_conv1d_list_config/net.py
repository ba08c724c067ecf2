import torch as th

import config


class Net(th.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1d = [
            th.nn.Conv1d(config.WORD_VEC_SIZE, 1, 3),
            th.nn.Conv1d(config.WORD_VEC_SIZE, 1, 4),
            th.nn.Conv1d(config.WORD_VEC_SIZE, 1, 5),
        ]

    def forward(self, x):
        pooled = [conv(x).max(dim=2)[0] for conv in self.conv1d]
        return th.cat(pooled, dim=1)
