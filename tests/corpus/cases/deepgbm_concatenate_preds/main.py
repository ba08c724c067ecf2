import torch

from config import DEVICE
from helper import eval_testset


def run(model, test_x, test_y):
    model = model.to(DEVICE)
    loss, preds = eval_testset(test_x, test_y, model, torch.nn.MSELoss())
    print(f"test loss {loss:.4f}, {preds.shape[0]} predictions")
