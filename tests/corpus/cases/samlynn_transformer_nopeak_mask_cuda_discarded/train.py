import argparse

import torch
import torch.nn.functional as F

from Batch import create_masks
from Models import get_model


def train_model(model, opt):
    model.train()
    for epoch in range(opt.epochs):
        for i, batch in enumerate(opt.train):
            src = batch.src.transpose(0, 1)
            trg = batch.trg.transpose(0, 1)
            trg_input = trg[:, :-1]
            src_mask, trg_mask = create_masks(src, trg_input, opt)
            preds = model(src, trg_input, src_mask, trg_mask)
            ys = trg[:, 1:].contiguous().view(-1)
            opt.optimizer.zero_grad()
            loss = F.cross_entropy(preds.view(-1, preds.size(-1)), ys, ignore_index=opt.trg_pad)
            loss.backward()
            opt.optimizer.step()


def main(train_iterator, src_vocab, trg_vocab):
    parser = argparse.ArgumentParser()
    parser.add_argument("-no_cuda", action="store_true")
    parser.add_argument("-epochs", type=int, default=2)
    parser.add_argument("-d_model", type=int, default=512)
    parser.add_argument("-n_layers", type=int, default=6)
    parser.add_argument("-heads", type=int, default=8)
    parser.add_argument("-dropout", type=int, default=0.1)
    opt = parser.parse_args()
    opt.device = 0 if opt.no_cuda is False else -1
    if opt.device == 0:
        assert torch.cuda.is_available()
    opt.train = train_iterator
    opt.src_pad, opt.trg_pad = 1, 1
    model = get_model(opt, src_vocab, trg_vocab)
    opt.optimizer = torch.optim.Adam(model.parameters(), lr=0.0001, betas=(0.9, 0.98), eps=1e-9)
    train_model(model, opt)
