# coding: utf-8
"""
Training module
"""
import torch
from torch import Tensor

from joeynmt.model import build_model, Model
from joeynmt.batch import Batch
from joeynmt.data import make_data_iter
from joeynmt.loss import XentLoss


class TrainManager:
    """ Manages training loop, validations, learning rate scheduling
    and early stopping."""

    def __init__(self, model: Model, config: dict) -> None:
        train_config = config["training"]

        # model
        self.model = model

        # objective
        self.label_smoothing = train_config.get("label_smoothing", 0.0)
        self.model.loss_function = XentLoss(pad_index=self.model.pad_index,
                                            smoothing=self.label_smoothing)
        self.normalization = train_config.get("normalization", "batch")

        # optimization
        self.optimizer = torch.optim.Adam(model.parameters(), lr=train_config.get("learning_rate", 3.0e-4))
        self.epochs = train_config["epochs"]

        # CPU / GPU
        self.use_cuda = train_config["use_cuda"] and torch.cuda.is_available()
        self.n_gpu = torch.cuda.device_count() if self.use_cuda else 0
        self.device = torch.device("cuda" if self.use_cuda else "cpu")
        if self.use_cuda:
            self.model.cuda()

    def train_and_validate(self, train_data) -> None:
        for epoch_no in range(self.epochs):
            self.model.train()
            self.model.zero_grad()
            for i, batch in enumerate(iter(train_data)):
                # create a Batch object from torchtext batch
                batch = Batch(batch, self.model.pad_index,
                              use_cuda=self.use_cuda)

                # get batch loss
                batch_loss = self._train_step(batch)
                self.optimizer.step()
                self.model.zero_grad()

    def _train_step(self, batch: Batch) -> Tensor:
        # reactivate training
        self.model.train()

        # get loss
        batch_loss, _, _, _ = self.model(
            return_type="loss", src=batch.src, trg=batch.trg,
            trg_input=batch.trg_input, src_mask=batch.src_mask,
            src_length=batch.src_length, trg_mask=batch.trg_mask)

        # normalize batch loss
        if self.normalization == "batch":
            normalizer = batch.nseqs
        else:
            normalizer = batch.ntokens
        norm_batch_loss = batch_loss / normalizer
        norm_batch_loss.backward()
        return norm_batch_loss.detach()


def train(cfg: dict) -> None:
    model = build_model(cfg["model"])
    trainer = TrainManager(model=model, config=cfg)
    trainer.train_and_validate(train_data=make_data_iter())
