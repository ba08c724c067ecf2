import torch
from torch import nn


class PromptForClassification(nn.Module):
    """PLM + template + verbalizer: class logits from the label words' scores at the mask position."""

    def __init__(self, plm, template, verbalizer, freeze_plm=False):
        super().__init__()
        self.plm = plm
        self.template = template
        self.verbalizer = verbalizer

    def forward(self, batch):
        hidden = self.plm(batch["input_ids"]) * batch["attention_mask"].unsqueeze(-1)
        mask_hidden = hidden[batch["loss_ids"] > 0]
        return self.verbalizer(mask_hidden)
