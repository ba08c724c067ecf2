"""Stand-in for pytorch_lightning.Trainer (1.x): the accelerator flag picks the device,
the module and every batch (a PaddedBatch nn.Module) are moved with .to(device),
validation_step outputs are collected and handed to validation_epoch_end."""
import torch


class Trainer:
    def __init__(self, accelerator=None, max_epochs=1):
        self.device = torch.device("cuda") if accelerator == "gpu" else torch.device("cpu")
        self.max_epochs = max_epochs

    def fit(self, model, datamodule):
        model.to(self.device)
        optimizer = model.configure_optimizers()
        for epoch in range(self.max_epochs):
            model.train()
            for batch_idx, batch in enumerate(datamodule.train_dataloader()):
                batch = batch.to(self.device)
                loss = model.training_step(batch, batch_idx)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            model.eval()
            with torch.no_grad():
                outputs = []
                for batch_idx, batch in enumerate(datamodule.val_dataloader()):
                    batch = batch.to(self.device)
                    outputs.append(model.validation_step(batch, batch_idx))
                model.validation_epoch_end(outputs)
        return model
