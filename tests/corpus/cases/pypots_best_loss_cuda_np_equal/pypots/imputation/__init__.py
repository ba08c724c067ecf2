from pypots.imputation.brits import BRITS

__all__ = ['BRITS']
