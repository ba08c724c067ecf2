import torch
from torch import nn


class BoxDescriber(nn.Module):
    """Generates a caption for each region feature (greedy decoding at test time)."""

    def __init__(self, feat_size, hidden_size, max_len, emb_size, vocab_size, pad_idx=0, start_idx=1, end_idx=2):
        super().__init__()
        self.hidden_size = hidden_size
        self.max_len = max_len
        self.special_idx = {"<pad>": pad_idx, "<bos>": start_idx, "<eos>": end_idx}
        self.embedding_layer = nn.Embedding(vocab_size, emb_size)
        self.rnn = nn.LSTM(input_size=emb_size, hidden_size=hidden_size, num_layers=1, batch_first=True)
        self.feature_project_layer = nn.Sequential(nn.Linear(feat_size, emb_size), nn.ReLU())
        self.fc_layer = nn.Linear(hidden_size, vocab_size)

    def init_hidden(self, batch_size, device):
        h0 = torch.zeros(1, batch_size, self.hidden_size).to(device)
        c0 = torch.zeros(1, batch_size, self.hidden_size).to(device)
        return h0, c0

    def forward_test(self, feat):
        batch_size = feat.shape[0]
        device = feat.device
        feat_emb = self.feature_project_layer(feat)

        predicts = torch.ones(batch_size, self.max_len + 1, dtype=torch.long).to(device) * self.special_idx["<pad>"]
        predicts[:, 0] = torch.ones(batch_size, dtype=torch.long).to(device) * self.special_idx["<bos>"]
        keep = torch.arange(batch_size, device=device)  # keep track of unfinished sequences

        h, c = self.init_hidden(batch_size, device)
        _, (h, c) = self.rnn(feat_emb.unsqueeze(1), (h, c))
        for i in range(self.max_len):
            word_emb = self.embedding_layer(predicts[keep, i])
            _, (h, c) = self.rnn(word_emb.unsqueeze(1), (h, c))
            pred = self.fc_layer(h[-1])
            predicts[keep, i + 1] = pred.log_softmax(dim=-1).argmax(dim=-1)

            non_stop = predicts[keep, i + 1] != self.special_idx["<eos>"]
            keep = keep[non_stop]  # update unfinished indices
            if keep.nelement() == 0:
                break
            h = h[:, non_stop, :]
            c = c[:, non_stop, :]
        return predicts


if __name__ == "__main__":
    describer = BoxDescriber(feat_size=64, hidden_size=32, max_len=10, emb_size=16, vocab_size=50).cuda()
    print(describer.forward_test(torch.randn(4, 64, device="cuda")))
