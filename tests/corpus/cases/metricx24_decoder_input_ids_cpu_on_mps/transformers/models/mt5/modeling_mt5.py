"""Stand-ins for the mT5 classes MetricX builds on: the config, the
pretrained-model base (from_pretrained builds the architecture; the weights
are not re-created) and MT5Stack, reduced to token embedding, one
self-attention-free layer and mean cross-attention over the encoder states."""
import torch
from torch import nn

from transformers.modeling_outputs import BaseModelOutput

__HEAD_MASK_WARNING_MSG = "The input argument `head_mask` was split into two arguments `head_mask` and `decoder_head_mask`."


class MT5Config(object):
    def __init__(self, vocab_size=250112, d_model=8, num_layers=1, num_decoder_layers=1):
        self.vocab_size = vocab_size
        self.d_model = d_model
        self.num_layers = num_layers
        self.num_decoder_layers = num_decoder_layers
        self.is_decoder = False
        self.is_encoder_decoder = True
        self.use_cache = False
        self.use_return_dict = True
        self.tie_word_embeddings = False


class MT5PreTrainedModel(nn.Module):
    config_class = MT5Config

    def __init__(self, config):
        super().__init__()
        self.config = config

    def post_init(self):
        pass

    @classmethod
    def from_pretrained(cls, name_or_path, torch_dtype=None):
        return cls(MT5Config())


class MT5Stack(nn.Module):
    def __init__(self, config, embed_tokens=None):
        super().__init__()
        self.is_decoder = config.is_decoder
        self.embed_tokens = embed_tokens
        self.layer = nn.Linear(config.d_model, config.d_model)
        self.final_layer_norm = nn.LayerNorm(config.d_model)

    def forward(self, input_ids=None, attention_mask=None, inputs_embeds=None, past_key_values=None,
                encoder_hidden_states=None, encoder_attention_mask=None, head_mask=None,
                cross_attn_head_mask=None, use_cache=None, output_attentions=None,
                output_hidden_states=None, return_dict=None):
        if inputs_embeds is None:
            inputs_embeds = self.embed_tokens(input_ids)
        hidden_states = torch.relu(self.layer(inputs_embeds))
        if self.is_decoder and encoder_hidden_states is not None:
            hidden_states = hidden_states + encoder_hidden_states.mean(1, keepdim=True)
        return BaseModelOutput(last_hidden_state=self.final_layer_norm(hidden_states))
