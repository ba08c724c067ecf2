from typing import Tuple

import torch
import torch.nn as nn

import flair
from flair.data import Dictionary


class LanguageModel(nn.Module):
    """Container module with an encoder, a recurrent module, and a decoder."""

    def __init__(self, dictionary: Dictionary, is_forward_lm: bool, hidden_size: int, nlayers: int,
                 embedding_size: int = 100, dropout=0.1):
        super(LanguageModel, self).__init__()
        self.dictionary = dictionary
        self.is_forward_lm: bool = is_forward_lm
        self.hidden_size = hidden_size
        self.nlayers = nlayers

        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(len(dictionary), embedding_size)
        self.rnn = nn.LSTM(embedding_size, hidden_size, nlayers)
        self.decoder = nn.Linear(hidden_size, len(dictionary))

        # auto-spawn on GPU if available
        self.to(flair.device)

    def forward(self, input, hidden):
        encoded = self.encoder(input)
        emb = self.drop(encoded)
        output, hidden = self.rnn(emb, hidden)
        decoded = self.decoder(self.drop(output))
        return decoded, output, hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters()).detach()
        return (weight.new_zeros(self.nlayers, bsz, self.hidden_size),
                weight.new_zeros(self.nlayers, bsz, self.hidden_size))

    def generate_text(self, prefix: str = "\n", number_of_characters: int = 1000,
                      temperature: float = 1.0) -> Tuple[str, float]:
        with torch.no_grad():
            characters = []
            idx2item = self.dictionary.idx2item

            # initial hidden state
            hidden = self.init_hidden(1)

            input = torch.tensor(self.dictionary.get_idx_for_item(prefix[-1])).unsqueeze(0).unsqueeze(0)
            log_prob = 0.0

            for i in range(number_of_characters):
                input = input.to(flair.device)

                # get predicted weights
                prediction, _, hidden = self.forward(input, hidden)
                prediction = prediction.squeeze().detach()
                decoder_output = prediction

                prediction = prediction.div(temperature)
                word_weights = (prediction - torch.max(prediction)).exp().cpu()

                word_idx = torch.multinomial(word_weights, 1)[0]
                log_prob += (decoder_output[word_idx] - torch.logsumexp(decoder_output, dim=0)).item()

                input = word_idx.detach().unsqueeze(0).unsqueeze(0)
                characters.append(idx2item[word_idx.item()])

            text = prefix + "".join(characters)
            if not self.is_forward_lm:
                text = text[::-1]
            return text, -log_prob / number_of_characters
