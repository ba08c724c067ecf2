"""Stand-in for pytorch_lightning.Trainer: picks the accelerator, moves the
LightningModule and every batch to it, and runs training_step/optimizer steps."""
import torch


class Trainer:
    def __init__(self, accelerator='auto', max_steps=1000, **kwargs):
        if accelerator == 'auto':
            accelerator = 'gpu' if torch.cuda.is_available() else 'cpu'
        self.device = torch.device('cuda') if accelerator == 'gpu' else torch.device('cpu')
        self.max_steps = max_steps

    def _transfer_batch_to_device(self, batch):
        return {k: (v.to(self.device) if isinstance(v, torch.Tensor) else v) for k, v in batch.items()}

    def fit(self, model, datamodule):
        model.to(self.device)
        optimizer = model.configure_optimizers()
        step = 0
        while step < self.max_steps:
            for batch_idx, batch in enumerate(datamodule.train_dataloader()):
                batch = self._transfer_batch_to_device(batch)
                loss = model.training_step(batch, batch_idx)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                step += 1
                if step >= self.max_steps:
                    break
        return model
