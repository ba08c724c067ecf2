from .torchsummary import summary
