from .args_rxn import TrainArgs_rxn

__all__ = ['TrainArgs_rxn']
