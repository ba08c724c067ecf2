"""Stand-in for the parts of HuggingFace `datasets` used by metricx24/predict.py:
a json dataset whose rows, once `set_format(type="torch", columns=..., device=...)`
is set, return the listed columns as tensors created on that device."""
import json

import torch


class Dataset(object):
    def __init__(self, rows):
        self._rows = rows
        self._format = None

    def map(self, function):
        rows = []
        for row in self._rows:
            out = dict(row)
            out.update(function(dict(row)))
            rows.append(out)
        return Dataset(rows)

    def set_format(self, type=None, columns=None, device=None, output_all_columns=False):
        self._format = (type, columns, device, output_all_columns)

    def __len__(self):
        return len(self._rows)

    def __getitem__(self, i):
        row = dict(self._rows[i])
        if self._format is not None and self._format[0] == "torch":
            _, columns, device, output_all_columns = self._format
            formatted = {c: torch.tensor(row[c], device=device) for c in columns}
            if output_all_columns:
                row.update(formatted)
                return row
            return formatted
        return row

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]


class DatasetDict(dict):
    def map(self, function):
        return DatasetDict({k: v.map(function) for k, v in self.items()})

    def set_format(self, **kwargs):
        for v in self.values():
            v.set_format(**kwargs)


def load_dataset(kind, data_files):
    assert kind == "json"
    out = DatasetDict()
    for split, path in data_files.items():
        with open(path) as f:
            out[split] = Dataset([json.loads(line) for line in f if line.strip()])
    return out
