import torch
import torch.nn as nn

from model import VolumeTransformer

VOLUME_SHAPE = (1, 16, 16, 16)


def build_model():
    """The network, with a sanity check of its output shape on one dummy volume."""
    model = VolumeTransformer()
    with torch.no_grad():
        out = model(torch.zeros(1, *VOLUME_SHAPE))
    assert out.shape == (1, 3), out.shape
    return model


def train(device, batch_size=8, steps=3):
    model = build_model().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    criterion = nn.CrossEntropyLoss()
    model.train()
    for step in range(steps):
        volumes = torch.randn(batch_size, *VOLUME_SHAPE, device=device)
        labels = torch.randint(0, 3, (batch_size,), device=device)
        loss = criterion(model(volumes), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return model.state_dict()


def test(state_dict, device, batch_size=1):
    model = build_model()
    model.load_state_dict(state_dict)
    model = model.to(device)
    model.eval()
    with torch.no_grad():
        for _ in range(2):
            volumes = torch.randn(batch_size, *VOLUME_SHAPE, device=device)
            print(model(volumes).argmax(dim=1))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    weights = train(device)
    test(weights, device, batch_size=4)
    test(weights, device, batch_size=1)


if __name__ == "__main__":
    main()
