import torch
import torch.nn as nn

from torch.utils.data import DataLoader
from torch.nn.utils.rnn import pad_sequence


class AAETrainer:
    def __init__(self, config):
        self.config = config

    def _pretrain_epoch(self, model, data, criterion, optimizer=None):
        if optimizer is None:
            model.eval()
        else:
            model.train()

        total = 0.0
        for i, (encoder_inputs, decoder_inputs, decoder_targets) in enumerate(data):
            latent_codes = model.encoder_forward(*encoder_inputs)
            decoder_outputs, decoder_output_lengths, _ = model.decoder_forward(
                *decoder_inputs, latent_codes, is_latent_states=True)

            decoder_outputs = torch.cat([t[:l] for t, l in zip(decoder_outputs, decoder_output_lengths)], dim=0)
            decoder_targets = torch.cat([t[:l] for t, l in zip(*decoder_targets)], dim=0)

            loss = criterion(decoder_outputs, decoder_targets)

            if optimizer is not None:
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()

            total += loss.item()
        return total

    def _pretrain(self, model, train_loader):
        criterion = nn.CrossEntropyLoss()
        optimizer = torch.optim.Adam(list(model.encoder.parameters()) +
                                     list(model.decoder.parameters()), lr=self.config.lr)

        for epoch in range(self.config.pretrain_epochs):
            self._pretrain_epoch(model, train_loader, criterion, optimizer)

    def fit(self, model, train_data):
        def collate(data):
            data.sort(key=lambda x: len(x), reverse=True)
            tensors = [model.string2tensor(string) for string in data]
            lengths = torch.tensor([len(t) for t in tensors], dtype=torch.long, device=model.device)

            encoder_inputs = pad_sequence(tensors, batch_first=True, padding_value=model.vocabulary.pad)
            encoder_input_lengths = lengths - 2

            decoder_inputs = pad_sequence([t[:-1] for t in tensors], batch_first=True,
                                          padding_value=model.vocabulary.pad)
            decoder_input_lengths = lengths - 1

            decoder_targets = pad_sequence([t[1:] for t in tensors], batch_first=True,
                                           padding_value=model.vocabulary.pad)
            decoder_target_lengths = lengths - 1

            return (encoder_inputs, encoder_input_lengths), \
                   (decoder_inputs, decoder_input_lengths), \
                   (decoder_targets, decoder_target_lengths)

        train_loader = DataLoader(train_data, batch_size=self.config.n_batch, shuffle=True, collate_fn=collate)
        self._pretrain(model, train_loader)
        return model
