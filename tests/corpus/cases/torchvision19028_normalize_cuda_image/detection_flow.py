import torch

from transforms import Denormalize

denormalize = Denormalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])


def main(model, loader):
    device = torch.device("cuda")
    model = model.to(device).eval()
    for img, _ in loader:
        img = img.to(device)
        with torch.no_grad():
            detections = model(img)
        shown = denormalize(img[0])
        yield shown.cpu(), detections
