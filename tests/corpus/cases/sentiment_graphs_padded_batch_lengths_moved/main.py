from types import SimpleNamespace

import torch
from torch.utils.data import DataLoader

from data import padded_collate, random_graph_data
from model import BiLSTMModel


class ModelInteractor:
    """Responsible for training the model and using it to make predictions"""

    def __init__(self, settings):
        self.settings = settings
        self.device = settings.device
        self.model = BiLSTMModel(settings)
        self.model = self.model.to(self.settings.device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=settings.lr)
        self.train_data = DataLoader(
            random_graph_data(),
            batch_size=settings.batch_size,
            shuffle=True,
            collate_fn=padded_collate)

    def _run_train_batch(self, batch, optimizer):
        optimizer.zero_grad()
        output, _ = self.model(batch.seq_lengths, batch.chars, batch.indices[0])
        scores = self.model.score_edges(output)
        n = scores.shape[1]
        targets = batch.targetss[0][:, :n, :n].float()
        mask = batch.unpadding_mask[:, :n, :n]
        loss = torch.nn.functional.binary_cross_entropy_with_logits(scores[mask], targets[mask])
        loss.backward()
        optimizer.step()
        return loss.item()

    def _run_train_epoch(self, data, epoch):
        self.model.train()
        total_loss = 0
        sequences_trained = 0
        for i, batch in enumerate(data):
            batch.to(self.device)
            loss = self._run_train_batch(batch, self.optimizer)
            total_loss += loss
            sequences_trained += batch.sentence_count
        return total_loss, sequences_trained

    def train(self):
        for epoch in range(self.settings.epochs):
            print(epoch, self._run_train_epoch(self.train_data, epoch))


def main():
    torch.manual_seed(1)
    device = torch.device("cuda:0" if torch.cuda.is_available()
                          else "cpu")
    print(device)
    settings = SimpleNamespace(
        device=device, lstm_implementation="native", vocab=40, chars=20,
        dim_embedding=16, dim_char_embedding=8, hidden_char_lstm=16,
        hidden_lstm=16, layers_lstm=2, lr=1e-3, batch_size=4, epochs=2)
    model_interactor = ModelInteractor(settings)
    model_interactor.train()


if __name__ == "__main__":
    main()
