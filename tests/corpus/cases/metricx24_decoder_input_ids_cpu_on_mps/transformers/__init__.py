"""Stand-in for the parts of HuggingFace `transformers` used by MetricX-24.

TrainingArguments.device follows transformers: the CUDA device when CUDA is
available, else the Apple-silicon GPU ('mps') when torch.backends.mps is
available, else the CPU. Trainer moves the model to that device when it is
built, and moves each batch's tensors there before calling the model."""
import argparse
import dataclasses

import numpy as np
import torch

import transformers.modeling_outputs
import transformers.models.mt5.modeling_mt5


class HfArgumentParser(object):
    def __init__(self, dataclass_type):
        self.dataclass_type = dataclass_type

    def parse_args_into_dataclasses(self):
        parser = argparse.ArgumentParser()
        for field in dataclasses.fields(self.dataclass_type):
            if field.type in (bool, "bool"):
                parser.add_argument("--" + field.name, action="store_true")
            else:
                typ = {"int": int, "str": str}.get(field.type, field.type)
                required = field.default is dataclasses.MISSING
                parser.add_argument("--" + field.name, type=typ, required=required,
                                    default=None if required else field.default)
        return (self.dataclass_type(**vars(parser.parse_args())),)


class AutoTokenizer(object):
    @classmethod
    def from_pretrained(cls, name):
        return cls()

    def __call__(self, text, max_length=None, truncation=False, padding=False):
        ids = [3 + (sum(map(ord, w)) % 1000) for w in text.split()][: (max_length or 10 ** 6) - 1] + [1]
        return {"input_ids": ids, "attention_mask": [1] * len(ids)}


class TrainingArguments(object):
    def __init__(self, output_dir, per_device_eval_batch_size=8, dataloader_pin_memory=True):
        self.output_dir = output_dir
        self.per_device_eval_batch_size = per_device_eval_batch_size
        self.dataloader_pin_memory = dataloader_pin_memory

    @property
    def device(self):
        if torch.cuda.is_available():
            return torch.device("cuda:0")
        if torch.backends.mps.is_available():
            return torch.device("mps")
        return torch.device("cpu")


class Trainer(object):
    def __init__(self, model, args):
        self.args = args
        self.model = model.to(args.device)

    def _prepare_inputs(self, inputs):
        return {k: v.to(self.args.device) if isinstance(v, torch.Tensor) else v for k, v in inputs.items()}

    def _collate(self, rows):
        m = max(len(r["input_ids"]) for r in rows)
        def pad(t):
            return torch.cat([t, t.new_zeros(m - t.shape[0])])
        return {"input_ids": torch.stack([pad(r["input_ids"]) for r in rows]),
                "attention_mask": torch.stack([pad(r["attention_mask"]) for r in rows])}

    def predict(self, test_dataset):
        preds = []
        bs = self.args.per_device_eval_batch_size
        rows = list(test_dataset)
        for i in range(0, len(rows), bs):
            inputs = self._prepare_inputs(self._collate(rows[i:i + bs]))
            with torch.no_grad():
                outputs = self.model(**inputs)
            preds.append(outputs.predictions.cpu().numpy())
        return np.concatenate(preds), None, None
