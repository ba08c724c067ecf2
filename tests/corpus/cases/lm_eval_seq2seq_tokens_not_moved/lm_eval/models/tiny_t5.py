"""Stand-ins for transformers' AutoTokenizer, AutoModelForSeq2SeqLM and
BatchEncoding (no download): a character tokenizer and a tiny encoder-decoder."""
import torch
import torch.nn as nn


class BatchEncoding(dict):
    """A dict of tensors; like transformers' BatchEncoding, `.to()` moves them in place."""

    def to(self, device):
        for k, v in self.items():
            self[k] = v.to(device=device)
        return self


class CharTokenizer:
    eos_token = "</s>"
    eos_token_id = 1
    model_max_length = 512

    @classmethod
    def from_pretrained(cls, name, revision=None, subfolder=None):
        return cls()

    def encode(self, text, add_special_tokens=False):
        return [2 + (ord(c) % 60) for c in text]

    def __call__(self, strings, padding=True, add_special_tokens=False, return_tensors="pt"):
        ids = [self.encode(s) for s in strings]
        width = max(len(x) for x in ids)
        input_ids = torch.full((len(ids), width), self.eos_token_id, dtype=torch.long)
        attention_mask = torch.zeros((len(ids), width), dtype=torch.long)
        for i, x in enumerate(ids):
            input_ids[i, :len(x)] = torch.tensor(x, dtype=torch.long)
            attention_mask[i, :len(x)] = 1
        return BatchEncoding({"input_ids": input_ids, "attention_mask": attention_mask})


class Seq2SeqLMOutput:
    def __init__(self, logits):
        self.logits = logits


class TinySeq2SeqLM(nn.Module):
    def __init__(self, vocab_size=64, d_model=32):
        super().__init__()
        self.config = type("Config", (), {"d_model": d_model})()
        self.shared = nn.Embedding(vocab_size, d_model)
        self.encoder = nn.Linear(d_model, d_model)
        self.decoder = nn.Linear(d_model, d_model)
        self.lm_head = nn.Linear(d_model, vocab_size, bias=False)

    @classmethod
    def from_pretrained(cls, name, revision=None):
        return cls()

    def forward(self, input_ids=None, attention_mask=None, labels=None):
        enc = torch.tanh(self.encoder(self.shared(input_ids)))
        enc = (enc * attention_mask.unsqueeze(-1)).sum(dim=1, keepdim=True)
        dec = torch.tanh(self.decoder(self.shared(labels)) + enc)
        return Seq2SeqLMOutput(logits=self.lm_head(dec))
