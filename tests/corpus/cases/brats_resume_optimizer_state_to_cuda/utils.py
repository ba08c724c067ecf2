import torch


def dice_coef(preds, targets):
    smooth = 1.0
    class_num = 2
    for i in range(class_num):
        pred = preds[:, i, :, :]
        target = targets[:, i, :, :]
        intersection = (pred * target).sum()
        loss_ = 1 - ((2.0 * intersection + smooth) / (pred.sum() + target.sum() + smooth))
        if i == 0:
            loss = loss_
        else:
            loss = loss + loss_
    return loss / class_num


class Checkpoint:
    def __init__(self, model, optimizer=None, epoch=0, best_score=1):
        self.model = model
        self.optimizer = optimizer
        self.epoch = epoch
        self.best_score = best_score

    def load(self, path):
        checkpoint = torch.load(path)
        self.model.load_state_dict(checkpoint["model_state"])
        self.epoch = checkpoint["epoch"]
        self.best_score = checkpoint["best_score"]
        if self.optimizer:
            self.optimizer.load_state_dict(checkpoint["optimizer_state"])
            for state in self.optimizer.state.values():
                for k, v in state.items():
                    if torch.is_tensor(v):
                        state[k] = v.cuda()

    def save(self, path):
        state_dict = self.model.module.state_dict()
        torch.save({"model_state": state_dict,
                    "optimizer_state": self.optimizer.state_dict(),
                    "epoch": self.epoch,
                    "best_score": self.best_score}, path)
