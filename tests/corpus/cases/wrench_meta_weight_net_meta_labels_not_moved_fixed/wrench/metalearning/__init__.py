from .meta_weight_net import MetaWeightNet
