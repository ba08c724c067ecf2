from .backbones import ResNet  # noqa
from .builder import build_model  # noqa
from .heads import TSNHead  # noqa
from .losses import CrossEntropyLoss  # noqa
from .recognizers import Recognizer2D  # noqa
