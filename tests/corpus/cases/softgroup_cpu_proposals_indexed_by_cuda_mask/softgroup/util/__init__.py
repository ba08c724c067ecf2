from .utils import Munch, cuda_cast

__all__ = ['Munch', 'cuda_cast']
