import numpy as np
import torch


def get_device():
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


class TokenEmbedding(torch.nn.Module):
    def __init__(self, d_model, number_of_tokens):
        super().__init__()
        self.embedding_layer = torch.nn.Embedding(number_of_tokens, d_model)

    def forward(self, x):
        return self.embedding_layer(x)


class PositionalEncoding(torch.nn.Module):
    """Sinusoidal table, built once by a helper method that __init__ calls."""

    def __init__(self, d_model, max_sequence_length):
        super().__init__()
        self.d_model = d_model
        self.max_sequence_length = max_sequence_length
        self.positional_encoding = self.create_positional_encoding()

    def create_positional_encoding(self):
        table = np.zeros((self.max_sequence_length, self.d_model))
        for pos in range(self.max_sequence_length):
            for i in range(0, self.d_model, 2):
                table[pos, i] = np.sin(pos / (10000 ** ((2 * i) / self.d_model)))
                if i + 1 < self.d_model:
                    table[pos, i + 1] = np.cos(pos / (10000 ** ((2 * i) / self.d_model)))
        return torch.from_numpy(table).float()

    def forward(self, x):
        return x + self.positional_encoding[:x.size(1), :]


class LanguageModel(torch.nn.Module):
    def __init__(self, number_of_tokens, max_sequence_length=512, embedding_dimension=512):
        super().__init__()
        self.max_sequence_length = max_sequence_length
        self.token_embedding = TokenEmbedding(embedding_dimension, number_of_tokens)
        self.positional_encoding = PositionalEncoding(embedding_dimension, max_sequence_length)
        self.layer_normalization = torch.nn.LayerNorm(embedding_dimension)
        self.lm_head = torch.nn.Linear(embedding_dimension, number_of_tokens)

    def forward(self, x):
        token_embeddings = self.token_embedding(x)
        positional_encoding = self.positional_encoding(token_embeddings)
        return self.lm_head(self.layer_normalization(positional_encoding))


class Trainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=0.0001)
        self.loss_function = torch.nn.CrossEntropyLoss()

    def train_step(self, sequences):
        input_tensor = torch.tensor(sequences, dtype=torch.long)
        model_output = self.model(input_tensor[:, :-1].to(get_device()))
        loss = self.loss_function(model_output.transpose(1, 2), input_tensor[:, 1:].to(get_device()))
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss.item()


if __name__ == "__main__":
    model = LanguageModel(number_of_tokens=20, max_sequence_length=32, embedding_dimension=64).to(get_device())
    trainer = Trainer(model)
    print(trainer.train_step([[1, 2, 3, 4, 5], [5, 4, 3, 2, 1]]))
