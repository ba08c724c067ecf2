import argparse

import torch
import transformers
from torch.nn import CrossEntropyLoss
from torch.utils.data import DataLoader, Dataset

PAD = "[PAD]"
pad_id = 0


class MyDataset(Dataset):
    def __init__(self, data_list):
        self.data_list = data_list

    def __getitem__(self, index):
        return [int(token_id) for token_id in self.data_list[index].split()]

    def __len__(self):
        return len(self.data_list)


def collate_fn(batch):
    """Pads every input of the batch to the longest one with pad_id."""
    max_input_len = max(len(sample) for sample in batch)
    input_ids = [sample + [pad_id] * (max_input_len - len(sample)) for sample in batch]
    return torch.tensor(input_ids, dtype=torch.long)


def calculate_loss_and_accuracy(outputs, labels, device):
    logits = outputs[0]
    shift_logits = logits[..., :-1, :].contiguous()
    shift_labels = labels[..., 1:].contiguous().to(device)
    loss_fct = CrossEntropyLoss(ignore_index=pad_id, reduction="sum")
    loss = loss_fct(shift_logits.view(-1, shift_logits.size(-1)), shift_labels.view(-1))
    _, preds = shift_logits.max(dim=-1)
    not_ignore = shift_labels.ne(pad_id)
    num_targets = not_ignore.long().sum().item()
    correct = ((shift_labels == preds) & not_ignore).float().sum()
    return loss / num_targets, correct / num_targets


def train(model, device, train_list, args):
    train_dataloader = DataLoader(MyDataset(train_list), batch_size=args.batch_size, shuffle=True,
                                  collate_fn=collate_fn)
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        for batch_idx, input_ids in enumerate(train_dataloader):
            input_ids.to(device)
            outputs = model.forward(input_ids=input_ids)
            loss, accuracy = calculate_loss_and_accuracy(outputs, labels=input_ids, device=device)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
            optimizer.step()
            optimizer.zero_grad()


def evaluate(model, device, test_list, args):
    model.eval()
    test_dataloader = DataLoader(MyDataset(test_list), batch_size=args.batch_size, shuffle=True,
                                 collate_fn=collate_fn)
    with torch.no_grad():
        for batch_idx, input_ids in enumerate(test_dataloader):
            input_ids.to(device)
            outputs = model.forward(input_ids=input_ids)
            loss, accuracy = calculate_loss_and_accuracy(outputs, labels=input_ids, device=device)
            print("evaluate batch {} ,loss {} ,accuracy {}".format(batch_idx, loss, accuracy))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--no_cuda", action="store_true")
    parser.add_argument("--batch_size", default=8, type=int)
    parser.add_argument("--epochs", default=10, type=int)
    parser.add_argument("--lr", default=1.5e-4, type=float)
    parser.add_argument("--max_grad_norm", default=1.0, type=float)
    args = parser.parse_args()
    args.cuda = torch.cuda.is_available() and not args.no_cuda
    device = "cuda" if args.cuda else "cpu"
    model = transformers.GPT2LMHeadModel(transformers.GPT2Config(vocab_size=13317))
    model.to(device)
    with open("data/train_tokenized.txt") as f:
        data_list = f.read().strip().split("\n")
    train(model, device, data_list[:-1000], args)
    evaluate(model, device, data_list[-1000:], args)


if __name__ == "__main__":
    main()
