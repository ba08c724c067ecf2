import torch
import torch.nn as nn


class EnhancedLSTM(torch.nn.Module):
    """
    A wrapper for different recurrent dropout implementations, which
    pytorch currently doesn't support nativly.

    "native" ignores dropout and uses the default implementation.
    """

    def __init__(self,
                 lstm_type,
                 input_size: int,
                 hidden_size: int,
                 num_layers: int,
                 bidirectional=True) -> None:
        super().__init__()

        self.lstm_type = lstm_type

        if lstm_type == "native":
            self.provider = torch.nn.LSTM(
                input_size,
                hidden_size,
                num_layers=num_layers,
                dropout=0,
                bidirectional=bidirectional,
                batch_first=True)
        else:
            raise Exception(lstm_type + " is an invalid lstm type")

    # Expects unpacked inputs in format (batch, seq, features)
    def forward(self, inputs, hidden, lengths):
        packed = torch.nn.utils.rnn.pack_padded_sequence(
            inputs, lengths, batch_first=True)

        output, _ = self.provider(packed, hidden)

        output, _ = torch.nn.utils.rnn.pad_packed_sequence(
            output, batch_first=True)

        return output


class SingleCharModel(torch.nn.Module):
    """Generates a word model using a single layer unidirectional LSTM
    taking a character embedding per time step"""

    def __init__(self, lstm_type, n_chars, char_emb_size, word_emb_size, hidden_size):
        super().__init__()
        self.char_lstm = EnhancedLSTM(
            lstm_type, char_emb_size, hidden_size, num_layers=1, bidirectional=False)
        self.char_embedding = nn.Embedding(n_chars, char_emb_size)
        self.char_transform = torch.nn.Linear(hidden_size, word_emb_size)

    def forward(self, chars):
        char_embeddings = self.char_embedding(chars.batch_vocab)
        output = self.char_lstm(char_embeddings, None, chars.voc_lengths)
        last_indices = chars.voc_lengths - 1

        # (batch_vocab_length x hidden)
        word_embeddings = output[torch.arange(chars.vocab_size), last_indices]

        # (batch x seq x hidden)
        embedded_words = word_embeddings[chars.index_mapping]
        return self.char_transform(embedded_words)


class BiLSTMModel(nn.Module):
    def __init__(self, settings):
        super().__init__()
        self.word_embedding = nn.Embedding(settings.vocab, settings.dim_embedding)
        self.char_model = SingleCharModel(settings.lstm_implementation, settings.chars,
                                          settings.dim_char_embedding, settings.dim_embedding,
                                          settings.hidden_char_lstm)
        self.lstm = EnhancedLSTM(
            settings.lstm_implementation,
            2 * settings.dim_embedding,
            settings.hidden_lstm,
            num_layers=settings.layers_lstm,
            bidirectional=True)
        self.edge_scorer = nn.Bilinear(2 * settings.hidden_lstm, 2 * settings.hidden_lstm, 1)

    def forward(self, seq_lengths, chars, word_indices):
        char_features = self.char_model(chars)
        merged_features = torch.cat([self.word_embedding(word_indices), char_features], 2)

        # (batch x seq x 2*dim_lstm)
        output = self.lstm(merged_features, None, seq_lengths)
        return output, merged_features

    def score_edges(self, output):
        b, n, d = output.shape
        heads = output.unsqueeze(2).expand(b, n, n, d).reshape(-1, d)
        deps = output.unsqueeze(1).expand(b, n, n, d).reshape(-1, d)
        return self.edge_scorer(heads, deps).view(b, n, n)
