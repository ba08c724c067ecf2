import torch
import torch.nn.functional as F

from utils.inc_net import BEEFISONet


class BEEFISO:
    def __init__(self, args):
        self.args = args
        self._device = args["device"][0]
        self._network = BEEFISONet(args, False)
        self._cur_task = -1
        self._known_classes = 0
        self._total_classes = 0

    def incremental_train(self, task_size, train_loader):
        self._cur_task += 1
        self._total_classes = self._known_classes + task_size
        self._network.update_fc_before(self._total_classes)
        self._train(train_loader)

    def after_task(self):
        self._network.update_fc_after()
        self._known_classes = self._total_classes

    def _train(self, train_loader):
        self._network.to(self._device)
        optimizer = torch.optim.SGD(self._network.parameters(), lr=0.1, momentum=0.9)
        for _, inputs, targets in train_loader:
            inputs, targets = inputs.to(self._device, non_blocking=True), targets.to(self._device, non_blocking=True)
            outputs = self._network(inputs)
            loss = F.cross_entropy(outputs["logits"], targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
