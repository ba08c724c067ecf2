import torch
import torch.nn as nn

from torch.nn.utils.rnn import pad_packed_sequence, pack_padded_sequence


class Encoder(nn.Module):
    def __init__(self, embedding_layer, hidden_size, num_layers, bidirectional, dropout, latent_size):
        super(Encoder, self).__init__()

        self.embedding_layer = embedding_layer
        self.lstm_layer = nn.LSTM(embedding_layer.embedding_dim, hidden_size, num_layers,
                                  batch_first=True, dropout=dropout, bidirectional=bidirectional)
        self.linear_layer = nn.Linear((int(bidirectional) + 1) * num_layers * hidden_size, latent_size)

    def forward(self, x, lengths):
        batch_size = x.shape[0]

        x = self.embedding_layer(x)
        x = pack_padded_sequence(x, lengths, batch_first=True)
        _, (_, x) = self.lstm_layer(x)
        x = x.permute(1, 2, 0).contiguous().view(batch_size, -1)
        x = self.linear_layer(x)

        return x


class Decoder(nn.Module):
    def __init__(self, embedding_layer, hidden_size, num_layers, dropout, latent_size):
        super(Decoder, self).__init__()

        self.latent2hidden_layer = nn.Linear(latent_size, hidden_size)
        self.embedding_layer = embedding_layer
        self.lstm_layer = nn.LSTM(embedding_layer.embedding_dim, hidden_size, num_layers,
                                  batch_first=True, dropout=dropout)
        self.linear_layer = nn.Linear(hidden_size, embedding_layer.num_embeddings)

    def forward(self, x, lengths, states, is_latent_states=False):
        if is_latent_states:
            c0 = self.latent2hidden_layer(states)
            c0 = c0.unsqueeze(0).repeat(self.lstm_layer.num_layers, 1, 1)
            h0 = torch.zeros_like(c0)
            states = (h0, c0)

        x = self.embedding_layer(x)
        x = pack_padded_sequence(x, lengths, batch_first=True)
        x, states = self.lstm_layer(x, states)
        x, lengths = pad_packed_sequence(x, batch_first=True)
        x = self.linear_layer(x)

        return x, lengths, states


class CharVocab:
    def __init__(self, chars):
        self.ss = ['<bos>', '<eos>', '<pad>']
        self.bos, self.eos, self.pad = 0, 1, 2
        self.c2i = {c: i + 3 for i, c in enumerate(sorted(set(chars)))}

    def __len__(self):
        return len(self.c2i) + 3

    def string2ids(self, string, add_bos=False, add_eos=False):
        ids = [self.c2i[c] for c in string]
        if add_bos:
            ids = [self.bos] + ids
        if add_eos:
            ids = ids + [self.eos]
        return ids


class AAE(nn.Module):
    def __init__(self, vocabulary, config):
        super(AAE, self).__init__()
        self.vocabulary = vocabulary
        self.latent_size = config.latent_size

        self.embeddings = nn.Embedding(len(vocabulary), config.embedding_size, padding_idx=vocabulary.pad)
        self.encoder = Encoder(self.embeddings, config.encoder_hidden_size, config.encoder_num_layers,
                               config.encoder_bidirectional, config.encoder_dropout, config.latent_size)
        self.decoder = Decoder(self.embeddings, config.decoder_hidden_size, config.decoder_num_layers,
                               config.decoder_dropout, config.latent_size)

    @property
    def device(self):
        return next(self.embeddings.parameters()).device

    def encoder_forward(self, *args, **kwargs):
        return self.encoder(*args, **kwargs)

    def decoder_forward(self, *args, **kwargs):
        return self.decoder(*args, **kwargs)

    def string2tensor(self, string):
        ids = self.vocabulary.string2ids(string, add_bos=True, add_eos=True)
        tensor = torch.tensor(ids, dtype=torch.long, device=self.device)

        return tensor
