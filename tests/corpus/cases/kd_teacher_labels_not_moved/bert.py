import torch.nn as nn
import torch.nn.functional as F
from transformers import BertModel


class BERT_Model(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.bert = BertModel.from_pretrained(config.bert_path)
        self.fc = nn.Linear(config.hidden_size, 192)
        self.fc1 = nn.Linear(192, config.num_classes)

    def forward(self, context, mask):
        pooled = self.bert(context, attention_mask=mask)[1]
        return self.fc1(F.relu(self.fc(pooled)))
