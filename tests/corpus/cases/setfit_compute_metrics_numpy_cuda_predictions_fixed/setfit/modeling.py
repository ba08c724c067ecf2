import numpy as np
import torch
import torch.nn as nn


class SentenceEncoder(nn.Module):
    """Stand-in for the sentence-transformers body: bag of hashed tokens -> embedding."""

    def __init__(self, dim=32, vocab=1000):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab, dim)
        self.vocab = vocab

    def encode(self, sentences, convert_to_tensor=False):
        device = self.embedding.weight.device
        ids = [torch.tensor([hash(w) % self.vocab for w in s.split()] or [0], device=device) for s in sentences]
        with torch.no_grad():
            emb = torch.stack([self.embedding(i.unsqueeze(0))[0] for i in ids])
        return emb if convert_to_tensor else emb.cpu().numpy()


class SetFitHead(nn.Module):
    """Differentiable classification head (multi-target one-vs-rest)."""

    def __init__(self, in_features=32, out_features=2, multitarget=False):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.multitarget = multitarget

    def forward(self, x):
        return self.linear(x)

    def predict(self, x_test):
        probs = torch.sigmoid(self(x_test)) if self.multitarget else torch.softmax(self(x_test), dim=-1)
        if self.multitarget:
            return torch.where(probs >= 0.5, 1, 0)
        return torch.argmax(probs, dim=-1)


class LogisticHead:
    """Stand-in for the scikit-learn LogisticRegression head (NumPy in, NumPy out)."""

    def __init__(self, in_features=32, out_features=2):
        self.w = np.zeros((in_features, out_features))

    def predict(self, x):
        return (x @ self.w).argmax(-1)


class SetFitModel:
    def __init__(self, model_body, model_head, multi_target_strategy=None):
        self.model_body = model_body
        self.model_head = model_head
        self.multi_target_strategy = multi_target_strategy

    @property
    def has_differentiable_head(self):
        return isinstance(self.model_head, nn.Module)

    @classmethod
    def from_pretrained(cls, model_id, multi_target_strategy=None, use_differentiable_head=False, head_params=None):
        head_params = head_params or {}
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        body = SentenceEncoder().to(device)
        if use_differentiable_head:
            head = SetFitHead(multitarget=multi_target_strategy is not None, **head_params).to(device)
        else:
            head = LogisticHead(**head_params)
        return cls(body, head, multi_target_strategy)

    def predict(self, x_test):
        embeddings = self.model_body.encode(x_test, convert_to_tensor=self.has_differentiable_head)
        outputs = self.model_head.predict(embeddings)
        return outputs
