from .batches import PaddedBatch, PaddedTensor
from .datamodules import DataModule
