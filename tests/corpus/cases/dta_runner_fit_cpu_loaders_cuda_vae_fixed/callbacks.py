from common import camel2snake


class Callback:
    _order = 0

    def set_runner(self, run):
        self.run = run

    def __getattr__(self, k):
        return getattr(self.run, k)

    @property
    def name(self):
        name = self.__class__.__name__
        if name.endswith("Callback"):
            name = name[: -len("Callback")]
        return camel2snake(name or "callback")

    def __call__(self, cb_name):
        f = getattr(self, cb_name, None)
        if f and f():
            return True
        return False


class TrainEvalCallback(Callback):
    def begin_fit(self):
        self.run.n_epochs = 0.0
        self.run.n_iter = 0

    def after_batch(self):
        if not self.in_train:
            return
        self.run.n_epochs += 1.0 / self.iters
        self.run.n_iter += 1

    def begin_epoch(self):
        self.run.n_epochs = self.epoch
        self.model.train()
        self.run.in_train = True

    def begin_validate(self):
        self.model.eval()
        self.run.in_train = False


class CancelTrainException(Exception):
    pass


class CancelEpochException(Exception):
    pass


class CancelBatchException(Exception):
    pass


class LossTracker(Callback):
    def __init__(self, show_every):
        self.show_every = show_every

    def begin_fit(self):
        self.train_losses = []
        self.val_losses = []

    def after_batch(self):
        if self.in_train:
            self.train_losses.append(self.loss.detach().cpu())
        else:
            self.val_losses.append(self.loss.detach().cpu())

    def after_epoch(self):
        if self.run.epoch % self.show_every == 0:
            print(f"epoch: {self.run.epoch + self.show_every}")
