import torch.nn as nn


class Transformer(nn.Module):
    def __init__(self, src_vocab, trg_vocab, d_model, N, heads, dropout):
        super().__init__()
        self.src_embed = nn.Embedding(src_vocab, d_model)
        self.trg_embed = nn.Embedding(trg_vocab, d_model)
        self.transformer = nn.Transformer(d_model, heads, N, N, dropout=dropout, batch_first=True)
        self.out = nn.Linear(d_model, trg_vocab)

    def forward(self, src, trg, src_mask, trg_mask):
        tgt_mask = ~trg_mask[0]
        output = self.transformer(self.src_embed(src), self.trg_embed(trg), tgt_mask=tgt_mask,
                                  src_key_padding_mask=~src_mask[:, 0])
        return self.out(output)


def get_model(opt, src_vocab, trg_vocab):
    model = Transformer(src_vocab, trg_vocab, opt.d_model, opt.n_layers, opt.heads, opt.dropout)
    if opt.device == 0:
        model = model.cuda()
    return model
