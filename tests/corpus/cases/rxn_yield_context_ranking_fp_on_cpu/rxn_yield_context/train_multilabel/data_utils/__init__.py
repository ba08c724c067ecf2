from .data import create_rxn_Morgan2FP_concatenate, get_classes

__all__ = [
    'create_rxn_Morgan2FP_concatenate',
    'get_classes',
]
