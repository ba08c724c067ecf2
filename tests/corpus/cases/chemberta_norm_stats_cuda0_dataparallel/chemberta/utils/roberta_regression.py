import torch
import torch.nn as nn
from torch.nn import MSELoss
from transformers import RobertaModel, RobertaPreTrainedModel


class RobertaForRegression(RobertaPreTrainedModel):
    _keys_to_ignore_on_load_missing = ["position_ids"]

    def __init__(self, config):
        super().__init__(config)
        self.num_labels = config.num_labels
        self.norm_mean = torch.tensor(config.norm_mean)
        # Replace any 0 stddev norms with small constant (1e-8)
        self.norm_std = torch.tensor([label_std if label_std != 0 else 1e-8 for label_std in config.norm_std])
        if config.is_gpu:
            self.norm_mean = self.norm_mean.cuda()
            self.norm_std = self.norm_std.cuda()

        self.roberta = RobertaModel(config, add_pooling_layer=False)
        self.regression = RobertaRegressionHead(config)

        self.init_weights()

    def forward(self, input_ids=None, attention_mask=None, labels=None):
        outputs = self.roberta(input_ids, attention_mask=attention_mask, return_dict=True)
        sequence_output = outputs.last_hidden_state  # shape = (batch, seq_len, hidden_size)
        logits = self.regression(sequence_output)

        if labels is None:
            return self.unnormalize_logits(logits)

        logits = self.normalize_logits(logits)
        loss_fct = MSELoss()
        loss = loss_fct(logits.view(-1), labels.view(-1))
        return loss, logits

    def normalize_logits(self, tensor):
        return (tensor - self.norm_mean) / self.norm_std

    def unnormalize_logits(self, tensor):
        return (tensor * self.norm_std) + self.norm_mean


class RobertaRegressionHead(nn.Module):
    """Head for multitask regression models."""

    def __init__(self, config):
        super(RobertaRegressionHead, self).__init__()
        self.dense = nn.Linear(config.hidden_size, config.hidden_size)
        self.dropout = nn.Dropout(config.hidden_dropout_prob)
        self.out_proj = nn.Linear(config.hidden_size, config.num_labels)

    def forward(self, features, **kwargs):
        x = features[:, 0, :]  # take <s> token (equiv. to [CLS])
        x = self.dropout(x)
        x = torch.tanh(self.dense(x))
        x = self.dropout(x)
        return self.out_proj(x)
