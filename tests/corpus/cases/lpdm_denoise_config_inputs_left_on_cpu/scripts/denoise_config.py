# Run from inside the 'scripts' directory
import os
import sys
import glob
import argparse

import torch
import numpy as np
import torchvision.transforms as T
from PIL import Image
from tqdm import tqdm
from einops import rearrange
from omegaconf import OmegaConf
from pytorch_lightning import seed_everything

sys.path.append(os.path.abspath('..'))
from ldm.util import instantiate_from_config


def tensor_to_pil(t, mode='RGB'):
    if t.ndim == 4:
        t = t[0]
    t = torch.clamp((t + 1.0) / 2.0, min=0.0, max=1.0)
    img = 255. * rearrange(t.detach().cpu().numpy(), 'c h w -> h w c')
    return Image.fromarray(img.astype(np.uint8), mode=mode).convert('RGB')


def pil_to_tensor_in_range(t):
    return T.ToTensor()(t) * 2.0 - 1.0


def clamp_ldm_range(t):
    return torch.clamp(t, -1.0, 1.0)


def load_model_from_config(config, ckpt):
    print(f"Loading model from {ckpt}")
    pl_sd = torch.load(ckpt, map_location="cpu")
    model = instantiate_from_config(config.model)
    model.load_state_dict(pl_sd["state_dict"], strict=False)
    return model


def load_model_given_name(name, device=torch.device('cpu')):
    config_path = os.path.join('../checkpoints', f'{name}.yaml')
    config = OmegaConf.load(config_path)
    model = load_model_from_config(config, f'{config_path[:-5]}.ckpt')
    model = model.to(device)
    model.eval()
    return model


def pad_to_multiple(im, mul=16):
    h, w = im.shape[2], im.shape[3]
    H, W = ((h + mul) // mul) * mul, ((w + mul) // mul) * mul
    padh = H - h if h % mul != 0 else 0
    padw = W - w if w % mul != 0 else 0
    return torch.nn.functional.pad(im, (0, padw, 0, padh), mode='reflect')


seed_everything(0)

parser = argparse.ArgumentParser(prog='Denoise Config')
parser.add_argument('-b', '--base_path', type=str, default='../configs/test/denoise.yaml')
parser.add_argument('-s', '--skip_large', action='store_true')
parser.add_argument('-d', '--device', type=str, default='cpu', help='cuda or cpu')
parser.add_argument('-o', '--overwrite', action='store_true')
args = parser.parse_args()

config = OmegaConf.load(args.base_path)
write_path = os.path.join(config.write_path, config.ddpm_name, f'phi{config.phi}_s{config.s}')
pred_paths, cond_paths = sorted(glob.glob(config.pred_path)), sorted(glob.glob(config.cond_path))

device = torch.device(args.device)
ddpm = load_model_given_name(config.ddpm_name).to(device)
os.makedirs(write_path, exist_ok=True)

with torch.no_grad():
    for p_path, c_path in tqdm(zip(pred_paths, cond_paths), total=len(pred_paths)):
        save_path = os.path.join(write_path, f'{os.path.splitext(os.path.basename(p_path))[0]}.png')
        if os.path.exists(save_path) and not args.overwrite:
            continue

        p = pil_to_tensor_in_range(Image.open(p_path)).unsqueeze(0)
        c = pil_to_tensor_in_range(Image.open(c_path)).unsqueeze(0)
        if args.skip_large and (p.shape[-1] >= 2000 or p.shape[-2] >= 2000):
            continue

        t = torch.tensor([config.phi], dtype=torch.long, device=device)
        try:
            noise_pred = ddpm.model(torch.cat([p, c], dim=1), t).detach()
            x0 = ddpm.predict_start_from_noise(p, torch.tensor([config.s], device=device).long(), noise_pred).detach()
        except:
            h, w = p.shape[-2], p.shape[-1]
            noise_pred = ddpm.model(torch.cat([pad_to_multiple(p), pad_to_multiple(c)], dim=1), t).detach()
            x0 = ddpm.predict_start_from_noise(pad_to_multiple(p), torch.tensor([config.s], device=device).long(), noise_pred).detach()
            x0 = x0[..., :h, :w]

        x0 = clamp_ldm_range(x0)
        tensor_to_pil(x0).save(save_path)

print("Denoising Complete!")
