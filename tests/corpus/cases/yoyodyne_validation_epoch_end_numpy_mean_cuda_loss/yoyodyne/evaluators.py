"""Evaluators."""

from __future__ import annotations

import dataclasses
from typing import List

import numpy
import torch
from torch.nn import functional


@dataclasses.dataclass
class EvalItem:
    per_sample_metrics: List[float]

    @property
    def metric(self) -> float:
        """Computes the micro-average of the metric."""
        return numpy.mean(self.per_sample_metrics)

    def __add__(self, other_eval: EvalItem) -> EvalItem:
        return EvalItem(self.per_sample_metrics + other_eval.per_sample_metrics)


class AccuracyEvaluator:
    """Evaluates accuracy."""

    name = "accuracy"

    def evaluate(self, predictions: torch.Tensor, golds: torch.Tensor, end_idx: int, pad_idx: int) -> EvalItem:
        # Gets the max value at each dim2 in predictions.
        _, predictions = torch.max(predictions, dim=2)
        return self.get_eval_item(predictions, golds, pad_idx)

    def get_eval_item(self, predictions: torch.Tensor, golds: torch.Tensor, pad_idx: int) -> EvalItem:
        if predictions.size(1) > golds.size(1):
            predictions = predictions[:, : golds.size(1)]
        elif predictions.size(1) < golds.size(1):
            num_pads = (0, golds.size(1) - predictions.size(1))
            predictions = functional.pad(predictions, num_pads, "constant", pad_idx)
        # Gets the count of exactly matching tensors in the batch.
        # -> B.
        accs = (predictions.to(golds.device) == golds).all(dim=1).tolist()
        return EvalItem(accs)


def get_evaluator(name):
    return {"accuracy": AccuracyEvaluator}[name]()
