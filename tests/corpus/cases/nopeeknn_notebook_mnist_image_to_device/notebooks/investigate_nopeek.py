# Cells of notebooks/1_investigate_nopeek.ipynb
import sys
from pathlib import Path

import torch
from torchvision import transforms
from torchvision.datasets import MNIST, EMNIST
from tqdm import trange

# Update path to import src code
sys.path.append("..")
from src import SplitNN, AttackModel

project_root = Path.cwd().resolve().parent
device = torch.device("cpu" if not torch.cuda.is_available() else "cuda:0")

target_model_path = project_root / "models" / (f"nopeek_01weight.pth")
target_model = SplitNN()
checkpoint = torch.load(target_model_path)
target_model.load_state_dict(checkpoint["model_state_dict"])
target_model = target_model.to(device)
target_model.eval()

data_transform = transforms.Compose(
        [
            transforms.ToTensor(),
            transforms.Normalize((0.1307,), (0.3081,)),
        ]
)

emnist_train = EMNIST(project_root / "data", "letters", download=True, train=True, transform=data_transform)
emnist_train.data = emnist_train.data[: 500]
emnist_train.targets = emnist_train.targets[: 500]
emnist_loader = torch.utils.data.DataLoader(emnist_train, batch_size=128)

attack_model = AttackModel().to(device)
attack_model.train()
attack_optim = torch.optim.Adam(attack_model.parameters(), lr=1e-4)

for epoch in trange(5):
    for data, _ in emnist_loader:
        attack_optim.zero_grad()

        data = data.to(device)

        # Get target model output
        with torch.no_grad():
            intermediate_data = target_model.encode(data)

        reconstructed_data = attack_model(intermediate_data)

        loss = ((reconstructed_data - data)**2).mean()
        loss.backward()
        attack_optim.step()

mnist_test = MNIST(project_root / "data", download=True, train=False, transform=data_transform)
mnist_test.data = mnist_test.data[5_000:]
mnist_test.targets = mnist_test.targets[5_000:]

ims = []

for i in range(10):
    image, _ = mnist_test[i]
    image = image.to(device)

    with torch.no_grad():
        intermediate = target_model.encode(image.unsqueeze(0))
        reconstructed = attack_model(intermediate)

    reconstructed = reconstructed.squeeze(0)
    ims.extend([image, reconstructed])
