import torch


class SetFitTrainer:
    def __init__(self, model, train_dataset=None, eval_dataset=None, metric="accuracy", column_mapping=None):
        self.model = model
        self.train_dataset = train_dataset
        self.eval_dataset = eval_dataset
        self.metric = metric
        self.column_mapping = column_mapping or {"text": "text", "label": "label"}

    def train(self):
        # contrastive fine-tuning of the body and head training are left out of the stand-in
        pass

    def evaluate(self):
        eval_dataset = self.eval_dataset
        x_test = eval_dataset[self.column_mapping["text"]]
        y_test = eval_dataset[self.column_mapping["label"]]
        print("***** Running evaluation *****")
        y_pred = self.model.predict(x_test)
        if isinstance(y_pred, torch.Tensor):
            y_pred = y_pred.cpu()
        if callable(self.metric):
            return self.metric(y_pred, y_test)
        raise ValueError("only custom metric callables are supported in this stand-in")
