from .tsn_head import TSNHead  # noqa
