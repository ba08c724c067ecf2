import argparse

import torch

from lib.dataloader import get_dataloader
from lib.utils import load_graph, StandardScaler
from model.models import STSSL
from model.trainer import Trainer


def model_supervisor(args):
    ## load dataset
    dataloader = get_dataloader(args)
    dataloader['scaler'] = StandardScaler(mean=10.0, std=5.0)
    graph = load_graph(args.num_nodes, device=args.device)
    args.num_nodes = len(graph)

    ## init model and set optimizer
    model = STSSL(args).to(args.device)
    optimizer = torch.optim.Adam(params=model.parameters(), lr=args.lr_init)

    ## start training
    trainer = Trainer(model=model, optimizer=optimizer, dataloader=dataloader, graph=graph, args=args)
    trainer.train()


if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument('--num_nodes', type=int, default=16)
    parser.add_argument('--input_length', type=int, default=8)
    parser.add_argument('--d_model', type=int, default=16)
    parser.add_argument('--d_output', type=int, default=2)
    parser.add_argument('--batch_size', type=int, default=8)
    parser.add_argument('--percent', type=float, default=0.1)
    parser.add_argument('--yita', type=float, default=0.5)
    parser.add_argument('--lr_init', type=float, default=0.001)
    parser.add_argument('--epochs', type=int, default=2)
    args = parser.parse_args()
    args.device = 'cuda:0' if torch.cuda.is_available() else 'cpu'
    model_supervisor(args)
