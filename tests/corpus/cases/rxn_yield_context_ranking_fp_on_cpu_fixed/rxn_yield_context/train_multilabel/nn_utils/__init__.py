from .nn_utils import get_activation_function, initialize_weights

__all__ = ['get_activation_function', 'initialize_weights']
