from .gin import GIN

__all__ = ['GIN']
