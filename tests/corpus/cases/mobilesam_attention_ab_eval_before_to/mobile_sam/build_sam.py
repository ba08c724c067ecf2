import torch

from .modeling import MaskDecoder, PromptEncoder, Sam, TinyViT


def build_sam_vit_t(checkpoint=None):
    prompt_embed_dim = 32
    image_size = 64
    vit_patch_size = 16
    image_embedding_size = image_size // vit_patch_size
    mobile_sam = Sam(
        image_encoder=TinyViT(img_size=image_size, in_chans=3,
                              embed_dims=[32, 64],
                              depths=[1, 2],
                              num_heads=[2, 4],
                              window_sizes=[4, 4],
                              mlp_ratio=4.,
                              patch_size=vit_patch_size,
                              out_chans=prompt_embed_dim),
        prompt_encoder=PromptEncoder(
            embed_dim=prompt_embed_dim,
            image_embedding_size=(image_embedding_size, image_embedding_size),
            input_image_size=(image_size, image_size),
            mask_in_chans=16,
        ),
        mask_decoder=MaskDecoder(transformer_dim=prompt_embed_dim, num_multimask_outputs=3),
        pixel_mean=[123.675, 116.28, 103.53],
        pixel_std=[58.395, 57.12, 57.375],
    )

    mobile_sam.eval()
    if checkpoint is not None:
        with open(checkpoint, "rb") as f:
            state_dict = torch.load(f)
        mobile_sam.load_state_dict(state_dict)
    return mobile_sam


sam_model_registry = {
    "default": build_sam_vit_t,
    "vit_t": build_sam_vit_t,
}
