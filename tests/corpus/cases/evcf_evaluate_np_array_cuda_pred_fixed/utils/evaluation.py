from __future__ import print_function

import numpy as np
import torch


def evaluate_vae(args, model, data_loader, mode):
    evaluate_loss = 0
    ndcg_dist = torch.tensor([], dtype=torch.float)

    model.eval()

    def NDCG_binary_at_k_batch(X_pred, heldout_batch, k=100):
        '''normalized discounted cumulative gain@k for binary relevance'''
        batch_users = X_pred.shape[0]
        idx_topk_part = np.argpartition(-X_pred, k, axis=1)
        topk_part = X_pred[np.arange(batch_users)[:, np.newaxis], idx_topk_part[:, :k]]
        idx_part = np.argsort(-topk_part, axis=1)
        idx_topk = idx_topk_part[np.arange(batch_users)[:, np.newaxis], idx_part]
        tp = 1. / np.log2(np.arange(2, k + 2))
        tp = torch.tensor(tp, dtype=torch.float)
        DCG = (heldout_batch.cpu()[np.arange(batch_users)[:, np.newaxis], idx_topk] * tp).sum(dim=1)
        IDCG = torch.stack([(tp[:min(n, k)]).sum() for n in (heldout_batch != 0).sum(dim=1).tolist()])
        return DCG / IDCG

    for batch_idx, (train, test) in enumerate(data_loader):
        if args.cuda:
            train, test = train.cuda(), test.cuda()

        x = train
        with torch.no_grad():
            loss, RE, KL = model.calculate_loss(x, average=True)
            evaluate_loss += loss.item()

            # Calculate NDCG
            pred_val = model.reconstruct_x(x)
            pred_val = pred_val.cpu().numpy()
            x = x.cpu().numpy()
            pred_val[x.nonzero()] = -np.inf

            ndcg_dist = torch.cat([ndcg_dist, NDCG_binary_at_k_batch(pred_val, test, k=100)])

    evaluate_loss /= len(data_loader)
    return evaluate_loss, ndcg_dist.mean().item()
