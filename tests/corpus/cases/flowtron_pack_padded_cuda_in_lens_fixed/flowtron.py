import torch
from torch import nn
from torch.nn import functional as F


def get_mask_from_lengths(lengths):
    """Constructs binary mask from a 1D torch tensor of input lengths."""
    max_len = torch.max(lengths).item()
    ids = torch.arange(0, max_len, device=lengths.device, dtype=torch.long)
    mask = (ids < lengths.unsqueeze(1)).bool()
    return mask


class ConvNorm(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size=1, stride=1, padding=None, dilation=1, bias=True):
        super(ConvNorm, self).__init__()
        if padding is None:
            assert kernel_size % 2 == 1
            padding = int(dilation * (kernel_size - 1) / 2)
        self.conv = torch.nn.Conv1d(in_channels, out_channels, kernel_size=kernel_size, stride=stride,
                                    padding=padding, dilation=dilation, bias=bias)

    def forward(self, signal):
        return self.conv(signal)


class Encoder(nn.Module):
    """Encoder module: three 1-d convolution banks and a bidirectional LSTM."""

    def __init__(self, encoder_n_convolutions=3, encoder_embedding_dim=64, encoder_kernel_size=5):
        super(Encoder, self).__init__()
        convolutions = []
        for _ in range(encoder_n_convolutions):
            conv_layer = nn.Sequential(
                ConvNorm(encoder_embedding_dim, encoder_embedding_dim, kernel_size=encoder_kernel_size, stride=1,
                         padding=int((encoder_kernel_size - 1) / 2), dilation=1),
                nn.InstanceNorm1d(encoder_embedding_dim, affine=True))
            convolutions.append(conv_layer)
        self.convolutions = nn.ModuleList(convolutions)
        self.lstm = nn.LSTM(encoder_embedding_dim, int(encoder_embedding_dim / 2), 1, batch_first=True, bidirectional=True)

    def forward(self, x, in_lens):
        """
        Args:
            x (torch.tensor): N x C x L padded input of text embeddings
            in_lens (torch.tensor): 1D tensor of sequence lengths
        """
        for conv in self.convolutions:
            x = F.dropout(F.relu(conv(x)), 0.5, self.training)
        x = x.transpose(1, 2)

        # recent amp change -- change in_lens to int
        in_lens = in_lens.int().cpu()
        x = nn.utils.rnn.pack_padded_sequence(x, in_lens, batch_first=True)

        self.lstm.flatten_parameters()
        outputs, _ = self.lstm(x)

        outputs, _ = nn.utils.rnn.pad_packed_sequence(outputs, batch_first=True)
        return outputs


class Flowtron(torch.nn.Module):
    """Flowtron reduced to its text side: text embedding, encoder, and a projection of the text context
    to the mel frames (the flows, attention and gate are left out)."""

    def __init__(self, n_speakers=4, n_speaker_dim=16, n_text=40, n_text_dim=64, n_mel_channels=20):
        super(Flowtron, self).__init__()
        self.speaker_embedding = torch.nn.Embedding(n_speakers, n_speaker_dim)
        self.embedding = torch.nn.Embedding(n_text, n_text_dim)
        self.encoder = Encoder(encoder_embedding_dim=n_text_dim)
        self.proj = torch.nn.Linear(n_text_dim + n_speaker_dim, n_mel_channels)

    def forward(self, mel, speaker_ids, text, in_lens, out_lens):
        speaker_vecs = self.speaker_embedding(speaker_ids)
        text = self.embedding(text).transpose(1, 2)
        text = self.encoder(text, in_lens)
        mask = ~get_mask_from_lengths(in_lens)[..., None]
        text = text.masked_fill(mask[:, : text.size(1)], 0.0)
        context = text.mean(dim=1)
        context = torch.cat((context, speaker_vecs), dim=1)
        return self.proj(context)[:, :, None].expand(-1, -1, mel.size(2))
