import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset
from liquidnet.vision_liquidnet import VisionLiquidNet

device = "cuda" if torch.cuda.is_available() else "cpu"

num_units = 64
num_classes = 10
num_epochs = 1
batch_size = 4
learning_rate = 0.001

# stands in for CIFAR10 with ToTensor/Normalize: 3x32x32 float images, int64 labels
train_dataset = TensorDataset(torch.randn(8, 3, 32, 32), torch.randint(0, num_classes, (8,)))
train_loader = DataLoader(dataset=train_dataset, batch_size=batch_size, shuffle=True)

model = VisionLiquidNet(num_units=num_units, num_classes=num_classes)

criterion = nn.CrossEntropyLoss()
optimizer = optim.Adam(model.parameters(), lr=learning_rate)

for epoch in range(num_epochs):
    for i, (images, labels) in enumerate(train_loader):
        images = images.to(device)
        labels = labels.to(device)

        outputs = model(images)
        loss = criterion(outputs, labels)

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        model.hidden_state = model.hidden_state.detach()

print('Finished Training')
