from torch import nn


class Base(nn.Module):
    """Parent of the segmentation models: one training or validation pass over a loader."""

    def set_train_params(self, learn_rate):
        return [
            {"params": self.encoder.parameters(), "lr": learn_rate[0]},
            {"params": self.decoder.parameters(), "lr": learn_rate[1]},
        ]

    def step(self, data_loader, device, optm, phase, criterions):
        for image, label in data_loader:
            image = image.to(device)
            label = label.long().to(device)
            optm.zero_grad()
            pred = self.forward(image)
            loss_all = 0
            for c in criterions:
                loss_all += c(pred, label)
            if phase == "train":
                loss_all.backward()
                optm.step()
