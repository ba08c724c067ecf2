import torch
from torch import nn

from decoder import TransformerDecoder


class Sam3Image(nn.Module):
    def __init__(self, backbone, transformer_decoder):
        super().__init__()
        self.backbone = backbone
        self.transformer_decoder = transformer_decoder

    def forward(self, images):
        feats = self.backbone(images)  # bs, d_model, H, W
        H, W = feats.shape[-2:]
        memory = feats.flatten(2).permute(2, 0, 1)  # H*W, bs, d_model
        return self.transformer_decoder(memory, (H, W))


def _create_transformer_decoder():
    decoder = TransformerDecoder(
        d_model=256,
        num_queries=200,
        nheads=8,
        boxRPB="log",
        resolution=1008,
        stride=14,
    )
    return decoder


def _setup_device_and_mode(model, device, eval_mode):
    """Setup model device and evaluation mode."""
    if device == "cuda":
        model = model.cuda()
    if eval_mode:
        model.eval()
    return model


def build_sam3_image_model(device="cuda" if torch.cuda.is_available() else "cpu", eval_mode=True):
    backbone = nn.Conv2d(3, 256, kernel_size=14, stride=14)
    model = Sam3Image(backbone, _create_transformer_decoder())
    model = _setup_device_and_mode(model, device, eval_mode)
    return model
