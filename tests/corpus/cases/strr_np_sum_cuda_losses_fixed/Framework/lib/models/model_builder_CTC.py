from __future__ import absolute_import
import torch
from torch import nn
import torch.nn.functional as F
from . import create


class ModelBuilder_CTC(nn.Module):
  """
  This is the integrated model.
  """
  def __init__(self, arch, rec_num_classes, RGB=False):
    super(ModelBuilder_CTC, self).__init__()

    input_dim = 3 if RGB else 1
    self.backbone = create(arch, in_channel=input_dim)
    self.rnn = nn.LSTM(512, 256, num_layers=2, bidirectional=True, batch_first=True)
    self.decoder = nn.Linear(512, rec_num_classes)

  def forward(self, input_dict):
    return_dict = {}
    return_dict['loss'] = {}
    return_dict['output'] = {}

    x, rec_targets, rec_lengths = input_dict['images'], \
                                  input_dict['rec_targets'], \
                                  input_dict['rec_lengths']

    encoder_feats = self.backbone(x).squeeze(2)
    encoder_feats = encoder_feats.transpose(2, 1)
    encoder_feats, _ = self.rnn(encoder_feats)
    rec_pred = self.decoder(encoder_feats)
    # the CTC loss is replaced by a per-step cross entropy on the padded targets
    loss_rec = F.cross_entropy(rec_pred[:, :rec_targets.size(1)].reshape(-1, rec_pred.size(-1)),
                               rec_targets.reshape(-1))
    return_dict['loss']['loss_rec'] = loss_rec
    if not self.training:
      return_dict['output']['pred_rec'] = rec_pred
    return return_dict
