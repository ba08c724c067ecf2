import torch as th

import config
from net import Net

a = Net()
if config.USE_CUDA:
    a.cuda()
sentences = th.randn(16, config.WORD_VEC_SIZE, 40)
if config.USE_CUDA:
    sentences = sentences.cuda()
print(a(sentences).shape)
