"""Trains a sequence-to-sequence neural network."""

import argparse

from . import data, models, trainer as pl_trainer


def get_trainer_from_argparse_args(args: argparse.Namespace) -> pl_trainer.Trainer:
    return pl_trainer.Trainer(accelerator=args.accelerator, max_epochs=args.max_epochs)


def get_model_from_argparse_args(args: argparse.Namespace, datamodule: data.DataModule):
    return models.LSTMEncoderDecoder(
        pad_idx=datamodule.pad_idx,
        start_idx=datamodule.start_idx,
        end_idx=datamodule.end_idx,
        vocab_size=datamodule.vocab_size,
        eval_metrics=args.eval_metric,
        learning_rate=args.learning_rate,
    )


def train(trainer, model, datamodule) -> None:
    trainer.fit(model, datamodule)
    print("val:", {k: v for k, v in model.logged.items() if k.startswith("val_")})


def add_argparse_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--batch_size", type=int, default=8)
    parser.add_argument("--learning_rate", type=float, default=1e-3)
    parser.add_argument("--eval_metric", action="append", default=["accuracy"])
    # Trainer arguments (pl.Trainer.add_argparse_args).
    # --accelerator ("gpu" for GPU)
    parser.add_argument("--accelerator", default=None)
    parser.add_argument("--max_epochs", type=int, default=2)


def main() -> None:
    """Trainer."""
    parser = argparse.ArgumentParser(description=__doc__)
    add_argparse_args(parser)
    args = parser.parse_args()
    datamodule = data.DataModule(batch_size=args.batch_size)
    trainer = get_trainer_from_argparse_args(args)
    model = get_model_from_argparse_args(args, datamodule)
    train(trainer, model, datamodule)


if __name__ == "__main__":
    main()
