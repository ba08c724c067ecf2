from dataclasses import dataclass
from typing import List, Optional

import torch
import torch.nn as nn


# ---- utilities/devices.py ----
def get_device() -> str:
    """Get the best available device."""
    if torch.cuda.is_available():
        return "cuda"
    return "cpu"


# ---- config/hooked_transformer_config.py ----
@dataclass
class HookedTransformerConfig:
    n_layers: int
    d_model: int
    n_ctx: int
    d_head: int
    d_vocab: int
    n_heads: int = -1
    attn_only: bool = False
    device: Optional[str] = None
    n_devices: int = 1

    def __post_init__(self):
        if self.device is None:
            self.device = get_device()


# ---- utilities/multi_gpu.py ----
def get_device_for_block_index(index, cfg, device=None):
    assert cfg.device is not None
    if device is None:
        device = cfg.device
    device = torch.device(device)
    if device.type == "cpu":
        return device
    device_index = (device.index or 0) + (index * cfg.n_devices) // cfg.n_layers
    return torch.device(device.type, device_index)


def get_best_available_device(cfg):
    return torch.device(cfg.device)


# ---- utilities/logits_utils.py ----
def sample_logits(final_logits, top_k=None, top_p=None, temperature=1.0, freq_penalty=0.0, tokens=None):
    if temperature == 0.0:
        return final_logits.argmax(dim=-1)
    final_logits = final_logits / temperature
    if freq_penalty > 0:
        assert tokens is not None, "Must provide input_tokens if applying a frequency penalty"
        for batch_index in range(final_logits.shape[0]):
            final_logits[batch_index] = final_logits[batch_index] - freq_penalty * torch.bincount(
                tokens[batch_index], minlength=final_logits.shape[-1]
            )
    if top_k is not None:
        top_logits, top_idx = final_logits.topk(top_k, dim=-1)
        indices_to_remove = final_logits < top_logits[..., -1].unsqueeze(-1)
        final_logits = final_logits.masked_fill(indices_to_remove, -float("inf"))
    final_logits = final_logits.to(torch.float32)
    return torch.distributions.categorical.Categorical(logits=final_logits).sample()


