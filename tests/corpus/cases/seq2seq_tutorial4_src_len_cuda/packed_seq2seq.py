import random

import spacy
import torch
import torch.nn as nn
from torchtext.data import BucketIterator, Field
from torchtext.datasets import Multi30k

spacy_de = spacy.load("de_core_news_sm")
spacy_en = spacy.load("en_core_web_sm")
SRC = Field(tokenize=lambda t: [tok.text for tok in spacy_de.tokenizer(t)], init_token="<sos>", eos_token="<eos>",
            lower=True, include_lengths=True)
TRG = Field(tokenize=lambda t: [tok.text for tok in spacy_en.tokenizer(t)], init_token="<sos>", eos_token="<eos>",
            lower=True)
train_data, valid_data, test_data = Multi30k.splits(exts=(".de", ".en"), fields=(SRC, TRG))
SRC.build_vocab(train_data, min_freq=2)
TRG.build_vocab(train_data, min_freq=2)

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
train_iterator, valid_iterator, test_iterator = BucketIterator.splits(
    (train_data, valid_data, test_data), batch_size=128, sort_within_batch=True, sort_key=lambda x: len(x.src),
    device=device)


class Encoder(nn.Module):
    def __init__(self, input_dim, emb_dim, enc_hid_dim, dec_hid_dim, dropout):
        super().__init__()
        self.embedding = nn.Embedding(input_dim, emb_dim)
        self.rnn = nn.GRU(emb_dim, enc_hid_dim, bidirectional=True)
        self.fc = nn.Linear(enc_hid_dim * 2, dec_hid_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, src, src_len):
        embedded = self.dropout(self.embedding(src))
        packed_embedded = nn.utils.rnn.pack_padded_sequence(embedded, src_len)
        packed_outputs, hidden = self.rnn(packed_embedded)
        outputs, _ = nn.utils.rnn.pad_packed_sequence(packed_outputs)
        hidden = torch.tanh(self.fc(torch.cat((hidden[-2, :, :], hidden[-1, :, :]), dim=1)))
        return outputs, hidden


class Decoder(nn.Module):
    def __init__(self, output_dim, emb_dim, enc_hid_dim, dec_hid_dim, dropout):
        super().__init__()
        self.output_dim = output_dim
        self.embedding = nn.Embedding(output_dim, emb_dim)
        self.rnn = nn.GRU(enc_hid_dim * 2 + emb_dim, dec_hid_dim)
        self.fc_out = nn.Linear(dec_hid_dim, output_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, input, hidden, encoder_outputs, mask):
        embedded = self.dropout(self.embedding(input.unsqueeze(0)))
        weights = (encoder_outputs.sum(2) * mask.permute(1, 0)).softmax(0).unsqueeze(2)
        context = (weights * encoder_outputs).sum(0, keepdim=True)
        output, hidden = self.rnn(torch.cat((embedded, context), dim=2), hidden.unsqueeze(0))
        return self.fc_out(output.squeeze(0)), hidden.squeeze(0), weights.squeeze(2).permute(1, 0)


class Seq2Seq(nn.Module):
    def __init__(self, encoder, decoder, src_pad_idx, device):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder
        self.src_pad_idx = src_pad_idx
        self.device = device

    def create_mask(self, src):
        return (src != self.src_pad_idx).permute(1, 0)

    def forward(self, src, src_len, trg, teacher_forcing_ratio=0.5):
        trg_len, batch_size = trg.shape
        outputs = torch.zeros(trg_len, batch_size, self.decoder.output_dim).to(self.device)
        encoder_outputs, hidden = self.encoder(src, src_len)
        input = trg[0, :]
        mask = self.create_mask(src)
        for t in range(1, trg_len):
            output, hidden, _ = self.decoder(input, hidden, encoder_outputs, mask)
            outputs[t] = output
            input = trg[t] if random.random() < teacher_forcing_ratio else output.argmax(1)
        return outputs


enc = Encoder(len(SRC.vocab), 256, 512, 512, 0.5)
dec = Decoder(len(TRG.vocab), 256, 512, 512, 0.5)
model = Seq2Seq(enc, dec, SRC.vocab.stoi[SRC.pad_token], device).to(device)
optimizer = torch.optim.Adam(model.parameters())
criterion = nn.CrossEntropyLoss(ignore_index=TRG.vocab.stoi[TRG.pad_token])


def train(model, iterator, optimizer, criterion, clip):
    model.train()
    epoch_loss = 0
    for i, batch in enumerate(iterator):
        src, src_len = batch.src
        trg = batch.trg
        optimizer.zero_grad()
        output = model(src, src_len, trg)
        loss = criterion(output[1:].view(-1, output.shape[-1]), trg[1:].view(-1))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        epoch_loss += loss.item()
    return epoch_loss / len(iterator)


def translate_sentence(tokens, src_field, trg_field, model, device, max_len=50):
    model.eval()
    tokens = [src_field.init_token] + [t.lower() for t in tokens] + [src_field.eos_token]
    src_indexes = [src_field.vocab.stoi[token] for token in tokens]
    src_tensor = torch.LongTensor(src_indexes).unsqueeze(1).to(device)
    src_len = torch.LongTensor([len(src_indexes)]).to(device)
    with torch.no_grad():
        encoder_outputs, hidden = model.encoder(src_tensor, src_len)
    mask = model.create_mask(src_tensor)
    trg_indexes = [trg_field.vocab.stoi[trg_field.init_token]]
    for i in range(max_len):
        trg_tensor = torch.LongTensor([trg_indexes[-1]]).to(device)
        with torch.no_grad():
            output, hidden, attention = model.decoder(trg_tensor, hidden, encoder_outputs, mask)
        trg_indexes.append(output.argmax(1).item())
        if trg_indexes[-1] == trg_field.vocab.stoi[trg_field.eos_token]:
            break
    return [trg_field.vocab.itos[i] for i in trg_indexes][1:]


for epoch in range(10):
    print(train(model, train_iterator, optimizer, criterion, clip=1))
print(translate_sentence(vars(test_data.examples[12])["src"], SRC, TRG, model, device))
