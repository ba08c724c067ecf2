import torch
import torch.nn as nn


def masked_log_softmax(vector, mask, dim=-1):
    if mask is not None:
        mask = mask.float()
        while mask.dim() < vector.dim():
            mask = mask.unsqueeze(1)
        vector = vector + (mask + 1e-45).log()
    return torch.nn.functional.log_softmax(vector, dim=dim)


class Encoder(nn.Module):
    def __init__(self, embedding_dim, hidden_size, num_layers=1, batch_first=True, bidirectional=True):
        super(Encoder, self).__init__()
        self.batch_first = batch_first
        self.rnn = nn.LSTM(input_size=embedding_dim, hidden_size=hidden_size, num_layers=num_layers,
                           batch_first=batch_first, bidirectional=bidirectional)

    def forward(self, embedded_inputs, input_lengths):
        # Pack padded batch of sequences for RNN module
        packed = nn.utils.rnn.pack_padded_sequence(embedded_inputs, input_lengths, batch_first=self.batch_first)
        outputs, hidden = self.rnn(packed)
        outputs, _ = nn.utils.rnn.pad_packed_sequence(outputs, batch_first=self.batch_first)
        return outputs, hidden


class PointerNet(nn.Module):
    def __init__(self, input_dim, embedding_dim, hidden_size, bidirectional=True, batch_first=True):
        super(PointerNet, self).__init__()
        self.hidden_size = hidden_size
        self.bidirectional = bidirectional
        self.batch_first = batch_first
        self.embedding = nn.Linear(in_features=input_dim, out_features=embedding_dim, bias=False)
        self.encoder = Encoder(embedding_dim=embedding_dim, hidden_size=hidden_size,
                               bidirectional=bidirectional, batch_first=batch_first)
        self.scorer = nn.Linear(hidden_size, 1)

    def forward(self, input_seq, input_lengths):
        batch_size = input_seq.size(0)
        max_seq_len = input_seq.size(1)
        embedded = self.embedding(input_seq)
        encoder_outputs, encoder_hidden = self.encoder(embedded, input_lengths)
        if self.bidirectional:
            encoder_outputs = encoder_outputs[:, :, :self.hidden_size] + encoder_outputs[:, :, self.hidden_size:]
        range_tensor = torch.arange(max_seq_len, device=input_lengths.device, dtype=input_lengths.dtype).expand(batch_size, max_seq_len)
        mask = range_tensor < input_lengths.view(-1, 1)
        scores = self.scorer(encoder_outputs).squeeze(-1)
        return masked_log_softmax(scores, mask, dim=-1)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = PointerNet(input_dim=1, embedding_dim=16, hidden_size=16).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(3):
        input_seq = torch.rand(4, 6, 1)
        input_lengths = torch.tensor([6, 5, 3, 2], dtype=torch.long)
        target = torch.randint(0, 2, (4,))
        input_seq, input_lengths, target = input_seq.to(device), input_lengths.to(device), target.to(device)
        log_scores = model(input_seq, input_lengths)
        loss = nn.functional.nll_loss(log_scores, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
