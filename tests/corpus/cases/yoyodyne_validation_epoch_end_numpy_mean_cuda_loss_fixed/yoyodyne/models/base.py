"""Base model class, with PL integration."""

from typing import Dict, List

import numpy
import torch
from torch import nn, optim

from .. import data, evaluators


class BaseEncoderDecoder(nn.Module):
    """A pl.LightningModule in yoyodyne."""

    def __init__(self, *, pad_idx, start_idx, end_idx, vocab_size, eval_metrics: List[str] = ("accuracy",),
                 learning_rate=1e-3, embedding_size=32, hidden_size=64):
        super().__init__()
        self.pad_idx, self.start_idx, self.end_idx = pad_idx, start_idx, end_idx
        self.vocab_size = vocab_size
        self.learning_rate = learning_rate
        self.embedding_size, self.hidden_size = embedding_size, hidden_size
        self.eval_metrics = list(eval_metrics)
        self.evaluators = [evaluators.get_evaluator(m) for m in self.eval_metrics]
        self.loss_func = nn.NLLLoss(ignore_index=self.pad_idx)
        self.logged = {}

    def log(self, name, value, **kwargs):
        self.logged[name] = value

    def configure_optimizers(self):
        return optim.Adam(self.parameters(), lr=self.learning_rate)

    def training_step(self, batch: data.PaddedBatch, batch_idx: int) -> torch.Tensor:
        # -> B x seq_len x target_vocab_size.
        predictions = self(batch)
        target_padded = batch.target.padded
        # -> B x target_vocab_size x seq_len. For loss.
        predictions = predictions.transpose(1, 2)
        loss = self.loss_func(predictions, target_padded)
        self.log("train_loss", loss, batch_size=len(batch), on_step=False, on_epoch=True)
        return loss

    def validation_step(self, batch: data.PaddedBatch, batch_idx: int) -> Dict:
        """Runs one validation step.

        This is called by the PL Trainer.
        """
        # Greedy decoding.
        # -> B x seq_len x target_vocab_size.
        target_padded = batch.target.padded
        greedy_predictions = self(batch)
        # Gets a dict of all eval metrics for this batch.
        val_eval_items_dict = {
            evaluator.name: evaluator.evaluate(
                greedy_predictions, target_padded, self.end_idx, self.pad_idx
            )
            for evaluator in self.evaluators
        }
        # -> B x target_vocab_size x seq_len. For loss.
        greedy_predictions = greedy_predictions.transpose(1, 2)
        # Truncates predictions to the size of the target.
        greedy_predictions = torch.narrow(
            greedy_predictions, 2, 0, target_padded.size(1)
        )
        loss = self.loss_func(greedy_predictions, target_padded)
        val_eval_items_dict.update({"val_loss": loss.cpu()})
        return val_eval_items_dict

    def validation_epoch_end(self, validation_step_outputs: Dict) -> Dict:
        """Computes average loss and average accuracy."""
        avg_val_loss = numpy.mean(
            [v["val_loss"] for v in validation_step_outputs]
        )
        # Gets requested metrics.
        metrics = {
            metric_name: sum(
                (v[metric_name] for v in validation_step_outputs),
                start=evaluators.EvalItem([]),
            ).metric
            for metric_name in self.eval_metrics
        }
        # Always logs validation loss.
        metrics.update({"loss": avg_val_loss})
        for metric, value in metrics.items():
            self.log(f"val_{metric}", value, prog_bar=True)
        return metrics
