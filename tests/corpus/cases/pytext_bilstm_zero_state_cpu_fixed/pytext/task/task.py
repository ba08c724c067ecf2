import torch

from pytext.data.data_handler import DataHandler
from pytext.models.doc_model import DocModel
from pytext.models.representations.bilstm import BiLSTM
from pytext.utils import cuda_utils


class DocClassificationTask:
    def __init__(self, data_handler, model, optimizer):
        self.data_handler = data_handler
        self.model = model
        self.optimizer = optimizer

    @classmethod
    def from_config(cls, config):
        data_handler = DataHandler(vocab_size=config["vocab_size"], num_labels=config["num_labels"])
        model = DocModel(config["vocab_size"], config["embed_dim"], config["num_labels"], BiLSTM.Config())
        if cuda_utils.CUDA_ENABLED:
            model = model.cuda()
        optimizer = torch.optim.Adam(model.parameters(), lr=config["lr"])
        return cls(data_handler, model, optimizer)

    def train(self, epochs, batch_size):
        loss_fn = torch.nn.CrossEntropyLoss()
        for epoch in range(epochs):
            self.model.train()
            for tokens, seq_lens, labels in self.data_handler.get_train_iter(batch_size):
                logits = self.model(tokens, seq_lens)
                loss = loss_fn(logits, labels)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            print("epoch", epoch, "loss", loss.item())
