from .utils import TensorBuffer, extract_features, is_known
