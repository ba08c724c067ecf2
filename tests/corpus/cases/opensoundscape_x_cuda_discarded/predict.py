import torch


def predict(model, dataloader):
    """Score every batch; returns one row of scores per sample."""
    if torch.cuda.is_available():
        model.cuda()
    model.eval()
    scores = []
    with torch.no_grad():
        for X, y in dataloader:
            if torch.cuda.is_available():
                X.cuda()
                y.cuda()
            logits = model(X)
            scores.append(torch.sigmoid(logits).cpu())
    return torch.cat(scores)
