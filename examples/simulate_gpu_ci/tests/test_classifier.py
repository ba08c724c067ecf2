import torch

from classifier import make_model, pick_device, train_step


def test_one_training_step_lowers_nothing_but_runs():
    device = pick_device()
    model = make_model(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loss = train_step(model, optimizer, torch.randn(16, 4), torch.randint(0, 3, (16,)), device)
    assert loss > 0
