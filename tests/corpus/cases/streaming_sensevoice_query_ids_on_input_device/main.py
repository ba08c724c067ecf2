import numpy as np
import torch

from sensevoice import from_pretrained


def lfr_frames(num_samples):
    # stands in for OnlineFbank(...).get_lfr_frames(): one 560-dim LFR frame per 60 ms
    return np.random.randn(max(num_samples // 960, 1), 560).astype(np.float32)


model = from_pretrained()
samples = np.random.randn(16000 * 3)
sr = 16000

chunk_size = 10
padding = 8
idx = 0
step = int(0.1 * sr)
chunk_feats = torch.zeros((chunk_size + 2 * padding, 560))
for i in range(0, len(samples), step):
    is_last = i + step >= len(samples)
    feats = lfr_frames(len(samples[i : i + step]))
    for feat in torch.unbind(torch.tensor(feats), dim=0):
        idx += 1
        chunk_feats = torch.roll(chunk_feats, -1, dims=0)
        chunk_feats[-1, :] = feat
        if idx < chunk_size + padding:
            continue
        if (idx - padding) % chunk_size != 0 and not is_last:
            continue
        x = model.inference(chunk_feats)[padding:]
        if not is_last:
            x = x[:chunk_size]
        print("best tokens:", x.argmax(-1).tolist())
