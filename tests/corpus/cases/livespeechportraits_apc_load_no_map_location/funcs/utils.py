import numpy as np
import torch
import torch.nn as nn


class Audio2Mel(nn.Module):
    """Stand-in for funcs/audio_funcs.Audio2Mel: a fixed projection of each
    audio window to 80 log-mel-like channels."""

    def __init__(self, win_length=266, n_mel_channels=80):
        super().__init__()
        self.register_buffer("mel_basis", torch.rand(n_mel_channels, win_length))

    def forward(self, audio):
        return torch.log(torch.clamp(audio.squeeze(1).abs() @ self.mel_basis.t(), min=1e-5)).unsqueeze(-1)


def compute_mel_one_sequence(audio, hop_length=int(16000/120), winlen=1/60, winstep=0.5/60, sr=16000, fps=60, device='cpu'):
    ''' compute mel for an audio sequence.
    '''
    device = torch.device(device)
    mel_frame_len = int(sr * winlen)
    Audio2Mel_torch = Audio2Mel(win_length=mel_frame_len, n_mel_channels=80).to(device)

    nframe = int(audio.shape[0] / 16000 * 60)
    mel_nframe = 2 * nframe
    mel_frame_step = sr * winstep

    mel80s = np.zeros([mel_nframe, 80])
    for i in range(mel_nframe):
        st = int(i * mel_frame_step)
        audio_clip = audio[st : st + mel_frame_len]
        if len(audio_clip) < mel_frame_len:
            audio_clip = np.concatenate([audio_clip, np.zeros([mel_frame_len - len(audio_clip)])])
        audio_clip_device = torch.from_numpy(audio_clip).unsqueeze(0).unsqueeze(0).to(device).float()
        mel80s[i] = Audio2Mel_torch(audio_clip_device).cpu().numpy()[0].T   # [1, 80]

    return mel80s
