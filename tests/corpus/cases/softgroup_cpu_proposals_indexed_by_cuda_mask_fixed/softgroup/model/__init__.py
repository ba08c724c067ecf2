from .softgroup import SoftGroup

__all__ = ['SoftGroup']
