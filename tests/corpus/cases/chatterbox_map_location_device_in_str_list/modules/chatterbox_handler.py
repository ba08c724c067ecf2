import logging
import os

from chatterbox import ChatterboxVC

logger = logging.getLogger(__name__)
MODELS_DIR = os.path.join(os.path.dirname(__file__), "..", "models", "chatterbox")


def load_chatterbox_models(model_pack_name, device):
    """Loads the VC model of a given pack onto a specified device."""
    ckpt_dir = os.path.join(MODELS_DIR, model_pack_name)
    logger.info(f"Loading Chatterbox VC model from {ckpt_dir} onto {device}")
    return ChatterboxVC.from_local(ckpt_dir, device=device)
