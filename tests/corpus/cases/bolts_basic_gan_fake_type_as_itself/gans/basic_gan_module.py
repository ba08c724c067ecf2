import torch
from pytorch_lightning import LightningModule
from torch.nn import functional as F

from gans.components import Discriminator, Generator


class BasicGAN(LightningModule):
    def __init__(self, latent_dim=32, img_dim=(1, 28, 28), learning_rate=0.0002):
        super().__init__()
        self.latent_dim = latent_dim
        self.learning_rate = learning_rate
        self.generator = Generator(latent_dim=latent_dim, img_shape=img_dim)
        self.discriminator = Discriminator(img_shape=img_dim)
        self.generated_imgs = None

    def forward(self, z):
        return self.generator(z)

    def adversarial_loss(self, y_hat, y):
        return F.binary_cross_entropy(y_hat, y)

    def generator_step(self, x):
        z = torch.randn(x.shape[0], self.latent_dim)
        z = z.type_as(x)
        self.generated_imgs = self(z)
        real = torch.ones(x.size(0), 1)
        real = real.type_as(x)
        return {"loss": self.adversarial_loss(self.discriminator(self.generated_imgs), real)}

    def discriminator_loss(self, x):
        valid = torch.ones(x.size(0), 1)
        valid = valid.type_as(x)
        real_loss = self.adversarial_loss(self.discriminator(x), valid)

        fake = torch.zeros(x.size(0), 1)
        fake = fake.type_as(fake)
        fake_loss = self.adversarial_loss(self.discriminator(self.generated_imgs.detach()), fake)
        return (real_loss + fake_loss) / 2

    def training_step(self, batch, batch_idx, optimizer_idx):
        x, _ = batch
        if optimizer_idx == 0:
            return self.generator_step(x)
        return {"loss": self.discriminator_loss(x)}

    def configure_optimizers(self):
        opt_g = torch.optim.Adam(self.generator.parameters(), lr=self.learning_rate, betas=(0.5, 0.999))
        opt_d = torch.optim.Adam(self.discriminator.parameters(), lr=self.learning_rate, betas=(0.5, 0.999))
        return [opt_g, opt_d], []
