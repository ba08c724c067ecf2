from copy import deepcopy

import matplotlib
import torch
from torch import nn


def get_fancy_cmap():
    return matplotlib.colormaps["tab20"]


class DifferentiableBlocksWorld(nn.Module):
    """Scene of textured superquadric blocks; attributes are set up by the _init_* helpers."""

    name = "dbw"

    def __init__(self, img_size, **kwargs):
        super().__init__()
        self._init_kwargs = deepcopy(kwargs)
        self._init_kwargs["img_size"] = img_size
        self._init_blocks(**kwargs.get("mesh", {}))
        self.cur_epoch = 0

    def _init_blocks(self, **kwargs):
        self.n_blocks = kwargs.pop("n_blocks", 1)
        self.BNF = kwargs.pop("n_faces_per_block", 96)
        self.env_n_faces = kwargs.pop("env_n_faces", 320)
        self.kill_blocks = kwargs.pop("kill_blocks", False)
        self.alpha_logit = nn.Parameter(torch.full((self.n_blocks,), 2.0))
        self.textures = nn.Parameter(torch.randn(self.n_blocks, 64, 64, 3))
        self.register_buffer("bkg_color", torch.ones(3))

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
        return torch.from_numpy(colors).float().to(self.bkg_color.device)


if __name__ == "__main__":
    model = DifferentiableBlocksWorld(img_size=(256, 256), mesh={"n_blocks": 10, "kill_blocks": True}).to("cuda")
    print(model.get_nb_opaque_blocks())
    colors = model.get_scene_face_colors(filter_transparent=True)
    print(colors.shape)
