import torch

from pytorch_trainer import PytorchTrainer


def main() -> None:
    device = "cuda:0" if torch.cuda.is_available() else "cpu"
    training_info = {
        "pipeline_id": 1,
        "trigger_id": 0,
        "batch_size": 16,
        "downsampling_ratio": 50,
        "in_features": 10,
        "num_classes": 4,
        "device": device,
    }
    trainer = PytorchTrainer(training_info)
    trainer.train()


if __name__ == "__main__":
    main()
