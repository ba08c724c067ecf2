import torch
import torch.nn as nn
from torch.nn.utils.rnn import PackedSequence, pack_padded_sequence, pad_packed_sequence


def sort_pack_padded_sequence(input, lengths):
    sorted_lengths, indices = torch.sort(lengths, descending=True)
    tmp = pack_padded_sequence(input[indices], sorted_lengths, batch_first=True)
    inv_ix = indices.clone()
    inv_ix[indices] = torch.arange(0, len(indices)).type_as(inv_ix)
    return tmp, inv_ix


def pad_unsort_packed_sequence(input, inv_ix):
    tmp, _ = pad_packed_sequence(input, batch_first=True)
    return tmp[inv_ix]


def pack_wrapper(module, att_feats, att_masks):
    if att_masks is not None:
        packed, inv_ix = sort_pack_padded_sequence(att_feats, att_masks.data.long().sum(1))
        return pad_unsort_packed_sequence(PackedSequence(module(packed[0]), packed[1]), inv_ix)
    return module(att_feats)


class AttModel(nn.Module):
    def __init__(self, opt):
        super().__init__()
        self.rnn_size = opt.rnn_size
        self.fc_embed = nn.Sequential(nn.Linear(opt.fc_feat_size, self.rnn_size), nn.ReLU(), nn.Dropout(0.5))
        self.att_embed = nn.Sequential(nn.Linear(opt.att_feat_size, self.rnn_size), nn.ReLU(), nn.Dropout(0.5))
        self.ctx2att = nn.Linear(self.rnn_size, opt.att_hid_size)
        self.logit = nn.Linear(self.rnn_size, opt.vocab_size + 1)

    def clip_att(self, att_feats, att_masks):
        if att_masks is not None:
            max_len = att_masks.data.long().sum(1).max()
            att_feats = att_feats[:, :max_len].contiguous()
            att_masks = att_masks[:, :max_len].contiguous()
        return att_feats, att_masks

    def _prepare_feature(self, fc_feats, att_feats, att_masks):
        att_feats, att_masks = self.clip_att(att_feats, att_masks)
        fc_feats = self.fc_embed(fc_feats)
        att_feats = pack_wrapper(self.att_embed, att_feats, att_masks)
        p_att_feats = self.ctx2att(att_feats)
        return fc_feats, att_feats, p_att_feats, att_masks

    def forward(self, fc_feats, att_feats, att_masks=None):
        p_fc_feats, p_att_feats, pp_att_feats, p_att_masks = self._prepare_feature(fc_feats, att_feats, att_masks)
        return self.logit(p_fc_feats + p_att_feats.mean(1))
