import torch
from transformers import BertTokenizer


class Config:
    def __init__(self):
        self.bert_path = "./bert_pretrain"
        self.tokenizer = BertTokenizer.from_pretrained(self.bert_path)
        self.num_classes = 10
        self.hidden_size = 768
        self.learning_rate = 5e-4
        self.teacher_num_epochs = 3
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
