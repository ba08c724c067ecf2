from __future__ import print_function, absolute_import
import torch


class Trainer(object):
  def __init__(self, model, converter, metric, logs_dir, iters=0, best_res=-1, grad_clip=-1,
               use_cuda=True, loss_weights={}):
    self.model = model
    self.converter = converter
    self.metric = metric
    self.iters = iters
    self.best_res = best_res
    self.grad_clip = grad_clip
    self.device = torch.device("cuda" if use_cuda else "cpu")
    self.loss_weights = loss_weights

  def train(self, epoch, data_loader, optimizer, current_lr=0.0, evaluator=None, test_loader=None,
            eval_tfLogger=None):
    self.model.train()
    for i, (imgs, label_encs) in enumerate(data_loader):
      labels, lengths = self.converter.encode(label_encs)
      input_dict = {'images': imgs.to(self.device), 'rec_targets': labels.to(self.device),
                    'rec_lengths': lengths}
      output_dict = self.model(input_dict)
      loss = sum(self.loss_weights[k] * l for k, l in output_dict['loss'].items())
      optimizer.zero_grad()
      loss.backward()
      optimizer.step()
    if evaluator is not None:
      evaluator.evaluate(test_loader, step=self.iters, tfLogger=eval_tfLogger)
