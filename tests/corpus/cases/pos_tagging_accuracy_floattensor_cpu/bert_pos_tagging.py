import torch
import torch.nn as nn
import torch.optim as optim
from torchtext import data
from transformers import BertModel, BertTokenizer

tokenizer = BertTokenizer.from_pretrained("bert-base-uncased")
TEXT = data.Field(batch_first=False, use_vocab=False, tokenize=tokenizer.tokenize,
                  preprocessing=tokenizer.convert_tokens_to_ids, pad_token=tokenizer.pad_token_id)
UD_TAGS = data.Field(unk_token=None)

BATCH_SIZE = 32
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class BERTPoSTagger(nn.Module):
    def __init__(self, bert, output_dim, dropout):
        super().__init__()
        self.bert = bert
        embedding_dim = bert.config.to_dict()["hidden_size"]
        self.fc = nn.Linear(embedding_dim, output_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, text):
        text = text.permute(1, 0)
        embedded = self.dropout(self.bert(text)[0])
        embedded = embedded.permute(1, 0, 2)
        return self.fc(self.dropout(embedded))


def categorical_accuracy(preds, y, tag_pad_idx):
    """Returns accuracy per batch, i.e. if you get 8/10 right, this returns 0.8, NOT 8"""
    max_preds = preds.argmax(dim=1, keepdim=True)
    non_pad_elements = (y != tag_pad_idx).nonzero()
    correct = max_preds[non_pad_elements].squeeze(1).eq(y[non_pad_elements])
    return correct.sum() / torch.FloatTensor([y[non_pad_elements].shape[0]])


def train(model, iterator, optimizer, criterion, tag_pad_idx):
    epoch_loss = 0
    epoch_acc = 0
    model.train()
    for batch in iterator:
        text = batch.text
        tags = batch.udtags
        optimizer.zero_grad()
        predictions = model(text)
        predictions = predictions.view(-1, predictions.shape[-1])
        tags = tags.view(-1)
        loss = criterion(predictions, tags)
        acc = categorical_accuracy(predictions, tags, tag_pad_idx)
        loss.backward()
        optimizer.step()
        epoch_loss += loss.item()
        epoch_acc += acc.item()
    return epoch_loss / len(iterator), epoch_acc / len(iterator)


def main(train_data, valid_data):
    UD_TAGS.build_vocab(train_data)
    train_iterator, valid_iterator = data.BucketIterator.splits((train_data, valid_data), batch_size=BATCH_SIZE,
                                                               device=device)
    bert = BertModel.from_pretrained("bert-base-uncased")
    model = BERTPoSTagger(bert, len(UD_TAGS.vocab), dropout=0.25)
    optimizer = optim.Adam(model.parameters(), lr=5e-5)
    TAG_PAD_IDX = UD_TAGS.vocab.stoi[UD_TAGS.pad_token]
    criterion = nn.CrossEntropyLoss(ignore_index=TAG_PAD_IDX)
    model = model.to(device)
    criterion = criterion.to(device)
    for epoch in range(10):
        train_loss, train_acc = train(model, train_iterator, optimizer, criterion, TAG_PAD_IDX)
        print(f"Epoch {epoch + 1}: loss {train_loss:.3f} acc {train_acc * 100:.2f}%")
