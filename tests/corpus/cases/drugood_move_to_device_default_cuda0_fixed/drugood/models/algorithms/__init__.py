from .erm import ERM

__all__ = ['ERM']
