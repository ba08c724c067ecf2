import torch

import comfy.model_management
from comfy.model_patcher import ModelPatcher
from src.module.chord import Chord

CONFIG = {"rgbx_prompts": {"basecolor": ["Albedo (diffuse basecolor)"], "normal": ["Camera-space Normal"],
                           "roughness": ["Roughness"], "metalness": ["Metallicness"]}}


class ChordLoadModel:
    @classmethod
    def execute(cls, ckpt_name):
        model = Chord(CONFIG)
        model.eval()
        model_patcher = ModelPatcher(model,
                                     comfy.model_management.get_torch_device(),
                                     comfy.model_management.unet_offload_device())
        return model_patcher


class ChordMaterialEstimation:
    @classmethod
    def execute(cls, chord_model, image):
        comfy.model_management.load_models_gpu([chord_model])
        model = chord_model.model
        device = next(model.parameters()).device
        latents = image.permute(0, 3, 1, 2).to(device)
        with torch.no_grad():
            output = model(latents)
        return {key: value.permute(0, 2, 3, 1).cpu() for key, value in output.items()}


if __name__ == "__main__":
    # what the ComfyUI graph does: load the model node, then run the estimation node on an image
    patcher = ChordLoadModel.execute("chord_v1.safetensors")
    maps = ChordMaterialEstimation.execute(patcher, torch.rand(1, 32, 32, 4))
    print({k: tuple(v.shape) for k, v in maps.items()})
