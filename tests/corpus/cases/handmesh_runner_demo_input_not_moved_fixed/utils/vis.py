import numpy as np


def base_transform(img, size, mean=0.5, std=0.5):
    x = img.astype(np.float32) / 255.0
    x = (x[:size, :size] - mean) / std
    return x.transpose(2, 0, 1).copy()


def map2uv(uv_heatmap, size):
    b, k, h, w = uv_heatmap.shape
    flat = uv_heatmap.reshape(b, k, -1)
    idx = flat.argmax(-1)
    uv = np.stack([idx % w, idx // w], -1).astype(np.float32)
    uv[..., 0] *= size[1] / w
    uv[..., 1] *= size[0] / h
    return uv, flat.max(-1)
