import torch

from losses import build_loss


def fit(model, loader, class_counts, epochs=10):
    device = torch.device("cuda")
    model = model.to(device)
    loss_fn = build_loss(class_counts)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(epochs):
        for inputs, labels in loader:
            inputs, labels = inputs.to(device), labels.to(device)
            model_output = model(inputs)
            loss = loss_fn(input=model_output, target=labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
