import argparse
import types

import torch
import torch.nn as nn


# --- stand-ins for the transformers classes Detoxify builds from a checkpoint's config ---
class BertForSequenceClassification(nn.Module):
    def __init__(self, vocab_size=1000, hidden_size=32, num_labels=6):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, hidden_size)
        self.classifier = nn.Linear(hidden_size, num_labels)

    @property
    def device(self):
        return next(self.parameters()).device

    @classmethod
    def from_pretrained(cls, pretrained_model_name_or_path=None, num_labels=6, state_dict=None, **kwargs):
        model = cls(num_labels=num_labels)
        if state_dict is not None:
            model.load_state_dict(state_dict)
        return model

    def forward(self, input_ids, attention_mask):
        h = self.embeddings(input_ids) * attention_mask.unsqueeze(-1)
        return (self.classifier(h.sum(1) / attention_mask.sum(1, keepdim=True)),)


class _Encoding(dict):
    def to(self, device):
        return _Encoding({k: v.to(device) for k, v in self.items()})


class BertTokenizer:
    @classmethod
    def from_pretrained(cls, name, **kwargs):
        return cls()

    def __call__(self, text, return_tensors="pt", truncation=True, padding=True):
        texts = [text] if isinstance(text, str) else text
        ids = [[(hash(w) % 999) + 1 for w in t.split()][:32] for t in texts]
        width = max(len(i) for i in ids)
        input_ids = torch.tensor([i + [0] * (width - len(i)) for i in ids])
        return _Encoding(input_ids=input_ids, attention_mask=(input_ids != 0).float())


transformers = types.SimpleNamespace(BertForSequenceClassification=BertForSequenceClassification, BertTokenizer=BertTokenizer)

DOWNLOAD_URL = "https://github.com/unitaryai/detoxify/releases/download/"
MODEL_URLS = {
    "original": DOWNLOAD_URL + "v0.1-alpha/toxic_original-c1212f89.ckpt",
}


def get_model_and_tokenizer(model_type, model_name, tokenizer_name, num_classes, state_dict):
    model_class = getattr(transformers, model_name)
    model = model_class.from_pretrained(pretrained_model_name_or_path=None, num_labels=num_classes,
                                        state_dict=state_dict)
    tokenizer = getattr(transformers, tokenizer_name).from_pretrained(model_type)
    return model, tokenizer


def load_checkpoint(model_type="original", checkpoint=None, device="cpu"):
    if checkpoint is None:
        checkpoint_path = MODEL_URLS[model_type]
        loaded = torch.hub.load_state_dict_from_url(checkpoint_path, map_location=device)
    else:
        loaded = torch.load(checkpoint, map_location=device)
        if "config" not in loaded or "state_dict" not in loaded:
            raise ValueError("Checkpoint needs to contain the config it was trained with as well as the state dict")
    class_names = loaded["config"]["dataset"]["args"]["classes"]
    change_names = {"toxic": "toxicity", "identity_hate": "identity_attack", "severe_toxic": "severe_toxicity"}
    class_names = [change_names.get(cl, cl) for cl in class_names]
    model, tokenizer = get_model_and_tokenizer(**loaded["config"]["arch"]["args"], state_dict=loaded["state_dict"])
    return model, tokenizer, class_names


class Detoxify:
    """Predict whether comments are toxic; `device` accepts anything torch.device does (default: cpu)."""

    def __init__(self, model_type="original", checkpoint=None, device="cpu"):
        super().__init__()
        self.model, self.tokenizer, self.class_names = load_checkpoint(
            model_type=model_type, checkpoint=checkpoint, device=device
        )
        self.device = device
        self.model.to(self.device)

    @torch.no_grad()
    def predict(self, text):
        self.model.eval()
        inputs = self.tokenizer(text, return_tensors="pt", truncation=True, padding=True).to(self.model.device)
        out = self.model(**inputs)[0]
        scores = torch.sigmoid(out).cpu().detach().numpy()
        results = {}
        for i, cla in enumerate(self.class_names):
            results[cla] = scores[0][i] if isinstance(text, str) else [scores[j][i].tolist() for j in range(len(scores))]
        return results


def run(model_name, input_obj, from_ckpt, device="cpu"):
    text = input_obj
    if model_name is not None:
        model = Detoxify(model_name, device=device)
    else:
        model = Detoxify(checkpoint=from_ckpt, device=device)
    res = model.predict(text)
    print(res)
    return res


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--input", type=str, default="you are a wonderful person", help="text to classify")
    parser.add_argument("--model_name", default=None, type=str, help="Name of the torch.hub model")
    parser.add_argument("--from_ckpt_path", default=None, type=str, help="Option to load from the checkpoint path")
    parser.add_argument("--device", default="cpu", type=str, help="device to load the model on")
    args = parser.parse_args()
    run(args.model_name, args.input, args.from_ckpt_path, device=args.device)
