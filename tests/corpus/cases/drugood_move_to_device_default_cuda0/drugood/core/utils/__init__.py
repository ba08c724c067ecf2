from .misc import move_to_device

__all__ = ['move_to_device']
