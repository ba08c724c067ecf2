from .resnet import ResNet  # noqa
