import argparse

import torch

from model import AAE, CharVocab
from trainer import AAETrainer


def get_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument('--device', type=str, default='cuda')
    parser.add_argument('--embedding_size', type=int, default=16)
    parser.add_argument('--encoder_hidden_size', type=int, default=32)
    parser.add_argument('--encoder_num_layers', type=int, default=1)
    parser.add_argument('--encoder_bidirectional', type=bool, default=True)
    parser.add_argument('--encoder_dropout', type=float, default=0.0)
    parser.add_argument('--decoder_hidden_size', type=int, default=32)
    parser.add_argument('--decoder_num_layers', type=int, default=2)
    parser.add_argument('--decoder_dropout', type=float, default=0.0)
    parser.add_argument('--latent_size', type=int, default=32)
    parser.add_argument('--pretrain_epochs', type=int, default=1)
    parser.add_argument('--n_batch', type=int, default=4)
    parser.add_argument('--lr', type=float, default=1e-3)
    return parser


def main(config):
    train_data = ['CCO', 'c1ccccc1', 'CC(=O)O', 'CCN', 'C1CCCCC1', 'CC(C)O', 'OCCO', 'CCCl']
    vocab = CharVocab(''.join(train_data))

    device = torch.device(config.device)
    model = AAE(vocab, config).to(device)

    trainer = AAETrainer(config)
    trainer.fit(model, train_data)


if __name__ == '__main__':
    main(get_parser().parse_args())
