from .tensor import Tensor
from .derivatives import partial
