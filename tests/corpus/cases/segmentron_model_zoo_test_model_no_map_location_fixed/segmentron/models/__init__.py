from .model_zoo import MODEL_REGISTRY
from .deeplabv3_plus import DeepLabV3Plus
