from .sam import Sam
from .prompt_encoder import PromptEncoder
from .mask_decoder import MaskDecoder
from .tiny_vit_sam import TinyViT