# ---- HookedTransformer.py (the attention-only blocks are one linear layer each) ----
class HookedTransformer(nn.Module):
    def __init__(self, cfg, tokenizer=None, move_to_device=True):
        super().__init__()
        self.cfg = cfg
        self.tokenizer = tokenizer
        self.embed = nn.Embedding(cfg.d_vocab, cfg.d_model)
        self.pos_embed = nn.Embedding(cfg.n_ctx, cfg.d_model)
        self.blocks = nn.ModuleList([nn.Linear(cfg.d_model, cfg.d_model) for _ in range(cfg.n_layers)])
        self.unembed = nn.Linear(cfg.d_model, cfg.d_vocab)

        if move_to_device:
            self.move_model_modules_to_device()

    def move_model_modules_to_device(self):
        self.embed.to(get_best_available_device(self.cfg))
        self.pos_embed.to(get_best_available_device(self.cfg))
        self.unembed.to(get_best_available_device(self.cfg))
        for i, block in enumerate(self.blocks):
            block.to(get_best_available_device(self.cfg))

    def forward(self, embeds):
        pos = torch.arange(embeds.shape[1], device=embeds.device)
        residual = embeds + self.pos_embed(pos)[None]
        for block in self.blocks:
            residual = residual + block(residual)
        return self.unembed(residual)

    @torch.inference_mode()
    def generate(
        self,
        input="",
        max_new_tokens: int = 10,
        stop_at_eos: bool = True,
        eos_token_id: Optional[int] = None,
        do_sample: bool = True,
        top_k: Optional[int] = None,
        top_p: Optional[float] = None,
        temperature: float = 1.0,
        freq_penalty: float = 0.0,
        return_type: Optional[str] = "input",
        verbose: bool = True,
    ):
        assert isinstance(input, (str, torch.Tensor, list)), "Input must be either string, torch.Tensor, or List[str]"

        if return_type == "input":
            if isinstance(input, (str, list)):
                return_type = "str"
            elif input.ndim == 2:
                return_type = "tokens"
            else:
                return_type = "embeds"

        if isinstance(input, (str, list)):
            input_type = "str"
            assert self.tokenizer is not None, "Must provide a tokenizer if passing a string to the model"
            input = self.tokenizer(input, return_tensors="pt")["input_ids"]
        elif input.ndim == 2:
            input_type = "tokens"
        else:
            input_type = "embeds"

        input_tokens = input if input_type in ["str", "tokens"] else None
        batch_size, ctx_length = input.shape[0], input.shape[1]
        device = get_device_for_block_index(0, self.cfg)
        input = input.to(device)
        if input_tokens is not None:
            # Re-alias to the moved tensor: input_tokens must live on the model's
            # device so later concatenations with sampled tokens don't mix devices.
            input_tokens = input

        embeds = input if input_type == "embeds" else self.embed(input)

        stop_tokens: List[int] = []
        eos_token_for_padding = 0
        if stop_at_eos:
            assert eos_token_id is not None or self.tokenizer is not None, "Must pass a eos_token_id"
            eos_token_id = eos_token_id if eos_token_id is not None else self.tokenizer.eos_token_id
            stop_tokens = [eos_token_id]
            eos_token_for_padding = eos_token_id

        # An array to track which sequences in the batch have finished.
        finished_sequences = torch.zeros(batch_size, dtype=torch.bool, device=self.cfg.device)

        self.eval()
        sampled_tokens_list: List[torch.Tensor] = []
        for index in range(max_new_tokens):
            logits = self.forward(embeds)
            final_logits = logits[:, -1, :]

            if do_sample:
                if input_type in ["str", "tokens"]:  # Those types of inputs support frequency penalty
                    assert input_tokens is not None
                    sampled_tokens = sample_logits(
                        final_logits,
                        top_k=top_k,
                        top_p=top_p,
                        temperature=temperature,
                        freq_penalty=freq_penalty,
                        tokens=torch.cat(
                            (input_tokens, torch.cat(sampled_tokens_list, dim=1)), dim=1
                        )
                        if "sampled_tokens" in locals()
                        else input_tokens,
                    ).to(get_device_for_block_index(0, self.cfg))
                else:
                    sampled_tokens = sample_logits(
                        final_logits, top_k=top_k, top_p=top_p, temperature=temperature
                    ).to(get_device_for_block_index(0, self.cfg))
            else:
                sampled_tokens = final_logits.argmax(-1).to(get_device_for_block_index(0, self.cfg))
            sampled_tokens_list.append(sampled_tokens.unsqueeze(1))
            if stop_at_eos:
                sampled_tokens[finished_sequences] = eos_token_for_padding
                finished_sequences.logical_or_(
                    torch.isin(
                        sampled_tokens.to(self.cfg.device),
                        torch.tensor(stop_tokens).to(self.cfg.device),
                    )
                )

            embeds = torch.hstack([embeds, self.embed(sampled_tokens.unsqueeze(-1))])

            if stop_at_eos and finished_sequences.all():
                break

        sampled_tokens = torch.cat(sampled_tokens_list, dim=1)
        if input_type in ["str", "tokens"]:
            assert input_tokens is not None
            output_tokens = torch.cat((input_tokens, sampled_tokens), dim=1)
        else:
            output_tokens = sampled_tokens

        if return_type == "str":
            return [self.tokenizer.decode(tokens) for tokens in output_tokens]
        elif return_type == "tokens":
            return output_tokens
        return embeds


# ---- tests/unit/test_generate_no_tokenizer.py ----
def _make_tokenizer_free_model() -> HookedTransformer:
    """Create a small HookedTransformer with no tokenizer (algorithmic task setup)."""
    cfg = HookedTransformerConfig(
        n_layers=1,
        d_model=16,
        d_head=4,
        n_heads=4,
        n_ctx=32,
        d_vocab=20,
        attn_only=True,
    )
    return HookedTransformer(cfg)


def test_generate_without_tokenizer_stop_at_eos_false():
    """generate() with no tokenizer, stop_at_eos=False."""
    model = _make_tokenizer_free_model()
    assert model.tokenizer is None

    tokens = torch.zeros((1, 5), dtype=torch.long)
    output = model.generate(
        tokens,
        max_new_tokens=3,
        stop_at_eos=False,
        return_type="tokens",
        verbose=False,
    )
    assert output.shape == (1, 8), f"Expected shape (1, 8), got {output.shape}"


if __name__ == "__main__":
    test_generate_without_tokenizer_stop_at_eos_false()
    print("passed")
