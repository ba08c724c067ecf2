import argparse

import numpy as np
import torch
import torch.nn as nn

from models.aen import AEN_GloVe


class Instructor:
    def __init__(self, opt):
        self.opt = opt
        embedding_matrix = np.random.rand(50, opt.embed_dim)
        self.model = opt.model_class(embedding_matrix, opt).to(opt.device)

    def _train(self, criterion, optimizer, batches):
        for i_batch, batch in enumerate(batches):
            self.model.train()
            optimizer.zero_grad()
            inputs = [batch[col].to(self.opt.device) for col in self.opt.inputs_cols]
            outputs = self.model(inputs)
            targets = batch['polarity'].to(self.opt.device)
            loss = criterion(outputs, targets)
            loss.backward()
            optimizer.step()

    def run(self):
        criterion = nn.CrossEntropyLoss()
        params = filter(lambda p: p.requires_grad, self.model.parameters())
        optimizer = torch.optim.Adam(params, lr=self.opt.lr)
        batches = [{
            'text_raw_indices': torch.tensor([[3, 4, 5, 0], [6, 7, 0, 0]]),
            'target_indices': torch.tensor([[4, 0], [6, 7]]),
            'polarity': torch.tensor([0, 2]),
        }]
        self._train(criterion, optimizer, batches)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--model_name', default='aen', type=str)
    parser.add_argument('--embed_dim', default=8, type=int)
    parser.add_argument('--hidden_dim', default=8, type=int)
    parser.add_argument('--polarities_dim', default=3, type=int)
    parser.add_argument('--lr', default=2e-5, type=float)
    parser.add_argument('--device', default=None, type=str, help='e.g. cuda:0')
    opt = parser.parse_args()

    model_classes = {'aen': AEN_GloVe}
    input_colses = {'aen': ['text_raw_indices', 'target_indices']}
    opt.model_class = model_classes[opt.model_name]
    opt.inputs_cols = input_colses[opt.model_name]
    opt.device = torch.device('cuda' if torch.cuda.is_available() else 'cpu') \
        if opt.device is None else torch.device(opt.device)

    ins = Instructor(opt)
    ins.run()


if __name__ == '__main__':
    main()
