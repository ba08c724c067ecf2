from __future__ import absolute_import
import sys
sys.path.append('./')

import numpy as np
import math

import torch
from torch import optim
from torch.backends import cudnn
from torch.utils.data import DataLoader
from config import get_args

from lib.models.model_builder_CTC import ModelBuilder_CTC
from lib.datasets.dataset import lmdbDataset, alignCollate
from lib.trainers import Trainer
from lib.evaluators import Evaluator
from lib.utils.logging import TFLogger
from lib.utils.labelmaps import CTCLabelConverter

ALPHABETS = 'abcdefghijklmnopqrstuvwxyz0123456789'


def get_data(height, width, batch_size, workers, is_train, alphabets):
  dataset = lmdbDataset(alphabets)
  data_loader = DataLoader(dataset, batch_size=batch_size, num_workers=workers,
    shuffle=True, pin_memory=False, drop_last=is_train,
    collate_fn=alignCollate(imgH=height, imgW=width))
  return dataset, data_loader


def main(args):
  """ set up random seeds """
  np.random.seed(args.seed)
  torch.manual_seed(args.seed)
  torch.cuda.manual_seed(args.seed)
  cudnn.benchmark = True
  args.cuda = args.cuda and torch.cuda.is_available()

  """ Set up tensorboard """
  if not args.evaluate:
    train_tfLogger = TFLogger('train_tensorboard')
    eval_tfLogger = TFLogger('eval_tensorboard')

  """ Set up dataloaders """
  args.alphabets = ALPHABETS
  if not args.evaluate:
    _, train_loader = get_data(args.height, args.width, args.batch_size, args.workers, True, args.alphabets)
  _, test_loader = get_data(args.height, args.width, args.batch_size, args.workers, False, args.alphabets)

  """ Set up model with converter """
  model = ModelBuilder_CTC(arch=args.arch, rec_num_classes=len(args.alphabets)+1) # +1 for <BLANK>
  converter = CTCLabelConverter(args.alphabets, args.max_len)

  best_res = 0
  start_iters = 0
  if args.cuda:
    device = torch.device("cuda")
    model = model.to(device)

  """ Set up Evaluator """
  loss_weights = {}
  loss_weights['loss_rec'] = 1.0
  evaluator = Evaluator(model, converter, args.evaluation_metric, args.cuda, loss_weights)

  """ Only for evaluation """
  if args.evaluate:
    with torch.no_grad():
      evaluator.evaluate(test_loader)
    return

  optimizer = optim.Adadelta(model.parameters(), lr=args.lr)

  """ Set up Trainer"""
  trainer = Trainer(model, converter, args.evaluation_metric, './runs',
                    iters=start_iters, best_res=best_res,
                    use_cuda=args.cuda, loss_weights=loss_weights)

  """ Start Training"""
  with torch.no_grad():
    evaluator.evaluate(test_loader, step=0, tfLogger=eval_tfLogger)

  for epoch in range(0, args.epochs):
    trainer.train(epoch, train_loader, optimizer, evaluator=evaluator, test_loader=test_loader,
                  eval_tfLogger=eval_tfLogger)

  train_tfLogger.close()
  eval_tfLogger.close()


if __name__ == '__main__':
  args = get_args(sys.argv[1:])
  main(args)
