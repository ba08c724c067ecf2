import torch

from src.model import Model
from utils.arguments import get_arguments, get_config


def main(config):
    audio = torch.randn(64, config["sequence_length"])
    data_loader = torch.utils.data.DataLoader(audio, batch_size=config["batch_size"], drop_last=True)
    encoder = Model(config)
    encoder.fit(data_loader)


if __name__ == "__main__":
    main(get_config(get_arguments()))
