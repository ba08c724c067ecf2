import torch
import torch.nn as nn

from .base import Base


class CLIPTextModel(nn.Module):
    """Stand-in for transformers' CLIP text encoder: token ids -> (hidden states,)."""

    def __init__(self, vocab_size=1000, hidden_size=64):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab_size, hidden_size)
        self.final_layer_norm = nn.LayerNorm(hidden_size)

    def forward(self, input_ids):
        return (self.final_layer_norm(self.token_embedding(input_ids)),)


class CLIPTokenizer:
    model_max_length = 16

    def __call__(self, prompt, padding="do_not_pad", max_length=None, return_tensors="pt"):
        ids = [[(hash(w) % 998) + 1 for w in p.split()][:max_length] for p in prompt]
        ids = [i + [0] * (max_length - len(i)) for i in ids]

        class _Batch:
            input_ids = torch.tensor(ids)

        return _Batch()


class UNet(nn.Module):
    """Stand-in for the diffusers UNet: latents conditioned on text embeddings."""

    def __init__(self, channels=4, hidden_size=64):
        super().__init__()
        self.conv_in = nn.Conv2d(channels, 32, 3, 1, 1)
        self.cond_proj = nn.Linear(hidden_size, 32)
        self.conv_out = nn.Conv2d(32, channels, 3, 1, 1)

    def forward(self, x, encoder_hidden_states):
        h = self.conv_in(x) + self.cond_proj(encoder_hidden_states.mean(1))[:, :, None, None]
        return self.conv_out(torch.relu(h))


class StableDiffusion(Base):
    def setup(self):
        if torch.cuda.is_available():
            self.device = torch.device("cuda")
        elif torch.backends.mps.is_available():
            self.device = torch.device("mps")
        else:
            self.device = torch.device("cpu")
        self.dtype = torch.float32
        self.unet = UNet()
        self.unet.to(self.device, dtype=self.dtype).eval()
        self.text_encoder = CLIPTextModel()
        self.text_encoder = self.text_encoder.to(self.device, dtype=self.dtype).eval()
        self.tokenizer = CLIPTokenizer()

    def encode_text(self, prompt, padding_mode="do_not_pad"):
        # prompt: [str]
        self.text_encoder = self.text_encoder.to(self.device)  # force materialization for MPS
        inputs = self.tokenizer(
            prompt,
            padding=padding_mode,
            max_length=self.tokenizer.model_max_length,
            return_tensors="pt",
        )
        embeddings = self.text_encoder(inputs.input_ids.to(self.device))[0]
        return embeddings
