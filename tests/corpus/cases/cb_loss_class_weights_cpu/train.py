import torch

from class_balanced_loss import CB_loss

SAMPLES_PER_CLS = [120, 300, 15, 48, 9]


def train_epoch(model, loader, optimizer, device):
    model.train()
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        logits = model(images)
        loss = CB_loss(labels, logits, SAMPLES_PER_CLS, len(SAMPLES_PER_CLS), "focal", beta=0.9999, gamma=2.0)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    device = torch.device("cuda")
    model = torch.nn.Linear(32, len(SAMPLES_PER_CLS)).to(device)
    data = [(torch.randn(8, 32), torch.randint(0, len(SAMPLES_PER_CLS), (8,))) for _ in range(4)]
    train_epoch(model, data, torch.optim.SGD(model.parameters(), lr=0.1), device)
