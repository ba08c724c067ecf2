import numpy as np
import torch
import torch.utils.data


class Data(torch.utils.data.Dataset):
    """Text/mel pairs (a stand-in for the LJSpeech filelists: random phoneme ids and mel frames)."""

    def __init__(self, n_items=16, n_mel_channels=20, n_text=40, seed=0):
        rng = np.random.default_rng(seed)
        self.items = []
        for _ in range(n_items):
            n_chars, n_frames = int(rng.integers(5, 12)), int(rng.integers(20, 40))
            self.items.append((rng.normal(size=(n_mel_channels, n_frames)).astype(np.float32),
                               int(rng.integers(0, 4)), rng.integers(1, n_text, n_chars)))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, index):
        mel, speaker_id, text = self.items[index]
        return torch.from_numpy(mel), torch.tensor(speaker_id), torch.from_numpy(text).long()


class DataCollate:
    """Zero-pads model inputs and targets given number of steps."""

    def __call__(self, batch):
        input_lengths, ids_sorted_decreasing = torch.sort(torch.LongTensor([len(x[2]) for x in batch]), dim=0, descending=True)
        max_input_len = input_lengths[0]
        text_padded = torch.LongTensor(len(batch), max_input_len)
        text_padded.zero_()
        for i in range(len(ids_sorted_decreasing)):
            text = batch[ids_sorted_decreasing[i]][2]
            text_padded[i, : text.size(0)] = text
        num_mel_channels = batch[0][0].size(0)
        max_target_len = max([x[0].size(1) for x in batch])
        mel_padded = torch.FloatTensor(len(batch), num_mel_channels, max_target_len)
        mel_padded.zero_()
        gate_padded = torch.FloatTensor(len(batch), max_target_len)
        gate_padded.zero_()
        output_lengths = torch.LongTensor(len(batch))
        speaker_ids = torch.LongTensor(len(batch))
        for i in range(len(ids_sorted_decreasing)):
            mel = batch[ids_sorted_decreasing[i]][0]
            mel_padded[i, :, : mel.size(1)] = mel
            output_lengths[i] = mel.size(1)
            speaker_ids[i] = batch[ids_sorted_decreasing[i]][1]
            gate_padded[i, mel.size(1) - 1:] = 1
        return mel_padded, speaker_ids, text_padded, input_lengths, output_lengths, gate_padded
