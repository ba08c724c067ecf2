import torch

from .base import Base
from .stable_diffusion import StableDiffusion


class Chord(Base):
    def setup(self):
        self.prompts = self.config.get("rgbx_prompts", {})
        self.sd = StableDiffusion(self.config.get("stable_diffusion", {}))
        self.dtype = self.sd.dtype
        self.device = self.sd.device
        self.text_emb = {}

    @torch.no_grad()
    def produce_embeddings(self, key, batch_size):
        if key not in self.text_emb.keys():
            self.text_emb[key] = self.sd.encode_text(self.prompts[key], "max_length")
        prompt_emb = self.text_emb[key].expand(batch_size, -1, -1)
        return {"encoder_hidden_states": prompt_emb}

    def forward(self, x):
        # x: latents of the input texture (the VAE is left out of the stand-in)
        pred = {}
        for key in self.prompts:
            cond = self.produce_embeddings(key, x.shape[0])
            pred[key] = self.sd.unet(x, **cond)
        return pred
