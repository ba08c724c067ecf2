#!/usr/bin/env python
# coding:utf-8

import json
import random
import sys
from types import SimpleNamespace

import torch
from torch.utils.data import DataLoader, Dataset

from hmcn import HMCN, DOC_TOKEN, DOC_TOKEN_LEN, DOC_LABEL


class Config(object):
    def __init__(self, config_file):
        with open(config_file) as fin:
            self.__dict__.update(json.loads(fin.read(), object_hook=lambda d: SimpleNamespace(**d)).__dict__)


class ClassificationDataset(Dataset):
    """Random token documents with labels from two hierarchy levels (stands for the JSON corpus)."""
    def __init__(self, n_docs=32, vocab_size=50, hierarchy_classes=(3, 5)):
        rng = random.Random(2019)
        self.vocab_size = vocab_size
        self.hierarchy_classes = list(hierarchy_classes)
        self.num_labels = sum(hierarchy_classes)
        self.docs = []
        for _ in range(n_docs):
            n = rng.randint(3, 12)
            self.docs.append({DOC_TOKEN: [rng.randint(1, vocab_size - 1) for _ in range(n)],
                              DOC_LABEL: [rng.randint(0, self.num_labels - 1)]})

    def __len__(self):
        return len(self.docs)

    def __getitem__(self, idx):
        return self.docs[idx]


class ClassificationCollator(object):
    def __init__(self, conf, label_size):
        self.device = conf.device
        self.label_size = label_size

    def __call__(self, batch):
        doc_token_max_len = max(len(sample[DOC_TOKEN]) for sample in batch)
        doc_token, doc_token_len, doc_labels = [], [], []
        for sample in batch:
            padding = [0] * (doc_token_max_len - len(sample[DOC_TOKEN]))
            doc_token.append(sample[DOC_TOKEN] + padding)
            doc_token_len.append(len(sample[DOC_TOKEN]))
            doc_labels.append(sample[DOC_LABEL])
        y = torch.zeros(len(batch), self.label_size).scatter_(1, torch.tensor(doc_labels), 1)
        return {
            DOC_LABEL: y,
            DOC_TOKEN: torch.tensor(doc_token),
            DOC_TOKEN_LEN: torch.tensor(doc_token_len, dtype=torch.float32),
        }


def get_data_loader(conf):
    train_dataset = ClassificationDataset()
    collate_fn = ClassificationCollator(conf, train_dataset.num_labels)
    train_data_loader = DataLoader(
        train_dataset, batch_size=conf.train.batch_size, shuffle=True,
        collate_fn=collate_fn)
    return train_dataset, train_data_loader


def get_classification_model(model_name, dataset, conf):
    """Get classification model from configuration
    """
    model = globals()[model_name](dataset, conf)
    model = model.cuda(conf.device) if conf.device.startswith("cuda") else model
    return model


class ClassificationTrainer(object):
    def __init__(self, conf, loss_fn):
        self.conf = conf
        self.loss_fn = loss_fn

    def train(self, data_loader, model, optimizer, epoch):
        model.train()
        return self.run(data_loader, model, optimizer, epoch)

    def run(self, data_loader, model, optimizer, epoch):
        total_loss = 0.
        for batch in data_loader:
            (global_logits, local_logits, logits) = model(batch)
            loss = self.loss_fn(global_logits, batch[DOC_LABEL].to(self.conf.device))
            loss += self.loss_fn(local_logits, batch[DOC_LABEL].to(self.conf.device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total_loss += loss.item()
        return total_loss


def train(conf):
    dataset, train_data_loader = get_data_loader(conf)
    model = get_classification_model(conf.model_name, dataset, conf)
    loss_fn = torch.nn.BCEWithLogitsLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=conf.optimizer.learning_rate)
    trainer = ClassificationTrainer(conf, loss_fn)
    for epoch in range(conf.train.num_epochs):
        print("epoch", epoch, trainer.train(train_data_loader, model, optimizer, epoch))


if __name__ == '__main__':
    config = Config(config_file=sys.argv[1] if len(sys.argv) > 1 else "train.hmcn.json")
    torch.manual_seed(2019)
    train(config)
