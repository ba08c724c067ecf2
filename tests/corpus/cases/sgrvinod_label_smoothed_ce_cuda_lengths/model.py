import torch
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class TinyTransformer(torch.nn.Module):
    def __init__(self, vocab_size, d_model=128):
        super().__init__()
        self.embedding = torch.nn.Embedding(vocab_size, d_model)
        self.encoder = torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(d_model, 4, batch_first=True), 2)
        self.fc = torch.nn.Linear(d_model, vocab_size)

    def forward(self, encoder_sequences, decoder_sequences, encoder_sequence_lengths, decoder_sequence_lengths):
        return self.fc(self.encoder(self.embedding(decoder_sequences)))


class LabelSmoothedCE(torch.nn.Module):
    """Cross entropy with label smoothing, computed over the non-pad positions only."""

    def __init__(self, eps=0.1):
        super().__init__()
        self.eps = eps

    def forward(self, inputs, targets, lengths):
        # Remove pad-positions and flatten
        inputs, _, _, _ = pack_padded_sequence(input=inputs, lengths=lengths, batch_first=True,
                                               enforce_sorted=False)  # (sum(lengths), vocab_size)
        targets, _, _, _ = pack_padded_sequence(input=targets, lengths=lengths, batch_first=True,
                                                enforce_sorted=False)  # (sum(lengths))
        target_vector = torch.zeros_like(inputs).scatter(dim=1, index=targets.unsqueeze(1), value=1.).to(device)
        target_vector = target_vector * (1. - self.eps) + self.eps / target_vector.size(1)
        loss = (-1 * target_vector * F.log_softmax(inputs, dim=1)).sum(dim=1)
        return torch.mean(loss)
