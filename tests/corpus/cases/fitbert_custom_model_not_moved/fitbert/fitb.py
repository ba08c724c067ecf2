from typing import List

import torch
from transformers import BertForMaskedLM, BertTokenizer


class FitBert:
    """Fill-in-the-blank ranking with a masked language model."""

    def __init__(self, model=None, tokenizer=None, model_name="bert-large-uncased", mask_token="***mask***",
                 disable_gpu=False):
        self.mask_token = mask_token
        self.device = torch.device("cuda" if torch.cuda.is_available() and not disable_gpu else "cpu")
        print("using model:", model_name)
        print("device:", self.device)
        if not model:
            self.bert = BertForMaskedLM.from_pretrained(model_name)
            self.bert.to(self.device)
        else:
            self.bert = model
        if not tokenizer:
            self.tokenizer = BertTokenizer.from_pretrained(model_name)
        else:
            self.tokenizer = tokenizer
        self.bert.eval()

    @staticmethod
    def softmax(x):
        return x.exp() / (x.exp().sum(-1)).unsqueeze(-1)

    def rank_single(self, masked_sent: str, words: List[str]):
        pre, post = masked_sent.split(self.mask_token)
        tokens = ["[CLS]"] + self.tokenizer.tokenize(pre)
        target_idx = len(tokens)
        tokens += ["[MASK]"]
        tokens += self.tokenizer.tokenize(post) + ["[SEP]"]
        words_ids = [self.tokenizer.convert_tokens_to_ids(self.tokenizer.tokenize(w))[0] for w in words]
        input_ids = self.tokenizer.convert_tokens_to_ids(tokens)
        tens = torch.tensor(input_ids).unsqueeze(0)
        tens = tens.to(self.device)
        with torch.no_grad():
            preds = self.bert(tens)[0]
            probs = self.softmax(preds)
            ranked_pairs = sorted(((float(probs[0][target_idx][x].item()), w) for x, w in zip(words_ids, words)), reverse=True)
            if self.device == "cuda":
                torch.cuda.empty_cache()
            return [w for _, w in ranked_pairs], [p for p, _ in ranked_pairs]

    def rank(self, sent: str, options: List[str]):
        ranked, _ = self.rank_single(sent, options)
        return ranked

    def fitb(self, sent: str, options: List[str]) -> str:
        return sent.replace(self.mask_token, self.rank(sent, options)[0])
