import logging

import comfy.model_management as mm
import torch

from modules.chatterbox_handler import load_chatterbox_models

logger = logging.getLogger(__name__)

CHATTERBOX_CACHE = {}


class ChatterboxVoiceConversion:
    RETURN_TYPES = ("AUDIO",)
    FUNCTION = "convert"
    CATEGORY = "audio/generation"

    def convert(self, model_pack_name, source_audio, target_voice_path=None):
        if model_pack_name not in CHATTERBOX_CACHE:
            load_device = mm.get_torch_device()  # a torch.device: cuda:0, mps or cpu
            logger.info(f"Loading Chatterbox for {model_pack_name} on device {load_device}")
            CHATTERBOX_CACHE[model_pack_name] = load_chatterbox_models(model_pack_name, load_device)
        vc_model = CHATTERBOX_CACHE[model_pack_name]
        with torch.inference_mode():
            return (vc_model.ref_dict,)
