import torch
from PIL import Image
from torchvision import transforms
from efficientnet_pytorch import EfficientNet

device = torch.device("cuda:0")
preprocess = transforms.Compose([
    transforms.Resize(224),
    transforms.ToTensor(),
    transforms.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225]),
])

model = EfficientNet.from_pretrained("efficientnet-b0")
img = preprocess(Image.open("img.png")).unsqueeze(0)
img.to(device)
model.to(device)
model.eval()
with torch.no_grad():
    outputs = model(img)
print(outputs.argmax(1))
