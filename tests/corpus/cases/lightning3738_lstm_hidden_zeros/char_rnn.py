import pytorch_lightning as pl
import torch
from torch import nn


class RNN(pl.LightningModule):
    def __init__(self, input_size, hidden_size, embedding_size, n_categories, n_layers, output_size, p):
        super().__init__()
        self.criterion = nn.CrossEntropyLoss()
        self.n_layers = n_layers
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(input_size + n_categories, embedding_size)
        self.lstm = nn.LSTM(embedding_size + n_categories, hidden_size, n_layers, dropout=p)
        self.out_fc = nn.Linear(hidden_size, output_size)
        self.dropout = nn.Dropout(p)

    def forward(self, batch_of_category, batch_of_letter, hidden, cell):
        embedding = self.dropout(self.embedding(batch_of_letter))
        category_plus_letter = torch.cat((batch_of_category, embedding), 1).unsqueeze(0)
        out, (hidden, cell) = self.lstm(category_plus_letter, (hidden, cell))
        return self.out_fc(out.squeeze(0)), hidden, cell

    def training_step(self, batch, batch_idx):
        category, letters, targets = batch
        hidden = torch.zeros(self.n_layers, letters.shape[0], self.hidden_size)
        cell = torch.zeros(self.n_layers, letters.shape[0], self.hidden_size)
        loss = 0
        for t in range(letters.shape[1]):
            output, hidden, cell = self(category, letters[:, t], hidden, cell)
            loss = loss + self.criterion(output, targets[:, t])
        return loss / letters.shape[1]

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=0.0005)
