from .model import Network
from .model_spec import ModelSpec

__all__ = [Network, ModelSpec]
