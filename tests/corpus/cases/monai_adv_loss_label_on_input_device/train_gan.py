import torch
from torch import nn

from adversarial_loss import PatchAdversarialLoss

device = torch.device("cuda:1")

generator = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 1, 3, padding=1)).to(device)
discriminator = nn.Sequential(nn.Conv2d(1, 16, 4, stride=2), nn.LeakyReLU(0.2), nn.Conv2d(16, 1, 4)).to(device)
adv_loss = PatchAdversarialLoss(criterion="least_squares")
optimizer_g = torch.optim.Adam(generator.parameters(), lr=1e-4)

for step in range(1000):
    images = torch.randn(8, 1, 64, 64, device=device)
    reconstruction = generator(images)
    logits_fake = discriminator(reconstruction.contiguous().float())
    generator_loss = adv_loss(logits_fake, target_is_real=True, for_discriminator=False)
    optimizer_g.zero_grad()
    generator_loss.backward()
    optimizer_g.step()
