import torch
from torch.utils.data import DataLoader

from callbacks import CancelBatchException, CancelEpochException, CancelTrainException, TrainEvalCallback
from common import listify


class Learner:
    """helper class in which all the data relevant part is stored"""

    def __init__(self, model, opt, loss_func, data, target_name: str, target_class: int, cols: list, cont_vars: list = None):
        self.model, self.opt, self.loss_func, self.data = model, opt, loss_func, data
        self.target_name, self.target_class, self.cols, self.cont_vars = target_name, target_class, cols, cont_vars


class Runner:
    """helper class which acts as a pipeline through which the data should run"""

    def __init__(self, cbs=None, cb_funcs=None):
        self.in_train = False
        cbs = listify(cbs)
        for cbf in listify(cb_funcs):
            cb = cbf()
            setattr(self, cb.name, cb)
            cbs.append(cb)
        self.stop, self.cbs = False, [TrainEvalCallback()] + cbs

    @property
    def opt(self):
        return self.learn.opt

    @property
    def model(self):
        return self.learn.model

    @property
    def loss_func(self):
        return self.learn.loss_func

    @property
    def data(self):
        return self.learn.data

    def one_batch(self, xb, _):
        try:
            self.xb = xb
            self("begin_batch")
            self.recon_batch, self.mu, self.logvar = self.model(self.xb)
            self("after_pred")
            self.loss = self.loss_func(self.recon_batch, self.xb, self.mu, self.logvar)
            self("after_loss")
            if not self.in_train:
                return
            self.loss.backward()
            self("after_backward")
            self.opt.step()
            self("after_step")
            self.opt.zero_grad()
        except CancelBatchException:
            self("after_cancel_batch")
        finally:
            self("after_batch")

    def all_batches(self, dl):
        self.iters = len(dl)
        try:
            for xb, _ in dl:
                self.one_batch(xb, _)
        except CancelEpochException:
            self("after_cancel_epoch")

    def fit(self, epochs, learn):
        self.epochs, self.learn, self.loss = epochs, learn, torch.tensor(0.0)
        try:
            for cb in self.cbs:
                cb.set_runner(self)
            self("begin_fit")
            for epoch in range(epochs):
                self.epoch = epoch
                if not self("begin_epoch"):
                    self.all_batches(self.data.train_dl)
                with torch.no_grad():
                    if not self("begin_validate"):
                        self.all_batches(self.data.test_dl)
                self("after_epoch")
        except CancelTrainException:
            self("after_cancel_train")
        finally:
            self("after_fit")
            self.learn = None

    def __call__(self, cb_name):
        res = False
        for cb in sorted(self.cbs, key=lambda x: x._order):
            res = cb(cb_name) or res
        return res
