import torch
import torch.nn.functional as F

import ptu


def sliding_window(im, window_size, window_stride):
    _, _, H, W = im.shape
    crops, anchors = [], []
    for h in range(0, max(H - window_size, 0) + 1, window_stride):
        for w in range(0, max(W - window_size, 0) + 1, window_stride):
            crops.append(im[:, :, h:h + window_size, w:w + window_size])
            anchors.append((h, w))
    return {"crop": crops, "anchors": anchors}


def inference(model, ims, ori_shape, window_size, window_stride, batch_size):
    C = model.n_cls
    seg_map = torch.zeros((C, ori_shape[0], ori_shape[1]), device=ptu.device)
    for im in ims:
        im = im.to(ptu.device)
        im = F.interpolate(im, size=(window_size, window_size), mode="bilinear")
        windows = sliding_window(im, window_size, window_stride)
        crops = torch.stack(windows.pop("crop"))[:, 0]
        B = len(crops)
        seg_maps = torch.zeros((B, C, window_size, window_size), device=im.device)
        with torch.no_grad():
            for i in range(0, B, batch_size):
                seg_maps[i:i + batch_size] = model.forward(crops[i:i + batch_size])
        seg_map += F.interpolate(seg_maps.mean(0, keepdim=True), size=tuple(ori_shape), mode="bilinear")[0]
    return seg_map / len(ims)
