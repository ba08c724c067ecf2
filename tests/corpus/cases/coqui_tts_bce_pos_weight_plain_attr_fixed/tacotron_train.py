from types import SimpleNamespace

import torch
from torch import nn
from torch.nn import functional


def sequence_mask(sequence_length, max_len=None):
    """Create a sequence mask for filtering padding in a sequence tensor."""
    if max_len is None:
        max_len = sequence_length.data.max()
    seq_range = torch.arange(max_len, dtype=sequence_length.dtype, device=sequence_length.device)
    # B x T_max
    return seq_range.unsqueeze(0) < sequence_length.unsqueeze(1)


class MSELossMasked(nn.Module):
    def __init__(self, seq_len_norm):
        super().__init__()
        self.seq_len_norm = seq_len_norm

    def forward(self, x, target, length):
        target.requires_grad = False
        mask = sequence_mask(sequence_length=length, max_len=target.size(1)).unsqueeze(2).float()
        mask = mask.expand_as(x)
        loss = functional.mse_loss(x * mask, target * mask, reduction="sum")
        return loss / mask.sum()


class BCELossMasked(nn.Module):
    """BCE loss with masking.

    Used mainly for stopnet in autoregressive models.

    Args:
        pos_weight (float): weight for positive samples. If set < 1, penalize early stopping. Defaults to None.
    """

    def __init__(self, pos_weight: float = None):
        super().__init__()
        self.pos_weight = nn.Parameter(torch.tensor([pos_weight]), requires_grad=False)

    def forward(self, x, target, length):
        target.requires_grad = False
        if length is not None:
            # mask: (batch, max_len, 1)
            mask = sequence_mask(sequence_length=length, max_len=target.size(1))
            num_items = mask.sum()
            loss = functional.binary_cross_entropy_with_logits(
                x.masked_select(mask), target.masked_select(mask), pos_weight=self.pos_weight, reduction="sum"
            )
        else:
            loss = functional.binary_cross_entropy_with_logits(x, target, pos_weight=self.pos_weight, reduction="sum")
            num_items = torch.numel(x)
        loss = loss / num_items
        return loss


class TacotronLoss(torch.nn.Module):
    """Collection of Tacotron set-up based on provided config (decoder, postnet and stopnet terms)."""

    def __init__(self, c):
        super().__init__()
        self.stopnet_pos_weight = c.stopnet_pos_weight
        self.decoder_alpha = c.decoder_loss_alpha
        self.postnet_alpha = c.postnet_loss_alpha
        self.config = c

        # postnet and decoder loss
        self.criterion = MSELossMasked(c.seq_len_norm)
        # stopnet loss
        # pylint: disable=not-callable
        self.criterion_st = BCELossMasked(pos_weight=torch.tensor(self.stopnet_pos_weight)) if c.stopnet else None

    def forward(self, postnet_output, decoder_output, mel_input, stopnet_output, stopnet_target,
                stop_target_length, output_lens):
        return_dict = {}
        decoder_loss = self.criterion(decoder_output, mel_input, output_lens)
        postnet_loss = self.criterion(postnet_output, mel_input, output_lens)
        loss = self.decoder_alpha * decoder_loss + self.postnet_alpha * postnet_loss
        return_dict["decoder_loss"] = decoder_loss
        return_dict["postnet_loss"] = postnet_loss

        stop_loss = (
            self.criterion_st(stopnet_output, stopnet_target, stop_target_length)
            if self.config.stopnet
            else torch.zeros(1)
        )
        loss += stop_loss
        return_dict["stopnet_loss"] = stop_loss
        return_dict["loss"] = loss
        return return_dict


class Tacotron2(nn.Module):
    """Stand-in for TTS.tts.models.tacotron2.Tacotron2: a decoder, a postnet and a stopnet over mel frames."""

    def __init__(self, config):
        super().__init__()
        self.config = config
        self.embedding = nn.Embedding(config.num_chars, config.out_channels)
        self.decoder = nn.Linear(config.out_channels, config.out_channels)
        self.postnet = nn.Linear(config.out_channels, config.out_channels)
        self.stopnet = nn.Linear(config.out_channels, 1)

    def forward(self, text_input, mel_input):
        context = self.embedding(text_input).mean(dim=1, keepdim=True)
        decoder_outputs = self.decoder(mel_input + context)
        postnet_outputs = decoder_outputs + self.postnet(decoder_outputs)
        stop_tokens = self.stopnet(decoder_outputs).squeeze(2)
        return {"decoder_outputs": decoder_outputs, "model_outputs": postnet_outputs, "stop_tokens": stop_tokens}

    def train_step(self, batch, criterion):
        outputs = self.forward(batch["text_input"], batch["mel_input"])
        loss_dict = criterion(
            outputs["model_outputs"],
            outputs["decoder_outputs"],
            batch["mel_input"],
            outputs["stop_tokens"],
            batch["stop_targets"],
            batch["stop_target_lengths"],
            batch["mel_lengths"],
        )
        return outputs, loss_dict

    def get_criterion(self):
        return TacotronLoss(self.config)


def format_batch(batch, use_cuda):
    """Move every tensor of the batch to the GPU, as the trainer does before train_step."""
    return {k: v.cuda(non_blocking=True) if use_cuda and isinstance(v, torch.Tensor) else v for k, v in batch.items()}


if __name__ == "__main__":
    config = SimpleNamespace(num_chars=30, out_channels=80, stopnet=True, stopnet_pos_weight=10.0,
                             decoder_loss_alpha=0.25, postnet_loss_alpha=0.25, seq_len_norm=False)
    use_cuda = torch.cuda.is_available()
    model = Tacotron2(config)
    criterion = model.get_criterion()
    if use_cuda:
        model.cuda()
        criterion.cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(2):
        batch = {"text_input": torch.randint(0, config.num_chars, (4, 12)), "mel_input": torch.rand(4, 20, 80),
                 "mel_lengths": torch.tensor([20, 18, 15, 11]), "stop_targets": (torch.rand(4, 20) > 0.9).float(),
                 "stop_target_lengths": torch.tensor([20, 18, 15, 11])}
        batch = format_batch(batch, use_cuda)
        _, loss_dict = model.train_step(batch, criterion)
        optimizer.zero_grad()
        loss_dict["loss"].backward()
        optimizer.step()
        print(step, float(loss_dict["loss"]))
