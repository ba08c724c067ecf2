from .core import Runner
from .supervised import SupervisedRunner

__all__ = ["Runner", "SupervisedRunner"]
