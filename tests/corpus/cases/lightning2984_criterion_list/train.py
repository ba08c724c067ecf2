import pytorch_lightning as pl

from model import PlateReader


def main(train_loader, val_loader, weights):
    model = PlateReader(alphabet_size=94, letter_weights_per_position=weights)
    trainer = pl.Trainer(accelerator="gpu", devices=1, max_epochs=5)
    trainer.fit(model, train_loader, val_loader)
