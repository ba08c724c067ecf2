from .momentum_net import MomentumNet  # noqa
