import torch
from torch import nn

class SlotAttention(nn.Module):
    def __init__(self, num_slots, dim, iters = 3, eps = 1e-8, hidden_dim = 128):
        super().__init__()
        self.num_slots = num_slots
        self.iters = iters
        self.eps = eps
        self.scale = dim ** -0.5

        self.slots_mu = nn.Parameter(torch.randn(1, 1, dim))
        self.slots_sigma = nn.Parameter(torch.rand(1, 1, dim))

        self.to_q = nn.Linear(dim, dim)
        self.to_k = nn.Linear(dim, dim)
        self.to_v = nn.Linear(dim, dim)

        self.gru = nn.GRUCell(dim, dim)

        hidden_dim = max(dim, hidden_dim)

        self.mlp = nn.Sequential(
            nn.Linear(dim, hidden_dim),
            nn.ReLU(inplace = True),
            nn.Linear(hidden_dim, dim)
        )

        self.norm_input  = nn.LayerNorm(dim)
        self.norm_slots  = nn.LayerNorm(dim)
        self.norm_pre_ff = nn.LayerNorm(dim)

    def forward(self, inputs, num_slots = None):
        b, n, d, device = *inputs.shape, inputs.device
        n_s = num_slots if num_slots is not None else self.num_slots

        mu = self.slots_mu.expand(b, n_s, -1)
        sigma = self.slots_sigma.expand(b, n_s, -1)
        slots = mu + sigma * torch.randn(mu.shape, device = device)

        inputs = self.norm_input(inputs)
        k, v = self.to_k(inputs), self.to_v(inputs)

        for _ in range(self.iters):
            slots_prev = slots

            slots = self.norm_slots(slots)
            q = self.to_q(slots)

            dots = torch.einsum('bid,bjd->bij', q, k) * self.scale
            attn = dots.softmax(dim=1) + self.eps
            attn = attn / attn.sum(dim=-1, keepdim=True)

            updates = torch.einsum('bjd,bij->bid', v, attn)

            slots = self.gru(
                updates.reshape(-1, d),
                slots_prev.reshape(-1, d)
            )

            slots = slots.reshape(b, -1, d)
            slots = slots + self.mlp(self.norm_pre_ff(slots))

        return slots


# ---- the user's training script (README usage on the GPU): Object discovery with slot attention (the user's training script: a CNN encoder, slot attention over its feature map and a broadcast decoder, trained to reconstruct the images). ----
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset



class SlotAutoencoder(nn.Module):
    def __init__(self, num_slots=4, dim=64, resolution=16):
        super().__init__()
        self.resolution = resolution
        self.encoder = nn.Sequential(
            nn.Conv2d(3, dim, 5, padding=2), nn.ReLU(),
            nn.Conv2d(dim, dim, 5, padding=2), nn.ReLU(),
        )
        self.slot_attn = SlotAttention(num_slots=num_slots, dim=dim, iters=3)
        self.decoder = nn.Sequential(nn.Linear(dim, 64), nn.ReLU(), nn.Linear(64, 4 * resolution * resolution))

    def forward(self, image):
        feats = self.encoder(image)                       # b, d, h, w
        feats = feats.flatten(2).transpose(1, 2)          # b, h*w, d
        slots = self.slot_attn(feats)                     # b, k, d
        out = self.decoder(slots).view(image.shape[0], -1, 4, self.resolution, self.resolution)
        recons, masks = out[:, :, :3], out[:, :, 3:].softmax(dim=1)
        return (recons * masks).sum(dim=1)


def main():
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
    images = torch.rand(32, 3, 16, 16)
    loader = DataLoader(TensorDataset(images), batch_size=8, shuffle=True)

    model = SlotAutoencoder().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=4e-4)

    for epoch in range(2):
        total = 0.0
        for (image,) in loader:
            image = image.to(device)
            recon = model(image)
            loss = F.mse_loss(recon, image)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f'epoch {epoch}: loss {total / len(loader):.4f}')


if __name__ == '__main__':
    main()
