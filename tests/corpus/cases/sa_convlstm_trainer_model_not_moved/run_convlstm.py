import torch
from torch import nn
from torch.optim import Adam
from torch.utils.data import DataLoader, TensorDataset

from seq2seq import Seq2Seq
from trainer import Trainer


def main():
    frames = torch.rand(64, 1, 11, 64, 64)
    dataset = TensorDataset(frames[:, :, :10], frames[:, :, 10:])
    train_dataloader = DataLoader(dataset, batch_size=4, shuffle=True)
    valid_dataloader = DataLoader(dataset, batch_size=4)
    model = Seq2Seq(num_channels=1, num_kernels=16, kernel_size=3, out_channels=1)
    trainer = Trainer(model=model, train_epochs=1, train_dataloader=train_dataloader,
                      valid_dataloader=valid_dataloader, loss_criterion=nn.MSELoss(),
                      accuracy_criterion=nn.L1Loss(), optimizer=Adam(model.parameters(), lr=0.0005))
    print(trainer.train())


if __name__ == "__main__":
    main()
