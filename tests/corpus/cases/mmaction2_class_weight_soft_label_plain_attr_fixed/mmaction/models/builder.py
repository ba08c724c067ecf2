from ..registry import Registry, build_from_cfg

BACKBONES = Registry('backbone')
HEADS = Registry('head')
RECOGNIZERS = Registry('recognizer')
LOSSES = Registry('loss')


def build_backbone(cfg):
    return build_from_cfg(cfg, BACKBONES)


def build_head(cfg):
    return build_from_cfg(cfg, HEADS)


def build_loss(cfg):
    return build_from_cfg(cfg, LOSSES)


def build_model(cfg):
    args = dict(cfg)
    train_cfg = args.pop('train_cfg', None)
    test_cfg = args.pop('test_cfg', None)
    return build_from_cfg(args, RECOGNIZERS, dict(train_cfg=train_cfg, test_cfg=test_cfg))
