import torch


class EpochBasedRunner(object):
    """Epoch-based Runner (the hooks are reduced to the optimizer step)."""

    def __init__(self, model, optimizer=None, work_dir=None, logger=None, meta=None):
        self.model = model
        self.optimizer = optimizer
        self.work_dir = work_dir

    def train(self, data_loader, **kwargs):
        self.model.train()
        self.data_loader = data_loader
        for i, X_L in enumerate(self.data_loader):
            outputs = self.model.train_step(X_L, self.optimizer, **kwargs)
            if not isinstance(outputs, dict):
                raise TypeError('"batch_processor()" or "model.train_step()" must return a dict')
            self.outputs = outputs
            self.optimizer.zero_grad()
            outputs['loss'].backward()
            self.optimizer.step()

    def run(self, data_loaders, workflow, max_epochs, **kwargs):
        for epoch in range(max_epochs):
            for data_loader in data_loaders:
                self.train(data_loader, **kwargs)
