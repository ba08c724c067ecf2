from .recognizer2d import Recognizer2D  # noqa
