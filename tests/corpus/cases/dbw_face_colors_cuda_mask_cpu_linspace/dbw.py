import numpy as np
import torch
import torch.nn as nn
from matplotlib import colormaps


def get_fancy_cmap():
    return colormaps["viridis"]


class DifferentiableBlocksWorld(nn.Module):
    def __init__(self, n_blocks=10, block_n_faces=6, env_n_faces=12, kill_blocks=True):
        super().__init__()
        self.n_blocks = n_blocks
        self.BNF = block_n_faces
        self.env_n_faces = env_n_faces
        self.kill_blocks = kill_blocks
        self.alpha_logit = nn.Parameter(torch.zeros(n_blocks))
        self.bkg = nn.Parameter(torch.zeros(3, 64, 64))

    def get_opacities(self):
        alpha = torch.sigmoid(self.alpha_logit)
        if self.kill_blocks:
            alpha = alpha * (alpha > 0.01)
        return alpha

    @torch.no_grad()
    def get_nb_opaque_blocks(self):
        return (self.get_opacities() > 0.5).sum().item()

    @torch.no_grad()
    def get_scene_face_colors(self, filter_transparent=False, w_env=True):
        val_blocks = torch.linspace(0, 1, self.n_blocks + 1)[1:]
        if filter_transparent:
            val_blocks = val_blocks[self.get_opacities() > 0.5]
        elif self.kill_blocks:
            val_blocks = val_blocks[self.get_opacities() > 0.01]
        cmap = get_fancy_cmap()
        NFE = self.env_n_faces if w_env else 0
        values = torch.cat([torch.zeros(NFE), val_blocks.repeat_interleave(self.BNF)])
        colors = cmap(values.cpu().numpy())
        return torch.from_numpy(np.asarray(colors)).float().to(self.bkg.device)


if __name__ == "__main__":
    model = DifferentiableBlocksWorld().to(torch.device("cuda"))
    print(model.get_nb_opaque_blocks(), model.get_scene_face_colors().shape)
