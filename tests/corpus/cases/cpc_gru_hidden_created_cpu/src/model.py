"""Wrapper class to train the contrastive encoder in a self-supervised setting."""
import torch as th

from utils.model_utils import CPC


def cpc_loss(encoder_samples, predictions, options):
    total = th.einsum("tbd,tcd->tbc", encoder_samples, predictions)
    labels = th.arange(options["batch_size"])
    loss = sum(th.nn.functional.cross_entropy(total[t], labels) for t in range(total.shape[0]))
    accuracy = (total[-1].argmax(-1) == labels).float().mean().item()
    return loss / total.shape[0], accuracy


class Model:
    """Wrapper for Contrastive Predictive Coding (InfoNCE loss)."""

    def __init__(self, options):
        self.options = options
        # Define which device to use: GPU, or CPU
        self.device = options["device"]
        self.model_dict = {}
        self.set_cpc()

    def set_cpc(self):
        """Initialize the model, sets up the optimizer and the device assignment (GPU, or CPU)."""
        self.cpc = CPC(self.options)
        self.model_dict.update({"cpc": self.cpc})
        # Assign the model to a device
        self.cpc.to(self.device)
        self.optimizer_cpc = th.optim.Adam(self.cpc.parameters(), lr=self.options["learning_rate"])

    def process_batch(self, Xbatch):
        """Adds channel dimension, and moves the data to the device as tensor"""
        Xbatch = Xbatch.float().unsqueeze(1)
        return Xbatch.to(self.device)

    def fit(self, train_loader):
        bs = self.options["batch_size"]
        for epoch in range(self.options["epochs"]):
            for i, Xbatch in enumerate(train_loader):
                Xbatch = self.process_batch(Xbatch)
                # Initialize hidden units for GRU: (num_layers * num_directions, batch size, hidden size)
                hidden = th.zeros(2, bs, self.options["conv_dims"][-1])
                encoder_samples, predictions, hidden = self.cpc(Xbatch, hidden)
                loss, accuracy = cpc_loss(encoder_samples, predictions, self.options)
                self.optimizer_cpc.zero_grad()
                loss.backward()
                self.optimizer_cpc.step()
