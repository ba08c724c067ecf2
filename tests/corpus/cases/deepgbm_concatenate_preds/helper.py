import math

import numpy as np
import torch

from config import TEST_BATCH_SIZE
from device_utils import to_device


def eval_testset(test_x, test_y, model, loss_fn):
    test_len = test_x.shape[0]
    n_batches = math.ceil(test_len / TEST_BATCH_SIZE)
    sum_loss = 0.0
    y_preds = []
    model.eval()
    with torch.no_grad():
        for b in range(n_batches):
            start, end = b * TEST_BATCH_SIZE, min(test_len, (b + 1) * TEST_BATCH_SIZE)
            inputs = to_device(test_x[start:end])
            targets = to_device(test_y[start:end])
            outputs = model(inputs)
            sum_loss += loss_fn(outputs, targets).item() * (end - start)
            y_preds.append(outputs)
    return sum_loss / test_len, np.concatenate(y_preds, 0)
