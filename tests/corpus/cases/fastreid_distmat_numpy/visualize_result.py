import numpy as np
import torch

from predictor import FeatureExtractor


def rank_gallery(model, query_images, gallery_images, topk=10):
    extract = FeatureExtractor(model)
    q_feat = extract(query_images)
    g_feat = extract(gallery_images)
    distmat = 1 - torch.mm(q_feat, g_feat.t())
    distmat = distmat.numpy()
    return np.argsort(distmat, axis=1)[:, :topk]
