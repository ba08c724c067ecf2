from .cross_entropy_loss import CrossEntropyLoss  # noqa
