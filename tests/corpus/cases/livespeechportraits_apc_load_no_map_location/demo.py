import os
from os.path import join
import numpy as np
import torch
import argparse
import yaml

from models.networks import APC_encoder
from funcs import utils

import warnings
warnings.filterwarnings("ignore")


def load_audio(path, sr=16000):
    """librosa.load stand-in: half a second of a synthetic waveform."""
    t = np.arange(sr // 2) / sr
    return (0.1 * np.sin(2 * np.pi * 220 * t)).astype(np.float32), sr


if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument('--id', default='May', help="person name, e.g. Obama1, Obama2, May, Nadella, McStay")
    parser.add_argument('--driving_audio', default='./data/input/00083.wav', help="path to driving audio")
    parser.add_argument('--save_intermediates', default=0, help="whether to save intermediate results")
    parser.add_argument('--device', type=str, default='cpu', help='use cuda for GPU or use cpu for CPU')

    ############################### I/O Settings ##############################
    # load config files
    opt = parser.parse_args()
    device = torch.device(opt.device)
    with open(join('./config/', opt.id + '.yaml')) as f:
        config = yaml.safe_load(f)
    audio_name = os.path.split(opt.driving_audio)[1][:-4]

    ############################ Hyper Parameters #############################
    h, w, sr, FPS = 512, 512, 16000, 60

    ############################# Load Models #################################
    print('---------- Loading Model: APC-------------')
    APC_model = APC_encoder(config['model_params']['APC']['mel_dim'],
                            config['model_params']['APC']['hidden_size'],
                            config['model_params']['APC']['num_layers'],
                            config['model_params']['APC']['residual'])
    APC_model.load_state_dict(torch.load(config['model_params']['APC']['ckp_path']), strict=False)
    if opt.device == 'cuda':
        APC_model.cuda()
    APC_model.eval()

    ############################## Inference ##################################
    print('Processing audio: {} ...'.format(audio_name))
    # read audio
    audio, _ = load_audio(opt.driving_audio, sr=sr)
    total_frames = np.int32(audio.shape[0] / sr * FPS)

    #### 1. compute APC features
    print('1. Computing APC features...')
    mel80 = utils.compute_mel_one_sequence(audio, device=opt.device)
    mel_nframe = mel80.shape[0]
    with torch.no_grad():
        length = torch.Tensor([mel_nframe])
        mel80_torch = torch.from_numpy(mel80.astype(np.float32)).to(device).unsqueeze(0)
        hidden_reps = APC_model.forward(mel80_torch, length)[0]   # [mel_nframe, 512]
        hidden_reps = hidden_reps.cpu().numpy()
    audio_feats = hidden_reps
    print('APC features:', audio_feats.shape, 'for', total_frames, 'frames')
