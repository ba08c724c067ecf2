import torch

from pet import PET


@torch.no_grad()
def evaluate(model, data_loader, device):
    model.eval()
    counts = []
    for images, _targets in data_loader:
        images = images.to(device)
        _, points, _, _ = model(images)
        counts.append(len(points))
    return counts


if __name__ == "__main__":
    device = torch.device("cuda")
    model = PET()
    model.to(device)
    print(evaluate(model, [(torch.randn(1, 3, 256, 256), None)], device))
