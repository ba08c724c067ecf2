import torch

from losses import GuidedAttentionLoss

use_cuda = torch.cuda.is_available()


def format_data(data):
    text_input, text_lengths, mel_input, mel_lengths = data
    if use_cuda:
        text_input = text_input.cuda(non_blocking=True)
        text_lengths = text_lengths.cuda(non_blocking=True)
        mel_input = mel_input.cuda(non_blocking=True)
        mel_lengths = mel_lengths.cuda(non_blocking=True)
    return text_input, text_lengths, mel_input, mel_lengths


def train(model, data_loader, optimizer, r=2):
    criterion_ga = GuidedAttentionLoss(sigma=0.4)
    model.train()
    for data in data_loader:
        text_input, text_lengths, mel_input, mel_lengths = format_data(data)
        optimizer.zero_grad()
        decoder_output, alignments = model(text_input, text_lengths, mel_input)
        alignment_lengths = mel_lengths // r
        loss = torch.nn.functional.l1_loss(decoder_output, mel_input)
        loss = loss + criterion_ga(alignments, text_lengths, alignment_lengths)
        loss.backward()
        optimizer.step()
