import torch
import torch.nn as nn

from BertModel import BertEmbeddings, BertEncoder


class BertRanker(nn.Module):
    """Construct a 'BERT' model to rank relations for each step"""

    def __init__(self, config, device=None):
        super(BertRanker, self).__init__()
        self.hidden_size = config.hidden_size
        self.embeddings = BertEmbeddings(config)
        self.encoder = BertEncoder(config)
        self.sim = nn.Linear(self.hidden_size, 1)
        self.device = device
        self.padding_id = 0

    def forward(self, batch):
        sequence_token, sequence = batch
        b, gn, sl = sequence.size()
        sequence = sequence.view(b * gn, sl)
        sequence_token = sequence_token.view(b * gn, sl)
        sequence_mask = torch.eq(sequence, self.padding_id).type(torch.FloatTensor)
        sequence_mask = sequence_mask.to(self.device) if self.device else sequence_mask
        sequence_mask = sequence_mask.unsqueeze(1).unsqueeze(2)
        sequence_mask = -1.e10 * sequence_mask
        sequence_emb = self.embeddings(sequence, token_ids=sequence_token)
        sequence_enc = self.encoder(sequence_emb, sequence_mask, output_all_encoded_layers=False)[-1]
        return self.sim(sequence_enc[:, 0]).view(b, gn)


class Policy(nn.Module):
    def __init__(self, config, device):
        super(Policy, self).__init__()
        self.device = device
        self.ranker = BertRanker(config, device=device)

    def forward(self, x):
        return self.ranker(x)
