import torch
from torch import nn
from torchvision import datasets
from torchvision.transforms import ToTensor

device = "cuda" if torch.cuda.is_available() else "cpu"
test_data = datasets.FashionMNIST(root="data", train=False, download=True, transform=ToTensor())
classes = test_data.classes


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.stack = nn.Sequential(nn.Linear(28 * 28, 512), nn.ReLU(), nn.Linear(512, 10))

    def forward(self, x):
        return self.stack(self.flatten(x))


model = NeuralNetwork().to(device)
model.load_state_dict(torch.load("model.pth", map_location=device))
model.eval()
x, y = test_data[0][0], test_data[0][1]
with torch.no_grad():
    pred = model(x.to(device))
    print(f"Predicted: {classes[pred[0].argmax(0)]}, Actual: {classes[y]}")
