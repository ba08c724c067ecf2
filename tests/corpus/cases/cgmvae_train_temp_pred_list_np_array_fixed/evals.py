import numpy as np


def compute_metrics(predictions, labels, threshold, all_metrics=True):
    preds = (np.asarray(predictions) > threshold).astype(int)
    labels = np.asarray(labels).astype(int)
    tp = (preds * labels).sum(0)
    fp = (preds * (1 - labels)).sum(0)
    fn = ((1 - preds) * labels).sum(0)
    f1 = 2 * tp / np.maximum(2 * tp + fp + fn, 1)
    mi = 2 * tp.sum() / max(2 * tp.sum() + fp.sum() + fn.sum(), 1)
    metrics = {'maF1': float(f1.mean()), 'miF1': float(mi)}
    if all_metrics:
        metrics['ACC'] = float((preds == labels).all(1).mean())
        metrics['HA'] = float((preds == labels).mean())
        metrics['ebF1'] = metrics['miF1']
    return metrics
